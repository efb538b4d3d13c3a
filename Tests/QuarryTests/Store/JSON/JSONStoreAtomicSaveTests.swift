import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("JSON store: atomic saves")
struct JSONStoreAtomicSaveTests {
    /// A store with two sectors and a ticker (generation 2), and the change that the test
    /// interrupts: a new ticker, a renamed sector, a deleted sector, a moved ticker.
    func change(_ store: JSONStore) throws {
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store))
        try context.performAndWait {
            let sectors = try context.fetch(FetchRequest(entityName: "Sector", sortDescriptors: [SortKey("name")]), as: Sector.self)
            let ticker = try #require(try context.fetch(FetchRequest(entityName: "Ticker"), as: Ticker.self).first)
            sectors[0].name = "Energy 2"
            ticker.sector = sectors[0]
            context.delete(sectors[1])
            let bolt = try context.insert(Ticker.self); bolt.symbol = "BOLT"; bolt.sector = sectors[0]
            try context.save()
        }
    }

    func makeOld(_ url: URL) throws -> JSONStore {
        let store = try JSONStore(url: url, model: TestModels.tickers())
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store))
        try context.performAndWait {
            let energy = try context.insert(Sector.self); energy.name = "Energy"
            let tech = try context.insert(Sector.self); tech.name = "Tech"
            let acme = try context.insert(Ticker.self); acme.symbol = "ACME"; acme.sector = tech
            try context.save()
        }
        return store
    }

    @Test("a crash after any step of a save leaves the old store or the new one, whole; the next open tidies up")
    func crashAtEveryStep() throws {
        let directory = TemporaryDirectory()
        // The two states the folder may read as.
        let reference = directory.file("reference.jsonstore")
        let old = try JSONStoreTesting.contents(of: makeOld(reference))
        try change(try JSONStore(url: reference, model: TestModels.tickers()))
        let new = try JSONStoreTesting.contents(of: JSONStore(url: reference))
        #expect(old != new)
        var step = 0
        var sawOld = false, sawNew = false
        while true {
            let url = directory.file("crash-\(step).jsonstore")
            let store = try makeOld(url)
            store.crashAfterFileSteps.store(step, ordering: .sequentiallyConsistent)
            do {
                try change(store)
            } catch let error as SimulatedCrash {
                #expect(error.step == step)
                // A read-only open reads a whole generation and writes nothing.
                let before = JSONStoreTesting.fingerprint(url)
                let readOnly = try JSONStoreTesting.contents(of: JSONStore(url: url, model: nil, readOnly: true))
                #expect(JSONStoreTesting.fingerprint(url) == before, "step \(step): a read-only open wrote")
                #expect(readOnly == old || readOnly == new, "step \(step): neither old nor new")
                // A writable open reads the same and puts the folder back in order.
                let reopened = try JSONStoreTesting.contents(of: JSONStore(url: url))
                #expect(reopened == readOnly, "step \(step)")
                sawOld = sawOld || reopened == old
                sawNew = sawNew || reopened == new
                #expect(JSONStoreTesting.fileNames(url) == JSONStoreTesting.fileNames(reference), "step \(step): leftovers")
                step += 1
                continue
            }
            // The save ran every step: the store is new.
            #expect(try JSONStoreTesting.contents(of: JSONStore(url: url)) == new)
            break
        }
        #expect(step > 20, "the save has a step per file write, backup, rename and removal")
        #expect(sawOld && sawNew, "crashes before the metadata's rename read old, after it new")
    }

    @Test("a write failing at any step leaves the store as it was, in memory and on disk, even for a second failing save",
          arguments: [3, 12, 30, 36])
    func failedWriteChangesNothing(step: Int) throws {
        let directory = TemporaryDirectory()
        let url = directory.file("t.jsonstore")
        let store = try makeOld(url)
        let before = try JSONStoreTesting.contents(of: store)
        store.crashAfterFileSteps.store(step, ordering: .sequentiallyConsistent)
        #expect(throws: SimulatedCrash.self) { try change(store) }
        #expect(try JSONStoreTesting.contents(of: store) == before, "memory keeps the committed state")
        // The same instance saves again over the first save's debris and fails after its
        // backups: the folder must still read as the committed store, not the debris.
        store.crashAfterFileSteps.store(30, ordering: .sequentiallyConsistent)
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store))
        try context.performAndWait {
            let t = try context.insert(Ticker.self); t.symbol = "AFTER"
            #expect(throws: SimulatedCrash.self) { try context.save() }
        }
        #expect(try JSONStoreTesting.contents(of: JSONStore(url: url, model: nil, readOnly: true)) == before)
        store.crashAfterFileSteps.store(.max, ordering: .sequentiallyConsistent)
        try context.performAndWait { try context.save() }
        let saved = try JSONStoreTesting.contents(of: store)
        #expect(saved.count == before.count + 1)
        #expect(try JSONStoreTesting.contents(of: JSONStore(url: url, model: nil, readOnly: true)) == saved)
        #expect(JSONStoreTesting.fileNames(url).allSatisfy { !$0.hasSuffix(".old") && !$0.hasSuffix(".new") })
    }

    @Test("a save over a folder another instance saved since is refused, and writes nothing")
    func changedOnDisk() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("t.jsonstore")
        let first = try makeOld(url)
        let second = try JSONStore(url: url, model: TestModels.tickers())
        try change(second)
        let before = JSONStoreTesting.fingerprint(url)
        let error = #expect(throws: JSONStoreError.self) { try change(first) }
        #expect(error == .changedOnDisk(path: url.standardizedFileURL.path, loadedGeneration: 2, foundGeneration: 3))
        #expect(JSONStoreTesting.fingerprint(url) == before)
    }
}
