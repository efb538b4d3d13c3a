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
/// - a regular file reached through `/dev` or `/proc` (`/dev/stdout` redirected to a file):
///   written in place, as the shell opened it;
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
                throw Refusal(path: path, reason: "it is a symbolic link to a missing file; not followed (remove it or name another file)")
            }
        case .regularFile:
            // `/dev/stdout` redirected to a file: the shell's open file, written in place.
            if found.isSymbolicLink {
                let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
                if resolved.hasPrefix("/proc/") || resolved.hasPrefix("/dev/") { return }
            }
            guard force else {
                throw Refusal(path: path, reason: "already exists; it was left as it is (--force replaces it)")
            }
        case .fifo, .characterDevice:
            return
        case .directory, .blockDevice, .socket:
            throw Refusal(path: path, reason: "it is \(found); name a regular file, a FIFO or a character device")
        }
    }
}
