#!/usr/bin/env bash
# The whole test suite: system packages, then every test target.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build --build-tests
swift test --skip-build
