import Foundation
import Synchronization
import Testing
@testable import Quarry
import QuarryTestSupport

/// A rerun of an import that was stopped saves only the chunks still missing, and a file
/// imported whole is refused instead of duplicated (issue 34, item 0e: a killed import left
/// its saved chunks unmarked, so a rerun duplicated them).
@Suite("Import: a rerun resumes or refuses, by the chunks' history marks")
struct ImportResumeTests {
    func csv(rows: Int) -> String {
        "name,employees\n" + (0..<rows).map { "C\($0),\($0 % 1000)\n" }.joined()
    }

    /// Imports `url` with chunks of 10 rows, cancelled once `stopAfter` rows are saved.
    func importStopped(_ f: ImportFixture, _ url: URL, stopAfter: Int) -> ImportSummary? {
        let box = Mutex<ImportOperation?>(nil)
        let op = ImportOperation(stack: f.stack, entityName: "Company", fileURL: url, options: .init(chunkSize: 10)) { p in
            if p.phase == .inserting && p.rowsDone >= stopAfter { box.withLock { $0?.cancel() } }
        }
        box.withLock { $0 = op }
        let queue = OperationQueue()
        queue.addOperation(op)
        queue.waitUntilAllOperationsAreFinished()
        box.withLock { $0 = nil }
        return op.result?.summary
    }

    /// Every company name in the store, sorted.
    func names(_ f: ImportFixture) throws -> [String] {
        let context = f.stack.mainContext
        return try context.performAndWait {
            try context.fetch(FetchRequest(entityName: "Company")).map { object -> String in
                guard case .string(let name) = try object.value(forKey: "name") else { return "" }
                return name
            }.sorted()
        }
    }

    @Test("a rerun after a stopped import saves only the chunks still missing: every row once")
    func rerunResumes() throws {
        let f = try ImportFixture()
        let url = f.write(csv(rows: 35), to: "data.csv")
        let stopped = try #require(importStopped(f, url, stopAfter: 20))
        #expect(stopped.wasCancelled && stopped.rowsImported == 20)
        let rerun = try ImportOperation(stack: f.stack, entityName: "Company", fileURL: url, options: .init(chunkSize: 10)).run()
        #expect(rerun.rowsAlreadySaved == 20)
        #expect(rerun.rowsImported == 15 && rerun.chunksSaved == 2)
        #expect(try names(f) == (0..<35).map { "C\($0)" }.sorted())
    }

    @Test("a file imported whole is refused with its row and chunk counts; --again imports it once more")
    func wholeFileRefused() throws {
        let f = try ImportFixture()
        let url = f.write(csv(rows: 25), to: "data.csv")
        _ = try ImportOperation(stack: f.stack, entityName: "Company", fileURL: url, options: .init(chunkSize: 10)).run()
        #expect(throws: ImportError.alreadyImported(file: url.path, entity: "Company", rows: 25, chunks: 3)) {
            try ImportOperation(stack: f.stack, entityName: "Company", fileURL: url, options: .init(chunkSize: 10)).run()
        }
        #expect(try names(f).count == 25)
        var again = ImportOperation.Options(chunkSize: 10)
        again.importsAgain = true
        #expect(try ImportOperation(stack: f.stack, entityName: "Company", fileURL: url, options: again).run().rowsImported == 25)
        #expect(try names(f).count == 50)
    }

    @Test("another file, another entity or other content is not taken for an earlier import")
    func marksAreSpecific() throws {
        let f = try ImportFixture()
        _ = try ImportOperation(stack: f.stack, entityName: "Company", fileURL: f.write(csv(rows: 12), to: "a.csv"), options: .init(chunkSize: 10)).run()
        let changed = f.write("name,employees\n" + (0..<12).map { "D\($0),1\n" }.joined(), to: "a.csv")
        #expect(try ImportOperation(stack: f.stack, entityName: "Company", fileURL: changed, options: .init(chunkSize: 10)).run().rowsImported == 12)
        let sectors = f.write("name\nTech\n", to: "s.csv")
        #expect(try ImportOperation(stack: f.stack, entityName: "Sector", fileURL: sectors).run().rowsImported == 1)
        #expect(try names(f).count == 24)
    }
}
