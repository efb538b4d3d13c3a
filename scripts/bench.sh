#!/usr/bin/env bash
# Every benchmark, once, and one table at the end: scenario, measured figure, target, met/missed.
#
#   bash scripts/bench.sh [--only NAME[,NAME...]] [--quick] [--no-build]
#
# - Every `quarry-bench` scenario (the list `quarry-bench` prints with no arguments), release
#   build. The pg-* scenarios need a PostgreSQL server: the one `scripts/postgres.sh` runs, or,
#   when none runs, one this script starts and stops at the end (as scripts/test.sh does);
#   QUARRY_BENCH_POSTGRES_URL (with PGPASSFILE) points at another.
# - `browse`: the browser in a real terminal (tmux, 120x40): `quarry demo`'s first screen on a
#   fresh and a reopened store; then, on a 1,000,000-ticker demo store sorted by symbol, side by
#   side with VisiData on the same file: the first screen, `G` to the last row, resident memory
#   once the index is complete, and the browser's CPU over 10 idle seconds; and each opening
#   the table directly at 160x50 (`browse --sort symbol` and the default view against
#   `vd STORE +:Ticker:1:1`), launch to the first data rows. VisiData is
#   installed by this script from PyPI into a virtual environment under .build/visidata-venv
#   (made once, then reused); an installed `vd` elsewhere is never used.
# - `commands`: `quarry` commands timed from launch to exit (scripts/bench-commands.sh):
#   `convert` of a 250,000-ticker JSON store beside `import` of its tickers, and `model`,
#   `create` and `migrate` on a 10,000-entity model.
# - `fresh-build` (last; not with --quick): README's first command on a fresh clone of HEAD, from
#   Enter to the demo's first rows, with each module's share (scripts/bench-fresh-build.sh).
# - --only NAME,...: those scenarios only (`browse`, `commands` and `fresh-build` included); --quick: smaller n and fewer
#   rounds, for a smoke run (the table says so: its figures are not comparable with the
#   targets); --no-build: use the release binaries already built.
# A scenario that fails is named on stderr and in the table (FAILED), the others still run, and
# the script exits 1. A missed target is reported as missed with its figure; targets are never
# adjusted here: they come from the issues (see BENCHMARKS.md). Not run by the tests or CI.
set -uo pipefail
cd "$(dirname "$0")/.."
only="" quick=0 build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only=",$2,"; shift 2 ;;
    --quick) quick=1; shift ;;
    --no-build) build=0; shift ;;
    *) echo "usage: $0 [--only NAME[,NAME...]] [--quick] [--no-build]" >&2; exit 2 ;;
  esac
done

source scripts/bench-table.sh

if [ "$build" = 1 ]; then
  # The same build as README's (static Swift runtime and Foundation, lld, packed relocations).
  bash scripts/release-build.sh --product quarry-bench >/dev/null || { echo "bench.sh: the release build of quarry-bench failed" >&2; exit 1; }
  bash scripts/release-build.sh --product quarry >/dev/null || { echo "bench.sh: the release build of quarry failed" >&2; exit 1; }
fi
bin=$(swift build -c release --show-bin-path)
bench="$bin/quarry-bench" quarry="$bin/quarry"
[ -x "$bench" ] && [ -x "$quarry" ] || { echo "bench.sh: no release quarry-bench/quarry in $bin (drop --no-build)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/quarry-bench.XXXXXX")
socket="quarry-bench-$$"
started_postgres=0
cleanup() {
  tmux -L "$socket" kill-server 2>/dev/null || true
  [ "$started_postgres" = 1 ] && bash scripts/postgres.sh stop
  rm -rf "$work"
}
trap cleanup EXIT

selected() { [ -z "$only" ] || [[ "$only" == *",$1,"* ]]; }

# Smaller runs for --quick: a smoke test of every scenario, not a measurement.
quick_arguments() {
  case "$1" in
    import) echo --n 20000 --scale 100000 ;;
    import-live) echo --n 20000 --rows 20000 ;;
    history-cost) echo --n 20000 --rounds 2 ;;
    pg-import) echo --n 10000 --rounds 1 ;;
    pg-scale) echo --n 20000 --seconds 5 ;;
    frc-update|frc-update-rounds|frc-vs-grdb|remote-merge|pg-remote-merge|pg-foreign-live) echo --n 100000 --rounds 3 ;;
    filter-scale) echo --n 20000 ;;
    chunked-import) echo --n 200000 ;;
    migrate-add|migrate-copy|export|fetch-ids) echo --n 100000 --rounds 1 ;;
    batch-delete|batch-update) echo --n 100000 ;;
    undo-cost) echo --n 20000 --rounds 1 ;;
    batch-merge) echo --n 100000 --rounds 2 ;;
    aggregate) echo --n 100000 --rounds 1 ;;
    aggregate-update) echo --n 100000 --rounds 3 ;;
    derived-cost) echo --n 2000 --rounds 20 ;;
    freq-first-screen) echo --n 100000 --rounds 2 ;;
    freq-live) echo --n 100000 --rounds 3 ;;
    follow-hop) echo --n 100000 --rounds 3 ;;
    *) echo --n 100000 ;;
  esac
}

# The figures one scenario's output holds besides its `ratio NAME VALUE` lines.
extra_figures() { # extra_figures SCENARIO OUTPUT
  case "$1" in
    frc-fetch) # resident memory the fetch added, per million results
      awk '/performFetch +n=/ { for (i = 1; i <= NF; i++) { if ($i ~ /^n=/) n = substr($i, 3); if ($i ~ /^\+[0-9]/) mb = substr($i, 2) } }
           END { if (n > 0 && mb != "") printf "frc-fetch-resident %.1f\n", mb * 1000000 / n }' "$2" ;;
    export)
      awk '/peak memory during the export:/ { for (i = 1; i <= NF; i++) if ($i == "MB") { print "export-memory", $(i - 1); exit } }' "$2" ;;
    frc-update-rounds) # a profiling aid without a ratio: its median step
      awk '/median/ { for (i = 1; i <= NF; i++) if ($i == "median") { v = $(i + 1); gsub(/[^0-9.]/, "", v); printf "frc-update-rounds-median %.2f\n", v * 1000; exit } }' "$2" ;;
  esac
}

failed=0
run_scenario() { # run_scenario NAME: runs it, records its figures or its failure
  local name=$1 out="$work/$1.out" err="$work/$1.err" rc
  local args=(); [ "$quick" = 1 ] && read -r -a args <<<"$(quick_arguments "$name")"
  echo
  echo "## quarry-bench $name ${args[*]}"
  "$bench" "$name" "${args[@]}" 2>"$err" | tee "$out"
  rc=${PIPESTATUS[0]}
  cat "$err" >&2
  if [ "$rc" != 0 ]; then
    # The scenario's own error line, else a runtime failure, else the last line it wrote.
    local reason
    reason=$(grep -m1 -E "^quarry-bench $name|runtime failure|Fatal error" "$err" || grep -v '^[[:space:]]*$' "$err" | tail -1)
    echo "bench.sh: scenario $name FAILED (exit $rc): $reason" >&2
    record_failure "$name" "exit $rc: $(cut -c1-60 <<<"$reason")"
    failed=1
    return
  fi
  local found=0
  while read -r figure value; do record "$figure" "$value"; found=1; done < <(
    awk '$1 == "ratio" || $1 == "figure" { print $2, $3 }' "$out"; extra_figures "$name" "$out")
  [ "$found" = 1 ] || record_failure "$name" "no figure in its output"
}

# The PostgreSQL server of the pg-* scenarios: given, running, or started here.
postgres_ready() {
  if [ -z "${QUARRY_BENCH_POSTGRES_URL:-}" ]; then
    if ! QUARRY_BENCH_POSTGRES_URL=$(bash scripts/postgres.sh url 2>/dev/null); then
      QUARRY_BENCH_POSTGRES_URL=$(bash scripts/postgres.sh start) || return 1
      started_postgres=1
    fi
    export QUARRY_BENCH_POSTGRES_URL PGPASSFILE=$(bash scripts/postgres.sh pgpass)
  fi
}

scenarios=$("$bench" | sed -n 's/^scenarios: //p' | tr -d ',')
[ -n "$scenarios" ] || { echo "bench.sh: quarry-bench listed no scenarios" >&2; exit 1; }
for name in $(tr ',' ' ' <<<"$only"); do
  [[ " $scenarios browse commands fresh-build " == *" $name "* ]] || { echo "bench.sh: no scenario '$name' (scenarios: $scenarios browse commands fresh-build)" >&2; exit 2; }
done
for name in $scenarios; do
  selected "$name" || continue
  if [[ "$name" == pg-* ]] && ! postgres_ready; then
    echo "bench.sh: scenario $name FAILED: no PostgreSQL server (scripts/postgres.sh start failed)" >&2
    record_failure "$name" "no PostgreSQL server"; failed=1; continue
  fi
  run_scenario "$name"
done

if selected browse; then
  rows=1000000; [ "$quick" = 1 ] && rows=100000
  echo
  echo "## browse: the browser and VisiData on a $rows-ticker demo store sorted by symbol"
  if bash scripts/bench-browse.sh --quarry "$quarry" --rows "$rows" --work "$work" --socket "$socket" | tee "$work/browse.out"; then
    while read -r figure value; do record "$figure" "$value"; done < <(awk '$1 == "figure" { print $2, $3 }' "$work/browse.out")
  else
    echo "bench.sh: scenario browse FAILED: $(tail -1 "$work/browse.out")" >&2
    record_failure browse "$(tail -1 "$work/browse.out" | cut -c1-60)"; failed=1
  fi
fi

if selected commands; then
  command_args=(); [ "$quick" = 1 ] && command_args=(--rows 20000 --entities 2000)
  echo
  echo "## commands: quarry convert, model, create and migrate ${command_args[*]}"
  if bash scripts/bench-commands.sh --quarry "$quarry" --bench "$bench" --work "$work" "${command_args[@]}" | tee "$work/commands.out"; then
    while read -r figure value; do record "$figure" "$value"; done < <(awk '$1 == "figure" { print $2, $3 }' "$work/commands.out")
  else
    echo "bench.sh: scenario commands FAILED: $(tail -1 "$work/commands.out")" >&2
    record_failure commands "$(tail -1 "$work/commands.out" | cut -c1-60)"; failed=1
  fi
fi

# Last: it builds a fresh clone from scratch, the longest run here (skipped by --quick).
if selected fresh-build && [ "$quick" = 0 ]; then
  echo
  echo "## fresh-build: README's first command on a fresh clone, to the demo's first rows"
  if bash scripts/bench-fresh-build.sh --work "$work" --socket "$socket-fresh" | tee "$work/fresh.out"; then
    while read -r figure value; do record "$figure" "$value"; done < <(awk '$1 == "figure" { print $2, $3 }' "$work/fresh.out")
  else
    echo "bench.sh: scenario fresh-build FAILED: $(tail -1 "$work/fresh.out")" >&2
    record_failure fresh-build "$(tail -1 "$work/fresh.out" | cut -c1-60)"; failed=1
  fi
fi

echo
[ "$quick" = 1 ] && echo "# --quick: smaller n and fewer rounds (a smoke run); these figures are NOT comparable with the targets"
print_table
exit "$failed"
