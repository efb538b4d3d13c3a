import Dispatch

/// The seeds' convenience API (na_ios/coredata): `filter`, `create`, `get` and `getOrCreate`
/// on a typed class, with dictionaries instead of predicates.
///
/// The synchronous forms run in the given context (call them on its queue). The asynchronous
/// forms do the work on a background context of the same coordinator, save it, merge the save
/// into `mainContext`, and then call `completion` on the main queue with objects of
/// `mainContext`, so a UI bound to the main context already shows the change.
extension ManagedObject {
    /// The objects whose properties equal the dictionary's values (a list value means `IN`).
    public static func filter(_ values: [String: PredicateArgument], in context: ObjectContext,
                              sortedBy sort: [SortKey] = []) throws -> [ManagedObject] {
        try context.fetch(FetchRequest(entityName: entityName, predicate: ObjectPredicate(dictionary: values), sortDescriptors: sort))
    }

    /// A new object with the dictionary's attribute values.
    @discardableResult
    public static func create(_ values: [String: Value], in context: ObjectContext) throws -> ManagedObject {
        let entity = try context.model.requireEntity(entityName)
        if context.model.objectClass(for: entity) != self { context.model.register(self, for: entity.name) }
        let object = try context.insertObject(entityName: entityName)
        try object.setValues(values)
        return object
    }

    /// The first object matching the dictionary, or `nil`.
    public static func get(_ values: [String: PredicateArgument], in context: ObjectContext) throws -> ManagedObject? {
        var request = FetchRequest(entityName: entityName, predicate: ObjectPredicate(dictionary: values))
        request.fetchLimit = 1
        return try context.fetch(request).first
    }

    /// The first object matching the dictionary, or a new one with those values.
    public static func getOrCreate(_ values: [String: Value], in context: ObjectContext) throws -> ManagedObject {
        if let existing = try get(values.mapValues { PredicateArgument.value($0) }, in: context) { return existing }
        return try create(values, in: context)
    }

    /// `filter` off the main queue; `completion` gets main-context objects on the main queue.
    public static func filter(_ values: [String: PredicateArgument], mainContext: ObjectContext,
                              completion: @escaping @Sendable (Result<[ManagedObject], Error>) -> Void) {
        let type = self
        mainContext.perform(outOfOwnQueue: { context in
            try type.filter(values, in: context).map(\.objectID)
        }, afterSaveOnMain: { ids in ids.map(mainContext.object(with:)) }, completion: completion)
    }

    /// `create` off the main queue, saved and merged; `completion` gets the main context's object.
    public static func create(_ values: [String: Value], mainContext: ObjectContext,
                              completion: @escaping @Sendable (Result<ManagedObject, Error>) -> Void) {
        let type = self
        mainContext.perform(outOfOwnQueue: { context in
            let object = try type.create(values, in: context)
            try context.save()
            return object.objectID
        }, afterSaveOnMain: { id in mainContext.object(with: id) }, completion: completion)
    }

    /// `get` off the main queue; `completion` gets the main context's object (or `nil`).
    public static func get(_ values: [String: PredicateArgument], mainContext: ObjectContext,
                           completion: @escaping @Sendable (Result<ManagedObject?, Error>) -> Void) {
        let type = self
        mainContext.perform(outOfOwnQueue: { context in
            try type.get(values, in: context)?.objectID
        }, afterSaveOnMain: { id in id.map(mainContext.object(with:)) }, completion: completion)
    }

    /// `getOrCreate` off the main queue, saved and merged; `completion` gets the main context's object.
    public static func getOrCreate(_ values: [String: Value], mainContext: ObjectContext,
                                   completion: @escaping @Sendable (Result<ManagedObject, Error>) -> Void) {
        let type = self
        mainContext.perform(outOfOwnQueue: { context in
            let object = try type.getOrCreate(values, in: context)
            if context.hasChanges { try context.save() }
            return object.objectID
        }, afterSaveOnMain: { id in mainContext.object(with: id) }, completion: completion)
    }
}

extension ObjectContext {
    /// Runs `work` on a new private-queue context of this context's coordinator, then (if it
    /// saved) merges its save into this context on this context's queue, maps the result with
    /// `afterSave` there, and passes it to `completion` on that queue (the main queue for a
    /// main-queue context). na_ios's `performBlockOutOfOwnThread:afterSaveOnMainThread:`.
    public func perform<T: Sendable, R>(
        outOfOwnQueue work: @escaping @Sendable (ObjectContext) throws -> T,
        afterSaveOnMain afterSave: @escaping @Sendable (T) -> R,
        completion: @escaping @Sendable (Result<R, Error>) -> Void
    ) {
        let background = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: "background")
        background.mergePolicy = .mergeByPropertyObjectTrump
        let saved = SavedChangesBox()
        let token = background.addDidSaveObserver { saved.append($0.changes) }
        background.perform {
            let result = Result { try work(background) }
            token.cancel()
            let changes = saved.all
            self.perform {
                for c in changes { self.merge(fromDidSave: c) }
                completion(result.map(afterSave))
            }
        }
    }

    /// M3's `objects(inEntity:predicate:sortedBy:extraSetup:)`: a fetch with an optional
    /// chance to adjust the request.
    public func objects(inEntity entityName: String, predicate: ObjectPredicate? = nil, sortedBy sort: [SortKey] = [],
                        extraSetup: ((inout FetchRequest) -> Void)? = nil) throws -> [ManagedObject] {
        var request = FetchRequest(entityName: entityName, predicate: predicate, sortDescriptors: sort)
        extraSetup?(&request)
        return try fetch(request)
    }
}

/// Collects did-save payloads from the background context's queue.
final class SavedChangesBox: @unchecked Sendable {
    // Appended on the background context's queue, read on it after the work ends.
    private var changes: [SaveChanges] = []
    func append(_ c: SaveChanges) { changes.append(c) }
    var all: [SaveChanges] { changes }
}
