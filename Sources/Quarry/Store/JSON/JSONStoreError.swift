/// Why a JSON store folder could not be opened, read or written. Every case names the file.
public enum JSONStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path exists but is a file, not a folder.
    case notAFolder(path: String)
    /// The folder holds files but no `_Metadata.json` of a Quarry JSON store: Quarry leaves it alone.
    case notAJSONStore(path: String)
    /// The folder does not exist or is empty, and no model was given to create a store in it (or
    /// it was opened read-only); `reason` says which.
    case missingStore(path: String, reason: String)
    /// A store file is not what the format says; `line` and `column` are 1-based (0 when the
    /// fault is not at one place, such as an unreadable file).
    case malformedFile(path: String, line: Int, column: Int, reason: String)
    /// The store on disk was saved by someone else since this instance loaded it; saving would
    /// overwrite their work, so nothing was written.
    case changedOnDisk(path: String, loadedGeneration: Int64, foundGeneration: Int64)
    /// A file could not be read or written.
    case io(path: String, reason: String)

    public var description: String {
        switch self {
        case .notAFolder(let p): return "\(p): not a folder (a JSON store is a folder); left untouched"
        case .notAJSONStore(let p):
            return "\(p): not a Quarry JSON store (the folder has files but no _Metadata.json of a store); left untouched"
        case .missingStore(let p, let why): return "\(p): \(why)"
        case .malformedFile(let p, let line, let column, let why):
            return line > 0 ? "\(p):\(line):\(column): \(why)" : "\(p): \(why)"
        case .changedOnDisk(let p, let loaded, let found):
            return "\(p): the store was saved by another writer (generation \(found), this one loaded \(loaded)); nothing written: reopen the store"
        case .io(let p, let why): return "\(p): \(why)"
        }
    }
}
