#!/usr/bin/env bash
# Foreign-database benchmark, Quarry vs VisiData, side by side in one run, in a real terminal
# (tmux, 120x40) on one plain SQLite table of ROWS rows (default 1,000,000) made with sqlite3:
#   trades(id INTEGER PRIMARY KEY, symbol TEXT, price REAL, volume INTEGER, traded_at TEXT),
#   indexed on symbol.
# For each tool, RUNS runs (default 3, alternating Quarry and VisiData):
#   - Quarry:   `quarry browse DB --sort symbol` (release build): time to the first screen
#               ("row 1/ROWS" drawn), then the process's peak (VmHWM) and current (VmRSS) memory.
#   - Quarry store: the same rows in a Quarry store of their own (`quarry convert DB`, made
#               once before the runs), browsed the same way: the foreign table's figures side by
#               side with a Quarry store of the same size.
#   - VisiData: `vd DB` opens on the database's table list; the script presses Enter on trades
#               at once: time to the first screen of trades (its first rows drawn while it loads),
#               to all ROWS rows loaded, and, after `l [` (sort by symbol ascending), to the sorted
#               first screen; then VmHWM and VmRSS. VisiData has no command-line option to open
#               one table of a database or to sort it: its command-log replay (`-p`) waits for
#               the table list's background row count (a second full read of the table) before
#               opening the table, so the sort is typed, timed from launch.
# The database's sha256 is taken before and after all runs: the script fails if it changed, or
# if a -wal, -shm or -journal appeared beside it.
# A missing `vd` is installed with `pip install --user visidata` (into ~/.local/bin), or, when
# that fails, into a virtualenv under the benchmark's temporary folder (removed at the end).
# This is a benchmark: it is not run by the tests or CI.
#
# Usage: bash scripts/bench-foreign.sh [--rows N] [--runs N] [--only quarry|visidata] [--no-build] [--quarry PATH]
#   --quarry PATH: measure that quarry binary instead of the release build (implies --no-build).
set -euo pipefail
cd "$(dirname "$0")/.."
rows=1000000 runs=3 only="" build=1 quarry_path=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rows) rows=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --quarry) quarry_path=$2; build=0; shift 2 ;;
    *) echo "usage: $0 [--rows N] [--runs N] [--only quarry|visidata] [--no-build] [--quarry PATH]" >&2; exit 2 ;;
  esac
done
command -v sqlite3 >/dev/null || { echo "sqlite3 is needed to make the database (apt-get install sqlite3)" >&2; exit 1; }
command -v tmux >/dev/null || { echo "tmux is needed (apt-get install tmux)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/quarry-bench-foreign.XXXXXX")
socket="quarry-bench-foreign-$$"
trap 'tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
db="$work/trades.sqlite"

source scripts/bench-tmux.sh
memory() { awk '/^VmHWM|^VmRSS/ { printf "%s %.1f ", $1, $2 / 1024 }' "/proc/$1/status"; }
side_files() { ls -a "$work" | grep -E '^trades\.sqlite-(wal|shm|journal)$' || true; }

echo "# database: $rows rows in trades (sqlite3, recursive CTE), in $work"
t0=$(now)
sqlite3 "$db" "
  CREATE TABLE trades(id INTEGER PRIMARY KEY, symbol TEXT, price REAL, volume INTEGER, traded_at TEXT);
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $rows)
  INSERT INTO trades SELECT i, 'S' || printf('%04d', (i * 7919) % 5000), round(10 + ((i * 104729) % 100000) / 100.0, 2),
                            (i * 31) % 10000, datetime(1700000000 + i * 37, 'unixepoch') FROM n;
  CREATE INDEX trades_symbol ON trades(symbol);"
t1=$(now)
echo "made in $(elapsed "$t0" "$t1") s, $(du -h "$db" | cut -f1)"
sha_before=$(sha256sum "$db" | cut -d' ' -f1)
echo "sha256 before: $sha_before"

quarry="" vd=""
if [ "$only" != visidata ]; then
  if [ "$build" = 1 ]; then swift build -c release --product quarry >/dev/null; fi
  quarry=${quarry_path:-"$(swift build -c release --show-bin-path)/quarry"}
  [ -x "$quarry" ] || { echo "no release quarry at $quarry (build it or drop --no-build)" >&2; exit 1; }
fi
if [ "$only" != quarry ]; then
  user_bin="$(python3 -m site --user-base 2>/dev/null)/bin"
  vd=$(command -v vd || true)
  [ -n "$vd" ] || { [ -x "$user_bin/vd" ] && vd="$user_bin/vd"; } || true
  if [ -z "$vd" ]; then
    echo "# installing VisiData: pip install --user visidata (into $user_bin)"
    if python3 -m pip install --user --quiet visidata && [ -x "$user_bin/vd" ]; then
      vd="$user_bin/vd"
    else
      echo "# pip --user failed: installing VisiData into a virtualenv at $work/visidata-venv (removed at the end)"
      python3 -m venv "$work/visidata-venv"
      "$work/visidata-venv/bin/pip" install --quiet visidata
      vd="$work/visidata-venv/bin/vd"
    fi
  fi
  echo "VisiData: $vd ($("$vd" --version 2>/dev/null | head -1))"
fi

quarry_first=() quarry_hwm=() quarry_rss=() quarry_failure=""
store_first=() store_hwm=() store_rss=()
store="$work/trades-quarry.sqlite"
if [ -n "$quarry" ]; then
  t0=$(now)
  if "$quarry" convert "$db" "$store" >/dev/null 2>"$work/convert.err"; then
    echo "# Quarry store of the same rows: quarry convert in $(elapsed "$t0" "$(now)") s, $(du -h "$store" | cut -f1)"
  else
    echo "# quarry convert failed: $(head -1 "$work/convert.err")"; store=""
  fi
fi
vd_first=() vd_loaded=() vd_sorted=() vd_hwm=() vd_rss=()

run_quarry() { # run_quarry [PREFIX FILE ARGS]: browse FILE, recording into PREFIX_first/_hwm/_rss
  local prefix=${1:-quarry} file=${2:-$db} args=${3:-}
  declare -n first_runs="${prefix}_first" hwm_runs="${prefix}_hwm" rss_runs="${prefix}_rss"
  start_session
  local t0 t1 pid mem
  t0=$(now); run_in_pane "$quarry browse $file $args --sort symbol; echo quarry-exit-\$?"
  wait_for 300 "row 1/$rows|quarry-exit-[0-9]+" || return 1
  t1=$(now)
  if capture | grep -qE 'quarry-exit-[0-9]+'; then
    quarry_failure=$(tmux -L "$socket" capture-pane -p -J -t bench | grep -vE '^bench\$|quarry-exit-|^$' | head -3 | tr '\n' ' ')
    return 0
  fi
  pid=$(pane_child); mem=$(memory "$pid")
  first_runs+=("$(elapsed "$t0" "$t1")")
  hwm_runs+=("$(awk '{ print $2 }' <<<"$mem")"); rss_runs+=("$(awk '{ print $4 }' <<<"$mem")")
  tmux -L "$socket" send-keys -t bench q; wait_for 60 'quarry-exit-[0-9]+'
}

run_visidata() {
  start_session
  local t0 t1 t2 t3 pid mem
  t0=$(now); run_in_pane "$vd $db; echo vd-exit-\$?"
  wait_for 120 ' tables( |\[)' 'trades'
  tmux -L "$socket" send-keys -t bench Enter
  wait_for 120 '2›trades' '║ S[0-9]{4} '; t1=$(now)
  wait_for 600 "2›trades.* $rows rows"; t2=$(now)
  tmux -L "$socket" send-keys -t bench l; tmux -L "$socket" send-keys -t bench -l '['
  wait_for 600 '↑symbol' "sort-asc +$rows rows"
  until capture | sed -n 3p | grep -qE '║ S0000 '; do sleep 0.01; done
  t3=$(now)
  pid=$(pane_child); mem=$(memory "$pid")
  vd_first+=("$(elapsed "$t0" "$t1")"); vd_loaded+=("$(elapsed "$t0" "$t2")"); vd_sorted+=("$(elapsed "$t0" "$t3")")
  vd_hwm+=("$(awk '{ print $2 }' <<<"$mem")"); vd_rss+=("$(awk '{ print $4 }' <<<"$mem")")
  tmux -L "$socket" send-keys -t bench g q; wait_for 60 'vd-exit-[0-9]+'
}

for i in $(seq 1 "$runs"); do
  if [ -n "$quarry" ] && [ -z "$quarry_failure" ]; then run_quarry; fi
  if [ -n "$quarry" ] && [ -n "$store" ]; then run_quarry store "$store" "--entity trades"; fi
  if [ -n "$vd" ]; then run_visidata; fi
done

median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
row() { # row TOOL METRIC UNIT VALUES...
  local tool=$1 metric=$2 unit=$3; shift 3
  printf '%-9s %-44s %10s   %s\n' "$tool" "$metric ($unit)" "$(median "$@")" "$*"
}
echo
echo "# $rows-row plain SQLite table, 120x40 tmux, $runs runs each (median, then each run)"
printf '%-9s %-44s %10s   %s\n' tool metric median runs
if [ -n "$quarry" ]; then
  if [ -n "$quarry_failure" ]; then
    echo "quarry    could not open the database: $quarry_failure"
    echo "          (expected until Quarry opens plain SQLite files read-only, issue 18)"
  else
    row quarry "first screen, sorted by symbol" s "${quarry_first[@]}"
    row quarry "peak resident memory VmHWM" MB "${quarry_hwm[@]}"
    row quarry "resident memory VmRSS at first screen" MB "${quarry_rss[@]}"
  fi
  if [ -n "$store" ] && [ ${#store_first[@]} -gt 0 ]; then
    row q-store "first screen, sorted by symbol" s "${store_first[@]}"
    row q-store "peak resident memory VmHWM" MB "${store_hwm[@]}"
    row q-store "resident memory VmRSS at first screen" MB "${store_rss[@]}"
    echo "ratio foreign-first-screen $(echo "$(median "${store_first[@]}") $(median "${quarry_first[@]}")" | awk '{ printf "%.2f", $1 / $2 }') (Quarry store / foreign table; >= 1 means the foreign table is as fast)"
  fi
fi
if [ -n "$vd" ]; then
  row visidata "first screen, unsorted (rows still loading)" s "${vd_first[@]}"
  row visidata "all rows loaded" s "${vd_loaded[@]}"
  row visidata "first screen, sorted by symbol" s "${vd_sorted[@]}"
  row visidata "peak resident memory VmHWM" MB "${vd_hwm[@]}"
  row visidata "resident memory VmRSS when sorted" MB "${vd_rss[@]}"
fi

sha_after=$(sha256sum "$db" | cut -d' ' -f1)
echo
echo "sha256 after:  $sha_after"
extra=$(side_files)
if [ "$sha_after" != "$sha_before" ]; then echo "FAIL: the database changed during the benchmark" >&2; exit 1; fi
if [ -n "$extra" ]; then echo "FAIL: files appeared beside the database: $extra" >&2; exit 1; fi
echo "database unchanged (sha256 equal, no -wal/-shm/-journal created)"
