/// Why an export failed. Every case names the file (or key path) at fault.
public enum ExportError: Error, Equatable, CustomStringConvertible {
    /// The temporary file beside the destination could not be created (missing folder, no
    /// permission).
    case cannotCreate(path: String, reason: String)
    /// Writing the output failed (disk full, closed pipe).
    case writeFailed(path: String, reason: String)
    /// The finished temporary file could not be renamed onto the destination.
    case cannotRename(from: String, to: String, reason: String)
    /// A column's key path does not exist on the exported entity.
    case invalidColumn(entity: String, keyPath: String, reason: String)

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason): return "\(path): cannot create the export file: \(reason)"
        case .writeFailed(let path, let reason): return "\(path): writing the export failed: \(reason)"
        case .cannotRename(let from, let to, let reason): return "\(to): cannot move the finished export \(from) into place: \(reason)"
        case .invalidColumn(let entity, let keyPath, let reason): return "column '\(keyPath)' of \(entity): \(reason)"
        }
    }
}
