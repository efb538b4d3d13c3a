import Foundation

// quarry-bench SCENARIO: side-by-side benchmarks, each ending with `ratio NAME VALUE` lines
// (higher is better). Release builds only: `swift run -c release quarry-bench import`.

var scenarios: [String: (BenchArguments) throws -> Void] = [
    "import": runImportScenario,
    "fetch-ids": runFetchIDsScenario,
    "frc-update": runFRCUpdateScenario,
    "frc-update-rounds": runFRCUpdateRoundsScenario,
    "frc-fetch": runFRCFetchScenario,
    "frc-vs-grdb": runFRCVersusGRDBScenario,
    "import-live": runImportLiveScenario,
    "migrate-add": runMigrateAddScenario,
    "migrate-copy": runMigrateCopyScenario,
    "import-csv": runImportCSVScenario,
    "export": runExportScenario,
    "history-cost": runHistoryCostScenario,
    "remote-merge": runRemoteMergeScenario,
    "filter-scale": runFilterScaleScenario,
    "outside-write": runOutsideWriteScenario,
    "chunked-import": runChunkedImportScenario,
    "batch-delete": runBatchDeleteScenario,
    "batch-update": runBatchUpdateScenario,
    "undo-cost": runUndoCostScenario,
    "batch-merge": runBatchMergeScenario,
    "aggregate": runAggregateScenario,
    "aggregate-update": runAggregateUpdateScenario,
    "derived-cost": runDerivedCostScenario,
    "freq-first-screen": runFrequencyFirstScreenScenario,
    "freq-live": runFrequencyLiveScenario,
    "follow-hop": runFollowHopScenario,
]
// PostgreSQL: a server from QUARRY_BENCH_POSTGRES_URL (or QUARRY_TEST_POSTGRES_URL).
scenarios["pg-import"] = runPGImportScenario
scenarios["pg-remote-merge"] = runPGRemoteMergeScenario
scenarios["pg-foreign-live"] = runPGForeignLiveScenario
scenarios["pg-scale"] = runPGScaleScenario

let arguments = Array(CommandLine.arguments.dropFirst())
// The second process of `remote-merge` (it takes a path, not only numbers).
if arguments.first == "remote-merge-writer" {
    do { try runRemoteMergeWriter(Array(arguments.dropFirst())) } catch {
        FileHandle.standardError.write(Data("quarry-bench remote-merge-writer: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
// The many-entity model of scripts/bench-commands.sh (a path, not a scenario).
if arguments.first == "write-scale-model" {
    do { try ScaleModel.write(Array(arguments.dropFirst())) } catch {
        FileHandle.standardError.write(Data("quarry-bench write-scale-model: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
// The second process of `pg-remote-merge` (it takes a URL).
if arguments.first == "pg-remote-merge-writer" {
    do { try runPGRemoteMergeWriter(Array(arguments.dropFirst())) } catch {
        FileHandle.standardError.write(Data("quarry-bench pg-remote-merge-writer: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
// The writer processes of `pg-scale`.
if arguments.first == "pg-scale-writer" {
    do { try runPGScaleWriter(Array(arguments.dropFirst())) } catch {
        FileHandle.standardError.write(Data("quarry-bench pg-scale-writer: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
guard let name = arguments.first, let scenario = scenarios[name] else {
    print("usage: quarry-bench SCENARIO [--n N] [--scale N]\nscenarios: \(scenarios.keys.sorted().joined(separator: ", "))")
    exit(arguments.isEmpty ? 0 : 2)
}
#if DEBUG
print("warning: debug build; figures are only meaningful with -c release")
#endif
do {
    try scenario(BenchArguments(Array(arguments.dropFirst())))
} catch {
    FileHandle.standardError.write(Data("quarry-bench \(name): \(error)\n".utf8))
    exit(1)
}
