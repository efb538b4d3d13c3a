import Foundation

/// Checks what a model path names before it is read, so that a wrong path gets a message a user
/// can act on: a device (`/dev/null`), a FIFO (which would block the read) or a socket is
/// refused by what it is, never with a raw `NSError`, and a read failure says why in words.
enum ModelFileCheck {
    /// Throws ``ModelError/malformedFile(path:line:column:reason:)`` unless `url` is a regular
    /// file or a folder (symbolic links followed); a missing path is left to the caller.
    static func requireFileOrFolder(_ url: URL) throws {
        let found = FileKind(path: url.path)
        guard ![.missing, .regularFile, .directory].contains(found.kind) else { return }
        throw ModelError.malformedFile(
            path: url.path, line: 0, column: 0,
            reason: "\(found), not a model file (a model is a .json file, an .xcdatamodel or .xcdatamodeld folder, or a contents file)")
    }

    /// Why reading a file failed, in words (the system's reason, not the error's dump).
    static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }
}
