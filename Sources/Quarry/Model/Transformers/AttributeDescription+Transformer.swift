import Foundation

extension AttributeDescription {
    /// The name of this `Transformable` attribute's value transformer when nothing is registered
    /// under it (`nil` when it names none, or a registered one).
    ///
    /// Registration is looked up now, not when the model loaded: a transformer registered later
    /// takes effect for the next value read or written.
    public var unregisteredTransformerName: String? {
        guard type == .transformable, let name = valueTransformerName, AttributeTransformers.transformer(named: name) == nil else { return nil }
        return name
    }

    /// Why `value` cannot be written to this attribute for want of its transformer (not
    /// registered, or one that only reads), or `nil` when it can. Null and the stored bytes
    /// read back unchanged (``Value/data(_:)``) need no transformer.
    func transformerRefusal(for value: Value) -> String? {
        guard type == .transformable, case .json = value, let name = valueTransformerName else { return nil }
        guard let transformer = AttributeTransformers.transformer(named: name) else {
            return "needs value transformer '\(name)' to be written, and none is registered under that name"
        }
        return transformer.writesValues ? nil : "value transformer '\(name)' only reads values; it cannot write one"
    }
}
