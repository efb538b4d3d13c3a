import Foundation
import GRDB
import Quarry


private let exportColumns = ["a", "b", "c", "d", "e", "f", "g"]

/// Scenario `export`: `n` rows (default 1,000,000) of 7 columns to CSV through an
/// `ExportOperation`, vs `sqlite3 -csv` selecting the same columns in the same (primary-key)
/// order into a file. Best of `--rounds` (default 3) per side, interleaved. Quarry's peak
/// memory is the rise of the process's VmHWM during the export, after resetting it through
/// `/proc/self/clear_refs` (the stack is open before; the row data never lives in this
/// process: the store is filled in SQL).
func runExportScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000_000)
    let rounds = args.int("rounds", default: 3)
    let batch = args.int("batch", default: 1_000)
    let dir = try benchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let storeURL = dir.appendingPathComponent("export.sqlite")
    let model = sevenColumnRowModel
    try fillExportStore(url: storeURL, model: model, count: n)
    print("export: \(n) rows of 7 columns (\(exportColumns.joined(separator: ", "))) to CSV, primary-key order, batches of \(batch)")

    let sqlite3 = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/bin/sqlite3"].first { FileManager.default.isExecutableFile(atPath: $0) }
    if sqlite3 == nil { print("  sqlite3 not found: the sqlite3 side is skipped (install the sqlite3 command-line shell)") }
    var quarry = Double.infinity, cli = Double.infinity
    var peak = 0
    for r in 0..<rounds {
        let (seconds, memory) = try quarryExport(store: storeURL, model: model, to: dir.appendingPathComponent("quarry\(r).csv"), batch: batch)
        quarry = min(quarry, seconds)
        peak = max(peak, memory)
        let lines = try countLines(dir.appendingPathComponent("quarry\(r).csv"))
        guard lines == n + 1 else { throw BenchError.check("quarry wrote \(lines) lines, expected \(n + 1)") }
        if let sqlite3 {
            let out = dir.appendingPathComponent("sqlite3-\(r).csv")
            cli = min(cli, try sqlite3Export(sqlite3, store: storeURL, to: out))
            let cliLines = try countLines(out)
            guard cliLines == n + 1 else { throw BenchError.check("sqlite3 wrote \(cliLines) lines, expected \(n + 1)") }
            try? FileManager.default.removeItem(at: out)
        }
        try? FileManager.default.removeItem(at: dir.appendingPathComponent("quarry\(r).csv"))
    }
    report("quarry ExportOperation", n: n, seconds: quarry)
    if sqlite3 != nil { report("sqlite3 -csv", n: n, seconds: cli) }
    print("  quarry peak memory during the export: \(String(format: "%.1f", Double(peak) / 1_048_576)) MB (VmHWM rise; target ≤ 50 MB)")
    if sqlite3 != nil { ratio("export", cli / quarry) }
}

/// Creates the store with Quarry (schema, metadata, one row), then adds the other rows in one
/// SQL statement, so building it costs seconds and no memory in this process.
private func fillExportStore(url: URL, model: ManagedObjectModel, count: Int) throws {
    do {
        let stack = try PersistentStack(model: model, storeURL: url)
        let context = stack.importerContext()
        try context.performAndWait {
            let row = try context.insertObject(entityName: "Row")
            row["a"] = .integer(0); row["b"] = .double(0); row["c"] = .string("name-0"); row["d"] = .bool(true)
            row["e"] = .date(Date(timeIntervalSinceReferenceDate: 700_000_000)); row["f"] = .string("category 0"); row["g"] = .integer(0)
            try context.save()
        }
    }
    guard count > 1 else { return }
    let queue = try DatabaseQueue(path: url.path)
    try queue.write { db in
        try db.execute(sql: """
            INSERT INTO "Row" (Z_ENT, Z_OPT, a, b, c, d, e, f, g)
            WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?)
            SELECT (SELECT Z_ENT FROM "Row" LIMIT 1), 1, i, i * 0.25, 'name-' || i, i % 3 = 0,
                   700000000 + i + (i % 10) * 0.125, 'category "' || (i % 97) || '", with comma', i % 1000
            FROM s
            """, arguments: [count - 1])
    }
}

/// One Quarry export: seconds, and the VmHWM rise in bytes.
private func quarryExport(store: URL, model: ManagedObjectModel, to out: URL, batch: Int) throws -> (Double, Int) {
    let stack = try PersistentStack(model: model, storeURL: store)
    let columns = exportColumns.map { ExportColumn($0) }
    let export = ExportOperation(stack: stack, entityName: "Row", destination: .file(out), formatter: CSVFormatter(columns: columns))
    export.batchSize = batch
    let queue = OperationQueue()
    let baseline = try resetPeakMemory()
    let seconds = measure {
        queue.addOperation(export)
        queue.waitUntilAllOperationsAreFinished()
    }
    let peak = try memoryStatus("VmHWM")
    if let error = export.error { throw error }
    return (seconds, max(0, peak - baseline))
}

/// Runs `sqlite3 -csv -header STORE "SELECT …"` with its output in `out`; seconds.
private func sqlite3Export(_ executable: String, store: URL, to out: URL) throws -> Double {
    guard FileManager.default.createFile(atPath: out.path, contents: nil) else { throw BenchError.check("cannot create \(out.path)") }
    let handle = try FileHandle(forWritingTo: out)
    defer { try? handle.close() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    // A busy timeout as GRDB connections have (the CLI has none), for locks of a moment.
    process.arguments = ["-csv", "-header", "-cmd", ".timeout 5000", store.path, "SELECT \(exportColumns.joined(separator: ", ")) FROM \"Row\" ORDER BY Z_PK"]
    process.standardOutput = handle
    let seconds = try measure {
        try process.run()
        process.waitUntilExit()
    }
    guard process.terminationStatus == 0 else { throw BenchError.check("sqlite3 exited with status \(process.terminationStatus)") }
    return seconds
}

/// Resets the process's peak resident size to its current size (Linux `clear_refs` 5) and
/// returns that size in bytes.
private func resetPeakMemory() throws -> Int {
    try Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
    return try memoryStatus("VmRSS")
}

/// A `kB` field of `/proc/self/status`, in bytes.
private func memoryStatus(_ field: String) throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
          let kB = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else {
        throw BenchError.check("no \(field) in /proc/self/status")
    }
    return kB * 1024
}

private func countLines(_ url: URL) throws -> Int {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    var lines = 0
    while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
        lines += chunk.withUnsafeBytes { bytes in bytes.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } }
    }
    return lines
}
