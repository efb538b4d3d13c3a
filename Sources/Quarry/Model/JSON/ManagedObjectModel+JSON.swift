import Foundation

extension ManagedObjectModel {
    /// Loads and resolves the JSON model file at `url`.
    ///
    /// Every error names the file, and the line and column of the declaration at fault: the
    /// resolver's errors (an unknown destination, a bad inverse) too, and validation rules that
    /// cannot be right (a `regex` that does not compile, a `min` above the `max`), which a model
    /// file may not declare.
    ///
    /// ```swift
    /// let model = try ManagedObjectModel.load(jsonAt: URL(fileURLWithPath: "Tickers.json"))
    /// ```
    /// - Throws: ``ModelError/fileNotFound(path:)`` when the file is missing,
    ///   ``ModelError/malformedFile(path:line:column:reason:)`` for a bad file, and the
    ///   resolver's faults (for example a missing destination) as that case too.
    public static func load(jsonAt url: URL) throws -> ManagedObjectModel {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { throw ModelError.fileNotFound(path: path) }
        try ModelFileCheck.requireFileOrFolder(url)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ModelError.malformedFile(path: path, line: 0, column: 0, reason: "cannot read file: \(ModelFileCheck.reason(error))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ModelError.malformedFile(path: path, line: 0, column: 0, reason: "file is not UTF-8 text")
        }
        let decoder = try JSONModelDecoder(jsonText: text, path: path)
        let definition = try decoder.decode()
        try decoder.checkValidationRules(of: definition)
        do {
            return try ManagedObjectModel(definition, warnings: []) { entity, attribute in decoder.location(entity: entity, property: attribute) }
        } catch let error as ModelError {
            throw decoder.located(error)
        }
    }
}
