#!/usr/bin/env bash
# Checks the table scripts/bench.sh prints (scripts/bench-table.sh) without running any
# benchmark: met and missed on both sides of a target, a figure without a target, a failed
# scenario. scripts/test.sh runs it; it takes well under a second.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-table.sh
record frc-vs-grdb 140.5
record import 0.47
record browse-resident 55.0
record export-memory 50.1
record remote-merge-from-save-start 4.2
record derived-cost 0.61
record_failure pg-import "exit 1: no server"
table=$(print_table)
status=0
expect() { # expect FIGURE REGEX: the figure's row matches REGEX
  local row; row=$(grep -E "^$1 " <<<"$table" || true)
  if ! grep -qE -- "$2" <<<"$row"; then echo "bench-table-test: $1: expected /$2/, got: $row" >&2; status=1; fi
}
expect frc-vs-grdb '140\.5 +>= 110 +met$'
expect import '0\.47 +>= 0\.55 +missed$'
expect browse-resident '55\.0 +<= 55 MB +met$'
expect export-memory '50\.1 +<= 50 MB +missed$'
expect remote-merge-from-save-start '4\.2 +— +—$'
expect derived-cost '0\.61 +>= 0\.5 +met$'
expect pg-import 'FAILED \(exit 1: no server\).*FAILED$'
[ "$(verdict 100 ">= 100")" = met ] || { echo "bench-table-test: 100 >= 100 should be met" >&2; status=1; }
[ "$(verdict 99.999 ">= 100")" = missed ] || { echo "bench-table-test: 99.999 >= 100 should be missed" >&2; status=1; }
[ "$status" = 0 ] && echo "bench-table-test: ok"
exit "$status"
