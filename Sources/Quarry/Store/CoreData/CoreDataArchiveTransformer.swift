import Foundation

/// Reads the bytes Core Data keeps for `Transformable` attributes as JSON: an NSKeyedArchiver
/// archive (what `NSSecureUnarchiveFromData` and most custom transformers write) or a plain
/// property list. Dates become ISO 8601 text, data base64 text, a URL or UUID its string, and
/// an object of any other class a dictionary of its archived fields with its class under
/// `"$class"`. Bytes that are neither never fail the read: they come back as
/// `{"$undecoded": "<n> bytes", "base64": …}`.
///
/// Registered as ``name`` by ``CoreDataStoreReader``, which gives every transformable
/// attribute of a recovered model this transformer. Core Data stores are opened read-only,
/// so it never makes bytes.
struct CoreDataArchiveTransformer: AttributeTransformer {
    /// The name it is registered under.
    static let name = "Quarry.CoreDataArchive"
    /// How deeply archived objects are followed (deeper ones show as their class name).
    static let maximumDepth = 32

    /// Registers the transformer (idempotent).
    static func register() {
        if AttributeTransformers.transformer(named: name) == nil {
            AttributeTransformers.register(CoreDataArchiveTransformer(), named: name)
        }
    }

    func data(from value: JSONValue) throws -> Data {
        throw AttributeTransformError("Core Data stores are read-only: transformable values are not written back")
    }

    /// It never makes bytes (see ``data(from:)``).
    var writesValues: Bool { false }

    func value(from data: Data) throws -> JSONValue {
        Self.decoded(data) ?? .object(["$undecoded": .string("\(data.count) bytes"), "base64": .string(data.base64EncodedString())])
    }

    /// `data` as JSON when it is a keyed archive or a plain property list, else `nil`.
    static func decoded(_ data: Data) -> JSONValue? {
        // Whether the bytes are a keyed archive: if not (or it is broken), they are read as a property list, else shown undecoded.
        if let archive = try? KeyedArchive(propertyList: data), let uid = try? archive.topUID("root") {
            var reader = Reader(archive: archive)
            if let value = try? reader.json(uid: uid, depth: 0) { return value } // broken: read as a property list below
        }
        return propertyList(data)
    }

    /// `data` as a plain property list (read by ``PropertyListTransformer`` once the precheck
    /// has ruled out what Foundation cannot survive), or `nil`.
    static func propertyList(_ data: Data) -> JSONValue? {
        // Whether the bytes are a property list at all: `nil` is the answer "no", and the caller shows the bytes undecoded.
        guard (try? BinaryPropertyListPrecheck.check(data)) != nil else { return nil }
        return try? PropertyListTransformer().value(from: data) // `nil`: the caller shows the bytes undecoded
    }

    static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    /// Walks a keyed archive into JSON, with a depth limit and a guard against objects that
    /// contain themselves (shown as `{"$ref": <uid>}`).
    private struct Reader {
        let archive: KeyedArchive
        var open = Set<Int>()
        /// Objects expanded so far: a shared object is expanded each time it is reached, so a
        /// small archive of objects each holding the next twice is cut off here.
        var expanded = 0

        mutating func json(uid: Int, depth: Int) throws(CoreDataModelCacheError) -> JSONValue {
            json(try archive.decode(uid: uid, at: "$top.root"), depth: depth)
        }

        mutating func json(_ value: KeyedArchiveValue, depth: Int) -> JSONValue {
            switch value {
            case .null: return .null
            case .string(let s): return .string(s)
            case .integer(let i): return .number(Double(i))
            case .double(let d): return d.isFinite ? .number(d) : .string("\(d)")
            case .bool(let b): return .bool(b)
            case .data(let d): return .string(d.base64EncodedString())
            case .date(let d): return .string(CoreDataArchiveTransformer.iso(d))
            case .array(let items): return .array(items.map { json($0, depth: depth + 1) })
            case .dictionary(let pairs):
                var object: [String: JSONValue] = [:]
                for pair in pairs { object[key(pair.key)] = json(pair.value, depth: depth + 1) }
                return .object(object)
            case .object(let uid, let className):
                return object(uid, className: className, depth: depth)
            }
        }

        private mutating func object(_ uid: Int, className: String, depth: Int) -> JSONValue {
            expanded += 1
            guard depth < CoreDataArchiveTransformer.maximumDepth, expanded <= KeyedArchive.maximumValues, !open.contains(uid),
                  // An object that cannot be read is shown as a reference ($ref), not dropped.
                  let object = try? archive.object(uid, at: "$objects[\(uid)]") else {
                return .object(["$class": .string(className), "$ref": .number(Double(uid))])
            }
            open.insert(uid)
            defer { open.remove(uid) }
            // Not an NSURL's fields: the object is shown field by field below.
            if object.isKind(of: "NSURL"), case .string(let relative)? = try? object.value("NS.relative") {
                // NS.base is optional: without one the relative string is the URL.
                if case .string(let base)? = try? object.value("NS.base"), let url = URL(string: relative, relativeTo: URL(string: base)) {
                    return .string(url.absoluteString)
                }
                return .string(relative)
            }
            // Not an NSUUID's bytes: the object is shown field by field below.
            if object.isKind(of: "NSUUID"), case .data(let bytes)? = try? object.value("NS.uuidbytes"), bytes.count == 16 {
                let uuid = bytes.withUnsafeBytes { raw in UUID(uuid: raw.loadUnaligned(as: uuid_t.self)) }
                return .string(uuid.uuidString)
            }
            if object.isKind(of: "NSNull") { return .null }
            var fields: [String: JSONValue] = ["$class": .string(className)]
            for key in object.fields.keys where key != "$class" {
                // A member that does not decode is shown, as "(undecodable)", not dropped.
                if let value = try? object.value(key, depth: depth + 1) {
                    fields[key] = json(value, depth: depth + 1)
                } else {
                    fields[key] = .string("(undecodable)")
                }
            }
            return .object(fields)
        }

        private mutating func key(_ value: KeyedArchiveValue) -> String {
            switch value {
            case .string(let s): return s
            default: return json(value, depth: CoreDataArchiveTransformer.maximumDepth).jsonText
            }
        }
    }
}
