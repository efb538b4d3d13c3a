import Synchronization

/// The registry of named ``AttributeTransformer``s, like Core Data's `NSValueTransformer`
/// names. Safe to use from any thread.
///
/// ``PropertyListTransformer`` is registered from the start under its own name, under
/// na_ios' `NSDictionaryTransformer`, and under the names of Core Data's built-in transformers
/// (`NSSecureUnarchiveFromData`, `NSSecureUnarchiveFromDataTransformer`, `NSKeyedUnarchiveFromData`,
/// `NSUnarchiveFromData`), so Xcode models naming them load; it is also the transformer of a
/// `Transformable` attribute that names none. The Core Data store registers
/// `Quarry.CoreDataArchive`, which reads the keyed archives and property lists Apple Core Data
/// stores keep (read-only), and the built-ins a model's own names map to (``map(_:to:)``).
public enum AttributeTransformers {
    private static let registry = Mutex<[String: any AttributeTransformer]>(
        Dictionary(uniqueKeysWithValues: PropertyListTransformer.names.map { ($0, PropertyListTransformer() as any AttributeTransformer) }))

    /// Registers `transformer` under `name`, replacing any transformer of that name.
    public static func register(_ transformer: some AttributeTransformer, named name: String) {
        registry.withLock { $0[name] = transformer }
    }

    /// The transformer registered under `name`, or `nil`.
    public static func transformer(named name: String) -> (any AttributeTransformer)? {
        registry.withLock { $0[name] }
    }

    /// The transformer for an attribute naming `name` (the default one for `nil`).
    static func transformer(for name: String?) -> (any AttributeTransformer)? {
        guard let name else { return PropertyListTransformer() }
        return transformer(named: name)
    }
}
