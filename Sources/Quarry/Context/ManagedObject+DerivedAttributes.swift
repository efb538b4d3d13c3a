extension ManagedObject {
    /// Refuses a caller's set of attribute `index` when it is derived: saves compute it.
    /// - Throws: ``QuarryError/readOnlyDerivedAttribute(entity:attribute:expression:)``.
    @inline(__always)
    func refuseDerivedSet(at index: Int) throws {
        guard !entity.derivedAttributeIndices.isEmpty, let expression = entity.attributes[index].derivationExpression else { return }
        throw QuarryError.readOnlyDerivedAttribute(entity: entity.name, attribute: entity.attributes[index].name, expression: expression)
    }
}
