import Foundation

extension ManagedObjectModel {
    /// Loads a model made with Xcode's Core Data model editor, unchanged.
    ///
    /// `url` may be:
    /// - a `.xcdatamodeld` folder (a versioned model): the version named by its
    ///   `.xccurrentversion` file is loaded; without that file, the only version is;
    /// - a `.xcdatamodel` folder: its `contents` file is loaded;
    /// - a `contents` file itself.
    ///
    /// Elements Quarry does not use become ``warnings``; the model is resolved and validated
    /// like any other. Runs on the calling thread; the result is immutable and `Sendable`.
    ///
    /// ```swift
    /// let model = try ManagedObjectModel.load(xcodeModelAt: URL(fileURLWithPath: "Tickers.xcdatamodeld"))
    /// for warning in model.warnings { print(warning) }
    /// ```
    /// - Throws: ``ModelError/fileNotFound(path:)`` when nothing is at `url` (or at the version
    ///   it names), ``ModelError/malformedFile(path:line:column:reason:)`` for unreadable XML or
    ///   an ambiguous `.xcdatamodeld`, and any error of ``ModelDefinition/xcodeContents(_:path:)``
    ///   or ``ManagedObjectModel/init(_:warnings:namePolicy:)``.
    public static func load(xcodeModelAt url: URL) throws -> ManagedObjectModel {
        let contents = try XcodeModelLocation.contentsFile(for: url)
        let data: Data
        do {
            data = try Data(contentsOf: contents)
        } catch {
            throw ModelError.malformedFile(path: contents.path, line: 0, column: 0, reason: "cannot be read: \(ModelFileCheck.reason(error))")
        }
        let (definition, warnings, lines) = try XcodeContentsParser.parseLocated(data, path: contents.path)
        do {
            return try ManagedObjectModel(definition, warnings: warnings) { entity, attribute in
                lines.position(entity: entity, property: attribute).map { "\(contents.path):\($0)" } ?? contents.path
            }
        } catch let error as ModelError {
            // The resolver's faults (an unknown destination, a bad inverse) name the file and the
            // line of the element at fault.
            guard let subject = error.subject else { throw error }
            throw error.inFile(contents.path, line: lines.position(entity: subject.entity, property: subject.property) ?? 0, column: 0)
        }
    }
}
