extension ManagedObject {
    /// The objects of fetched property `name` (``FetchedPropertyDescription``): fetched when
    /// first read, with `$FETCH_SOURCE` bound to this object, then kept until the object is
    /// refreshed (``ObjectContext/refresh(_:mergeChanges:)``, or a merge that refreshes it), as
    /// Core Data keeps them. ``value(forKey:)`` with the name reads the same objects' IDs as
    /// URIs in a ``JSONValue`` array.
    ///
    /// ```swift
    /// let sameGenre = try book.fetchedProperty("sameGenre")
    /// ```
    /// - Throws: ``QuarryError/unknownKey(entity:key:)`` when the entity has no such fetched
    ///   property, or what the fetch throws.
    public func fetchedProperty(_ name: String) throws -> [ManagedObject] {
        guard let fetched = entity.fetchedProperty(named: name) else { throw QuarryError.unknownKey(entity: entity.name, key: name) }
        guard let context = managedObjectContext else { return [] }
        return try fetchedPropertyIDs(fetched).map { context.object(with: $0) }
    }

    /// The IDs of fetched property `fetched`, fetched on first use and kept.
    private func fetchedPropertyIDs(_ fetched: FetchedPropertyDescription) throws -> [ObjectID] {
        checkAccess()
        fireFault()
        if let kept = fetchedPropertyResults[fetched.name] { return kept }
        guard let context = managedObjectContext else { return [] }
        let predicate = try FetchedPropertyPredicate(fetched.predicate)
        let request = FetchRequest(entityName: fetched.destination,
                                   predicate: try predicate.bound(source: self, property: fetched.name, model: context.model))
        let ids = try context.fetchObjectIDs(request)
        fetchedPropertyResults[fetched.name] = ids
        return ids
    }

    /// The fetched property's objects as ``value(forKey:)`` gives them: a JSON array of their
    /// object ID URIs (``StoreCoordinator/uri(for:)``).
    func fetchedPropertyValue(_ fetched: FetchedPropertyDescription) throws -> Value {
        let ids = try fetchedPropertyIDs(fetched)
        guard let coordinator = managedObjectContext?.coordinator else { return .json(.array([])) }
        return .json(.array(ids.map { .string(coordinator.uri(for: $0).absoluteString) }))
    }
}
