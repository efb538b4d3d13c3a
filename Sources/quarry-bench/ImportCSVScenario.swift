import Foundation
import Quarry


/// Writes `n` rows of `a,b,c,d,e,f,g` (integer, double, text, boolean, ISO 8601 date, text,
/// integer) with a header, in 1 MB blocks.
private func writeCSV(rows n: Int, to url: URL) throws {
    FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var block = "a,b,c,d,e,f,g\n"
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    let base = Date(timeIntervalSince1970: 1_600_000_000)
    for i in 0..<n {
        // One formatted date per 1,000 rows plus whole seconds keeps generation cheap.
        let date = formatter.string(from: base.addingTimeInterval(Double(i / 1000 * 1000)))
        block += "\(i),\(Double(i) * 0.25),name-\(i),\(i % 3 == 0 ? "true" : "false"),\(date),\"category, \(i % 97)\",\(i % 10_000)\n"
        if block.utf8.count > 1 << 20 {
            try handle.write(contentsOf: Data(block.utf8))
            block = ""
        }
    }
    try handle.write(contentsOf: Data(block.utf8))
}

/// Scenario `import-csv`: a 1,000,000-row, 7-column CSV imported into a new store by
/// ``ImportOperation`` (validation pass + chunked insert pass) vs the sqlite3 CLI's `.import`
/// into a table of the same shape. `ratio import-csv` = sqlite3 time / Quarry time (≥ 0.3).
func runImportCSVScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000_000)
    let chunk = args.int("chunk", default: 5_000)
    let rounds = args.int("rounds", default: 1)
    let dir = try benchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let csv = dir.appendingPathComponent("rows.csv")
    try writeCSV(rows: n, to: csv)
    let size = (try? FileManager.default.attributesOfItem(atPath: csv.path)[.size] as? Int) ?? 0
    print("import-csv: \(n) rows, 7 columns, \(size / 1_000_000) MB of CSV; Quarry chunks of \(chunk)")

    let model = sevenColumnRowModel
    var quarry = Double.infinity
    for r in 0..<rounds {
        var options = PersistentStack.Options()
        options.storeURL = dir.appendingPathComponent("quarry\(r).sqlite")
        // No UI reads the main context here, and the main queue is busy running this loop: merged
        // chunks would only queue up on it until the end.
        options.mergesIncomingSavedObjects = args.int("merge", default: 0) > 0
        let stack = try PersistentStack(model: model, options: options)
        let op = ImportOperation(stack: stack, entityName: "Row", fileURL: csv, options: .init(format: .csv, chunkSize: chunk))
        var summary: ImportSummary?
        let seconds = try measure { summary = try op.run() }
        guard summary?.rowsImported == n else { throw BenchError.check("quarry imported \(summary?.rowsImported ?? 0) rows, expected \(n)") }
        quarry = min(quarry, seconds)
    }
    if args.int("profile", default: 0) > 0 { report("quarry ImportOperation", n: n, seconds: quarry); return }

    guard let sqlite3 = sqlite3Path() else {
        report("quarry ImportOperation", n: n, seconds: quarry)
        print("  sqlite3 not found on PATH: skipping the side-by-side run (no ratio)")
        return
    }
    var raw = Double.infinity
    for r in 0..<rounds {
        raw = min(raw, try sqliteImport(sqlite3, csv: csv, db: dir.appendingPathComponent("sqlite\(r).sqlite"), rows: n))
    }
    print("  (best of \(rounds) round(s) per side)")
    report("quarry ImportOperation", n: n, seconds: quarry)
    report("sqlite3 .import", n: n, seconds: raw)
    ratio("import-csv", raw / quarry)
}

private func sqlite3Path() -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
        let path = "\(dir)/sqlite3"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

/// Runs `sqlite3 DB` with `commands` on stdin; throws with its stderr when it fails.
private func runSQLite(_ sqlite3: String, db: URL, _ commands: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: sqlite3)
    process.arguments = ["-csv", "-bail", db.path]
    let input = Pipe(), errors = Pipe()
    process.standardInput = input
    process.standardError = errors
    try process.run()
    input.fileHandleForWriting.write(Data(commands.utf8))
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    guard process.terminationStatus == 0, message.isEmpty else { throw BenchError.sqlite("sqlite3: \(message)") }
}

/// The time of `.import` alone into a table created first (the process start is measured too:
/// a few milliseconds).
private func sqliteImport(_ sqlite3: String, csv: URL, db: URL, rows n: Int) throws -> Double {
    try runSQLite(sqlite3, db: db, "CREATE TABLE \"Row\" (a INTEGER, b REAL, c TEXT, d INTEGER, e TEXT, f TEXT, g INTEGER);\n")
    let seconds = try measure { try runSQLite(sqlite3, db: db, ".import --skip 1 '\(csv.path)' Row\n") }
    let count = Process()
    count.executableURL = URL(fileURLWithPath: sqlite3)
    count.arguments = [db.path, "SELECT count(*) FROM \"Row\";"]
    let out = Pipe()
    count.standardOutput = out
    try count.run()
    count.waitUntilExit()
    let stored = Int(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    guard stored == n else { throw BenchError.check("sqlite3 stored \(stored) rows, expected \(n)") }
    return seconds
}
