#!/usr/bin/env bash
# Browser benchmarks in a real terminal (tmux, 120x40), release build:
#   1. `quarry demo`: time to the first screen, on a fresh store (seeding --rows) and on a reopened one;
#   2. `quarry browse` on a 1,000,000-row store: time to the first screen, time for `G` to reach
#      the last row, and the process's peak resident memory (VmHWM) and current RSS.
# Usage: bash scripts/bench-browser.sh [ROWS_FOR_BROWSE (default 1000000)]
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-1000000}
swift build -c release --product quarry >/dev/null
quarry="$(swift build -c release --show-bin-path)/quarry"
work=$(mktemp -d)
socket="quarry-bench-$$"
trap 'tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT

source scripts/bench-tmux.sh
quarry_pid() { pane_child; }

echo "# quarry demo: first screen (120x40, rows 100000)"
start_session
t0=$(now); run_in_pane "$quarry demo --store $work/demo.sqlite"
wait_for 120 'row 1/[0-9]+'; t1=$(now)
echo "demo fresh store (seeds 100000 tickers) first screen: $(elapsed "$t0" "$t1") s"
tmux -L "$socket" send-keys -t bench q; wait_for 120 '^bench\$ ?$'
t0=$(now); run_in_pane "$quarry demo --store $work/demo.sqlite"
wait_for 120 'row 1/[0-9]+'; t1=$(now)
echo "demo reopened store first screen: $(elapsed "$t0" "$t1") s"
tmux -L "$socket" send-keys -t bench q; wait_for 120 '^bench\$ ?$'

echo "# quarry browse on $rows rows"
t0=$(now); "$quarry" demo --seed-only --no-import --rows "$rows" --store "$work/big.sqlite" >/dev/null; t1=$(now)
echo "seeded $rows tickers in $(elapsed "$t0" "$t1") s"
start_session
t0=$(now); run_in_pane "$quarry browse $work/big.sqlite --entity Ticker --sort symbol"
wait_for 120 "row 1/$rows"; t1=$(now)
echo "browse first screen: $(elapsed "$t0" "$t1") s"
pid=$(quarry_pid)
t0=$(now); tmux -L "$socket" send-keys -t bench G
wait_for 120 "row $rows/$rows"; t1=$(now)
echo "browse G to the last row: $(elapsed "$t0" "$t1") s"
grep -E 'VmHWM|VmRSS' "/proc/$pid/status" | awk '{ printf "browse %s %.1f MB\n", $1, $2 / 1024 }'
tmux -L "$socket" send-keys -t bench q; wait_for 120 '^bench\$ ?$'
