import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Two contexts on two coordinators load the same ticker; the first saves a change, then the
/// second saves a conflicting one under each policy.
@Suite("Merge policies in real two-context conflicts")
struct MergePolicyTests {
    struct Conflict {
        let store: TestStore
        let id: ObjectID
        let second: ObjectContext
        let ticker: Ticker
    }

    /// Saves ACME (price 10, volume 100, name "Acme"); context A then sets price 11 and name
    /// "Acme A" and saves; context B (loaded before A's save) sets price 12 and volume 200.
    func makeConflict(_ kind: StoreKind, policy: MergePolicy) throws -> Conflict {
        let store = TestStore(kind)
        let setup = try store.context("setup")
        let id = try setup.performAndWait {
            let t = try setup.insert(Ticker.self)
            t.symbol = "ACME"; t.name = "Acme"; t.price = 10; t.volume = 100
            try setup.save()
            return t.objectID
        }
        let first = try store.context("first")
        let second = try store.context("second", policy: policy)
        let ticker = second.performAndWait { () -> Ticker in
            let t = second.object(with: id) as! Ticker
            _ = t.price  // loads version 1
            return t
        }
        try first.performAndWait {
            let t = first.object(with: id) as! Ticker
            t.price = 11
            t.name = "Acme A"
            try first.save()
        }
        second.performAndWait {
            ticker.price = 12
            ticker.volume = 200
        }
        return Conflict(store: store, id: id, second: second, ticker: ticker)
    }

    func stored(_ c: Conflict) throws -> (price: Double, volume: Int64, name: String?) {
        let reader = try c.store.context("reader")
        return reader.performAndWait {
            let t = reader.object(with: c.id) as! Ticker
            return (t.price, t.volume, t.name)
        }
    }

    @Test("error policy refuses the save and reports both versions", arguments: StoreKind.allCases)
    func errorPolicy(kind: StoreKind) throws {
        let c = try makeConflict(kind, policy: .error)
        let error = c.second.performAndWait { #expect(throws: MergeConflictError.self) { try c.second.save() } }
        let conflict = try #require(error?.conflicts.first)
        #expect(error?.conflicts.count == 1)
        #expect(conflict.objectID == c.id)
        #expect(conflict.cachedSnapshot?.values[c.ticker.entity.attributeIndex("price")!] == .double(10))
        #expect(conflict.persistedSnapshot?.values[c.ticker.entity.attributeIndex("price")!] == .double(11))
        #expect(conflict.objectSnapshot?.values[c.ticker.entity.attributeIndex("price")!] == .double(12))
        #expect(conflict.newVersion > conflict.oldVersion)
        let s = try stored(c)
        #expect(s.price == 11 && s.volume == 100 && s.name == "Acme A", "store unchanged by the refused save")
        #expect(c.second.performAndWait { c.second.hasChanges }, "changes kept for the caller to resolve")
    }

    @Test("store-trump: where both changed, the store's value wins; our other changes land", arguments: StoreKind.allCases)
    func storeTrump(kind: StoreKind) throws {
        let c = try makeConflict(kind, policy: .mergeByPropertyStoreTrump)
        try c.second.performAndWait { try c.second.save() }
        let s = try stored(c)
        #expect(s.price == 11)
        #expect(s.volume == 200)
        #expect(s.name == "Acme A")
        c.second.performAndWait { #expect(c.ticker.price == 11) }
    }

    @Test("object-trump: where both changed, the in-memory value wins; external changes kept", arguments: StoreKind.allCases)
    func objectTrump(kind: StoreKind) throws {
        let c = try makeConflict(kind, policy: .mergeByPropertyObjectTrump)
        try c.second.performAndWait { try c.second.save() }
        let s = try stored(c)
        #expect(s.price == 12)
        #expect(s.volume == 200)
        #expect(s.name == "Acme A")
    }

    @Test("overwrite: the whole in-memory state replaces the store's", arguments: StoreKind.allCases)
    func overwrite(kind: StoreKind) throws {
        let c = try makeConflict(kind, policy: .overwrite)
        try c.second.performAndWait { try c.second.save() }
        let s = try stored(c)
        #expect(s.price == 12)
        #expect(s.volume == 200)
        #expect(s.name == "Acme", "the external name change is overwritten")
    }

    @Test("rollback: the in-memory changes are discarded; the store's state stands", arguments: StoreKind.allCases)
    func rollback(kind: StoreKind) throws {
        let c = try makeConflict(kind, policy: .rollback)
        try c.second.performAndWait { try c.second.save() }
        let s = try stored(c)
        #expect(s.price == 11 && s.volume == 100 && s.name == "Acme A")
        c.second.performAndWait {
            #expect(c.ticker.price == 11)
            #expect(!c.second.hasChanges)
        }
    }

    @Test("a conflict is detected by row version, never lost silently", arguments: StoreKind.allCases)
    func noSilentLoss(kind: StoreKind) throws {
        let c = try makeConflict(kind, policy: .error)
        c.second.performAndWait { c.ticker.price = 11 }  // same value as the store, still a conflict
        _ = c.second.performAndWait { #expect(throws: MergeConflictError.self) { try c.second.save() } }
    }

    @Test("a save's report counts the conflicts its policy resolved; a save with none counts 0", arguments: StoreKind.allCases)
    func reportCountsResolvedConflicts(kind: StoreKind) throws {
        for policy in [MergePolicy.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump, .overwrite, .rollback] {
            let c = try makeConflict(kind, policy: policy)
            let report = try c.second.performAndWait { try c.second.saveAndReport() }
            #expect(report.resolvedConflicts == 1, "\(policy)")
            let again = try c.second.performAndWait {
                c.ticker.volume = 300
                return try c.second.saveAndReport()
            }
            #expect(again.resolvedConflicts == 0, "\(policy): no other writer since the last save")
        }
    }
}
