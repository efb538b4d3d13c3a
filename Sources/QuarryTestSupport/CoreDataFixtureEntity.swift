import Foundation

extension CoreDataFixture {
    /// A Core Data attribute type, with its `NSAttributeType` code and the column type Core Data
    /// declares for it in SQLite.
    public enum AttributeType: Int, Sendable, CaseIterable {
        case integer16 = 100, integer32 = 200, integer64 = 300, decimal = 400, double = 500, float = 600
        case string = 700, boolean = 800, date = 900, binary = 1000, uuid = 1100, uri = 1200
        case transformable = 1800

        /// The `NSAttributeType` code, as archived in `Z_MODELCACHE`.
        public var code: Int { rawValue }

        /// The declared column type, as Core Data writes it (`INTEGER`, `FLOAT`, `TIMESTAMP`…).
        public var columnType: String {
            switch self {
            case .integer16, .integer32, .integer64, .boolean: "INTEGER"
            case .decimal: "DECIMAL"
            case .double, .float: "FLOAT"
            case .date: "TIMESTAMP"
            case .string, .uri: "VARCHAR"
            case .binary, .uuid, .transformable: "BLOB"
            }
        }

        /// Where Core Data places the column in its table: integers (and foreign keys) first, then
        /// reals and dates, then text, then blobs (as in every real store's `CREATE TABLE`).
        var columnGroup: Int {
            switch columnType {
            case "INTEGER": 0
            case "FLOAT", "TIMESTAMP", "DECIMAL": 1
            case "VARCHAR": 2
            default: 3
            }
        }
    }

    /// An attribute of an entity.
    public struct Attribute: Sendable {
        /// Its name.
        public var name: String
        /// Its type.
        public var type: AttributeType
        /// Whether it may be `nil` (archived in the model cache only).
        public var isOptional: Bool
        /// Indexed: Core Data adds `CREATE INDEX Z<ROOT>_Z<NAME>_INDEX`.
        public var isIndexed: Bool

        /// An attribute `name` of `type`.
        public init(_ name: String, _ type: AttributeType, isOptional: Bool = true, isIndexed: Bool = false) {
            self.name = name
            self.type = type
            self.isOptional = isOptional
            self.isIndexed = isIndexed
        }
    }

    /// A relationship of an entity: to-one unless `isToMany`; `isOrdered` only on to-many.
    public struct Relationship: Sendable {
        /// Its name.
        public var name: String
        /// The destination entity's name.
        public var destination: String
        /// The destination's relationship pointing back, if any.
        public var inverse: String?
        /// To-many rather than to-one.
        public var isToMany: Bool
        /// An ordered to-many (order kept in a `Z_FOK_` column).
        public var isOrdered: Bool
        /// `NSDeleteRule`: 0 no action, 1 nullify, 2 cascade, 3 deny.
        public var deleteRule: Int

        /// A relationship `name` to the entity `destination`, whose relationship `inverse` points back.
        public init(_ name: String, to destination: String, inverse: String?, toMany: Bool = false, ordered: Bool = false, deleteRule: Int = 1) {
            self.name = name
            self.destination = destination
            self.inverse = inverse
            self.isToMany = toMany
            self.isOrdered = toMany && ordered
            self.deleteRule = deleteRule
        }
    }

    /// An entity with its own (not inherited) properties; `parent` makes it a sub-entity, stored
    /// in its root entity's table and told apart by `Z_ENT`.
    public struct Entity: Sendable {
        /// Its name.
        public var name: String
        /// The parent entity's name, for a sub-entity.
        public var parent: String?
        /// Abstract: no object may be of exactly this entity.
        public var isAbstract: Bool
        /// Its own attributes.
        public var attributes: [Attribute]
        /// Its own relationships.
        public var relationships: [Relationship]

        /// An entity `name`, a sub-entity of `parent` when given.
        public init(_ name: String, parent: String? = nil, isAbstract: Bool = false, attributes: [Attribute] = [], relationships: [Relationship] = []) {
            self.name = name
            self.parent = parent
            self.isAbstract = isAbstract
            self.attributes = attributes
            self.relationships = relationships
        }
    }
}
