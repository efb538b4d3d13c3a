#!/usr/bin/env bash
# The browser benchmark of scripts/bench.sh (called by it; prints `figure NAME VALUE` lines for
# its table), in a real terminal: tmux 120x40. Every timed wait goes through
# scripts/tmux-first-screen.py, which captures the pane when tmux reports its output (a control-mode
# client), so a screen is seen within about a millisecond of being drawn, for Quarry and VisiData
# alike; untimed waits poll (wait_for).
#   1. `quarry demo`: time to the first screen on a fresh store (seeding 100,000 tickers) and
#      on the reopened one.
#   2. A demo store of ROWS tickers (`quarry demo --seed-only --no-import`), then side by side:
#      - Quarry: `quarry browse STORE --entity Ticker --sort symbol`: time from launch to the
#        first screen ("row 1/…" drawn, also "row 1/≥N…" while the index is still built), `G`
#        to the last row (which waits for the whole index), then the process's peak (VmHWM) and
#        current (VmRSS) resident memory, then its CPU ticks over 10 idle seconds.
#      - VisiData (from PyPI, in a virtual environment under .build/visidata-venv, made once):
#        `vd STORE` opens on the table list; the script searches for Ticker and opens it at once
#        (VisiData has no option to open one table of a database or to sort it): time from
#        launch to its first screen (its first rows drawn while it loads), to all rows loaded,
#        and, after `c symbol` and `[` (sort ascending), to the first screen sorted by symbol;
#        then VmHWM and VmRSS.
#   3. What a user gets when each opens the table directly, side by side at 160x50, from
#      launch to the first data rows drawn: `quarry browse STORE --entity Ticker --sort symbol`
#      (direct) and `quarry browse STORE --entity Ticker` (the default view), against
#      `vd STORE +:Ticker:1:1` (VisiData opening the table itself, no navigation keys); five
#      rounds of the three, alternating, and the median of each.
# Usage: bash scripts/bench-browse.sh --quarry PATH [--rows N] [--work DIR] [--socket NAME]
set -euo pipefail
cd "$(dirname "$0")/.."
quarry="" rows=1000000 work="" socket="quarry-bench-browse-$$"
while [ $# -gt 0 ]; do
  case "$1" in
    --quarry) quarry=$2; shift 2 ;;
    --rows) rows=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --socket) socket=$2; shift 2 ;;
    *) echo "usage: $0 --quarry PATH [--rows N] [--work DIR] [--socket NAME]" >&2; exit 2 ;;
  esac
done
[ -x "$quarry" ] || { echo "bench-browse.sh: no quarry binary at '$quarry'" >&2; exit 2; }
command -v tmux >/dev/null || { echo "bench-browse.sh: tmux is needed (apt-get install tmux)" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "bench-browse.sh: sqlite3 is needed (apt-get install sqlite3)" >&2; exit 1; }
own_work=0
if [ -z "$work" ]; then work=$(mktemp -d); own_work=1; fi
work="$work/browse"; mkdir -p "$work"
trap 'tmux -L "$socket" kill-server 2>/dev/null || true; [ "$own_work" = 1 ] && rm -rf "$(dirname "$work")"; true' EXIT

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
capture() { tmux -L "$socket" capture-pane -p -t bench; }
wait_for() { # wait_for TIMEOUT REGEX...: until every REGEX matches the pane
  local deadline=$(( $(date +%s) + $1 )); shift
  while true; do
    local screen ok=1; screen=$(capture)
    for re in "$@"; do grep -qE -- "$re" <<<"$screen" || { ok=0; break; }; done
    [ "$ok" = 1 ] && return 0
    [ "$(date +%s)" -lt "$deadline" ] || { echo "timeout waiting for: $*" >&2; capture >&2; return 1; }
    sleep 0.002
  done
}
start_session() { # start_session [COLUMNS ROWS] (120x40 unless given)
  # The new session is made before the old one is killed: killing a server's last session
  # ends the server, and a new one started while it exits can fail to attach.
  tmux -L "$socket" -f /dev/null new-session -d -s bench-next -x "${1:-120}" -y "${2:-40}" "env TERM=tmux-256color LANG=C.UTF-8 PS1='bench$ ' bash --norc --noprofile"
  tmux -L "$socket" kill-session -t =bench 2>/dev/null || true
  tmux -L "$socket" rename-session -t bench-next bench
  tmux -L "$socket" set-option -t bench status off
  wait_for 30 'bench\$'
}
pane_child() { pgrep -P "$(tmux -L "$socket" display-message -p -t bench '#{pane_pid}')" | head -1; }
keys() { tmux -L "$socket" send-keys -t bench -l "$1"; }
memory_mb() { awk -v key="$2:" '$1 == key { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; } # memory_mb PID VmHWM|VmRSS
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
figure() { echo "figure $1 $2"; }
timed() { # timed TIMEOUT [--keys TEXT]... REGEX...: seconds from typing the keys ({Enter}: Enter) to every REGEX on screen
  local timeout=$1; shift
  python3 scripts/tmux-first-screen.py --socket "$socket" --target bench --timeout "$timeout" "$@"
}
add() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a + b }'; }

# VisiData, from PyPI, in a virtual environment of its own (made once, reused after).
venv=.build/visidata-venv
if [ ! -x "$venv/bin/vd" ]; then
  echo "# installing VisiData from PyPI into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv" && "$venv/bin/pip" install --quiet visidata || { echo "bench-browse.sh: could not install VisiData into $venv" >&2; exit 1; }
fi
vd="$venv/bin/vd"
echo "VisiData: $("$vd" --version 2>/dev/null | head -1) ($vd)"

echo "# quarry demo: first screen (120x40, 100000 tickers)"
start_session
t=$(timed 120 --keys "$quarry demo --store $work/demo.sqlite" --keys '{Enter}' 'row 1/')
echo "demo first screen, fresh store (seeds 100000 tickers): $t s"
figure demo-first-screen-fresh "$t"
keys q; wait_for 60 '^bench\$ ?$'
tmux -L "$socket" send-keys -t bench clear Enter; wait_for 30 '^bench\$ ?$'
t=$(timed 120 --keys "$quarry demo --store $work/demo.sqlite" --keys '{Enter}' 'row 1/')
echo "demo first screen, reopened store: $t s"
figure demo-first-screen-reopened "$t"
keys q; wait_for 60 '^bench\$ ?$'

store="$work/tickers.sqlite"
t0=$(now); "$quarry" demo --seed-only --no-import --rows "$rows" --store "$store" >/dev/null; t1=$(now)
echo "# $rows tickers seeded in $(elapsed "$t0" "$t1") s ($(du -h "$store" | cut -f1)); browsed sorted by symbol"
first_symbol=$(sqlite3 "file:$store?mode=ro" "SELECT min(symbol) FROM Ticker")

echo "# quarry browse $store --entity Ticker --sort symbol"
start_session
quarry_first=$(timed 300 --keys "$quarry browse $store --entity Ticker --sort symbol; echo quarry-exit-\$?" --keys '{Enter}' 'row 1/|quarry-exit-[0-9]+')
if capture | grep -qE 'quarry-exit-[0-9]+'; then echo "quarry browse ended: $(capture | grep -vE '^bench\$|^$' | head -3 | tr '\n' ' ')"; exit 1; fi
pid=$(pane_child)
quarry_g=$(timed 300 --keys G "row $rows/$rows")
quarry_hwm=$(memory_mb "$pid" VmHWM) quarry_rss=$(memory_mb "$pid" VmRSS)
# Idle CPU: nothing is written to the store; any tick is the browser's own work.
ticks_before=$(cpu_ticks "$pid"); sleep 10; idle_ticks=$(( $(cpu_ticks "$pid") - ticks_before ))
# The frequency of the sector column (issue 41): from the keys to the view drawn with its 11 rows.
quarry_freq=$(timed 300 --keys ':col sector' --keys '{Enter}' --keys F 'sector.name: value 1/11')
tmux -L "$socket" send-keys -t bench Escape  # q in the frequency view closes it; Esc first
keys q; wait_for 60 'quarry-exit-[0-9]+'
echo "quarry   first screen sorted by symbol: $quarry_first s; G to the last row: $quarry_g s; VmHWM $quarry_hwm MB, VmRSS $quarry_rss MB (after G); CPU over 10 idle s: $idle_ticks ticks; :col sector, F to the frequency view: $quarry_freq s"

echo "# vd $store (VisiData: open Ticker, then sort by symbol)"
start_session
# Each step is timed from its keys to its screen and the steps are added: launch to the table
# list, the keys opening Ticker to its first rows, then to all rows loaded, then sorting.
t_list=$(timed 120 --keys "$vd $store; echo vd-exit-\$?" --keys '{Enter}' ' tables' '^ Ticker ')
t_open=$(timed 300 --keys '/' --keys '^Ticker$' --keys '{Enter}' --keys '{Enter}' '2›Ticker' '^ +[0-9]+ ║')
t_load=$(timed 900 "2›Ticker.* $rows rows")
t_sort=$(timed 900 --keys c --keys symbol --keys '{Enter}' --keys '[' '↑symbol' "sort-asc +$rows rows" "@3:[│║] $first_symbol +[│║]")
pid=$(pane_child)
vd_hwm=$(memory_mb "$pid" VmHWM) vd_rss=$(memory_mb "$pid" VmRSS)
# Its frequency sheet of the sector column (the foreign key: VisiData does not follow it to
# the sector's name), all rows loaded: from the keys to the 11 bins counted.
vd_freq=$(timed 300 --keys c --keys sector --keys '{Enter}' --keys F 'Ticker_sector_freq' ' 11 bins')
keys gq; wait_for 60 'vd-exit-[0-9]+'
vd_first=$(add "$t_list" "$t_open") vd_loaded=$(add "$vd_first" "$t_load") vd_sorted=$(add "$vd_loaded" "$t_sort")
echo "visidata first screen (unsorted, still loading): $vd_first s; all rows loaded: $vd_loaded s; first screen sorted by symbol: $vd_sorted s; VmHWM $vd_hwm MB, VmRSS $vd_rss MB (sorted); c sector, F to its frequency sheet (rows loaded): $vd_freq s"

# 3. Direct opens, 160x50: each program started on the table, to its first data rows.
direct_open() { # direct_open COMMAND READY-REGEX: seconds from launch to READY-REGEX on screen
  start_session 160 50
  local t; t=$(timed 300 --keys "$1; echo direct-exit-\$?" --keys '{Enter}' "$2|direct-exit-[0-9]+")
  if capture | grep -qE 'direct-exit-[0-9]+'; then echo "'$1' ended before its first screen: $(capture | grep -vE '^bench\$|^$' | head -3 | tr '\n' ' ')" >&2; exit 1; fi
  echo "$t"
}
median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# Five rounds, the three opens alternating in each; each figure is the median of its five, so
# one open slowed by the machine (this VM's speed swings within seconds) does not decide it.
direct_rounds=5 quarry_directs="" quarry_defaults="" vd_directs=""
for round in $(seq "$direct_rounds"); do
  t=$(direct_open "$quarry browse $store --entity Ticker --sort symbol" 'row 1/'); keys q; wait_for 60 'direct-exit-[0-9]+'; quarry_directs+=" $t"
  t=$(direct_open "$quarry browse $store --entity Ticker" 'row 1/'); keys q; wait_for 60 'direct-exit-[0-9]+'; quarry_defaults+=" $t"
  t=$(direct_open "$vd $store +:Ticker:1:1" '^ +[0-9]+ ║'); keys gq; wait_for 60 'direct-exit-[0-9]+'; vd_directs+=" $t"
done
quarry_direct=$(median <<<"$quarry_directs") quarry_default=$(median <<<"$quarry_defaults") vd_direct=$(median <<<"$vd_directs")
echo "direct opens at 160x50, launch to first data rows, $direct_rounds rounds (median):" \
  "quarry --sort symbol$quarry_directs ($quarry_direct) s; quarry default view$quarry_defaults ($quarry_default) s;" \
  "vd +:Ticker:1:1$vd_directs ($vd_direct) s"

figure browse-first-screen-seconds "$quarry_first"
figure browse-first-screen "$(awk -v v="$vd_first" -v q="$quarry_first" 'BEGIN { printf "%.3f", v / q }')"
figure browse-first-screen-sorted "$(awk -v v="$vd_sorted" -v q="$quarry_first" 'BEGIN { printf "%.3f", v / q }')"
figure browse-resident "$quarry_hwm"
figure browse-resident-vs-visidata "$(awk -v q="$quarry_hwm" -v v="$vd_rss" 'BEGIN { printf "%.1f", 100 * q / v }')"
figure browse-idle-cpu "$idle_ticks"
figure browse-freq-seconds "$quarry_freq"
figure browse-freq-vs-visidata "$(awk -v v="$vd_freq" -v q="$quarry_freq" 'BEGIN { printf "%.3f", v / q }')"
figure browse-first-screen-direct "$(awk -v v="$vd_direct" -v q="$quarry_direct" 'BEGIN { printf "%.3f", v / q }')"
figure browse-first-screen-default "$(awk -v v="$vd_direct" -v q="$quarry_default" 'BEGIN { printf "%.3f", v / q }')"
