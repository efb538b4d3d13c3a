import Foundation
import Quarry
import QuarryDemo

/// Options shared by the scenarios (`--n 100000`, `--scale 1000000`).
struct BenchArguments {
    var values: [String: Int] = [:]

    init(_ args: [String]) throws {
        var i = 0
        while i < args.count {
            guard args[i].hasPrefix("--"), i + 1 < args.count, let v = Int(args[i + 1]) else {
                throw BenchError.usage("unexpected argument '\(args[i])' (options take a number: --n 100000)")
            }
            values[String(args[i].dropFirst(2))] = v
            i += 2
        }
    }

    func int(_ key: String, default d: Int) -> Int { values[key] ?? d }
}

enum BenchError: Error, CustomStringConvertible {
    case usage(String)
    case sqlite(String)
    case check(String)

    var description: String {
        switch self {
        case .usage(let s), .sqlite(let s), .check(let s): return s
        }
    }
}

/// Wall-clock seconds taken by `body`.
func measure(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// A fresh temporary folder for one scenario's files.
func benchDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func report(_ label: String, n: Int, seconds: Double) {
    let rate = Double(n) / seconds
    print("  \(label.padding(toLength: 26, withPad: " ", startingAt: 0)) n=\(n)  \(String(format: "%8.3f", seconds)) s  \(String(format: "%10.0f", rate)) rows/s  \(String(format: "%6.2f", seconds / Double(n) * 1e6)) µs/row")
}

/// The `p` quantile of `xs` (0.5: the median; the upper middle of an even count), by the
/// nearest rank rounded up.
func percentile(_ xs: [Double], _ p: Double) -> Double {
    let sorted = xs.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded(.up)))]
}

/// A new bench folder holding `demo.sqlite`, seeded with `rows` demo tickers: the folder, the
/// store's URL, the demo model and the seconds the seeding took.
func seededDemoStore(rows: Int) throws -> (dir: URL, url: URL, model: ManagedObjectModel, seconds: Double) {
    let dir = try benchDirectory()
    let url = dir.appendingPathComponent("demo.sqlite")
    let model = try DemoModel.make()
    let seconds = try measure { try DemoSeeder(coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: model))).seed(rows: rows) }
    return (dir, url, model, seconds)
}

/// Runs `rounds` on another thread while the main thread serves the main queue (where the
/// scenario's main context and observers deliver), then ends the process: status 0 when
/// `rounds` returns, 1 (its error on stderr, after `scenario`'s name) when it throws;
/// `cleanUp` runs either way.
func runRoundsOffTheMainQueue(scenario: String, cleanUp: @escaping @Sendable () -> Void,
                              _ rounds: @escaping @Sendable () throws -> Void) -> Never {
    DispatchQueue.global().async {
        do {
            try rounds()
            cleanUp()
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("quarry-bench \(scenario): \(error)\n".utf8))
            cleanUp()
            exit(1)
        }
    }
    dispatchMain()
}

func ratio(_ name: String, _ value: Double) {
    print("ratio \(name) \(String(format: "%.3f", value))")
}

/// The seven-attribute entity `Row` of the export and import-csv benchmarks, in the files'
/// column order: a Int64, b Double, c String, d Bool, e Date, f String, g Int32.
let sevenColumnRowModel: ManagedObjectModel = {
    var b = ModelBuilder()
    b.entity("Row") { e in
        e.attribute("a", .integer64)
        e.attribute("b", .double)
        e.attribute("c", .string)
        e.attribute("d", .boolean)
        e.attribute("e", .date)
        e.attribute("f", .string)
        e.attribute("g", .integer32)
    }
    return try! b.build()
}()
