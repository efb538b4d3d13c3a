import Foundation

/// Why a ``CoreDataFixture`` cannot be written; each case names the entity, property, object or
/// file at fault.
public enum CoreDataFixtureError: Error, Equatable, CustomStringConvertible {
    case unknownEntity(String, referencedBy: String)
    case unknownProperty(entity: String, property: String)
    case wrongValue(entity: String, attribute: String, expected: String, found: String)
    case unknownObject(String, referencedBy: String)
    case duplicateObjectKey(String)
    case abstractObject(key: String, entity: String)
    case wrongDestination(object: String, relationship: String, target: String, entity: String)
    case conflictingLinks(object: String, relationship: String)
    case unsupportedRelationship(entity: String, relationship: String, reason: String)
    case destinationExists(String)
    case notSerialisable(what: String, reason: String)

    /// A message naming what is at fault.
    public var description: String {
        switch self {
        case .unknownEntity(let name, let by): "Core Data fixture: no entity \(name) (named by \(by))"
        case .unknownProperty(let entity, let property): "Core Data fixture: entity \(entity) has no property \(property)"
        case .wrongValue(let entity, let attribute, let expected, let found):
            "Core Data fixture: \(entity).\(attribute) is \(expected), given \(found)"
        case .unknownObject(let key, let by): "Core Data fixture: no object \(key) (named by \(by))"
        case .duplicateObjectKey(let key): "Core Data fixture: two objects are keyed \(key)"
        case .abstractObject(let key, let entity): "Core Data fixture: object \(key) is of abstract entity \(entity)"
        case .wrongDestination(let object, let relationship, let target, let entity):
            "Core Data fixture: \(object).\(relationship) cannot hold \(target), an object of \(entity)"
        case .conflictingLinks(let object, let relationship): "Core Data fixture: \(object).\(relationship) is linked to two objects"
        case .unsupportedRelationship(let entity, let relationship, let reason):
            "Core Data fixture: \(entity).\(relationship): \(reason)"
        case .destinationExists(let path): "Core Data fixture: \(path) exists already (the generator never overwrites a file)"
        case .notSerialisable(let what, let reason): "Core Data fixture: \(what) could not be written: \(reason)"
        }
    }
}
