import Foundation

/// What a path names on disk, found with `lstat` and `stat` before anything opens it.
///
/// Opening a FIFO blocks until a writer appears, reading a device never ends, and replacing a
/// symbolic link or a device node with a new file destroys what the user had: so every path
/// Quarry opens or writes is looked at first, and a kind it does not handle is refused,
/// naming the path and what it is.
public struct FileKind: Equatable, Sendable, CustomStringConvertible {
    /// The kind of thing at the path (after following symbolic links).
    public enum Kind: Equatable, Sendable {
        /// Nothing (or a symbolic link to nothing).
        case missing
        /// A regular file.
        case regularFile
        /// A directory.
        case directory
        /// A FIFO (named pipe).
        case fifo
        /// A character device (a terminal, `/dev/null`).
        case characterDevice
        /// A block device (a disk).
        case blockDevice
        /// A Unix-domain socket.
        case socket
    }

    /// What the path names once symbolic links are followed.
    public let kind: Kind
    /// Whether the path itself is a symbolic link.
    public let isSymbolicLink: Bool
    /// The size in bytes of what the path names (`nil` when nothing is there): read with
    /// `stat`, without the owner and group name lookups `FileManager.attributesOfItem` makes.
    public let size: Int64?
    /// The permission bits of what the path names (`nil` when nothing is there).
    public let permissions: mode_t?

    /// Looks at `path` (nothing is opened).
    public init(path: String) {
        var info = stat()
        isSymbolicLink = lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
        guard stat(path, &info) == 0 else {
            kind = .missing
            size = nil
            permissions = nil
            return
        }
        size = Int64(info.st_size)
        permissions = info.st_mode & 0o7777
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regularFile
        case S_IFDIR: kind = .directory
        case S_IFIFO: kind = .fifo
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        default: kind = .socket
        }
    }

    /// The kind in words, for messages (`"a FIFO (named pipe)"`).
    public var description: String {
        let what: String
        switch kind {
        case .missing: what = "nothing"
        case .regularFile: what = "a regular file"
        case .directory: what = "a directory"
        case .fifo: what = "a FIFO (named pipe)"
        case .characterDevice: what = "a character device"
        case .blockDevice: what = "a block device"
        case .socket: what = "a socket"
        }
        return isSymbolicLink ? "a symbolic link to \(what)" : what
    }

    /// Throws ``StoreError/notAFile(path:kind:)`` unless `path` names a regular file, nothing,
    /// or (when `directories`) a directory: the kinds a store is read from or created at.
    public static func requireStorePath(_ path: String, directories: Bool) throws {
        let found = FileKind(path: path)
        switch found.kind {
        case .missing, .regularFile: return
        case .directory where directories: return
        default: throw StoreError.notAFile(path: path, kind: found.description)
        }
    }
}
