import Dispatch

/// The seeds' convenience API (na_ios/coredata): `filter`, `create`, `get` and `getOrCreate`
/// on a typed class, with dictionaries instead of predicates.
///
/// The synchronous forms run in the given context (call them on its queue). The asynchronous
/// forms do the work on a background context of the same coordinator (see
/// ``ObjectContext/perform(outOfOwnQueue:afterSaveOnMain:completion:)``); `create`, and
/// `getOrCreate` when it creates, save it and merge the save into `mainContext`; then
/// `completion` runs on the main queue with objects of `mainContext`, so a UI bound to the main
/// context already shows the change.
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
    ///
    /// Nothing is saved, so nothing is merged: the fetch runs on a background context and
    /// `completion` gets `mainContext`'s instances of what it found (registered ones when
    /// `mainContext` has them, else faults), or the fetch's error.
    public static func filter(_ values: [String: PredicateArgument], mainContext: ObjectContext,
                              completion: @escaping @Sendable (Result<[ManagedObject], Error>) -> Void) {
        let type = self
        mainContext.perform(outOfOwnQueue: { context in
            try type.filter(values, in: context).map(\.objectID)
        }, afterSaveOnMain: { _ in }, completion: { result in
            completion(result.map { ids in ids.map(mainContext.object(with:)) })
        })
    }

    /// `create` off the main queue, saved and merged; `completion` gets the main context's object.
    ///
    /// The save is merged into `mainContext` (its objects-did-change announces the new ID)
    /// before `completion` runs on the main queue.
    public static func create(_ values: [String: Value], mainContext: ObjectContext,
                              completion: @escaping @Sendable (Result<ManagedObject, Error>) -> Void) {
        let type = self
        mainContext.perform(outOfOwnQueue: { context in
            let object = try type.create(values, in: context)
            try context.save()
            return object.objectID
        }, afterSaveOnMain: { _ in }, completion: { result in
            completion(result.map(mainContext.object(with:)))
        })
    }

    /// `get` off the main queue; `completion` gets the main context's object (or `nil`).
    ///
    /// Nothing is saved, so nothing is merged; `completion` runs on the main queue.
    public static func get(_ values: [String: PredicateArgument], mainContext: ObjectContext,
                           completion: @escaping @Sendable (Result<ManagedObject?, Error>) -> Void) {
        let type = self
        mainContext.perform(outOfOwnQueue: { context in
            try type.get(values, in: context)?.objectID
        }, afterSaveOnMain: { _ in }, completion: { result in
            completion(result.map { id in id.map(mainContext.object(with:)) })
        })
    }

    /// `getOrCreate` off the main queue; `completion` gets the main context's object.
    ///
    /// When an object matches, nothing is saved and `completion` gets `mainContext`'s instance
    /// of it. Otherwise the new object is saved and the save merged into `mainContext` before
    /// `completion` runs on the main queue.
    public static func getOrCreate(_ values: [String: Value], mainContext: ObjectContext,
                                   completion: @escaping @Sendable (Result<ManagedObject, Error>) -> Void) {
        let type = self
        mainContext.perform(outOfOwnQueue: { context in
            let object = try type.getOrCreate(values, in: context)
            if context.hasChanges { try context.save() }
            return object.objectID
        }, afterSaveOnMain: { _ in }, completion: { result in
            completion(result.map(mainContext.object(with:)))
        })
    }
}

extension ObjectContext {
    /// Runs `work` on a new private-queue context of this context's coordinator; merges each
    /// save it makes into this context and then calls `afterSave` with that save's event, on
    /// this context's queue; finally calls `completion` there with what `work` returned or threw.
    /// na_ios's `performBlockOutOfOwnThread:afterSaveOnMainThread:`.
    ///
    /// Call it on a root main-queue context (the seed's `mainContext`): `work` then runs off the
    /// main queue, and `afterSave` and `completion` run on it.
    ///
    /// - `afterSave` gets the save's ``DidSaveEvent`` (the seed's did-save notification): its
    ///   ``DidSaveEvent/changes`` hold the inserted (permanent), updated and deleted IDs. It
    ///   runs once per save that wrote something, in save order, each time after that save was
    ///   merged into this context (``merge(fromDidSave:)``), so this context's registered
    ///   objects already show the change and its objects-did-change observers have heard of
    ///   it. A `work` that saves nothing (no `save()`, or a `save()` with no changes) never
    ///   calls it.
    /// - `completion` always runs, exactly once, after every `afterSave` of `work`'s saves:
    ///   with `.success` of `work`'s value (also when nothing was saved) or `.failure` of what
    ///   it threw (saves made before the throw are merged and reported to `afterSave` all the same).
    ///
    /// ```swift
    /// main.perform(outOfOwnQueue: { context in
    ///     try Ticker.create(["symbol": .string("NEW")], in: context)
    ///     try context.save()
    /// }, afterSaveOnMain: { event in
    ///     // main already holds the save: refresh the UI for event.changes.inserted
    /// })
    /// ```
    public func perform<T: Sendable>(
        outOfOwnQueue work: @escaping @Sendable (ObjectContext) throws -> T,
        afterSaveOnMain afterSave: @escaping @Sendable (DidSaveEvent) -> Void,
        completion: @escaping @Sendable (Result<T, Error>) -> Void = { _ in }
    ) {
        let background = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: "background")
        background.mergePolicy = .mergeByPropertyObjectTrump
        // Called on the background queue inside `save()`: the merge and `afterSave` are queued
        // on this context's (serial) queue now, so they run before `completion`, queued below
        // once `work` has returned.
        let token = background.addDidSaveObserver { event in
            guard !event.changes.isEmpty else { return }
            self.perform {
                self.merge(fromDidSave: event.changes)
                afterSave(event)
            }
        }
        background.perform {
            let result = Result { try work(background) }
            token.cancel()
            self.perform {
                completion(result)
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
