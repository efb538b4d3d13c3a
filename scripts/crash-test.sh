#!/usr/bin/env bash
# Crash test: `kill -9` a demo importer and a demo seed at random points, then check the store.
#   - 20 rounds: `quarry demo --import-only` (an importer saving in a loop) killed after a random
#     delay; then `PRAGMA integrity_check` must say ok, and every importer save must be whole or
#     absent: save k inserts exactly N tickers tagged `saveNumber = k` in the same transaction that
#     advances DemoState.saves, so saves 1…DemoState.saves must each hold N tickers and no
#     ticker may carry a later number. Persistent history must hold exactly one transaction
#     per committed importer save (its tickers' inserts, all in it), never a transaction without
#     changes or changes without a transaction, and nothing of a save that did not commit.
#   - 5 rounds: `quarry demo --seed-only` killed mid-seed; then integrity_check, and the next
#     `quarry demo --seed-only` must refuse the partial seed ("seed was interrupted"), or find
#     the seed finished with every ticker, or (killed before anything was stored) seed anew.
#   - then two importers (two processes) on one store for 3 s: both keep saving, no symbol twice.
#   - 10 rounds: `quarry migrate --yes` of a 300,000-row store (a rename, a type change that
#     copies the table, an added attribute) killed at a random moment; then integrity_check, and
#     the store must be wholly old (old model hash, old columns, every row) or wholly migrated
#     (new hash, new columns, every row with its values), and say so to `quarry migrate --dry-run`.
# Prints "crash-test: 36/36 whole" and exits 0 when every round passes.
# Usage: bash scripts/crash-test.sh [QUARRY_EXECUTABLE (default: .build/debug/quarry, built if absent)]
set -euo pipefail
cd "$(dirname "$0")/.."
quarry=${1:-.build/debug/quarry}
if [ ! -x "$quarry" ]; then swift build --product quarry >/dev/null; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

import_rounds=${CRASH_IMPORT_ROUNDS:-20}
seed_rounds=${CRASH_SEED_ROUNDS:-5}
migrate_rounds=${CRASH_MIGRATE_ROUNDS:-10}
migrate_rows=300000
rate=1000                                   # 250 rows a save (4 saves a second) …
per_save=25                                 # … of which 25 are new tickers
seed_rows=200000
passed=0
failed=0

# A random delay in seconds between $1 and $2 milliseconds.
delay() { awk -v lo="$1" -v hi="$2" -v r="$RANDOM" 'BEGIN { printf "%.3f", (lo + (hi - lo) * r / 32767) / 1000 }'; }
pass() { passed=$((passed + 1)); echo "  $1: whole ($2)"; }
fail() { failed=$((failed + 1)); echo "  $1: FAILED ($2)" >&2; }
integrity() { sqlite3 "$1" "PRAGMA integrity_check;" 2>&1 | tr '\n' ' ' | sed 's/ $//'; }

# Runs "$@" in the background, kills it with SIGKILL after $delay seconds, waits for it.
kill_after() {
  local wait_for=$1; shift
  "$@" >"$work/out" 2>"$work/err" &
  local pid=$!
  sleep "$wait_for"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

echo "crash-test: $import_rounds importer rounds"
store="$work/import.sqlite"
"$quarry" demo --seed-only --rows 1000 --store "$store" >/dev/null
for round in $(seq 1 "$import_rounds"); do
  d=$(delay 150 2500)
  kill_after "$d" "$quarry" demo --import-only --rate "$rate" --store "$store"
  check=$(integrity "$store")
  if [ "$check" != "ok" ]; then fail "import round $round (killed after ${d}s)" "integrity_check: $check"; continue; fi
  # saves recorded | distinct save numbers | highest | saves not holding exactly $per_save tickers
  read -r saves distinct highest partial < <(sqlite3 -separator ' ' "$store" "
    SELECT (SELECT saves FROM DemoState), COUNT(*), COALESCE(MAX(saveNumber), 0), COALESCE(SUM(n != $per_save), 0)
    FROM (SELECT saveNumber, COUNT(*) AS n FROM Ticker WHERE saveNumber > 0 GROUP BY saveNumber);")
  # Persistent history (an insert row covers Z_COUNT objects from key Z_PK on): importer
  # transactions (those inserting save-numbered tickers) | transactions without changes |
  # changes without a transaction | saves whose tickers are not exactly $per_save inserts of one
  # transaction | tickers with no insert in history | keys history says were inserted that are
  # neither stored nor deleted later (a save that did not commit).
  ins="c.Z_ENTITY = 'Ticker' AND c.Z_TYPE = 1 AND t.Z_PK BETWEEN c.Z_PK AND c.Z_PK + c.Z_COUNT - 1"
  read -r recorded bare orphans split unrecorded ghosts < <(sqlite3 -separator ' ' "$store" "
    SELECT (SELECT COUNT(DISTINCT c.Z_TOKEN) FROM Z_HISTORYCHANGE c JOIN Ticker t ON $ins WHERE t.saveNumber > 0),
      (SELECT COUNT(*) FROM Z_HISTORYTRANSACTION x WHERE NOT EXISTS (SELECT 1 FROM Z_HISTORYCHANGE c WHERE c.Z_TOKEN = x.Z_TOKEN)),
      (SELECT COUNT(*) FROM Z_HISTORYCHANGE c WHERE NOT EXISTS (SELECT 1 FROM Z_HISTORYTRANSACTION x WHERE x.Z_TOKEN = c.Z_TOKEN)),
      (SELECT COUNT(*) FROM (SELECT t.saveNumber FROM Ticker t JOIN Z_HISTORYCHANGE c ON $ins WHERE t.saveNumber > 0
              GROUP BY t.saveNumber HAVING COUNT(DISTINCT c.Z_TOKEN) != 1 OR COUNT(*) != $per_save)),
      (SELECT COUNT(*) FROM Ticker t WHERE t.saveNumber > 0 AND NOT EXISTS (SELECT 1 FROM Z_HISTORYCHANGE c WHERE $ins)),
      (SELECT COALESCE(SUM(Z_COUNT), 0) FROM Z_HISTORYCHANGE WHERE Z_ENTITY = 'Ticker' AND Z_TYPE = 1)
        - (SELECT COUNT(*) FROM Ticker t WHERE EXISTS (SELECT 1 FROM Z_HISTORYCHANGE c WHERE $ins))
        - (SELECT COUNT(DISTINCT Z_PK) FROM Z_HISTORYCHANGE WHERE Z_ENTITY = 'Ticker' AND Z_TYPE = 3);")
  if [ "$distinct" = "$saves" ] && [ "$highest" = "$saves" ] && [ "$partial" = "0" ] \
     && [ "$recorded" = "$saves" ] && [ "$bare$orphans$split$unrecorded$ghosts" = "00000" ]; then
    pass "import round $round (killed after ${d}s)" "$saves saves of $per_save tickers, one history transaction each"
  else
    fail "import round $round (killed after ${d}s)" "DemoState.saves $saves, $distinct saves stored, highest $highest, $partial partial; history: $recorded importer transactions, $bare without changes, $orphans changes without transaction, $split saves split or short, $unrecorded tickers unrecorded, $ghosts inserts of uncommitted rows"
  fi
done

echo "crash-test: two importers on one store"
store="$work/import.sqlite"
before=$(sqlite3 "$store" "SELECT saves FROM DemoState;")
"$quarry" demo --import-only --rate "$rate" --store "$store" >"$work/out-a" 2>"$work/err-a" & a=$!
"$quarry" demo --import-only --rate "$rate" --store "$store" >"$work/out-b" 2>"$work/err-b" & b=$!
sleep 3
alive=0
for pid in $a $b; do kill -0 "$pid" 2>/dev/null && alive=$((alive + 1)); kill -9 "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
read -r duplicates after < <(sqlite3 -separator ' ' "$store" "SELECT (SELECT COUNT(*) - COUNT(DISTINCT symbol) FROM Ticker), (SELECT saves FROM DemoState);")
if [ "$alive" -eq 2 ] && [ "$duplicates" = "0" ] && [ ! -s "$work/err-a" ] && [ ! -s "$work/err-b" ] && [ "$after" -gt "$before" ]; then
  pass "two importers" "$((after - before)) saves, no symbol stored twice"
else
  fail "two importers" "$alive of 2 still running, $duplicates duplicate symbols, saves $before -> $after: $(cat "$work/err-a" "$work/err-b" | head -c 300)"
fi

echo "crash-test: $seed_rounds seed rounds"
for round in $(seq 1 "$seed_rounds"); do
  store="$work/seed-$round.sqlite"
  d=$(delay 100 1800)
  kill_after "$d" "$quarry" demo --seed-only --rows "$seed_rows" --store "$store"
  name="seed round $round (killed after ${d}s)"
  if [ -f "$store" ]; then
    check=$(integrity "$store")
    if [ "$check" != "ok" ]; then fail "$name" "integrity_check: $check"; continue; fi
  fi
  status=0
  "$quarry" demo --seed-only --rows "$seed_rows" --store "$store" >"$work/out" 2>"$work/err" || status=$?
  tickers=$(sqlite3 "$store" "SELECT COUNT(*) FROM Ticker;" 2>/dev/null || echo "?")
  if [ "$status" -ne 0 ] && grep -q "the demo seed was interrupted" "$work/err"; then
    pass "$name" "partial seed of $tickers tickers refused: $(head -c 160 "$work/err")"
  elif [ "$status" -eq 0 ] && grep -q "^reusing" "$work/out" && [ "$tickers" = "$seed_rows" ]; then
    pass "$name" "seed had finished: $tickers tickers reused"
  elif [ "$status" -eq 0 ] && grep -q "^seeded" "$work/out" && [ "$tickers" = "$seed_rows" ]; then
    pass "$name" "killed before the seed began: seeded anew"
  else
    fail "$name" "exit $status, $tickers tickers: $(head -c 300 "$work/out" "$work/err" | tr '\n' ' ')"
  fi
done

echo "crash-test: $migrate_rounds migration rounds"
cat >"$work/v1.json" <<'JSON'
{"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String", "indexed": true}, {"name": "count", "type": "Integer 32"}]}]}
JSON
cat >"$work/v2.json" <<'JSON'
{"entities": [{"name": "Item", "attributes": [{"name": "title", "renamingIdentifier": "name", "type": "String", "indexed": true},
  {"name": "count", "type": "Double"}, {"name": "note", "type": "String"}]}]}
JSON
pristine="$work/pristine.sqlite"
"$quarry" create "$pristine" --model "$work/v1.json" >/dev/null
sqlite3 "$pristine" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $migrate_rows)
  INSERT INTO Item (Z_PK, Z_ENT, Z_OPT, name, count) SELECT i, 0, 1, 'item ' || i, i FROM n;
  UPDATE Z_PRIMARYKEY SET Z_MAX = $migrate_rows;"
old_hash=$(sqlite3 "$pristine" "SELECT value FROM Z_METADATA WHERE key = 'modelVersionHash';")
expected_sum=$(( migrate_rows * (migrate_rows + 1) / 2 ))
# One migration to the end, timed, gives the new hash and the range the kills fall in.
cp "$pristine" "$work/whole.sqlite"
started=$(date +%s%N)
"$quarry" migrate "$work/whole.sqlite" --model "$work/v2.json" --yes >/dev/null
took_ms=$(( ($(date +%s%N) - started) / 1000000 ))
new_hash=$(sqlite3 "$work/whole.sqlite" "SELECT value FROM Z_METADATA WHERE key = 'modelVersionHash';")
echo "  a whole migration takes ${took_ms} ms"
for round in $(seq 1 "$migrate_rounds"); do
  store="$work/migrate-$round.sqlite"
  cp "$pristine" "$store"
  d=$(delay 5 $(( took_ms * 16 / 10 )))
  kill_after "$d" "$quarry" migrate "$store" --model "$work/v2.json" --yes
  name="migration round $round (killed after ${d}s)"
  check=$(integrity "$store")
  if [ "$check" != "ok" ]; then fail "$name" "integrity_check: $check"; continue; fi
  hash=$(sqlite3 "$store" "SELECT value FROM Z_METADATA WHERE key = 'modelVersionHash';")
  if [ "$hash" = "$old_hash" ]; then
    read -r rows total < <(sqlite3 -separator ' ' "$store" "SELECT COUNT(*), SUM(count) FROM Item WHERE name = 'item ' || Z_PK;")
    model=v1; state="old model"
  elif [ "$hash" = "$new_hash" ]; then
    read -r rows total < <(sqlite3 -separator ' ' "$store" "SELECT COUNT(*), CAST(SUM(count) AS INTEGER) FROM Item WHERE title = 'item ' || Z_PK AND typeof(count) = 'real' AND note IS NULL;")
    model=v2; state="migrated"
  else
    fail "$name" "model hash is neither the old nor the new one: $hash"; continue
  fi
  if [ "$rows" = "$migrate_rows" ] && [ "$total" = "$expected_sum" ] \
     && "$quarry" migrate "$store" --model "$work/$model.json" --dry-run 2>&1 | grep -q "already has this model"; then
    pass "$name" "$state, $rows rows"
  else
    fail "$name" "$state but $rows rows (sum $total)"
  fi
done

total=$((passed + failed))
echo "crash-test: $passed/$total whole"
[ "$failed" -eq 0 ]
