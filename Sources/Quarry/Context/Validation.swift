import Foundation

/// One reason an object cannot be saved. Thrown by itself from a validation hook
/// (``ManagedObject/validateValue(_:forKey:)``, ``ManagedObject/validateForInsert()``, …) it
/// is one failure of the save's ``ObjectValidationError``.
public struct ValidationFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The object's entity.
    public var entity: String
    /// The object's ID.
    public var objectID: ObjectID
    /// The attribute or relationship at fault.
    public var key: String
    /// What is wrong, in words a user can act on.
    public var reason: String

    public var description: String { "\(entity) \(objectID): \(key): \(reason)" }

    /// A failure of `object`'s `key` (a property name, or a word in parentheses for a rule
    /// over several properties).
    public init(object: ManagedObject, key: String, reason: String) {
        self.init(entity: object.entity.name, objectID: object.objectID, key: key, reason: reason)
    }

    /// A failure of the object `objectID` of `entity`.
    public init(entity: String, objectID: ObjectID, key: String, reason: String) {
        self.entity = entity
        self.objectID = objectID
        self.key = key
        self.reason = reason
    }
}

/// A save refused because objects failed validation; lists every failure, not just the first.
/// Nothing was written.
public struct ObjectValidationError: Error, Sendable, CustomStringConvertible {
    /// Every failure found.
    public var failures: [ValidationFailure]

    /// An error of `failures`.
    public init(failures: [ValidationFailure]) { self.failures = failures }

    public var description: String {
        "save refused: \(failures.count) validation failure(s):\n" + failures.map { "  - \($0)" }.joined(separator: "\n")
    }
}

extension ManagedObject {
    /// Checks the object against its model: required values, ranges, patterns, relationship
    /// counts. Returns every failure (empty when valid).
    public func validationFailures() -> [ValidationFailure] {
        checkAccess()
        if entity.validatedAttributeIndices.isEmpty && entity.validatedRelationshipIndices.isEmpty { return [] }
        fireFault()
        guard let context = managedObjectContext, !faulted else { return [] }
        var failures: [ValidationFailure] = []
        func fail(_ key: String, _ reason: String) {
            failures.append(ValidationFailure(entity: entity.name, objectID: objectID, key: key, reason: reason))
        }
        for i in entity.validatedAttributeIndices {
            let a = entity.attributes[i]
            for reason in a.ruleViolations(of: values[i]) { fail(a.name, reason) }
        }
        failures += relationshipRuleFailures(in: context)
        return failures
    }

    /// The failures of the model's relationship rules (required, minimum and maximum counts).
    func relationshipRuleFailures(in context: ObjectContext) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        func fail(_ key: String, _ reason: String) {
            failures.append(ValidationFailure(entity: entity.name, objectID: objectID, key: key, reason: reason))
        }
        for r in entity.validatedRelationshipIndices {
            let rel = entity.relationships[r]
            if rel.isToMany {
                guard !rel.isOptional || rel.minCount > 0 || rel.maxCount > 0 else { continue }
                let count: Int
                do {
                    count = try context.toManyContents(of: self, relationship: r).count
                } catch {
                    fail(rel.name, "could not be checked: its objects could not be read (\(error))")
                    continue
                }
                if !rel.isOptional && count == 0 { fail(rel.name, "is required") }
                if rel.minCount > 0 && count < rel.minCount { fail(rel.name, "has \(count) objects, at least \(rel.minCount) required") }
                if rel.maxCount > 0 && count > rel.maxCount { fail(rel.name, "has \(count) objects, at most \(rel.maxCount) allowed") }
            } else if !rel.isOptional && toOne[r] == nil {
                fail(rel.name, "is required")
            }
        }
        return failures
    }

    /// The failures of a pending delete: relationships with the *deny* rule that still hold objects.
    func denyFailures() -> [ValidationFailure] {
        guard let context = managedObjectContext else { return [] }
        var failures: [ValidationFailure] = []
        for (r, rel) in entity.relationships.enumerated() where rel.deleteRule == .deny {
            let related: [ObjectID]
            do {
                related = rel.isToMany ? try context.toManyContents(of: self, relationship: r) : (toOne[r].map { [$0] } ?? [])
            } catch {
                failures.append(ValidationFailure(
                    entity: entity.name, objectID: objectID, key: rel.name,
                    reason: "delete could not be checked: '\(rel.name)' could not be read (\(error))"))
                continue
            }
            let alive = related.filter { !(context.registeredObject(for: $0)?.deleted ?? false) }
            if !alive.isEmpty {
                failures.append(ValidationFailure(
                    entity: entity.name, objectID: objectID, key: rel.name,
                    reason: "delete denied: '\(rel.name)' still holds \(alive.count) object(s)"))
            }
        }
        return failures
    }
}

extension ManagedObject {
    /// The model's rules for every property, with ``validateValue(_:forKey:)`` called for each
    /// attribute of a subclass (which may override it per key): throws
    /// ``ObjectValidationError`` with every failure, each naming the object, key and rule.
    public func validateProperties() throws {
        let failures = propertyFailures()
        if !failures.isEmpty { throw ObjectValidationError(failures: failures) }
    }

    /// The failures ``validateProperties()`` throws.
    func propertyFailures() -> [ValidationFailure] {
        // A plain ManagedObject cannot override validateValue: its model rules are checked by
        // index, without a call per attribute.
        guard type(of: self) != ManagedObject.self else { return validationFailures() }
        if faulted { fireFault() }
        guard !faulted else { return [] }
        var failures: [ValidationFailure] = []
        let names = entity.attributeNames
        for i in names.indices {
            do {
                try validateValue(values[i], forKey: names[i])
            } catch {
                failures += ValidationFailure.list(error, object: self, key: names[i])
            }
        }
        // Relationship rules (counts, required) are the model's.
        if !entity.validatedRelationshipIndices.isEmpty, let context = managedObjectContext {
            failures += relationshipRuleFailures(in: context)
        }
        return failures
    }

    /// The failures of the hook that applies to the object's state in a save.
    func saveFailures() -> [ValidationFailure] {
        do {
            if deleted { try validateForDelete() } else if inserted { try validateForInsert() } else { try validateForUpdate() }
            return []
        } catch {
            return ValidationFailure.list(error, object: self, key: "(object)")
        }
    }
}

extension ValidationFailure {
    /// The failures an error thrown by a validation hook stands for: its own list, itself, or
    /// one failure of `key` with the error's description.
    static func list(_ error: any Error, object: ManagedObject, key: String) -> [ValidationFailure] {
        switch error {
        case let error as ObjectValidationError: return error.failures
        case let failure as ValidationFailure: return [failure]
        default: return [ValidationFailure(object: object, key: key, reason: "\(error)")]
        }
    }
}

extension ObjectContext {
    /// Validates every inserted and updated object (``ManagedObject/validateForInsert()``,
    /// ``ManagedObject/validateForUpdate()``) and every deleted one
    /// (``ManagedObject/validateForDelete()``: by default its deny rules).
    /// - Throws: ``ObjectValidationError`` with every failure of every object.
    public func validateForSave() throws {
        var failures: [ValidationFailure] = []
        for object in insertedList where object.inserted { failures += object.saveFailures() }
        for object in updatedObjects.values.sorted(by: { $0.objectID < $1.objectID }) { failures += object.saveFailures() }
        for object in deletedObjects.values.sorted(by: { $0.objectID < $1.objectID }) {
            failures += object.saveFailures()
            if let unapplied = unappliedDeleteRules[object.objectID] {
                failures.append(ValidationFailure(entity: object.entity.name, objectID: object.objectID, key: "(delete rules)",
                                                  reason: "delete rules could not be applied: \(unapplied.reason)"))
            }
        }
        if !failures.isEmpty { throw ObjectValidationError(failures: failures) }
    }
}
