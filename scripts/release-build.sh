#!/usr/bin/env bash
# The release build of Quarry's executables, as it is run and benchmarked:
# - the Swift runtime and Foundation linked statically (--static-swift-stdlib): the process maps
#   only the parts it uses and relocates no shared Swift library of its own;
# - linked by lld with packed relative relocations (DT_RELR): fewer data pages written at load.
#   The binary then needs glibc 2.36 or newer (Debian 12 has it).
# Together they take the browser's resident memory on 1,000,000 tickers from 59 to 53 MB and
# `quarry --version` from 23 to 19 MB (BENCHMARKS.md, browse-resident).
#
# Usage: bash scripts/release-build.sh [swift build options, e.g. --product quarry]
set -euo pipefail
cd "$(dirname "$0")/.."
exec swift build -c release --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs "$@"
