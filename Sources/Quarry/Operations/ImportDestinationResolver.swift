/// Finds the destinations of to-one relationship columns (`sector.name` → the `Sector` whose
/// `name` is the field's value), and creates missing ones when the import allows it.
///
/// Lookups are cached per relationship and key value, so a column with few distinct values
/// costs one fetch each; memory grows with the distinct values, not with the rows. Used on the
/// importer context's queue only.
final class ImportDestinationResolver {
    /// What a key value finds in the store.
    enum Lookup {
        case found(ObjectID)
        case missing
        /// More than one destination has the key value (`count` is at least 2).
        case ambiguous(count: Int)
    }

    private struct Key: Hashable {
        var relationship: Int
        var value: Value
    }

    private let context: ObjectContext
    private let createsMissing: Bool
    private var lookups: [Key: Lookup] = [:]
    private var created: [Key: ManagedObject] = [:]

    /// How many destinations the insert pass created.
    var createdCount: Int { created.count }

    init(context: ObjectContext, createsMissing: Bool) {
        self.context = context
        self.createsMissing = createsMissing
    }

    /// Why `value` cannot give relationship `relationship` a destination, or `nil` when it can
    /// (found once, or missing and allowed to be created with only its key set).
    func problem(relationship: Int, name: String, destination: EntityDescription, keyIndex: Int, value: Value, row: Int) throws -> String? {
        let key = destination.attributes[keyIndex].name
        switch try lookup(relationship: relationship, destination: destination, keyIndex: keyIndex, value: value) {
        case .found: return nil
        case .ambiguous(let count):
            return "row \(row): '\(name).\(key)' = \(value) matches \(count) \(destination.name) objects; the key must identify one"
        case .missing:
            guard createsMissing else { return "row \(row): no \(destination.name) with \(key) = \(value) (allow creating missing destinations to add it)" }
            // A created destination has its key and its defaults only: they must be valid.
            for i in destination.validatedAttributeIndices {
                let v = i == keyIndex ? value : destination.defaultValues[i]
                if let reason = destination.attributes[i].ruleViolation(of: v) {
                    return "row \(row): cannot create \(destination.name) with \(key) = \(value): '\(destination.attributes[i].name)' \(reason)"
                }
            }
            return nil
        }
    }

    /// The destination for `value`, created (with only its key set) when missing.
    func object(relationship: Int, destination: EntityDescription, keyIndex: Int, value: Value) throws -> ManagedObject? {
        let cacheKey = Key(relationship: relationship, value: value)
        if let object = created[cacheKey] { return object }
        switch try lookup(relationship: relationship, destination: destination, keyIndex: keyIndex, value: value) {
        case .found(let id): return context.object(with: id)
        case .ambiguous: return nil
        case .missing:
            guard createsMissing else { return nil }
            let object = try context.insertObject(entityName: destination.name)
            try object.setValue(value, at: keyIndex)
            created[cacheKey] = object
            return object
        }
    }

    private func lookup(relationship: Int, destination: EntityDescription, keyIndex: Int, value: Value) throws -> Lookup {
        let cacheKey = Key(relationship: relationship, value: value)
        if let known = lookups[cacheKey] { return known }
        let predicate = ObjectPredicate.comparison(PredicateComparison(.keyPath(destination.attributes[keyIndex].name), .equal, .constant(value)))
        var request = FetchRequest(entityName: destination.name, predicate: predicate)
        request.fetchLimit = 2
        request.includesPendingChanges = false
        let ids = try context.fetchObjectIDs(request)
        let result: Lookup
        switch ids.count {
        case 0: result = .missing
        case 1: result = .found(ids[0])
        default:
            // Count them all only now, for the message.
            request.fetchLimit = 0
            result = .ambiguous(count: try context.count(for: request))
        }
        lookups[cacheKey] = result
        return result
    }
}
