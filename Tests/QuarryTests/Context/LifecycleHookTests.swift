import Foundation
import Synchronization
import Testing
@testable import Quarry
import QuarryTestSupport

/// What the lifecycle hooks of ``LifecycleNote`` and ``LifecycleTag`` heard, per context name
/// (suites run in parallel: each test names its contexts uniquely).
final class LifecycleJournal: Sendable {
    static let shared = LifecycleJournal()
    private let entries = Mutex<[String: [String]]>([:])

    func note(_ object: ManagedObject, _ event: String) {
        let context = object.managedObjectContext?.name ?? "-"
        let name: String
        if case .string(let title) = object.entity.attributeIndex("title").map({ object.faultedValue(at: $0) }) ?? .null {
            name = title
        } else {
            name = object.entity.name
        }
        entries.withLock { $0[context, default: []].append("\(name).\(event)") }
    }

    func take(_ context: String) -> [String] {
        entries.withLock { $0.removeValue(forKey: context) ?? [] }
    }
}

extension Value {
    /// The integer held, if any.
    var lifecycleInteger: Int64? { if case .integer(let i) = self { return i } else { return nil } }
}

extension ManagedObject {
    /// Attribute `i` without firing a fault (a fault reads as nil).
    func faultedValue(at i: Int) -> Value { faulted || i >= values.count ? .null : values[i] }
}

/// A note that journals every hook; its rules: `title` upper case (per key), and a `count`
/// above 10 needs a `stamp` (across keys).
final class LifecycleNote: ManagedObject, @unchecked Sendable {
    // Confined to its context's queue, like every managed object. What `willSave` does
    // depends on the title: "STAMP" stamps once, "LOOP" keeps counting (a loop).
    nonisolated(unsafe) static var willSaveBehaviour: [String: String] = [:]

    override func awakeFromInsert() {
        LifecycleJournal.shared.note(self, "awakeFromInsert")
        try? setValue(.integer(1), forKey: "count")
    }
    override func awakeFromFetch() {
        LifecycleJournal.shared.note(self, "awakeFromFetch")
        // Not recorded as a change (Core Data turns change processing off here).
        try? setValue(.double(-1), forKey: "cache")
    }
    override func willSave() {
        LifecycleJournal.shared.note(self, "willSave\(isDeleted ? "(deleted)" : "")")
        guard !isDeleted, case .string(let title) = self["title"] as Value else { return }
        switch title {
        case "STAMP" where self["stamp"] as Value == .null: try? setValue(.double(42), forKey: "stamp")
        case "LOOP":
            let count = (self["count"] as Value).lifecycleInteger ?? 0
            try? setValue(.integer(count + 1), forKey: "count")
        default: break
        }
    }
    override func didSave() { LifecycleJournal.shared.note(self, "didSave\(isDeleted ? "(deleted)" : "")") }
    override func prepareForDeletion() { LifecycleJournal.shared.note(self, "prepareForDeletion") }
    override func willTurnIntoFault() { LifecycleJournal.shared.note(self, "willTurnIntoFault") }
    override func didTurnIntoFault() { LifecycleJournal.shared.note(self, "didTurnIntoFault") }
    override func validateForInsert() throws {
        LifecycleJournal.shared.note(self, "validateForInsert")
        try validateAcrossKeys(super.validateForInsert)
    }
    override func validateForUpdate() throws {
        LifecycleJournal.shared.note(self, "validateForUpdate")
        try validateAcrossKeys(super.validateForUpdate)
    }
    override func validateForDelete() throws {
        LifecycleJournal.shared.note(self, "validateForDelete")
        if self["title"] as Value == .string("KEEP") {
            throw ValidationFailure(object: self, key: "(object)", reason: "a kept note cannot be deleted")
        }
        try super.validateForDelete()
    }
    override func validateValue(_ value: Value, forKey key: String) throws {
        if key == "title", case .string(let s) = value, s != s.uppercased() {
            throw ValidationFailure(object: self, key: key, reason: "must be upper case")
        }
        try super.validateValue(value, forKey: key)
    }

    /// The model's and per-key failures (`base`), plus the rule across keys, together.
    private func validateAcrossKeys(_ base: () throws -> Void) throws {
        var failures: [ValidationFailure] = []
        do { try base() } catch let error as ObjectValidationError { failures = error.failures }
        if let count = (self["count"] as Value).lifecycleInteger, count > 10, self["stamp"] as Value == .null {
            failures.append(ValidationFailure(object: self, key: "stamp", reason: "is required when count is above 10"))
        }
        if !failures.isEmpty { throw ObjectValidationError(failures: failures) }
    }
}

/// A tag of a note (deleted with it: cascade), journalling its hooks too.
final class LifecycleTag: ManagedObject, @unchecked Sendable {
    // Confined to its context's queue, like every managed object.
    override func awakeFromInsert() { LifecycleJournal.shared.note(self, "awakeFromInsert") }
    override func awakeFromFetch() { LifecycleJournal.shared.note(self, "awakeFromFetch") }
    override func willSave() { LifecycleJournal.shared.note(self, "willSave\(isDeleted ? "(deleted)" : "")") }
    override func didSave() { LifecycleJournal.shared.note(self, "didSave\(isDeleted ? "(deleted)" : "")") }
    override func prepareForDeletion() { LifecycleJournal.shared.note(self, "prepareForDeletion") }
    override func validateForInsert() throws { LifecycleJournal.shared.note(self, "validateForInsert"); try super.validateForInsert() }
    override func validateForDelete() throws { LifecycleJournal.shared.note(self, "validateForDelete"); try super.validateForDelete() }
}

@Suite("Lifecycle hooks")
struct LifecycleHookTests {
    static func model() throws -> ManagedObjectModel {
        var b = ModelBuilder()
        b.entity("Note") { e in
            e.attribute("title", .string, optional: false)
            e.attribute("count", .integer64, default: .integer(0), min: 0)
            e.attribute("stamp", .double)
            e.attribute("cache", .double, transient: true)
            e.toMany("tags", destination: "Tag", inverse: "note", deleteRule: .cascade)
        }
        b.entity("Tag") { e in
            e.attribute("label", .string)
            e.toOne("note", destination: "Note", inverse: "tags")
        }
        let model = try b.build()
        model.register(LifecycleNote.self, for: "Note")
        model.register(LifecycleTag.self, for: "Tag")
        return model
    }

    /// A context with a name of its own (the journal's key).
    static func context(_ store: TestStore) throws -> (ObjectContext, String) {
        let name = "lifecycle-\(UUID().uuidString)"
        return (try store.context(name), name)
    }

    @Test("insert → save → fault → refetch → delete → save: hooks in the pinned order", arguments: StoreKind.allCases)
    func pinnedOrder(kind: StoreKind) throws {
        let store = TestStore(kind, model: try Self.model())
        let (context, name) = try Self.context(store)
        let journal = LifecycleJournal.shared
        try context.performAndWait {
            let note = try context.insertObject(entityName: "Note")
            #expect(journal.take(name) == ["Note.awakeFromInsert"])
            #expect(note["count"] as Value == .integer(1), "awakeFromInsert's value is the inserted object's")
            try note.setValue(.string("A"), forKey: "title")
            let tag = try context.insertObject(entityName: "Tag")
            try tag.setObject(note, forKey: "note")
            #expect(journal.take(name) == ["Tag.awakeFromInsert"])
            try context.save()
            #expect(journal.take(name) == ["A.willSave", "Tag.willSave", "A.validateForInsert", "Tag.validateForInsert",
                                           "A.didSave", "Tag.didSave"])
            context.refresh(note, mergeChanges: false)
            #expect(journal.take(name) == ["A.willTurnIntoFault", "-.didTurnIntoFault"].map { $0.replacingOccurrences(of: "-", with: "Note") })
            #expect(note["title"] as Value == .string("A"))
            #expect(journal.take(name) == ["A.awakeFromFetch"])
            #expect(!note.hasChanges, "awakeFromFetch's change is not recorded")
            #expect(note["cache"] as Value == .double(-1))
            // A fetch in another context fulfils its objects there.
            let (other, otherName) = try Self.context(store)
            try other.performAndWait {
                let fetched = try other.fetch(FetchRequest(entityName: "Note"))
                #expect(fetched.count == 1 && fetched[0]["title"] as Value == .string("A"))
            }
            #expect(journal.take(otherName) == ["A.awakeFromFetch"])
            context.delete(note)
            #expect(journal.take(name) == ["A.prepareForDeletion", "Tag.prepareForDeletion"], "before the cascade reaches the tag")
            try context.save()
            #expect(journal.take(name) == ["A.willSave(deleted)", "Tag.willSave(deleted)", "A.validateForDelete", "Tag.validateForDelete",
                                           "A.didSave(deleted)", "Tag.didSave(deleted)"])
        }
    }

    @Test("changes made in willSave are saved by the same save; a willSave that keeps changing stops with an error, writing nothing", arguments: StoreKind.allCases)
    func willSaveChanges(kind: StoreKind) throws {
        let store = TestStore(kind, model: try Self.model())
        let (context, name) = try Self.context(store)
        try context.performAndWait {
            let note = try context.insertObject(entityName: "Note")
            try note.setValue(.string("STAMP"), forKey: "title")
            try context.save()
            #expect(note["stamp"] as Value == .double(42))
            #expect(!context.hasChanges)
            // An update's willSave change is written with it, and willSave is called again
            // on the object it changed, once.
            _ = LifecycleJournal.shared.take(name)
            try note.setValue(.null, forKey: "stamp")
            try context.save()
            #expect(LifecycleJournal.shared.take(name) == ["STAMP.willSave", "STAMP.willSave", "STAMP.validateForUpdate", "STAMP.didSave"])
            let (reader, _) = try Self.context(store)
            try reader.performAndWait {
                let stored = try reader.fetch(FetchRequest(entityName: "Note"))
                #expect(stored.map { $0["stamp"] as Value } == [.double(42)])
            }
            let loop = try context.insertObject(entityName: "Note")
            try loop.setValue(.string("LOOP"), forKey: "title")
            #expect(throws: QuarryError.self) { try context.save() }
            do { try context.save() } catch {
                #expect("\(error)".contains("willSave() kept changing 1 object(s) after \(ObjectContext.willSaveRoundLimit) rounds"), "\(error)")
            }
            let (check, _) = try Self.context(store)
            let stored = try check.performAndWait { try check.count(for: FetchRequest(entityName: "Note")) }
            #expect(stored == 1, "the looping save wrote nothing")
        }
    }

    @Test("per-key, cross-key and model rules fail together, each naming object, key and rule; validateForDelete can refuse", arguments: StoreKind.allCases)
    func validationTogether(kind: StoreKind) throws {
        let store = TestStore(kind, model: try Self.model())
        let (context, _) = try Self.context(store)
        try context.performAndWait {
            let note = try context.insertObject(entityName: "Note")
            try note.setValue(.string("lower"), forKey: "title")
            try note.setValue(.integer(11), forKey: "count")
            let other = try context.insertObject(entityName: "Note")
            try other.setValue(.string("OK"), forKey: "title")
            try other.setValue(.integer(-3), forKey: "count")
            do {
                try context.save()
                Issue.record("the save passed")
            } catch let error as ObjectValidationError {
                let failures = error.failures.map { "\($0.objectID == note.objectID ? "note" : "other") \($0.key): \($0.reason)" }
                #expect(failures.contains("note title: must be upper case"), "\(failures)")
                #expect(failures.contains("note stamp: is required when count is above 10"), "\(failures)")
                #expect(failures.contains { $0.hasPrefix("other count: ") && $0.contains("0") }, "\(failures)")
                #expect(failures.count == 3, "\(failures)")
            }
            try note.setValue(.string("KEEP"), forKey: "title")
            try note.setValue(.double(1), forKey: "stamp")
            try other.setValue(.integer(3), forKey: "count")
            try context.save()
            context.delete(note)
            #expect(throws: ObjectValidationError.self) { try context.save() }
            do { try context.save() } catch let error as ObjectValidationError {
                #expect(error.failures.map(\.reason) == ["a kept note cannot be deleted"])
            }
        }
    }

    @Test("a child context's save calls willSave and didSave in the child; its parent does not awake the object again")
    func childContext() throws {
        let store = TestStore(.sqlite, model: try Self.model())
        let (parent, parentName) = try Self.context(store)
        let childName = "child-\(UUID().uuidString)"
        let child = ObjectContext(concurrencyType: .privateQueue, parent: parent, name: childName)
        try child.performAndWait {
            let note = try child.insertObject(entityName: "Note")
            try note.setValue(.string("C"), forKey: "title")
            try child.save()
        }
        #expect(LifecycleJournal.shared.take(childName) == ["Note.awakeFromInsert", "C.willSave", "C.validateForInsert", "C.didSave"])
        #expect(LifecycleJournal.shared.take(parentName).isEmpty)
        try parent.performAndWait { try parent.save() }
        #expect(LifecycleJournal.shared.take(parentName) == ["C.willSave", "C.validateForInsert", "C.didSave"])
    }
}
