/// One archived object of a class the reader does not decode in full (an entity, a property):
/// its fields, read by key with the expected kind checked.
struct KeyedArchiveObject {
    /// Its index in `$objects`.
    let uid: Int
    /// `$classname`.
    let className: String
    /// `$classes`: the class and its superclasses.
    let classes: [String]
    /// The raw fields, as Foundation returned them.
    let fields: [String: Any]
    /// Where it was reached from, for error messages.
    let path: String
    let archive: KeyedArchive

    /// The decoded value of `key`; `nil` when absent or `$null`.
    func value(_ key: String, depth: Int = 0) throws(CoreDataModelCacheError) -> KeyedArchiveValue? {
        guard let raw = fields[key] else { return nil }
        let value = try archive.decode(raw, at: "\(path).\(key)", depth: depth)
        return value == .null ? nil : value
    }

    /// The string under `key`, or `nil` when absent.
    func string(_ key: String) throws(CoreDataModelCacheError) -> String? {
        guard let value = try value(key) else { return nil }
        guard case .string(let s) = value else { throw mismatch("a string", value, key) }
        return s
    }

    /// The string under `key`.
    func requireString(_ key: String) throws(CoreDataModelCacheError) -> String {
        guard let s = try string(key) else { throw .missingKey(key, at: "\(path) (\(className))") }
        return s
    }

    /// The integer under `key` (a Boolean counts as 0 or 1), or `nil` when absent.
    func integer(_ key: String) throws(CoreDataModelCacheError) -> Int64? {
        guard let value = try value(key) else { return nil }
        switch value {
        case .integer(let i): return i
        case .bool(let b): return b ? 1 : 0
        default: throw mismatch("an integer", value, key)
        }
    }

    /// The Boolean under `key` (an integer counts as non-zero), or `nil` when absent.
    func bool(_ key: String) throws(CoreDataModelCacheError) -> Bool? {
        guard let value = try value(key) else { return nil }
        switch value {
        case .bool(let b): return b
        case .integer(let i): return i != 0
        default: throw mismatch("a Boolean", value, key)
        }
    }

    /// The archived object `key` refers to, or `nil` when absent or `$null`.
    func reference(_ key: String) throws(CoreDataModelCacheError) -> KeyedArchiveObject? {
        guard let value = try value(key) else { return nil }
        guard case .object(let uid, _) = value else { throw mismatch("an archived object", value, key) }
        return try archive.object(uid, at: "\(path).\(key)")
    }

    /// The array (or set) under `key`, or `[]` when absent.
    func list(_ key: String, depth: Int = 0) throws(CoreDataModelCacheError) -> [KeyedArchiveValue] {
        guard let value = try value(key, depth: depth) else { return [] }
        guard case .array(let items) = value else { throw mismatch("an array", value, key) }
        return items
    }

    /// The dictionary under `key`, or `[]` when absent.
    func dictionary(_ key: String) throws(CoreDataModelCacheError) -> [KeyedArchivePair] {
        guard let value = try value(key) else { return [] }
        guard case .dictionary(let pairs) = value else { throw mismatch("a dictionary", value, key) }
        return pairs
    }

    /// Whether this object is of class `name` or a subclass.
    func isKind(of name: String) -> Bool { classes.contains(name) }

    private func mismatch(_ expected: String, _ value: KeyedArchiveValue, _ key: String) -> CoreDataModelCacheError {
        .wrongType(expected: expected, found: value.kind, at: "\(path).\(key)")
    }
}
