import Foundation
import Testing
@testable import Quarry
import QuarryDemo
import QuarryTestSupport

/// The persistent `cacheName` cache: reused while the store and the request are unchanged,
/// invalidated by any save and by a different request or model, robust to damaged files.
@Suite("Fetched-results controller: persistent cache")
struct FetchedResultsCacheTests {
    static let request = FetchRequest(entityName: "Ticker", predicate: try! ObjectPredicate(format: "price >= 2"),
                                      sortDescriptors: [SortKey("sector.name"), SortKey("price", ascending: false), SortKey("symbol")])

    /// A store with tickers in three sectors (one ticker without a sector).
    func seeded(_ kind: StoreKind) throws -> TestStore {
        let store = TestStore(kind)
        let context = try store.context("seed")
        try context.performAndWait {
            var sectors: [String: Sector] = [:]
            for (i, name) in ["tech", "energy", "health"].enumerated() {
                let s = try context.insert(Sector.self); s.name = name; sectors[name] = s
                _ = i
            }
            for i in 0..<30 {
                let t = try context.insert(Ticker.self)
                t.symbol = "T\(i)"
                t.price = Double(i % 7)
                t.sector = i % 10 == 0 ? nil : sectors[["tech", "energy", "health"][i % 3]]
            }
            try context.save()
        }
        return store
    }

    struct Fetched: Equatable {
        var snapshot: ResultsSnapshot
        var sections: [SectionInfo]
        var queries: Int
        var hits: Int
    }

    /// Opens a new coordinator and context (a new "launch") and fetches through a controller.
    func fetch(_ store: TestStore, cache: String?, directory: URL, request: FetchRequest = Self.request,
               sectionNameKeyPath: String? = "sector.name") throws -> Fetched {
        let context = try store.context("launch")
        return try context.performAndWait {
            let controller = try FetchedResultsController(fetchRequest: request, context: context,
                                                          sectionNameKeyPath: sectionNameKeyPath, cacheName: cache)
            controller.cacheDirectory = directory
            try controller.performFetch()
            return Fetched(snapshot: controller.snapshot, sections: controller.sections,
                           queries: controller.storeFetchCount, hits: controller.cacheHitCount)
        }
    }

    @Test("a valid cache is read back without querying the store, and equals a fresh fetch", arguments: StoreKind.allCases)
    func hit(kind: StoreKind) throws {
        let store = try seeded(kind)
        let directory = TemporaryDirectory()
        let first = try fetch(store, cache: "tickers", directory: directory.url)
        #expect(first.queries == 1 && first.hits == 0)
        #expect(FileManager.default.fileExists(atPath: ResultsCache.fileURL(name: "tickers", directory: directory.url).path))
        let second = try fetch(store, cache: "tickers", directory: directory.url)
        #expect(second.queries == 0 && second.hits == 1)
        let fresh = try fetch(store, cache: nil, directory: directory.url)
        #expect(second.snapshot == fresh.snapshot)
        #expect(second.sections == fresh.sections)
        #expect(fresh.snapshot.items.joined().count == 20)
        // Without sections too.
        _ = try fetch(store, cache: "flat", directory: directory.url, sectionNameKeyPath: nil)
        let flat = try fetch(store, cache: "flat", directory: directory.url, sectionNameKeyPath: nil)
        #expect(flat.hits == 1)
        #expect(flat.snapshot == (try fetch(store, cache: nil, directory: directory.url, sectionNameKeyPath: nil)).snapshot)
    }

    @Test("a save through another coordinator invalidates the cache; the next fetch rewrites it", arguments: StoreKind.allCases)
    func saveInvalidates(kind: StoreKind) throws {
        let store = try seeded(kind)
        let directory = TemporaryDirectory()
        _ = try fetch(store, cache: "tickers", directory: directory.url)
        let importer = try store.context("importer")
        try importer.performAndWait {
            let t = try importer.insert(Ticker.self)
            t.symbol = "NEW"
            t.price = 100
            try importer.save()
        }
        let after = try fetch(store, cache: "tickers", directory: directory.url)
        #expect(after.queries == 1 && after.hits == 0)
        #expect(after.snapshot == (try fetch(store, cache: nil, directory: directory.url)).snapshot)
        #expect(after.snapshot.items.joined().count == 21)
        let again = try fetch(store, cache: "tickers", directory: directory.url)
        #expect(again.hits == 1 && again.snapshot == after.snapshot)

        // An update that changes only a sort key invalidates it too.
        try importer.performAndWait {
            let t = try importer.objects(of: Ticker.self).first { $0.symbol == "T3" }!
            t.price = 6.5
            try importer.save()
        }
        let moved = try fetch(store, cache: "tickers", directory: directory.url)
        #expect(moved.queries == 1)
        #expect(moved.snapshot == (try fetch(store, cache: nil, directory: directory.url)).snapshot)
        #expect(moved.snapshot != after.snapshot)
    }

    @Test("a different predicate, sort, section key path or model misses", arguments: StoreKind.allCases)
    func requestInvalidates(kind: StoreKind) throws {
        let store = try seeded(kind)
        let directory = TemporaryDirectory()
        _ = try fetch(store, cache: "tickers", directory: directory.url)

        var other = Self.request
        other.predicate = try ObjectPredicate(format: "price >= 3")
        let byPredicate = try fetch(store, cache: "tickers", directory: directory.url, request: other)
        #expect(byPredicate.queries == 1)
        #expect(byPredicate.snapshot == (try fetch(store, cache: nil, directory: directory.url, request: other)).snapshot)

        other.predicate = try ObjectPredicate(format: "price >= 3.0000001")
        #expect(try fetch(store, cache: "tickers", directory: directory.url, request: other).queries == 1)

        var sorted = Self.request
        sorted.sortDescriptors = [SortKey("sector.name"), SortKey("price"), SortKey("symbol")]
        let bySort = try fetch(store, cache: "tickers", directory: directory.url, request: sorted)
        #expect(bySort.queries == 1)
        #expect(bySort.snapshot == (try fetch(store, cache: nil, directory: directory.url, request: sorted)).snapshot)

        sorted.sortDescriptors[1].comparison = .caseInsensitive
        #expect(try fetch(store, cache: "tickers", directory: directory.url, request: sorted).queries == 1)

        let unsectioned = try fetch(store, cache: "tickers", directory: directory.url, request: sorted, sectionNameKeyPath: nil)
        #expect(unsectioned.queries == 1 && unsectioned.sections.count == 1)

        // The model's version hash is part of the fingerprint.
        let model = TestModels.tickers()
        var builder = ModelBuilder()
        builder.entity("Other") { $0.attribute("x", .integer64) }
        let otherModel = try builder.build()
        #expect(ResultsCache.fingerprint(request: Self.request, sectionNameKeyPath: nil, model: model)
                == ResultsCache.fingerprint(request: Self.request, sectionNameKeyPath: nil, model: TestModels.tickers()))
        #expect(ResultsCache.fingerprint(request: Self.request, sectionNameKeyPath: nil, model: model)
                != ResultsCache.fingerprint(request: Self.request, sectionNameKeyPath: nil, model: otherModel))
    }

    @Test("a damaged, truncated or foreign cache file is ignored and rewritten", arguments: StoreKind.allCases)
    func damagedFile(kind: StoreKind) throws {
        let store = try seeded(kind)
        let directory = TemporaryDirectory()
        let fresh = try fetch(store, cache: nil, directory: directory.url)
        _ = try fetch(store, cache: "tickers", directory: directory.url)
        let url = ResultsCache.fileURL(name: "tickers", directory: directory.url)
        let good = try Data(contentsOf: url)
        var damaged: [Data] = [Data(), Data("QFRC".utf8), good.prefix(good.count / 2), good.prefix(good.count - 1),
                               Data("not a cache at all, just some text".utf8), good + Data([0])]
        for offset in [0, 5, 12, good.count / 2, good.count - 3] {
            var copy = good
            copy[offset] ^= 0x5A
            damaged.append(copy)
        }
        var rng = SplitMix64(seed: 99)
        damaged.append(Data((0..<good.count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }))
        for (i, bytes) in damaged.enumerated() {
            try bytes.write(to: url)
            let result = try fetch(store, cache: "tickers", directory: directory.url)
            #expect(result.queries == 1 && result.hits == 0, "damaged file \(i)")
            #expect(result.snapshot == fresh.snapshot, "damaged file \(i)")
            #expect(try Data(contentsOf: url) != bytes, "damaged file \(i) rewritten")
        }
        #expect(try fetch(store, cache: "tickers", directory: directory.url).hits == 1)
    }

    @Test("deleteCache(withName:) removes one cache or all of them")
    func deleteCache() throws {
        let store = try seeded(.sqlite)
        let directory = TemporaryDirectory()
        _ = try fetch(store, cache: "a", directory: directory.url)
        _ = try fetch(store, cache: "b/../c d", directory: directory.url)
        let a = ResultsCache.fileURL(name: "a", directory: directory.url)
        let b = ResultsCache.fileURL(name: "b/../c d", directory: directory.url)
        #expect(b.deletingLastPathComponent().standardizedFileURL.path.hasSuffix(directory.url.lastPathComponent + "/") || b.deletingLastPathComponent().standardizedFileURL.path.hasSuffix(directory.url.lastPathComponent))
        #expect(FileManager.default.fileExists(atPath: a.path) && FileManager.default.fileExists(atPath: b.path))
        FetchedResultsController.deleteCache(withName: "a", in: directory.url)
        #expect(!FileManager.default.fileExists(atPath: a.path) && FileManager.default.fileExists(atPath: b.path))
        #expect(try fetch(store, cache: "a", directory: directory.url).queries == 1)
        FetchedResultsController.deleteCache(withName: nil, in: directory.url)
        #expect(!FileManager.default.fileExists(atPath: a.path) && !FileManager.default.fileExists(atPath: b.path))
        FetchedResultsController.deleteCache(withName: "missing", in: directory.url)
    }

    @Test("the cache is not read or written while the context has unsaved changes")
    func pendingChanges() throws {
        let store = try seeded(.sqlite)
        let directory = TemporaryDirectory()
        _ = try fetch(store, cache: "tickers", directory: directory.url)
        let context = try store.context("edits")
        try context.performAndWait {
            let t = try context.insert(Ticker.self)
            t.symbol = "LOCAL"
            t.price = 50
            let controller = try FetchedResultsController(fetchRequest: Self.request, context: context, sectionNameKeyPath: "sector.name", cacheName: "tickers")
            controller.cacheDirectory = directory.url
            try controller.performFetch()
            #expect(controller.cacheHitCount == 0 && controller.storeFetchCount == 1)
            #expect(controller.indexPath(for: t) != nil)
        }
        #expect(try fetch(store, cache: "tickers", directory: directory.url).hits == 1)
    }

    @Test("a live controller's updates are never read back stale", arguments: StoreKind.allCases)
    func liveUpdates(kind: StoreKind) throws {
        let store = try seeded(kind)
        let directory = TemporaryDirectory()
        let main = try store.context("main")
        let importer = try store.context("importer")
        let log = CallLog()
        let live = try main.performAndWait {
            let c = try FetchedResultsController(fetchRequest: Self.request, context: main, sectionNameKeyPath: "sector.name", cacheName: "tickers")
            c.cacheDirectory = directory.url
            try c.performFetch()
            c.delegate = log
            return c
        }
        let changes = try importer.performAndWait { () -> SaveChanges in
            for t in try importer.objects(of: Ticker.self) where t.symbol.hasSuffix("1") { t.price = 5.5 }
            guard case .saved(let c) = try importer.save() else { throw QuarryError.invalidValue("nothing saved") }
            return c
        }
        main.performAndWait { main.merge(fromDidSave: changes) }
        let shown = main.performAndWait { live.snapshot }
        #expect(log.calls.last == "did")
        let next = try fetch(store, cache: "tickers", directory: directory.url)
        #expect(next.queries == 1 && next.hits == 0)
        #expect(next.snapshot == shown)
        #expect(try fetch(store, cache: "tickers", directory: directory.url).hits == 1)
    }

    @Test("the store's modification token changes with every save and only then", arguments: StoreKind.allCases)
    func modificationToken(kind: StoreKind) throws {
        let store = try seeded(kind)
        let coordinator = try store.coordinator("token")
        let before = try #require(try coordinator.store.modificationToken())
        #expect(try coordinator.store.modificationToken() == before)
        let context = try store.context("writer")
        try context.performAndWait {
            try context.insert(Ticker.self).symbol = "X"
            try context.save()
        }
        let after = try #require(try coordinator.store.modificationToken())
        #expect(after != before)
        switch kind {
        case .sqlite:
            // Another connection to the file sees the same token.
            #expect(try SQLiteStore(url: store.url, model: store.model).modificationToken() == after)
        case .postgreSQL:
            // Another store instance on the schema (its own connections, as on another host)
            // sees the same token, so a cache written on one host is valid on the other.
            #expect(try store.coordinator("other host").store.modificationToken() == after)
        case .memory, .json:
            break
        }
    }
}
