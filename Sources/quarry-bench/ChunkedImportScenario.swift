import Foundation
import Quarry

/// Scenario `chunked-import`: RTCoreDataStack's continuous import (issue 35, item 11). A
/// stack's importer context saves `n` rows (default 2,000,000) in chunks of `chunk` (default
/// 10,000), resetting the context after each save as RT prescribes, while the stack merges
/// every save into its main context on the main queue. Resident memory is read after each
/// save; the figure is its largest rise over the level after the first 100,000 rows (target:
/// at most 50 MB), so memory that grows with the rows imported shows as a figure that grows
/// with `n`.
func runChunkedImportScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 2_000_000)
    let chunk = max(1, args.int("chunk", default: 10_000))
    let dir = try benchDirectory()
    let url = dir.appendingPathComponent("chunked.sqlite")
    print("chunked-import: \(n) rows through a stack's importer context, saved and reset every \(chunk), merged into the main context")
    runRoundsOffTheMainQueue(scenario: "chunked-import", cleanUp: { try? FileManager.default.removeItem(at: dir) }) {
        try chunkedImport(url: url, n: n, chunk: chunk)
    }
}

private func chunkedImport(url: URL, n: Int, chunk: Int) throws {
    let stack = try PersistentStack(model: sixAttributeModel, storeURL: url)
    let importer = stack.importerContext()
    let baselineAfter = min(100_000, n / 2)
    var baseline: Int?
    var peakRise = 0
    var written = 0
    let start = Date()
    while written < n {
        let count = min(chunk, n - written)
        try importer.performAndWait {
            for i in written..<(written + count) {
                let row = try importer.insertObject(entityName: "Row")
                try row.setValues([
                    "a": .integer(Int64(i)), "b": .double(Double(i) * 0.5), "c": .string("name-\(i)"),
                    "d": .bool(i & 1 == 1), "e": .date(Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(i))),
                    "f": .string("category \(i % 97)"),
                ])
            }
            try importer.save()
            importer.reset()
        }
        written += count
        let resident = residentBytes()
        if let base = baseline {
            peakRise = max(peakRise, resident - base)
        } else if written >= baselineAfter {
            baseline = resident
            print("  resident after \(written) rows: \(resident / 1_048_576) MB")
        }
    }
    // The main context has merged every save before the figure is taken.
    try DispatchQueue.main.sync {
        let merged = try stack.mainContext.count(ofEntity: "Row")
        guard merged == n else { throw BenchError.check("the store holds \(merged) rows, not \(n)") }
    }
    let seconds = Date().timeIntervalSince(start)
    print("  \(n) rows in \(String(format: "%.1f", seconds)) s (\(Int(Double(n) / seconds)) rows/s); resident at the end: \(residentBytes() / 1_048_576) MB")
    print("figure chunked-import-growth-mb \(String(format: "%.1f", Double(peakRise) / 1_048_576))")
}
