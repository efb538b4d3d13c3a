extension ModelError {
    /// The entity (and property) a model-level error is about, for finding where a file declares
    /// it; `nil` for errors that already name their file.
    var subject: (entity: String, property: String?)? {
        switch self {
        case .duplicateEntity(let e), .unknownParent(let e, _), .inheritanceCycle(let e), .unknownAttribute(let e, _, _):
            return (e, nil)
        case .duplicateProperty(let e, let p), .missingDestination(let e, let p), .unknownDestination(let e, let p, _),
             .inverseMismatch(let e, let p, _), .invalidDefault(let e, let p, _), .undefinedNotTransient(let e, let p),
             .unknownValueTransformer(let e, let p, _), .invalidDerivation(let e, let p, _, _),
             .invalidFetchedProperty(let e, let p, _), .invalidComposite(let e, let p, _):
            return (e, p)
        case .invalidName(let name):
            // A property's name is reported as `Entity.property`.
            guard let dot = name.firstIndex(of: ".") else { return (name, nil) }
            return (String(name[..<dot]), String(name[name.index(after: dot)...]))
        case .malformedFile, .unsupported, .fileNotFound, .modelNotFound, .duplicateEntityInFiles,
             .invalidFetchRequestTemplate, .invalidConfiguration:
            return nil
        }
    }

    /// This error as a fault of the model file at `path`, at `line` and `column` (0 when not
    /// known), so a user learns which file to fix; an error that names its file already is
    /// returned unchanged.
    func inFile(_ path: String, line: Int, column: Int) -> ModelError {
        guard subject != nil else { return self }
        return .malformedFile(path: path, line: line, column: column, reason: description)
    }
}
