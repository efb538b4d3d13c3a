import Synchronization

/// A typed, reusable attribute key: the fastest way to read and write an attribute.
///
/// ```swift
/// extension Ticker {
///     static let price = AttributeKey<Double>("price")
/// }
/// ticker[Ticker.price] = 12.5
/// ```
/// The key remembers the attribute's index for the last entity it was used with, so a hot
/// loop pays no name lookup (the ``Attribute`` property wrapper pays a key-path projection
/// on every access instead). Keys are `Sendable` and meant to be `static let`s.
public final class AttributeKey<T: AttributeValue>: Sendable {
    /// The attribute's name.
    public let name: String
    /// `entityIndex << 32 | attributeIndex` of the last resolution, or -1.
    private let cache = Atomic<Int>(-1)

    /// A key for attribute `name`.
    public init(_ name: String) { self.name = name }

    /// The attribute's index in `entity` (traps with the entity and key when it has none).
    func index(in entity: EntityDescription) -> Int {
        let cached = cache.load(ordering: .relaxed)
        if cached >= 0 && cached >> 32 == entity.index { return cached & 0xFFFF_FFFF }
        guard let i = entity.attributeIndex(name) else {
            preconditionFailure(QuarryError.unknownKey(entity: entity.name, key: name).description)
        }
        cache.store(entity.index << 32 | i, ordering: .relaxed)
        return i
    }
}

extension ManagedObject {
    /// The typed value of the attribute `key` names (null reads as `nil` for optional types,
    /// else as the type's empty value); setting traps on a value the attribute cannot hold.
    public subscript<T>(key: AttributeKey<T>) -> T {
        get { T(attributeValue: primitiveValue(at: key.index(in: entity))) ?? T.emptyValue }
        set { _setTypedValue(newValue.attributeValue, at: key.index(in: entity)) }
    }
}
