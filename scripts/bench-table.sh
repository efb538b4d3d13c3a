# The table scripts/bench.sh prints (sourced): every figure with its target, met or missed.
# Targets come from the issues and BENCHMARKS.md; a figure without a target is shown as "—".
# Tested by scripts/bench-table-test.sh.

# FIGURE → "OP VALUE UNIT" (OP: >= for ratios, higher is better; <= for times and memory).
declare -A bench_targets=(
  [import]=">= 0.55"              [import-vs-grdb]=">= 1.0"      [import-scaling]=">= 0.67"
  [import-live]=">= 0.85"         [import-csv]=">= 0.3"          [history-cost]=">= 0.85"
  [export]=">= 0.5"               [export-memory]="<= 50 MB"     [fetch-ids]=">= 0.7"
  [frc-update]=">= 100"           [frc-update-vs-diff]=">= 50"   [frc-fetch-resident]="<= 24 MB/million"
  [frc-vs-grdb]=">= 110"          [migrate-add]=">= 0.55"        [migrate-copy]=">= 0.5"
  [migrate-copy-type]=">= 0.5"    [remote-merge]=">= 20"         [pg-import]=">= 0.5"
  [pg-remote-merge]=">= 20"       [pg-foreign-live]=">= 20"      [browse-first-screen]=">= 12"  [browse-resident]="<= 55 MB"
  [demo-first-screen-fresh]="<= 0.8 s" [demo-first-screen-reopened]="<= 0.8 s"
  [browse-first-screen-direct]=">= 10" [browse-first-screen-default]=">= 10"
  [browse-idle-cpu]="<= 0 ticks"
  [convert-json]=">= 0.5"         [model-10k-seconds]="<= 2 s"   [model-10k-xcode-seconds]="<= 2 s"
  [model-10k-scaling]=">= 0.67"
  [filter-worst-seconds]="<= 1 s"  [filter-paste-seconds]="<= 1 s"  [filter-paste-terminal-seconds]="<= 1 s"
  [outside-write-worst-seconds]="<= 1 s"
  [chunked-import-growth-mb]="<= 50 MB"
  [fresh-build-seconds]="<= 420 s"
  [pg-scale-p95-ms]="<= 100 ms"
  [batch-delete]=">= 20"          [batch-update]=">= 0.5"        [batch-merge]=">= 20"
  [aggregate]=">= 0.8"            [aggregate-update]=">= 50"
  [undo-cost]=">= 0.7"
  [derived-cost]=">= 0.5"
  [freq-first-screen]="<= 0.3 s"  [freq-live]=">= 50"  [follow-hop]="<= 0.05 s"  [follow-hop-first]="<= 0.05 s"
)
# What each figure is, in a few words (the table's second column).
declare -A bench_meanings=(
  [import]="raw inserts time / importer time"
  [import-vs-grdb]="GRDB record inserts / importer"
  [import-scaling]="µs/row at 100k / at 1M"
  [import-live]="import without / with a live controller"
  [import-csv]="sqlite3 .import / ImportOperation"
  [history-cost]="import without / with history"
  [export]="sqlite3 -csv / ExportOperation"
  [export-memory]="export's peak memory rise, MB"
  [fetch-ids]="raw SELECT rowid / fetchObjectIDs"
  [batch-delete]="fetch + delete + save / BatchDeleteRequest"
  [batch-update]="raw UPDATE … WHERE / BatchUpdateRequest"
  [batch-merge]="re-run fetch / batch update's commit → FRC"
  [aggregate]="raw GROUP BY / grouped fetchDictionaries"
  [aggregate-update]="raw GROUP BY / 1k-row save's commit → live groups"
  [undo-cost]="import without / with an undo manager"
  [derived-cost]="saves without / with a derived @sum"
  [freq-first-screen]="F on sector.name → frequency view drawn, s"
  [freq-live]="raw GROUP BY / 1k-row save's commit → view drawn"
  [freq-live-view]="raw GROUP BY / the view's own update (status line)"
  [follow-hop]="Enter on a to-one cell → 1M-row table on it, p50, s"
  [follow-hop-first]="the first such hop (the table opened), s"
  [follow-back]="Backspace → back where the hop started, p50, s"
  [frc-fetch]="raw SELECT rowid / performFetch"
  [frc-fetch-resident]="performFetch's resident MB per million"
  [frc-update]="re-run fetch / incremental update"
  [frc-update-vs-diff]="difference(from:) / incremental update"
  [frc-update-rounds-median]="profiling aid: median step, ms"
  [frc-vs-grdb]="GRDB ValueObservation p50 / FRC p50"
  [migrate-add]="raw ALTER TABLE / migration"
  [migrate-copy]="hand-written copy / migration"
  [migrate-copy-type]="hand-written copy / migration (type change)"
  [remote-merge]="re-run fetch / other process's commit → FRC"
  [remote-merge-from-save-start]="the same from the writer's save start"
  [pg-import]="raw binary COPY / importer (PostgreSQL)"
  [pg-import-vs-prepared]="raw prepared inserts / importer (PostgreSQL)"
  [fresh-build-seconds]="README's first command, fresh clone → demo, s"
  [pg-remote-merge]="re-run fetch / commit → FRC (PostgreSQL)"
  [pg-remote-merge-from-save-start]="the same from the writer's save start"
  [pg-foreign-live]="re-run browser's query / psql UPDATE → FRC (replication)"
  [pg-scale-rate]="2 writer processes' sustained commits/s (3 watchers)"
  [pg-scale-p50-ms]="commit → watcher's didChangeContent p50, ms"
  [pg-scale-p95-ms]="commit → watcher's didChangeContent p95, ms"
  [browse-first-screen]="VisiData first screen / browser's"
  [browse-first-screen-sorted]="VisiData sorted first screen / browser's"
  [browse-first-screen-direct]="vd +:Ticker:1:1 / browse --sort symbol, 160x50"
  [browse-first-screen-default]="vd +:Ticker:1:1 / browse default view, 160x50"
  [browse-first-screen-seconds]="browser's first screen, s"
  [browse-resident]="browser's peak resident MB, index built"
  [browse-resident-vs-visidata]="browser's peak / VisiData's resident, %"
  [browse-idle-cpu]="browser's CPU ticks over 10 idle s"
  [browse-freq-seconds]="browser: :col sector, F → frequency view, s"
  [browse-freq-vs-visidata]="VisiData's frequency sheet (rows loaded) / browser's F"
  [demo-first-screen-fresh]="quarry demo first screen, new store, s"
  [demo-first-screen-reopened]="quarry demo first screen, reopened, s"
  [convert-json]="import of the tickers / convert JSON → SQLite"
  [convert-to-json-seconds]="convert SQLite → JSON folder, s"
  [model-10k-seconds]="quarry model, 10,000 entities (JSON), s"
  [model-10k-xcode-seconds]="quarry model, 10,000 entities (Xcode), s"
  [model-10k-scaling]="per-entity load time at 2,500 / at 10,000"
  [create-10k-seconds]="quarry create, 10,000 entities, s"
  [create-10k-vs-sqlite]="sqlite3 running the schema / quarry create"
  [migrate-10k-seconds]="quarry migrate, 10,000 entities, one added, s"
  [filter-worst-seconds]="filter: the slowest family, s"
  [filter-paste-seconds]="filter prompt: 1 MB paste, in process, s"
  [filter-paste-terminal-seconds]="filter prompt: 1 MB paste through tmux, s"
  [outside-write-p50-seconds]="outside write → shown beside an importer, p50, s"
  [outside-write-worst-seconds]="outside write → shown beside an importer, worst of 20, s"
  [chunked-import-growth-mb]="2M-row chunked import: resident rise after 100k, MB"
)
# Every filter family of quarry-bench filter-scale: under a second each (issue 34, item 22).
for family in and-bounds or-equal or-keys in-list to-one-and and-of-or between-or any-or none-and like matches literal nesting not-chain; do
  bench_targets[filter-$family-seconds]="<= 1 s"
  bench_meanings[filter-$family-seconds]="filter: $family, parse to fetched, s"
done

bench_rows=()

# record FIGURE VALUE: one measured figure.
record() { bench_rows+=("$1|$2"); }

# record_failure SCENARIO REASON: a scenario that produced no figures.
record_failure() { bench_rows+=("$1|FAILED ($2)"); }

# verdict VALUE "OP THRESHOLD ...": met or missed.
verdict() {
  local op threshold
  read -r op threshold _ <<<"$2"
  awk -v v="$1" -v op="$op" -v t="$threshold" 'BEGIN {
    ok = (op == ">=") ? (v + 0 >= t + 0) : (v + 0 <= t + 0)
    print ok ? "met" : "missed" }'
}

# print_table: every recorded figure, then the targets no figure was recorded for (when their
# scenario ran, the row says so; a scenario left out by --only is left out of the table).
print_table() {
  local row figure value target status
  printf '%-34s %-46s %12s  %-18s %s\n' scenario "what" figure target ""
  for row in "${bench_rows[@]}"; do
    figure=${row%%|*} value=${row#*|}
    target=${bench_targets[$figure]:-}
    if [[ "$value" == FAILED* ]]; then
      status=FAILED
    elif [ -n "$target" ]; then
      status=$(verdict "$value" "$target")
    else
      status="—"
    fi
    printf '%-34s %-46s %12s  %-18s %s\n' "$figure" "${bench_meanings[$figure]:-}" "$value" "${target:-—}" "$status"
  done
}
