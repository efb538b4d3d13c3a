#!/usr/bin/env bash
# The command-line benchmarks of scripts/bench.sh (called by it; prints `figure NAME VALUE`
# lines for its table): `quarry` commands as a user runs them, each timed from launch to exit.
#   convert-json  A demo store of ROWS tickers (`quarry demo --seed-only --no-import`) is
#                 converted to a JSON store folder (convert-to-json-seconds); then side by side:
#                 `quarry convert FOLDER NEW.sqlite` (JSON -> SQLite: every ticker, sector and
#                 quote) and `quarry import` of the same tickers, exported as JSON Lines, into a
#                 new demo store. Figure: import time / convert time (higher is better).
#   model-10k     A model of ENTITIES entities (`quarry-bench write-scale-model`: chains of ten
#                 by inheritance, two attributes and an inverse pair of relationships each):
#                 `quarry model` on its JSON and on its Xcode form (model-10k-seconds,
#                 model-10k-xcode-seconds); the JSON one at a quarter of the entities, for
#                 model-10k-scaling (time per entity at a quarter / at the whole: 1 when
#                 linear, 0.25 when quadratic); `quarry create` of a store of the model
#                 (create-10k-seconds) beside `sqlite3` running the same schema statements in
#                 one transaction (create-10k-vs-sqlite: sqlite3's time / create's: SQLite's
#                 own CREATE statements grow with the schema they join, so creation cannot be
#                 faster than that); `quarry migrate --yes` to the model with one attribute
#                 added (migrate-10k-seconds).
#   paste         The browser on the demo store in tmux (its own server socket, 120x40): `f`,
#                 then a 1 MB bracketed paste (`tmux paste-buffer -p`) into the filter prompt,
#                 timed until the prompt shows the paste's last characters
#                 (filter-paste-terminal-seconds).
# Usage: bash scripts/bench-commands.sh --quarry PATH --bench PATH [--rows N] [--entities N] [--work DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
quarry="" bench="" rows=250000 entities=10000 work=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quarry) quarry=$2; shift 2 ;;
    --bench) bench=$2; shift 2 ;;
    --rows) rows=$2; shift 2 ;;
    --entities) entities=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    *) echo "usage: $0 --quarry PATH --bench PATH [--rows N] [--entities N] [--work DIR]" >&2; exit 2 ;;
  esac
done
[ -x "$quarry" ] || { echo "bench-commands.sh: no quarry binary at '$quarry'" >&2; exit 2; }
[ -x "$bench" ] || { echo "bench-commands.sh: no quarry-bench binary at '$bench'" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "bench-commands.sh: sqlite3 is needed (apt-get install sqlite3)" >&2; exit 1; }
command -v tmux >/dev/null || { echo "bench-commands.sh: tmux is needed (apt-get install tmux)" >&2; exit 1; }
socket="quarry-bench-commands-$$"
own_work=0
if [ -z "$work" ]; then work=$(mktemp -d); own_work=1; fi
work="$work/commands"; mkdir -p "$work"
trap 'tmux -L "$socket" kill-server 2>/dev/null || true; [ "$own_work" = 1 ] && rm -rf "$(dirname "$work")"; true' EXIT

# timed SECONDS_VAR COMMAND...: runs COMMAND (its output to $work/last.out), seconds into SECONDS_VAR.
timed() {
  local var=$1; shift
  local start end
  start=$(date +%s.%N)
  "$@" >"$work/last.out" 2>&1 || { echo "bench-commands.sh: failed: $*"; tail -3 "$work/last.out"; exit 1; }
  end=$(date +%s.%N)
  printf -v "$var" '%s' "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')"
}
divide() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

echo "convert-json: $rows tickers"
"$quarry" demo --seed-only --no-import --rows "$rows" --store "$work/source.sqlite" >/dev/null
timed to_json "$quarry" convert "$work/source.sqlite" "$work/source.jsonstore"
timed from_json "$quarry" convert "$work/source.jsonstore" "$work/back.sqlite"
echo "  $(cat "$work/last.out")"
"$quarry" export "$work/source.sqlite" --entity Ticker --format jsonl -o "$work/tickers.jsonl"
"$quarry" demo --seed-only --no-import --rows 0 --store "$work/fresh.sqlite" >/dev/null
timed imported "$quarry" import "$work/fresh.sqlite" "$work/tickers.jsonl" --entity Ticker
echo "  $(tail -1 "$work/last.out")"
echo "  SQLite -> JSON ${to_json} s; JSON -> SQLite ${from_json} s; import of the tickers as JSON Lines ${imported} s"
echo "figure convert-to-json-seconds $to_json"
echo "figure convert-json $(divide "$imported" "$from_json")"

echo "model-10k: $entities entities"
quarter=$((entities / 4))
"$bench" write-scale-model "$entities" "$work/model.json"
"$bench" write-scale-model "$entities" "$work/model-extra.json" --extra
"$bench" write-scale-model "$quarter" "$work/model-quarter.json"
"$quarry" model "$work/model.json" --xcode --output "$work/model.xcdatamodel" >/dev/null
timed model_json "$quarry" model "$work/model.json"
timed model_xcode "$quarry" model "$work/model.xcdatamodel"
timed model_quarter "$quarry" model "$work/model-quarter.json"
timed create "$quarry" create "$work/scale.sqlite" --model "$work/model.json"
{ echo "BEGIN;"; sqlite3 "$work/scale.sqlite" "SELECT sql || ';' FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid"; echo "COMMIT;"; } >"$work/schema.sql"
timed raw_create sqlite3 "$work/raw.sqlite" ".read $work/schema.sql"
timed migrate "$quarry" migrate "$work/scale.sqlite" --model "$work/model-extra.json" --yes
echo "  quarry model: JSON ${model_json} s, Xcode ${model_xcode} s, JSON at $quarter entities ${model_quarter} s"
echo "  quarry create ${create} s (sqlite3 running its $(grep -c '^CREATE' "$work/schema.sql") schema statements: ${raw_create} s); quarry migrate (one attribute added) ${migrate} s"
echo "figure model-10k-seconds $model_json"
echo "figure model-10k-xcode-seconds $model_xcode"
echo "figure model-10k-scaling $(awk -v q="$model_quarter" -v w="$model_json" -v n="$entities" -v m="$quarter" 'BEGIN { printf "%.3f", (q / m) / (w / n) }')"
echo "figure create-10k-seconds $create"
echo "figure create-10k-vs-sqlite $(divide "$raw_create" "$create")"
echo "figure migrate-10k-seconds $migrate"

echo "paste: 1 MB into the filter prompt, in tmux"
capture() { tmux -L "$socket" capture-pane -p -t paste; }
# wait_for PATTERN SECONDS: polls the screen every 10 ms; fails the script past the deadline.
wait_for() {
  local deadline=$(( $(date +%s) + $2 ))
  until capture | grep -q -- "$1"; do
    [ "$(date +%s)" -lt "$deadline" ] || { echo "bench-commands.sh: no '$1' on the screen within $2 s"; capture | tail -3; exit 1; }
    sleep 0.01
  done
}
tmux -L "$socket" new-session -d -s paste -x 120 -y 40 "$quarry browse $work/source.sqlite --entity Ticker"
wait_for "row 1/" 60
tmux -L "$socket" send-keys -t paste f
wait_for "filter:" 10
{ printf 'name == "'; head -c 1048576 /dev/zero | tr '\0' 'a'; printf 'ZZEND'; } >"$work/paste.txt"
tmux -L "$socket" load-buffer -b big "$work/paste.txt"
start=$(date +%s.%N)
tmux -L "$socket" paste-buffer -p -b big -t paste
wait_for "ZZEND" 120
pasted=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
tmux -L "$socket" kill-server 2>/dev/null || true
echo "  the prompt showed the end of the 1 MB paste after ${pasted} s"
echo "figure filter-paste-terminal-seconds $pasted"
