/// A typed attribute of a ``ManagedObject`` subclass.
///
/// ```swift
/// final class Ticker: ManagedObject {
///     @Attribute("symbol") var symbol: String
///     @Attribute("listed") var listed: Date?
/// }
/// ```
/// Reads fire the fault; a null value reads as `nil` for optional types and as the type's
/// empty value (`""`, `0`, `false`…) for non-optional ones (validation still refuses a nil
/// required attribute at save). Writes record the change like ``ManagedObject/setValue(_:forKey:)``
/// and trap on a value the attribute cannot hold.
///
/// Quarry uses property wrappers rather than macros: they need no swift-syntax build (minutes
/// on a 2-core CI machine) and the key is written once, next to the property.
@propertyWrapper
public struct Attribute<T: AttributeValue> {
    /// The attribute's key.
    public let key: String
    /// The attribute's index in the entity, resolved on first use.
    @usableFromInline var index = -1

    /// Binds the property to attribute `key`.
    public init(_ key: String) { self.key = key }

    /// Not available: the value lives in the enclosing object.
    @available(*, unavailable, message: "@Attribute is only available on ManagedObject subclasses")
    public var wrappedValue: T {
        get { fatalError() }
        set { fatalError() }
    }

    /// Reads and writes through the enclosing object.
    ///
    /// Inlinable so the storage key path folds into a direct field access in the caller:
    /// a generic key-path projection per access costs more than the whole write otherwise.
    @inlinable @inline(__always)
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, T>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Attribute<T>>
    ) -> T {
        get {
            var i = object[keyPath: storageKeyPath].index
            if i < 0 {
                i = object._attributeIndex(forKey: object[keyPath: storageKeyPath].key)
                object[keyPath: storageKeyPath].index = i
            }
            return T(attributeValue: object.primitiveValue(at: i)) ?? T.emptyValue
        }
        set {
            var i = object[keyPath: storageKeyPath].index
            if i < 0 {
                i = object._attributeIndex(forKey: object[keyPath: storageKeyPath].key)
                object[keyPath: storageKeyPath].index = i
            }
            object._setTypedValue(newValue.attributeValue, at: i)
        }
    }
}

/// A typed to-one relationship of a ``ManagedObject`` subclass; setting it maintains the inverse.
@propertyWrapper
public struct ToOne<Destination: ManagedObject> {
    /// The relationship's key.
    public let key: String

    /// Binds the property to to-one relationship `key`.
    public init(_ key: String) { self.key = key }

    /// Not available: the value lives in the enclosing object.
    @available(*, unavailable, message: "@ToOne is only available on ManagedObject subclasses")
    public var wrappedValue: Destination? {
        get { fatalError() }
        set { fatalError() }
    }

    /// Reads and writes through the enclosing object.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Destination?>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, ToOne<Destination>>
    ) -> Destination? {
        get {
            let key = object[keyPath: storageKeyPath].key
            do { return try object.object(forKey: key) as? Destination } catch { preconditionFailure("\(error)") }
        }
        set {
            let key = object[keyPath: storageKeyPath].key
            do { try object.setObject(newValue, forKey: key) } catch { preconditionFailure("\(error)") }
        }
    }
}

/// A typed unordered to-many relationship of a ``ManagedObject`` subclass, as a `Set`.
@propertyWrapper
public struct ToMany<Destination: ManagedObject> {
    /// The relationship's key.
    public let key: String

    /// Binds the property to to-many relationship `key`.
    public init(_ key: String) { self.key = key }

    /// Not available: the value lives in the enclosing object.
    @available(*, unavailable, message: "@ToMany is only available on ManagedObject subclasses")
    public var wrappedValue: Set<Destination> {
        get { fatalError() }
        set { fatalError() }
    }

    /// Reads and writes through the enclosing object.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Set<Destination>>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, ToMany<Destination>>
    ) -> Set<Destination> {
        get {
            let key = object[keyPath: storageKeyPath].key
            do { return Set(try object.objects(forKey: key).compactMap { $0 as? Destination }) } catch { preconditionFailure("\(error)") }
        }
        set {
            let key = object[keyPath: storageKeyPath].key
            do { try object.setObjects(Array(newValue), forKey: key) } catch { preconditionFailure("\(error)") }
        }
    }
}

/// A typed ordered to-many relationship of a ``ManagedObject`` subclass, as an `Array`.
@propertyWrapper
public struct OrderedToMany<Destination: ManagedObject> {
    /// The relationship's key.
    public let key: String

    /// Binds the property to ordered to-many relationship `key`.
    public init(_ key: String) { self.key = key }

    /// Not available: the value lives in the enclosing object.
    @available(*, unavailable, message: "@OrderedToMany is only available on ManagedObject subclasses")
    public var wrappedValue: [Destination] {
        get { fatalError() }
        set { fatalError() }
    }

    /// Reads and writes through the enclosing object.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, [Destination]>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, OrderedToMany<Destination>>
    ) -> [Destination] {
        get {
            let key = object[keyPath: storageKeyPath].key
            do { return try object.objects(forKey: key).compactMap { $0 as? Destination } } catch { preconditionFailure("\(error)") }
        }
        set {
            let key = object[keyPath: storageKeyPath].key
            do { try object.setObjects(newValue, forKey: key) } catch { preconditionFailure("\(error)") }
        }
    }
}
