extension ManagedObjectModel {
    /// The model's named configurations.
    public var configurations: [ModelConfiguration] { definition.configurations }

    /// The model a store opened for configuration `name` uses: the configuration's entities
    /// (and their ancestors, which a sub-entity's table needs), their relationships to entities
    /// outside it left out (Core Data relates objects of one store only), their fetched
    /// properties to such entities too. `Default` (Core Data's name for every entity) and a
    /// model's own configuration-less use give the whole model.
    ///
    /// ```swift
    /// let cloud = try model.forConfiguration("Cloud")
    /// ```
    /// - Throws: ``ModelError/invalidConfiguration(name:reason:)`` for a name the model lacks.
    public func forConfiguration(_ name: String) throws -> ManagedObjectModel {
        if name == "Default" && !configurations.contains(where: { $0.name == name }) { return self }
        guard let configuration = configurations.first(where: { $0.name == name }) else {
            let known = configurations.map(\.name)
            throw ModelError.invalidConfiguration(
                name: name, reason: "the model has no such configuration" + (known.isEmpty ? "" : " (it has \(known.joined(separator: ", ")))"))
        }
        var kept = Set<String>()
        for entityName in configuration.entities {
            var next: String? = entityName
            while let current = next, kept.insert(current).inserted { next = entity(named: current)?.parentName }
        }
        var cut = definition
        cut.entities = definition.entities.filter { kept.contains($0.name) }.map { entity in
            var own = entity
            own.relationships.removeAll { !kept.contains($0.destination) }
            own.fetchedProperties.removeAll { !kept.contains($0.destination) }
            return own
        }
        cut.fetchRequestTemplates.removeAll { !kept.contains($0.entity) }
        cut.configurations = [ModelConfiguration(name: name, entities: configuration.entities)]
        return try ManagedObjectModel(cut, warnings: warnings)
    }
}
