extension AttributeTransformers {
    /// The built-in transformers a model's own transformer name can be mapped to (see
    /// ``map(_:to:)``), by the name a user gives:
    /// - `keyed-archive`: reads `NSKeyedArchiver` archives and property lists as JSON (what most
    ///   Core Data transformers write); it never writes, so writing a value is refused;
    /// - `property-list`: ``PropertyListTransformer``, reads and writes binary property lists.
    public static let builtInNames = ["keyed-archive", "property-list"]

    /// Registers under `name` (a transformer a model names, such as `ColorsTransformer`) the
    /// built-in transformer `builtIn`, one of ``builtInNames``, so that the model's values are
    /// read through it (`quarry --transformer ColorsTransformer=keyed-archive`).
    /// - Throws: ``AttributeTransformError`` naming the known built-ins when `builtIn` is none.
    public static func map(_ name: String, to builtIn: String) throws {
        switch builtIn {
        case "keyed-archive": register(CoreDataArchiveTransformer(), named: name)
        case "property-list": register(PropertyListTransformer(), named: name)
        default:
            throw AttributeTransformError("'\(builtIn)' is not a built-in value transformer (use one of: \(builtInNames.joined(separator: ", ")))")
        }
    }
}
