#!/usr/bin/env bash
# Fuzzing: builds `quarry-fuzz` (libFuzzer, -sanitize=fuzzer) in .build-fuzz and runs each target
# for a bounded time from its committed seed corpus in Fuzz/corpus/<target>:
#   predicate  ObjectPredicate(format:)          xcode  an .xcdatamodel `contents` XML
#   json       a JSON model file                 theme  a TOML theme file
#   modelcache a Core Data Z_MODELCACHE blob (raw DEFLATE + keyed archive), also as a plain archive
#              and as a Transformable value (the Quarry.CoreDataArchive transformer)
#   mom        the bytes of a compiled .mom model (ManagedObjectModel.load(compiledModelData:))
# New inputs go to a temporary corpus (the committed one is never written). A crash, a hang
# (-timeout) or running out of memory fails the run; the input is kept under .build-fuzz/crashes
# and printed, so it can become a regression test.
# Usage: bash scripts/fuzz.sh [TARGET...]   (FUZZ_SECONDS per target, default 30; one target per core at a time)
#        bash scripts/fuzz.sh --build-only   (only the build: scripts/test.sh runs it beside the crash test)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-30}
build_only=0
if [ "${1:-}" = "--build-only" ]; then build_only=1; shift; fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(predicate xcode json theme modelcache mom)
# toml++ keeps its assertions here, as in every SwiftPM build (none defines NDEBUG): the theme
# target checks that ThemeSourcePrecheck keeps every input that would trip one away from toml++.
# QUARRY_FUZZ=1 adds the quarry-fuzz target to Package.swift (absent from the normal build).
build=(env QUARRY_FUZZ=1 swift build --scratch-path .build-fuzz -c release
       -Xswiftc -sanitize=fuzzer -Xcxx -fsanitize=fuzzer-no-link --product quarry-fuzz)
"${build[@]}" >/dev/null
if [ "$build_only" -eq 1 ]; then exit 0; fi
fuzzer="$("${build[@]}" --show-bin-path)/quarry-fuzz"
crashes=.build-fuzz/crashes
mkdir -p "$crashes"
# Targets run side by side, one per core (each libFuzzer process uses one), so the run takes
# about FUZZ_SECONDS × targets ÷ cores; each prints its result when all are done, in order.
jobs=$(nproc 2>/dev/null || echo 1)
results=$(mktemp -d)
fuzz_one() {
  local target=$1 work status=0 runs artifact
  work=$(mktemp -d)
  QUARRY_FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no "$fuzzer" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$crashes/$target-" \
    "$work" "Fuzz/corpus/$target" >"$work.log" 2>&1 || status=$?
  runs=$(grep -oE 'Done [0-9]+ runs' "$work.log" | grep -oE '[0-9]+' || echo 0)
  if [ "$status" -eq 0 ]; then
    echo "fuzz $target: $runs runs in ${seconds} s, no crash" >"$results/$target.out"
  else
    {
      echo "fuzz $target: FAILED (exit $status)"
      grep -E 'ERROR|SUMMARY|Assertion|Fatal error|Test unit written' "$work.log" | head -20
      artifact=$(grep -oE "Test unit written to .*" "$work.log" | sed 's/Test unit written to //' | tail -1)
      if [ -n "$artifact" ] && [ -f "$artifact" ]; then
        echo "  input ($artifact):"
        od -c "$artifact" | head -20
      fi
    } >"$results/$target.err"
  fi
  rm -rf "$work" "$work.log"
}
for target in "${targets[@]}"; do
  [ -d "Fuzz/corpus/$target" ] || { echo "fuzz: no seed corpus Fuzz/corpus/$target" >&2; exit 2; }
done
running=0
for target in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
  fuzz_one "$target" &
  running=$((running + 1))
done
wait
failed=0
for target in "${targets[@]}"; do
  if [ -f "$results/$target.err" ]; then failed=1; cat "$results/$target.err" >&2; else cat "$results/$target.out"; fi
done
rm -rf "$results"
exit "$failed"
