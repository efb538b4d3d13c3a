extension AttributeDescription {
    /// `value` as a user should see it: the stored bytes of a `Transformable` attribute whose
    /// transformer is not registered, decoded when they are a keyed archive or a property list
    /// (as JSON); any other value unchanged.
    ///
    /// ```swift
    /// let shown = attribute.displayValue(of: try object.value(forKey: attribute.name))
    /// ```
    public func displayValue(of value: Value) -> Value {
        guard type == .transformable, case .data(let bytes) = value, let decoded = CoreDataArchiveTransformer.decoded(bytes) else { return value }
        return .json(decoded)
    }
}
