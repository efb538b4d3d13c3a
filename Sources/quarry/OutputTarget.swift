import Foundation
import Quarry

/// The file a command is about to write (`export -o`, `model --output`), checked before
/// anything is opened: what is at the path decides.
///
/// - nothing: written;
/// - a regular file (or a symbolic link to one): refused, the file left as it is, unless
///   `--force` (then the file is replaced whole, the link kept);
/// - a FIFO or a character device (`/dev/stdout`, a terminal): written in place (nothing is
///   replaced);
/// - a folder, a block device, a socket, or a symbolic link to nothing: refused, naming it.
enum OutputTarget {
    /// Why an output path was refused.
    struct Refusal: Error, CustomStringConvertible {
        /// The path as given.
        var path: String
        /// Why.
        var reason: String
        var description: String { "\(path): \(reason)" }
    }

    /// Checks that `path` may be written, as the type describes.
    /// - Throws: ``Refusal``.
    static func check(_ path: String, force: Bool) throws {
        let found = FileKind(path: path)
        switch found.kind {
        case .missing:
            if found.isSymbolicLink {
                throw Refusal(path: path, reason: "a symbolic link to nothing; refused (remove it or name another file)")
            }
        case .regularFile:
            guard force else {
                throw Refusal(path: path, reason: "already exists; it was left as it is (--force replaces it)")
            }
        case .fifo, .characterDevice:
            return
        case .directory:
            throw Refusal(path: path, reason: "is a folder; name a file")
        case .blockDevice:
            throw Refusal(path: path, reason: "is a block device; refused")
        case .socket:
            throw Refusal(path: path, reason: "is a socket; refused")
        }
    }
}
