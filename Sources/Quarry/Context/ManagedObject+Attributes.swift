extension ManagedObject {
    /// The value of attribute `key`; traps on an unknown key (use ``value(forKey:)`` for a
    /// checked read).
    public subscript(key: String) -> Value {
        get {
            guard let i = entity.attributeIndex(key) else { preconditionFailure(QuarryError.unknownKey(entity: entity.name, key: key).description) }
            return primitiveValue(at: i)
        }
        set {
            do { try setValue(newValue, forKey: key) } catch { preconditionFailure("\(error)") }
        }
    }

    /// The value of attribute `key`.
    /// - Throws: ``QuarryError/unknownKey(entity:key:)``.
    public func value(forKey key: String) throws -> Value {
        guard let i = entity.attributeIndex(key) else {
            if let composite = entity.compositeAttribute(named: key) { return compositeValue(of: composite) }
            if let fetched = entity.fetchedProperty(named: key) { return try fetchedPropertyValue(fetched) }
            throw QuarryError.unknownKey(entity: entity.name, key: key)
        }
        return primitiveValue(at: i)
    }

    /// Sets attribute `key`, converting compatible values (an integer to a double attribute,
    /// a string to a UUID…).
    /// - Throws: ``QuarryError/unknownKey(entity:key:)``, ``QuarryError/typeMismatch(entity:key:expected:got:)``,
    ///   or ``QuarryError/valueTransformerUnavailable(entity:attribute:name:reason:)`` for a
    ///   transformable value whose transformer is not registered.
    public func setValue(_ value: Value, forKey key: String) throws {
        guard let i = entity.attributeIndex(key) else {
            guard let composite = entity.compositeAttribute(named: key) else { throw QuarryError.unknownKey(entity: entity.name, key: key) }
            return try setCompositeValue(value, of: composite)
        }
        try refuseDerivedSet(at: i)
        try setValue(value, at: i)
    }

    /// Sets several attributes (and, for keys naming to-one relationships, destinations given
    /// as ``Value/uri(_:)`` are not accepted: use ``setObject(_:forKey:)``).
    public func setValues(_ values: [String: Value]) throws {
        for (k, v) in values { try setValue(v, forKey: k) }
    }

    /// A typed read of attribute `key` (`nil` when the value is null or of another type).
    public func get<T: AttributeValue>(_ key: String, as type: T.Type = T.self) -> T? {
        // The documented typed read: `nil` for an unknown key as for a null (``value(forKey:)`` throws).
        guard let v = try? value(forKey: key) else { return nil }
        return T(attributeValue: v)
    }

    /// The index of attribute `key`; traps with the entity and key when there is none.
    @usableFromInline
    func _attributeIndex(forKey key: String) -> Int {
        guard let i = entity.attributeIndex(key) else {
            preconditionFailure(QuarryError.unknownKey(entity: entity.name, key: key).description)
        }
        return i
    }

    /// Sets attribute `index` from a typed property, trapping on a value it cannot hold.
    @usableFromInline
    func _setTypedValue(_ value: Value, at index: Int) {
        do { try refuseDerivedSet(at: index); try setValue(value, at: index) } catch { preconditionFailure("\(error)") }
    }

    /// The value at attribute index `index`, firing the fault first.
    @usableFromInline
    func primitiveValue(at index: Int) -> Value {
        checkAccess()
        fireFault()
        return faulted || index >= values.count ? .null : values[index]
    }

    /// Type-checks and sets attribute `index`, recording the change.
    func setValue(_ value: Value, at index: Int) throws {
        checkAccess()
        let type = entity.attributeTypes[index]
        guard let coerced = value.coerced(to: type) else {
            throw QuarryError.typeMismatch(entity: entity.name, key: entity.attributes[index].name,
                                           expected: type.rawValue, got: value.description)
        }
        if type == .transformable, let reason = entity.attributes[index].transformerRefusal(for: coerced) {
            let attribute = entity.attributes[index]
            throw QuarryError.valueTransformerUnavailable(entity: entity.name, attribute: attribute.name,
                                                          name: attribute.valueTransformerName ?? "", reason: reason)
        }
        if faulted {
            fireFault()
            guard !faulted else { throw QuarryError.objectNotFound("\(entity.name) \(objectID)") }
        }
        if inserted {
            recordUndo(attribute: index)
            values[index] = coerced  // written whole at save: nothing to track
            if insertAnnounced { managedObjectContext?.noteChanged(self, property: index) } else { changeCount &+= 1 }
            return
        }
        if values[index] == coerced { return }
        recordUndo(attribute: index)
        values[index] = coerced
        managedObjectContext?.noteChanged(self, property: index)
    }
}

/// A Swift type that an attribute value converts to and from.
public protocol AttributeValue {
    /// Converts from a stored value; `nil` when the value is null or of another kind.
    init?(attributeValue: Value)
    /// The value to store.
    var attributeValue: Value { get }
    /// What a typed property reads when the stored value is null.
    static var emptyValue: Self { get }
}

extension String: AttributeValue {
    public init?(attributeValue v: Value) { if case .string(let s) = v { self = s } else { return nil } }
    public var attributeValue: Value { .string(self) }
    public static var emptyValue: String { "" }
}

extension Int64: AttributeValue {
    public init?(attributeValue v: Value) { if case .integer(let i) = v { self = i } else { return nil } }
    public var attributeValue: Value { .integer(self) }
    public static var emptyValue: Int64 { 0 }
}

extension Int: AttributeValue {
    public init?(attributeValue v: Value) { if case .integer(let i) = v { self = Int(i) } else { return nil } }
    public var attributeValue: Value { .integer(Int64(self)) }
    public static var emptyValue: Int { 0 }
}

extension Int32: AttributeValue {
    public init?(attributeValue v: Value) { if case .integer(let i) = v, let x = Int32(exactly: i) { self = x } else { return nil } }
    public var attributeValue: Value { .integer(Int64(self)) }
    public static var emptyValue: Int32 { 0 }
}

extension Int16: AttributeValue {
    public init?(attributeValue v: Value) { if case .integer(let i) = v, let x = Int16(exactly: i) { self = x } else { return nil } }
    public var attributeValue: Value { .integer(Int64(self)) }
    public static var emptyValue: Int16 { 0 }
}

extension Double: AttributeValue {
    public init?(attributeValue v: Value) {
        switch v {
        case .double(let d): self = d
        case .integer(let i): self = Double(i)
        default: return nil
        }
    }
    public var attributeValue: Value { .double(self) }
    public static var emptyValue: Double { 0 }
}

extension Float: AttributeValue {
    public init?(attributeValue v: Value) { guard let d = Double(attributeValue: v) else { return nil }; self = Float(d) }
    public var attributeValue: Value { .double(Double(self)) }
    public static var emptyValue: Float { 0 }
}

extension Bool: AttributeValue {
    public init?(attributeValue v: Value) { if case .bool(let b) = v { self = b } else { return nil } }
    public var attributeValue: Value { .bool(self) }
    public static var emptyValue: Bool { false }
}

extension JSONValue: AttributeValue {
    public init?(attributeValue v: Value) { if case .json(let j) = v { self = j } else { return nil } }
    public var attributeValue: Value { .json(self) }
    public static var emptyValue: JSONValue { .null }
}

extension Optional: AttributeValue where Wrapped: AttributeValue {
    public init?(attributeValue v: Value) {
        if case .null = v { self = .none; return }
        guard let w = Wrapped(attributeValue: v) else { return nil }
        self = .some(w)
    }
    public var attributeValue: Value { self?.attributeValue ?? .null }
    public static var emptyValue: Wrapped? { nil }
}
