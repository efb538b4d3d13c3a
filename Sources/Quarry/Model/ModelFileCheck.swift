import Foundation

/// Checks what a model path names before it is read, so that a wrong path gets a message a user
/// can act on: a device (`/dev/null`), a FIFO (which would block the read) or a socket is
/// refused by what it is, never with a raw `NSError`, and a read failure says why in words.
enum ModelFileCheck {
    /// Throws ``ModelError/malformedFile(path:line:column:reason:)`` unless `url` is a regular
    /// file or a folder (symbolic links followed); a missing path is left to the caller.
    static func requireFileOrFolder(_ url: URL) throws {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return }
        let kind = info.st_mode & S_IFMT
        guard kind != S_IFREG, kind != S_IFDIR else { return }
        let what: String
        switch kind {
        case S_IFCHR: what = "a character device"
        case S_IFBLK: what = "a block device"
        case S_IFIFO: what = "a FIFO"
        case S_IFSOCK: what = "a socket"
        default: what = "not a regular file"
        }
        throw ModelError.malformedFile(
            path: url.path, line: 0, column: 0,
            reason: "\(what), not a model file (a model is a .json file, an .xcdatamodel or .xcdatamodeld folder, or a contents file)")
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
