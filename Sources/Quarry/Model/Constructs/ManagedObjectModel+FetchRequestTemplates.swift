extension ManagedObjectModel {
    /// The model's fetch request templates, by name.
    public var fetchRequestTemplates: [FetchRequestTemplate] { definition.fetchRequestTemplates }

    /// The fetch request of template `name` with its `$NAME` variables replaced by
    /// `substitutions` (Core Data's `fetchRequestFromTemplate(withName:substitutionVariables:)`).
    ///
    /// ```swift
    /// let request = try model.fetchRequest(named: "expensive", substitutions: ["LIMIT": 100])
    /// let objects = try context.fetch(request)
    /// ```
    /// - Throws: ``QueryError/invalidOperand(_:)`` for an unknown template name, and
    ///   ``QueryError/unboundVariable(_:)`` naming a variable `substitutions` lacks.
    public func fetchRequest(named name: String, substitutions: [String: Value] = [:]) throws -> FetchRequest {
        guard let template = fetchRequestTemplates.first(where: { $0.name == name }) else {
            let known = fetchRequestTemplates.map(\.name)
            throw QueryError.invalidOperand("the model has no fetch request template named '\(name)'"
                + (known.isEmpty ? " (it has none)" : " (templates: \(known.joined(separator: ", ")))"))
        }
        var request = FetchRequest(entityName: template.entity)
        if !template.predicate.allSatisfy(\.isWhitespace) {
            request.predicate = try ObjectPredicate(format: template.predicate).substituting(substitutions)
        }
        return request
    }
}
