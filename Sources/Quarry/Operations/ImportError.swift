/// One reason a row (or the header) of an import file cannot be imported, at its place in the file.
///
/// `line` is the physical line (1-based) where the field or row starts, so a quoted CSV field
/// with newlines or a pretty-printed JSON object is named where it begins. `column` is the
/// 1-based *character* column of the field or value on that line (the same rule for CSV and
/// JSON, so an editor's go-to-line lands on it).
public struct ImportRowError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's path as given.
    public var file: String
    /// The 1-based physical line where the field or row starts.
    public var line: Int
    /// The 1-based character column of the field or value on that line.
    public var column: Int
    /// What is wrong, naming the column or attribute.
    public var message: String

    /// `FILE:LINE:COLUMN: message`.
    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// Why an import wrote nothing (or stopped).
public enum ImportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be read.
    case unreadable(file: String, reason: String)
    /// The entity is not in the model (or is abstract).
    case unknownEntity(String)
    /// Validation found bad rows: nothing was written. `errors` holds at most
    /// ``ImportOperation/maximumReportedErrors`` of them, in file order; `totalCount` counts all.
    case invalidRows(file: String, errors: [ImportRowError], totalCount: Int)
    /// A row failed while inserting although it passed validation (the store changed between
    /// the passes, for example a destination object was deleted). Whole chunks saved before stay.
    case insertFailed(ImportRowError, savedRows: Int)
    /// Every chunk of this file was saved into the entity by an earlier import (its history
    /// marks say so: see ``ImportOperation``); nothing was written. ``ImportOperation/Options/importsAgain`` imports it once more.
    case alreadyImported(file: String, entity: String, rows: Int, chunks: Int)

    public var description: String {
        switch self {
        case .unreadable(let file, let reason): return "\(file): cannot read: \(reason)"
        case .unknownEntity(let name): return "no importable entity named '\(name)' in the model"
        case .invalidRows(let file, let errors, let total):
            var lines = ["\(file): \(total) bad row(s), nothing imported"] + errors.map(\.description)
            if total > errors.count { lines.append("… and \(total - errors.count) more") }
            return lines.joined(separator: "\n")
        case .insertFailed(let error, let saved): return "\(error) (import stopped; \(saved) row(s) saved before in whole chunks)"
        case .alreadyImported(let file, let entity, let rows, let chunks):
            return "\(file): already imported into \(entity) (all \(rows) row(s), in \(chunks) chunk(s), by an earlier import); nothing written (import it once more with --again)"
        }
    }
}
