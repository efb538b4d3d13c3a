import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One file-system step of a JSON store save, so a save is a list that can be run, read and,
/// in tests, cut short after any step to simulate a crash there.
enum JSONStoreFileStep: Equatable, CustomStringConvertible {
    /// Writes `data` to the file `name` and flushes it to disk.
    case write(String, Data)
    /// Makes `to` a second name of the file `from` (a hard link; the old contents stay reachable
    /// under `to` after `from` is replaced).
    case link(from: String, to: String)
    /// Renames `from` to `to`, replacing `to` in one step.
    case rename(from: String, to: String)
    /// Removes the file `name` if it exists.
    case remove(String)
    /// Flushes the folder itself, so the renames and links before it are on disk.
    case syncFolder

    var description: String {
        switch self {
        case .write(let name, let data): return "write \(name) (\(data.count) bytes)"
        case .link(let from, let to): return "link \(from) → \(to)"
        case .rename(let from, let to): return "rename \(from) → \(to)"
        case .remove(let name): return "remove \(name)"
        case .syncFolder: return "sync folder"
        }
    }

    /// Runs the step in `folder`.
    /// - Throws: ``JSONStoreError/io(path:reason:)`` naming the file.
    func run(in folder: URL) throws {
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        switch self {
        case .write(let name, let data):
            try Self.write(data, to: path(name))
        case .link(let from, let to):
            guard posixLink(path(from), path(to)) == 0 else { throw Self.failure(path(to), "cannot link to \(from)") }
        case .rename(let from, let to):
            guard posixRename(path(from), path(to)) == 0 else { throw Self.failure(path(to), "cannot rename \(from) to it") }
        case .remove(let name):
            guard unlink(path(name)) == 0 || errno == ENOENT else { throw Self.failure(path(name), "cannot remove") }
        case .syncFolder:
            try Self.sync(folder.path)
        }
    }

    private static func write(_ data: Data, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(path, "cannot create") }
        defer { close(fd) }
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let n = posixWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw failure(path, "cannot write") }
                offset += n
            }
        }
        guard fsync(fd) == 0 else { throw failure(path, "cannot flush to disk") }
    }

    /// Flushes the file or folder at `path` to disk.
    static func sync(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path, "cannot open to flush") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw failure(path, "cannot flush to disk") }
    }

    private static func failure(_ path: String, _ what: String) -> JSONStoreError {
        JSONStoreError.io(path: path, reason: "\(what): \(String(cString: strerror(errno)))")
    }
}

// The C calls by other names: inside `JSONStoreFileStep`, `link`, `rename` and `write` name its cases.
private func posixLink(_ from: String, _ to: String) -> Int32 { link(from, to) }
private func posixRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
private func posixWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
