import Foundation

/// A reader for NSKeyedArchiver archives (`$archiver`, `$top`, `$objects`), over Foundation's
/// `PropertyListSerialization`.
///
/// Objects refer to each other by UID (an index into `$objects`). swift-corelibs-foundation
/// returns a binary property list's UIDs as its internal `_NSKeyedArchiverUID` class, and an
/// XML property list's `{CF$UID = n}` dictionaries as the same class; both, and a plain
/// `{CF$UID = n}` dictionary, are accepted. Every malformed shape (a UID out of range, a value
/// of the wrong kind, a collection containing itself, nesting past ``maximumDepth``) throws a
/// ``CoreDataModelCacheError`` naming the path at fault; nothing traps.
struct KeyedArchive {
    /// How deeply plain collections may nest (a model nests three or four levels).
    static let maximumDepth = 64
    /// How many values one decode may produce: a shared element is decoded each time it is
    /// reached, so a chain of arrays each holding the next one twice would otherwise take
    /// exponential time on a small input.
    static let maximumValues = 100_000

    /// `$objects`, as Foundation returned them.
    let objects: [Any]
    /// `$top`: the archive's root keys (`root` for NSKeyedArchiver's default).
    let top: [String: Any]

    /// Parses a keyed archive from property list bytes (binary or XML).
    init(propertyList data: Data) throws(CoreDataModelCacheError) {
        try BinaryPropertyListPrecheck.check(data)
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw .notAPropertyList(reason: (error as NSError).localizedDescription)
        }
        guard let root = Self.stringKeyed(plist) else {
            throw .wrongType(expected: "a dictionary", found: Self.describe(plist), at: "property list root")
        }
        guard root["$archiver"] != nil else { throw .notAKeyedArchive(missing: "$archiver") }
        guard let topValue = root["$top"] else { throw .notAKeyedArchive(missing: "$top") }
        guard let top = Self.stringKeyed(topValue) else {
            throw .wrongType(expected: "a dictionary", found: Self.describe(topValue), at: "$top")
        }
        guard let objectsValue = root["$objects"] else { throw .notAKeyedArchive(missing: "$objects") }
        guard let objects = objectsValue as? [Any] else {
            throw .wrongType(expected: "an array", found: Self.describe(objectsValue), at: "$objects")
        }
        self.objects = objects
        self.top = top
    }

    /// The UID stored under `key` in `$top`.
    func topUID(_ key: String) throws(CoreDataModelCacheError) -> Int {
        guard let value = top[key] else { throw .missingKey(key, at: "$top") }
        guard let uid = Self.uid(value) else {
            throw .wrongType(expected: "a UID", found: Self.describe(value), at: "$top.\(key)")
        }
        return try checked(uid, at: "$top.\(key)")
    }

    /// The archived object `uid` with its class, for reading its fields.
    /// - Throws: when `uid` is out of range, is not a keyed object, or its class is malformed.
    func object(_ uid: Int, at path: String) throws(CoreDataModelCacheError) -> KeyedArchiveObject {
        let raw = objects[try checked(uid, at: path)]
        guard let fields = Self.stringKeyed(raw) else {
            throw .wrongType(expected: "an archived object", found: Self.describe(raw), at: path)
        }
        let (className, classes) = try classInfo(of: fields, at: path)
        return KeyedArchiveObject(uid: uid, className: className, classes: classes, fields: fields, path: path, archive: self)
    }

    /// Decodes the object `uid` (plain classes in full; others as references).
    func decode(uid: Int, at path: String) throws(CoreDataModelCacheError) -> KeyedArchiveValue {
        var visiting = DecodeBudget()
        return try decodeObject(uid, at: path, depth: 0, visiting: &visiting)
    }

    /// Decodes the value a field holds: a UID is followed (plain classes decoded in full);
    /// an inline scalar is returned as is.
    func decode(_ raw: Any, at path: String, depth: Int = 0) throws(CoreDataModelCacheError) -> KeyedArchiveValue {
        var visiting = DecodeBudget()
        return try decode(raw, at: path, depth: depth, visiting: &visiting)
    }

    private func decode(_ raw: Any, at path: String, depth: Int, visiting: inout DecodeBudget) throws(CoreDataModelCacheError) -> KeyedArchiveValue {
        guard depth <= Self.maximumDepth else { throw .tooDeep(limit: Self.maximumDepth, at: path) }
        guard visiting.remaining > 0 else { throw .tooManyValues(limit: Self.maximumValues, at: path) }
        visiting.remaining -= 1
        if let uid = Self.uid(raw) { return try decodeObject(uid, at: path, depth: depth, visiting: &visiting) }
        if let scalar = Self.scalar(raw) { return scalar }
        if let array = raw as? [Any] {
            var values: [KeyedArchiveValue] = []
            for (i, element) in array.enumerated() {
                values.append(try decode(element, at: "\(path)[\(i)]", depth: depth + 1, visiting: &visiting))
            }
            return .array(values)
        }
        throw .wrongType(expected: "a UID or a scalar", found: Self.describe(raw), at: path)
    }

    private func decodeObject(_ uid: Int, at path: String, depth: Int, visiting: inout DecodeBudget) throws(CoreDataModelCacheError) -> KeyedArchiveValue {
        let index = try checked(uid, at: path)
        if index == 0 { return .null }
        let raw = objects[index]
        if let scalar = Self.scalar(raw) { return scalar }
        guard let fields = Self.stringKeyed(raw) else {
            throw .wrongType(expected: "an archived object or scalar", found: Self.describe(raw), at: path)
        }
        let (className, classes) = try classInfo(of: fields, at: path)
        let plain = KeyedArchiveClass(classes: classes)
        guard plain != .other else { return .object(uid: index, className: className) }
        guard visiting.open.insert(index).inserted else { throw .cycle(uid: index, at: path) }
        defer { visiting.open.remove(index) }
        let object = KeyedArchiveObject(uid: index, className: className, classes: classes, fields: fields, path: path, archive: self)
        func member(_ key: String) throws(CoreDataModelCacheError) -> KeyedArchiveValue {
            guard let value = fields[key] else { throw .missingKey(key, at: "\(path) (\(className))") }
            return try decode(value, at: "\(path).\(key)", depth: depth + 1, visiting: &visiting)
        }
        func list(_ key: String) throws(CoreDataModelCacheError) -> [KeyedArchiveValue] {
            let value = try member(key)
            guard case .array(let items) = value else {
                throw .wrongType(expected: "an array", found: value.kind, at: "\(path).\(key)")
            }
            return items
        }
        switch plain {
        case .string:
            let value = try member("NS.string")
            guard case .string = value else {
                throw .wrongType(expected: "a string", found: value.kind, at: "\(path).NS.string")
            }
            return value
        case .data:
            let value = try member("NS.data")
            guard case .data = value else {
                throw .wrongType(expected: "data", found: value.kind, at: "\(path).NS.data")
            }
            return value
        case .date:
            let value = try member("NS.time")
            switch value {
            case .double(let t): return .date(Date(timeIntervalSinceReferenceDate: t))
            case .integer(let t): return .date(Date(timeIntervalSinceReferenceDate: Double(t)))
            default: throw .wrongType(expected: "a number of seconds", found: value.kind, at: "\(path).NS.time")
            }
        case .array:
            return .array(try list("NS.objects"))
        case .dictionary:
            let keys = try list("NS.keys")
            let values = try list("NS.objects")
            guard keys.count == values.count else {
                throw .wrongType(expected: "\(keys.count) values for \(keys.count) keys", found: "\(values.count)", at: "\(path).NS.objects")
            }
            return .dictionary(zip(keys, values).map { KeyedArchivePair(key: $0, value: $1) })
        case .knownKeysDictionary:
            // Core Data's NSKnownKeysDictionary1: keys in searchMapping.keys, values in `values`;
            // slots holding `emptyToken` are unused.
            let mapping = try member("searchMapping")
            guard case .object(let mappingUID, _) = mapping else {
                throw .wrongType(expected: "an archived key mapping", found: mapping.kind, at: "\(path).searchMapping")
            }
            let keys = try self.object(mappingUID, at: "\(path).searchMapping").list("keys", depth: depth + 1)
            let values = try list("values")
            // The token is a plain string; it is looked up, never decoded, so a token that
            // points back at this dictionary cannot recurse.
            let empty = object.fields["emptyToken"].flatMap(Self.uid).flatMap { uid in
                uid > 0 && uid < objects.count ? objects[uid] as? String : nil
            }.map(KeyedArchiveValue.string)
            var pairs: [KeyedArchivePair] = []
            for (key, value) in zip(keys, values) where value != empty {
                pairs.append(KeyedArchivePair(key: key, value: value))
            }
            return .dictionary(pairs)
        case .other:
            return .object(uid: index, className: className)
        }
    }

    /// `uid` when it indexes `$objects`.
    func checked(_ uid: Int, at path: String) throws(CoreDataModelCacheError) -> Int {
        guard uid >= 0, uid < objects.count else { throw .uidOutOfRange(uid: uid, objectCount: objects.count, at: path) }
        return uid
    }

    /// The `$classname` and `$classes` of the object whose fields are `fields`.
    private func classInfo(of fields: [String: Any], at path: String) throws(CoreDataModelCacheError) -> (String, [String]) {
        guard let classValue = fields["$class"] else { throw .missingKey("$class", at: path) }
        guard let classUID = Self.uid(classValue) else {
            throw .wrongType(expected: "a UID", found: Self.describe(classValue), at: "\(path).$class")
        }
        let raw = objects[try checked(classUID, at: "\(path).$class")]
        guard let info = Self.stringKeyed(raw) else {
            throw .wrongType(expected: "a class description", found: Self.describe(raw), at: "\(path).$class")
        }
        guard let name = info["$classname"] as? String else {
            throw .missingKey("$classname", at: "\(path).$class")
        }
        let classes = (info["$classes"] as? [Any])?.compactMap { $0 as? String } ?? [name]
        return (name, classes.isEmpty ? [name] : classes)
    }
}

/// What one decode has used: the collections being decoded (a repeat is a cycle) and how many
/// more values it may produce.
struct DecodeBudget {
    var open = Set<Int>()
    var remaining = KeyedArchive.maximumValues
}
