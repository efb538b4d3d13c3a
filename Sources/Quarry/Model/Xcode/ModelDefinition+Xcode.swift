import Foundation

extension ModelDefinition {
    /// Reads the `contents` XML of an Xcode Core Data model (`.xcdatamodel/contents`).
    ///
    /// Entities, attributes, relationships, uniqueness constraints, fetch indexes and compound
    /// indexes map one to one onto Quarry's definitions, with Xcode's defaults (a property is
    /// required unless marked `optional="YES"`). Elements Quarry does not use (diagram layout,
    /// fetch request templates, configurations, user info, fetched properties, derived
    /// attributes) are skipped and reported as named warnings such as
    /// ``ModelWarning/xcodeIgnoredElement``.
    ///
    /// The result is not yet validated: pass it to ``ManagedObjectModel/init(_:warnings:namePolicy:)``,
    /// which checks parents, destinations and inverses. Runs on the calling thread.
    ///
    /// ```swift
    /// let data = try Data(contentsOf: contentsURL)
    /// let (definition, warnings) = try ModelDefinition.xcodeContents(data, path: contentsURL.path)
    /// let model = try ManagedObjectModel(definition, warnings: warnings)
    /// ```
    /// - Parameters:
    ///   - data: The XML document.
    ///   - path: The file's path, used in warnings and errors.
    /// - Throws: ``ModelError/malformedFile(path:line:column:reason:)`` for XML that does not
    ///   parse (with the parser's line and column), ``ModelError/unsupported(path:line:feature:)``
    ///   for an attribute type or deletion rule Quarry lacks, and
    ///   ``ModelError/missingDestination(entity:relationship:)`` for a relationship without a
    ///   destination entity.
    public static func xcodeContents(
        _ data: Data, path: String
    ) throws -> (definition: ModelDefinition, warnings: [ModelWarning]) {
        try XcodeContentsParser.parse(data, path: path)
    }

    /// Reads the `contents` XML of an Xcode Core Data model, dropping warnings.
    ///
    /// The same as ``xcodeContents(_:path:)`` for callers that do not report warnings.
    ///
    /// ```swift
    /// let definition = try ModelDefinition(xcodeContents: data, path: "Model.xcdatamodel/contents")
    /// ```
    /// - Throws: ``ModelError``, as ``xcodeContents(_:path:)`` does.
    public init(xcodeContents data: Data, path: String) throws {
        self = try Self.xcodeContents(data, path: path).definition
    }
}
