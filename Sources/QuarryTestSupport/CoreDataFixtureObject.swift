import Foundation

extension CoreDataFixture {
    /// An attribute value, converted to what Core Data stores: dates as seconds since
    /// 2001-01-01 (`REAL`), UUIDs as 16-byte blobs, URIs as their absolute string, booleans as 0/1.
    public enum Value: Sendable, Equatable {
        case integer(Int64)
        case double(Double)
        case bool(Bool)
        case string(String)
        case date(Date)
        case data(Data)
        case uuid(UUID)
        case uri(URL)

        /// A transformable's value: a keyed archive (binary property list) of an `NSArray` of
        /// `NSString`s, as `NSSecureUnarchiveFromData` stores one.
        public static func archivedStrings(_ strings: [String]) throws -> Value {
            var archive = KeyedArchiveFixture()
            let items = strings.map { archive.add($0) }
            let root = archive.array(items)
            return .data(try archive.archive(root: root))
        }

        /// A short name for messages.
        var kind: String {
            switch self {
            case .integer: "an integer"
            case .double: "a double"
            case .bool: "a boolean"
            case .string: "a string"
            case .date: "a date"
            case .data: "data"
            case .uuid: "a UUID"
            case .uri: "a URI"
            }
        }
    }

    /// One managed object: its entity, a key unique in the fixture (for relationships and
    /// history), attribute values by name (missing ones are `NULL`), and related objects' keys
    /// by relationship name (in order, for ordered relationships). A link may be given from
    /// either side of a relationship; the generator stores it where Core Data does.
    public struct Object: Sendable {
        /// Its entity's name.
        public var entity: String
        /// Its key, unique in the fixture.
        public var key: String
        /// Attribute values by attribute name.
        public var values: [String: Value]
        /// Related objects' keys by relationship name.
        public var links: [String: [String]]

        /// An object of `entity` known as `key`.
        public init(_ entity: String, key: String, _ values: [String: Value] = [:], links: [String: [String]] = [:]) {
            self.entity = entity
            self.key = key
            self.values = values
            self.links = links
        }
    }

    /// What the store's `Z_MODELCACHE` holds.
    public enum ModelCache: Sendable {
        /// Raw DEFLATE around a keyed archive of the fixture's model, as Core Data writes it.
        case archived
        /// No `Z_MODELCACHE` table (stores from before the cache existed).
        case absent
        /// A `Z_MODELCACHE` row holding these bytes (for damaged-cache tests).
        case raw(Data)
    }
}
