import Foundation

extension ModelDefinition {
    /// Reads a model definition from JSON model text (the schema is in `docs/json-model.md`).
    ///
    /// Every key and value is checked: a syntax error, an unknown or missing key, a value of
    /// the wrong JSON type, an unknown attribute type or delete rule throws
    /// ``ModelError/malformedFile(path:line:column:reason:)`` with the 1-based line and column
    /// of the fault and a reason naming the entity and key. References between entities are
    /// checked later, when a ``ManagedObjectModel`` resolves the definition.
    ///
    /// ```swift
    /// let definition = try ModelDefinition(jsonText: text, path: "Tickers.json")
    /// let model = try ManagedObjectModel(definition)
    /// ```
    /// - Parameters:
    ///   - jsonText: The file's contents.
    ///   - path: The file's path, used in error messages only.
    public init(jsonText: String, path: String) throws {
        self = try JSONModelDecoder(jsonText: jsonText, path: path).decode()
    }

    /// The definition as canonical JSON model text.
    ///
    /// Entities and properties are sorted by name, keys come in a fixed order and keys holding
    /// their default value are left out, so equal definitions give identical text and
    /// `ModelDefinition(jsonText: d.jsonText(), path: …) == d.canonical`.
    public func jsonText() -> String {
        JSONModelEncoder().encode(self)
    }
}
