import Foundation
import Quarry

/// Scenario `undo-cost`: the `import` scenario's Quarry side (n rows, default 100,000, saved
/// every 5,000) with an undo manager on the importer context vs without, into fresh SQLite
/// files, sides interleaved, best of `rounds` each. `ratio undo-cost` is the time without
/// over the time with (1.0: recording costs nothing). The recorded import is then undone
/// whole and saved, and the store checked empty, so the figure is for an undo that works.
func runUndoCostScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 100_000)
    let chunk = args.int("chunk", default: 5_000)
    let rounds = args.int("rounds", default: 3)
    let dir = try benchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let data = RowData(count: n)
    print("undo-cost: \(n) objects of a 6-attribute entity, transactions of \(chunk), undo manager off vs on")
    var off = Double.infinity, on = Double.infinity
    for r in 0..<rounds {
        let plain = try SQLiteStore(url: dir.appendingPathComponent("off\(r).sqlite"), model: sixAttributeModel)
        off = min(off, try timedImport(into: plain, n: n, chunk: chunk, data: data))
        let recorded = try SQLiteStore(url: dir.appendingPathComponent("on\(r).sqlite"), model: sixAttributeModel)
        on = min(on, try timedImport(into: recorded, n: n, chunk: chunk, data: data, undoManager: true))
    }
    print("  (best of \(rounds) rounds per side)")
    report("importer, no undo manager", n: n, seconds: off)
    report("importer, undo manager on", n: n, seconds: on)
    let undone = try undoWholeImport(n: min(n, 20_000), chunk: chunk, data: data, url: dir.appendingPathComponent("undo.sqlite"))
    print(String(format: "  undoing an import of %d rows and saving: %.3f s", min(n, 20_000), undone))
    ratio("undo-cost", off / on)
}

/// Imports `n` rows with an undo manager in one group, undoes the group, saves, and checks
/// that the store is empty; returns the seconds the undo and its save took.
private func undoWholeImport(n: Int, chunk: Int, data: RowData, url: URL) throws -> Double {
    let store = try SQLiteStore(url: url, model: sixAttributeModel)
    let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "writer"), name: "importer")
    context.performAndWait { context.undoManager = ContextUndoManager() }
    try context.performAndWait {
        for k in 0..<n {
            let row = try context.insert(BenchRow.self)
            row[BenchRow.a] = data.a[k]; row[BenchRow.c] = data.c[k]
            if (k + 1) % chunk == 0 { try context.save() }
        }
        try context.save()
    }
    let seconds = try measure {
        try context.performAndWait {
            try context.undo()
            try context.save()
        }
    }
    let left = try context.performAndWait { try context.count(ofEntity: "Row") }
    guard left == 0 else { throw BenchError.check("after undoing the import \(left) rows are left, expected none") }
    return seconds
}
