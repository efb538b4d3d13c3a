extension ModelWarning {
    /// The name of the warning for a `Transformable` attribute naming a value transformer that
    /// is not registered.
    ///
    /// Core Data loads such a model and looks the transformer up only when a value is
    /// transformed; Quarry does the same: the model loads, the attribute's values are read as
    /// the stored bytes (``AttributeDescription/displayValue(of:)`` decodes a keyed archive or a
    /// property list for showing), and writing a value that needs the transformer is refused
    /// with ``QuarryError/valueTransformerUnavailable(entity:attribute:name:reason:)``.
    public static let unregisteredTransformer = "model.unregistered-transformer"

    /// One ``unregisteredTransformer`` warning per attribute of `definition` whose transformer is
    /// not registered; `location` gives the `FILE:LINE` of an entity's attribute (`nil` when the
    /// model comes from no file).
    static func unregisteredTransformers(in definition: ModelDefinition, location: (_ entity: String, _ attribute: String) -> String?) -> [ModelWarning] {
        var warnings: [ModelWarning] = []
        for entity in definition.entities {
            for attribute in entity.attributes {
                guard let name = attribute.unregisteredTransformerName else { continue }
                let at = location(entity.name, attribute.name).map { $0 + ": " } ?? ""
                warnings.append(ModelWarning(
                    name: unregisteredTransformer,
                    message: "\(at)attribute '\(entity.name).\(attribute.name)' names value transformer '\(name)', which is not registered: "
                        + "its values are read as the stored bytes (shown decoded when they are a keyed archive or property list), "
                        + "and writing one is refused"))
            }
        }
        return warnings
    }
}
