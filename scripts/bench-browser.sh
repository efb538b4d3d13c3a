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

now() { date +%s.%N; }
elapsed() { echo "$1 $2" | awk '{ printf "%.3f", $2 - $1 }'; }
capture() { tmux -L "$socket" capture-pane -p -t bench; }
wait_for() { # wait_for REGEX [TIMEOUT]: polls the pane every 10 ms
  local deadline=$(( $(date +%s) + ${2:-120} ))
  until capture | grep -qE "$1"; do
    [ "$(date +%s)" -lt "$deadline" ] || { echo "timeout waiting for $1" >&2; capture >&2; exit 1; }
    sleep 0.01
  done
}
start_session() {
  tmux -L "$socket" kill-session -t bench 2>/dev/null || true
  tmux -L "$socket" -f /dev/null new-session -d -s bench -x 120 -y 40 "env TERM=tmux-256color LANG=C.UTF-8 PS1='bench$ ' bash --norc --noprofile"
  tmux -L "$socket" set-option -t bench status off
  wait_for 'bench\$'
}
quarry_pid() { pgrep -P "$(tmux -L "$socket" display-message -p -t bench '#{pane_pid}')" | head -1; }
run_in_pane() { tmux -L "$socket" send-keys -t bench -l "$1"; tmux -L "$socket" send-keys -t bench Enter; }

echo "# quarry demo: first screen (120x40, rows 100000)"
start_session
t0=$(now); run_in_pane "$quarry demo --store $work/demo.sqlite"
wait_for 'row 1/[0-9]+'; t1=$(now)
echo "demo fresh store (seeds 100000 tickers) first screen: $(elapsed "$t0" "$t1") s"
tmux -L "$socket" send-keys -t bench q; wait_for '^bench\$ ?$'
t0=$(now); run_in_pane "$quarry demo --store $work/demo.sqlite"
wait_for 'row 1/[0-9]+'; t1=$(now)
echo "demo reopened store first screen: $(elapsed "$t0" "$t1") s"
tmux -L "$socket" send-keys -t bench q; wait_for '^bench\$ ?$'

echo "# quarry browse on $rows rows"
t0=$(now); "$quarry" demo --seed-only --no-import --rows "$rows" --store "$work/big.sqlite" >/dev/null; t1=$(now)
echo "seeded $rows tickers in $(elapsed "$t0" "$t1") s"
start_session
t0=$(now); run_in_pane "$quarry browse $work/big.sqlite --entity Ticker --sort symbol"
wait_for "row 1/$rows"; t1=$(now)
echo "browse first screen: $(elapsed "$t0" "$t1") s"
pid=$(quarry_pid)
t0=$(now); tmux -L "$socket" send-keys -t bench G
wait_for "row $rows/$rows"; t1=$(now)
echo "browse G to the last row: $(elapsed "$t0" "$t1") s"
grep -E 'VmHWM|VmRSS' "/proc/$pid/status" | awk '{ printf "browse %s %.1f MB\n", $1, $2 / 1024 }'
tmux -L "$socket" send-keys -t bench q; wait_for '^bench\$ ?$'
