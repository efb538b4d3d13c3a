import Foundation

extension ManagedObject {
    /// The elements of composite attribute `key` (``CompositeAttributeDescription``), by
    /// element name, each in its element's type; `nil` elements are left out.
    ///
    /// ```swift
    /// let home = try person.compositeValues(forKey: "home")   // ["city": .string("Oslo")]
    /// ```
    /// - Throws: ``QuarryError/unknownKey(entity:key:)`` when the entity has no such composite.
    public func compositeValues(forKey key: String) throws -> [String: Value] {
        guard let composite = entity.compositeAttribute(named: key) else { throw QuarryError.unknownKey(entity: entity.name, key: key) }
        return compositeMembers(of: composite)
    }

    /// The non-`nil` elements of `composite`, by element name.
    private func compositeMembers(of composite: CompositeAttributeDescription) -> [String: Value] {
        var members: [String: Value] = [:]
        for element in composite.elements {
            guard let i = entity.attributeIndex(composite.storedName(of: element.name)) else { continue }
            let value = primitiveValue(at: i)
            if !value.isNull { members[element.name] = value }
        }
        return members
    }

    /// Sets composite attribute `key` whole: each element to its value in `values` (converted
    /// as ``setValue(_:forKey:)`` converts), an element left out to `nil`. Nothing is set when
    /// any value does not fit.
    ///
    /// ```swift
    /// try person.setCompositeValues(["city": "Oslo", "postcode": "0150"], forKey: "home")
    /// ```
    /// - Throws: ``QuarryError/unknownKey(entity:key:)`` for a composite or element the entity
    ///   lacks, ``QuarryError/typeMismatch(entity:key:expected:got:)`` for a value of the wrong type.
    public func setCompositeValues(_ values: [String: Value], forKey key: String) throws {
        guard let composite = entity.compositeAttribute(named: key) else { throw QuarryError.unknownKey(entity: entity.name, key: key) }
        let names = Set(composite.elements.map(\.name))
        if let unknown = values.keys.sorted().first(where: { !names.contains($0) }) {
            throw QuarryError.unknownKey(entity: entity.name, key: composite.storedName(of: unknown))
        }
        var converted: [(Int, Value)] = []
        for element in composite.elements {
            let stored = composite.storedName(of: element.name)
            guard let i = entity.attributeIndex(stored) else { continue }
            let raw = values[element.name] ?? .null
            guard let coerced = raw.coerced(to: element.type) else {
                throw QuarryError.typeMismatch(entity: entity.name, key: stored, expected: element.type.rawValue, got: raw.description)
            }
            converted.append((i, coerced))
        }
        for (i, v) in converted { try setValue(v, at: i) }
    }

    /// The composite as ``value(forKey:)`` gives it: a ``JSONValue/object(_:)`` of its
    /// non-`nil` elements (numbers as JSON numbers, dates as seconds since 2001-01-01, other
    /// values as text), or `nil` when every element is `nil`.
    func compositeValue(of composite: CompositeAttributeDescription) -> Value {
        let members = compositeMembers(of: composite)
        guard !members.isEmpty else { return .null }
        return .json(.object(members.mapValues(Self.jsonValue)))
    }

    /// Sets the composite from what ``value(forKey:)`` gives (a ``JSONValue/object(_:)``, or `nil`).
    func setCompositeValue(_ value: Value, of composite: CompositeAttributeDescription) throws {
        switch value {
        case .null, .json(.null): try setCompositeValues([:], forKey: composite.name)
        case .json(.object(let object)): try setCompositeValues(object.mapValues(Self.value), forKey: composite.name)
        default:
            throw QuarryError.typeMismatch(entity: entity.name, key: composite.name, expected: "a dictionary of its elements", got: value.description)
        }
    }

    private static func jsonValue(_ value: Value) -> JSONValue {
        switch value {
        case .null: return .null
        case .integer(let i): return .number(Double(i))
        case .double(let d): return .number(d)
        case .decimal(let d): return .string(d.description)
        case .string(let s): return .string(s)
        case .bool(let b): return .bool(b)
        case .date(let d): return .number(d.timeIntervalSinceReferenceDate)
        case .data(let d): return .string(d.base64EncodedString())
        case .uuid(let u): return .string(u.uuidString)
        case .uri(let u): return .string(u.absoluteString)
        case .json(let j): return j
        }
    }

    private static func value(_ json: JSONValue) -> Value {
        switch json {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let d): return .double(d)
        case .string(let s): return .string(s)
        case .array, .object: return .json(json)
        }
    }
}
