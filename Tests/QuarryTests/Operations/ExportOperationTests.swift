import Foundation
import Synchronization
import Testing
@testable import Quarry
import QuarryTestSupport

/// A store of `count` tickers `T00001`… with prices `i`, spread over five sectors.
func exportStack(_ directory: TemporaryDirectory, count: Int) throws -> PersistentStack {
    let stack = try PersistentStack(model: TestModels.tickers(), storeURL: directory.file("export.sqlite"))
    let context = stack.importerContext()
    try context.performAndWait {
        let sectors = try (0..<5).map { i -> ManagedObject in
            let s = try context.insertObject(entityName: "Sector")
            s["name"] = .string("Sector \(i)")
            return s
        }
        for i in 0..<count {
            let t = try context.insertObject(entityName: "Ticker")
            t["symbol"] = .string(String(format: "T%05d", i))
            t["price"] = .double(Double(i))
            try t.setObject(sectors[i % 5], forKey: "sector")
        }
        try context.save()
    }
    return stack
}

/// The files left in `directory` other than the store's.
func strayFiles(in directory: TemporaryDirectory) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { !$0.hasPrefix("export.sqlite") }.sorted()
}

@Suite("Export operation: batches, temporary file and rename, cancellation, progress")
struct ExportOperationTests {
    @Test("an export writes the selected objects in order and leaves no temporary file")
    func exportsFile() async throws {
        let directory = TemporaryDirectory()
        let stack = try exportStack(directory, count: 20)
        let url = directory.file("out.csv")
        let export = ExportOperation(stack: stack, entityName: "Ticker",
                                     predicate: try ObjectPredicate(format: "price >= 15"),
                                     sortDescriptors: [SortKey("price", ascending: false)],
                                     destination: .file(url),
                                     formatter: CSVFormatter(columns: ["symbol", "price", "sector.name"], lineEnding: "\n"))
        try await export.run(on: OperationQueue())
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text == """
            symbol,price,sector.name
            T00019,19.0,Sector 4
            T00018,18.0,Sector 3
            T00017,17.0,Sector 2
            T00016,16.0,Sector 1
            T00015,15.0,Sector 0

            """)
        #expect(try strayFiles(in: directory) == ["out.csv"])
        #expect(export.statistics.rowsWritten == 5)
    }

    @Test("a few thousand rows in small batches: the context never holds more than a batch and its sectors")
    func batchesBoundTheContext() async throws {
        let directory = TemporaryDirectory()
        let stack = try exportStack(directory, count: 3_000)
        let url = directory.file("all.jsonl")
        // A to-many column needs objects: this export takes the object path.
        let export = ExportOperation(stack: stack, entityName: "Ticker", sortDescriptors: [SortKey("symbol")],
                                     destination: .file(url),
                                     formatter: JSONFormatter(layout: .lines, columns: ["symbol", "sector.name", ExportColumn("quotes", toMany: .count)]))
        export.batchSize = 64
        try await export.run(on: OperationQueue())
        let stats = export.statistics
        #expect(stats.rowsWritten == 3_000)
        #expect(stats.batches == (3_000 + 63) / 64)
        #expect(stats.largestRegisteredObjectCount > 0)
        #expect(stats.largestRegisteredObjectCount <= 64 + 5)
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3_000)
        #expect(lines.first == #"{"symbol":"T00000","sector.name":"Sector 0","quotes":0}"#)
        #expect(lines.last == #"{"symbol":"T02999","sector.name":"Sector 4","quotes":0}"#)
        let context = try #require(export.threadContext)
        #expect(context.performAndWait { context.registeredObjectCount } == 0)
    }

    @Test("cancelling mid-export leaves no file, no temporary file, and an existing destination untouched")
    func cancellationLeavesNoFile() async throws {
        let directory = TemporaryDirectory()
        let stack = try exportStack(directory, count: 500)
        for existing in [false, true] {
            let url = directory.file("cancelled.csv")
            if existing { try Data("old contents\n".utf8).write(to: url) }
            let export = ExportOperation(stack: stack, entityName: "Ticker", destination: .file(url), formatter: CSVFormatter())
            export.batchSize = 10
            let reports = Mutex<[ExportOperation.Progress]>([])
            export.progressHandler = { [unowned export] progress in
                reports.withLock { $0.append(progress) }
                if progress.rowsDone >= 100 { export.cancel() }
            }
            await #expect(throws: ContextOperationError.cancelled(operation: "ExportOperation")) {
                try await export.run(on: OperationQueue())
            }
            #expect(reports.withLock { $0.last } == ExportOperation.Progress(rowsDone: 100, totalRows: 500))
            if existing {
                #expect(try String(contentsOf: url, encoding: .utf8) == "old contents\n")
                #expect(try strayFiles(in: directory) == ["cancelled.csv"])
                try FileManager.default.removeItem(at: url)
            } else {
                #expect(try strayFiles(in: directory).isEmpty)
            }
        }
    }

    @Test("a failing export (an unknown column) leaves no file behind")
    func failureLeavesNoFile() async throws {
        let directory = TemporaryDirectory()
        let stack = try exportStack(directory, count: 10)
        let export = ExportOperation(stack: stack, entityName: "Ticker", destination: .file(directory.file("bad.csv")),
                                     formatter: CSVFormatter(columns: ["symbol", "nope"]))
        await #expect(throws: ExportError.self) { try await export.run(on: OperationQueue()) }
        #expect(try strayFiles(in: directory).isEmpty)
    }

    @Test("a destination in a missing folder fails naming the file")
    func missingFolder() async throws {
        let directory = TemporaryDirectory()
        let stack = try exportStack(directory, count: 1)
        let url = directory.url.appendingPathComponent("no/such/dir/out.csv")
        let export = ExportOperation(stack: stack, entityName: "Ticker", destination: .file(url), formatter: CSVFormatter())
        do {
            try await export.run(on: OperationQueue())
            Issue.record("the export should fail")
        } catch let error as ExportError {
            #expect("\(error)".contains(url.path))
        }
    }

    @Test("progress goes from 0 to the total, once per batch")
    func progress() async throws {
        let directory = TemporaryDirectory()
        let stack = try exportStack(directory, count: 25)
        let export = ExportOperation(stack: stack, entityName: "Ticker", destination: .file(directory.file("p.csv")), formatter: CSVFormatter())
        export.batchSize = 10
        let reports = Mutex<[Int]>([])
        export.progressHandler = { p in reports.withLock { $0.append(p.rowsDone) }; #expect(p.totalRows == 25) }
        try await export.run(on: OperationQueue())
        #expect(reports.withLock { $0 } == [0, 10, 20, 25])
    }

    @Test("a file-handle destination (standard output) is written in place")
    func fileHandleDestination() async throws {
        let directory = TemporaryDirectory()
        let stack = try exportStack(directory, count: 3)
        let url = directory.file("handle.json")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        let export = ExportOperation(stack: stack, entityName: "Ticker", destination: .fileHandle(handle, name: "<test>"),
                                     formatter: JSONFormatter(layout: .array, columns: ["symbol"]))
        try await export.run(on: OperationQueue())
        try handle.close()
        #expect(try String(contentsOf: url, encoding: .utf8) == "[\n{\"symbol\":\"T00000\"},\n{\"symbol\":\"T00001\"},\n{\"symbol\":\"T00002\"}\n]\n")
        #expect(try strayFiles(in: directory) == ["handle.json"])
    }

    @Test("single-valued columns are read straight from the store, in batches, with the same text as from objects")
    func valuePathMatchesObjectPath() async throws {
        let directory = TemporaryDirectory()
        let stack = try exportStack(directory, count: 1_000)
        let columns: [ExportColumn] = ["symbol", "price", "volume", "active", "listed", "name", "sector.name", "sector", "tags.@count"]
        let url = directory.file("values.csv")
        let export = ExportOperation(stack: stack, entityName: "Ticker", sortDescriptors: [SortKey("price", ascending: false)],
                                     destination: .file(url), formatter: CSVFormatter(columns: columns))
        export.batchSize = 100
        try await export.run(on: OperationQueue())
        #expect(export.statistics.batches == 10)
        #expect(export.statistics.largestRegisteredObjectCount == 0)
        let context = stack.importerContext()
        let expected = try context.performAndWait {
            let objects = try context.fetch(FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("price", ascending: false)]))
            return try formatted(CSVFormatter(columns: columns), objects)
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == expected)
    }
}
