import Foundation

extension ManagedObjectModel {
    /// Loads and resolves the JSON model file at `url`.
    ///
    /// Validation rules that cannot be right (a `regex` that does not compile, a `min` above
    /// the `max`) are refused at their line and column: a model file may not declare them.
    ///
    /// ```swift
    /// let model = try ManagedObjectModel.load(jsonAt: URL(fileURLWithPath: "Tickers.json"))
    /// ```
    /// - Throws: ``ModelError/fileNotFound(path:)`` when the file is missing,
    ///   ``ModelError/malformedFile(path:line:column:reason:)`` for a bad file, and the
    ///   resolver's ``ModelError``s (for example ``ModelError/missingDestination(entity:relationship:)``).
    public static func load(jsonAt url: URL) throws -> ManagedObjectModel {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { throw ModelError.fileNotFound(path: path) }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ModelError.malformedFile(path: path, line: 0, column: 0, reason: "cannot read file: \(error.localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ModelError.malformedFile(path: path, line: 0, column: 0, reason: "file is not UTF-8 text")
        }
        let decoder = try JSONModelDecoder(jsonText: text, path: path)
        let definition = try decoder.decode()
        try decoder.checkValidationRules(of: definition)
        return try ManagedObjectModel(definition)
    }
}
