extension ManagedObject {
    /// The value of attribute `key` as a user should see it (see
    /// ``AttributeDescription/displayValue(of:)``): the stored bytes of a `Transformable`
    /// attribute whose value transformer is not registered, decoded when they are a keyed
    /// archive or a property list; any other value as ``value(forKey:)`` reads it.
    ///
    /// For showing only: write back what ``value(forKey:)`` reads, never this.
    /// - Throws: ``QuarryError/unknownKey(entity:key:)``.
    public func displayValue(forKey key: String) throws -> Value {
        guard let i = entity.attributeIndex(key) else { throw QuarryError.unknownKey(entity: entity.name, key: key) }
        return entity.attributes[i].displayValue(of: primitiveValue(at: i))
    }
}
