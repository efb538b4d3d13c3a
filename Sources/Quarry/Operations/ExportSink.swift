import Foundation

/// Where an export's bytes go: a temporary file beside the destination that is renamed onto
/// it when complete (so the destination is either untouched or whole), or a file written in
/// place: an open handle (standard output), a FIFO or a character device, which are opened,
/// never replaced (see ``Target``).
///
/// A file is flushed to disk before the rename (so a crash never leaves a renamed but empty
/// file). Flushing 60 MB at the end alone took as long as writing them, so while the export
/// runs, every ``syncInterval`` bytes a background `fdatasync` pushes what is written so far:
/// the disk works while the export formats, and the last flush has little left.
final class ExportSink {
    // Used by one export operation's thread; `syncQueue` only runs `fdatasync` on the
    // descriptor, which is safe beside writes.
    private let handle: FileHandle
    private let syncQueue = DispatchQueue(label: "quarry.export.sync")
    private var unsynced = 0
    private static let syncInterval = 8 << 20
    /// The temporary file and the destination, for a file export.
    private let paths: (temporary: URL, destination: URL)?
    private let displayPath: String

    /// Opens a sink for `destination`; for a file, creates the temporary file beside it.
    init(_ destination: ExportOperation.Destination) throws {
        switch destination {
        case .fileHandle(let handle, let name):
            self.handle = handle
            self.paths = nil
            self.displayPath = name
        case .file(let url):
            switch try Self.target(of: url) {
            case .inPlace(let path):
                guard let handle = FileHandle(forWritingAtPath: path) else {
                    throw ExportError.cannotCreate(path: url.path, reason: String(cString: strerror(errno)))
                }
                self.handle = handle
                self.paths = nil
            case .replacing(let destination):
                let folder = destination.deletingLastPathComponent()
                let temporary = folder.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).export-partial")
                guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                    let reason = FileManager.default.fileExists(atPath: folder.path) ? "permission denied" : "no folder \(folder.path)"
                    throw ExportError.cannotCreate(path: url.path, reason: reason)
                }
                // The replaced file keeps its permissions.
                var info = stat()
                if stat(destination.path, &info) == 0 { chmod(temporary.path, info.st_mode & 0o7777) }
                do {
                    self.handle = try FileHandle(forWritingTo: temporary)
                } catch {
                    // Best-effort clean-up of a temporary file: at worst it stays beside the destination.
                    try? FileManager.default.removeItem(at: temporary)
                    throw ExportError.cannotCreate(path: url.path, reason: "\(error)")
                }
                self.paths = (temporary, destination)
            }
            self.displayPath = url.path
        }
    }

    /// How a file destination is written.
    private enum Target {
        /// Opened and written where it is: a FIFO, a character device (`/dev/stdout`, a
        /// terminal), or a file reached through `/dev` or `/proc` (`/dev/stdout` redirected to
        /// a file, which the shell holds open).
        case inPlace(String)
        /// A regular file (or nothing yet) at this path, replaced by renaming a complete
        /// temporary file onto it; a symbolic link is followed, so the link stays and its
        /// target is replaced.
        case replacing(URL)
    }

    /// What `url` is, checked before anything is opened: a directory, block device or socket
    /// is refused, naming it; nothing that is not a regular file is ever replaced.
    private static func target(of url: URL) throws -> Target {
        let found = FileKind(path: url.path)
        switch found.kind {
        case .fifo, .characterDevice:
            return .inPlace(url.path)
        case .directory, .blockDevice, .socket:
            throw ExportError.cannotCreate(path: url.path, reason: "it is \(found); an export writes a regular file, a FIFO or a character device")
        case .missing where found.isSymbolicLink:
            // Only shapes the message of the error being thrown.
            throw ExportError.cannotCreate(path: url.path, reason: "it is a symbolic link to a missing file (\((try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) ?? "?")); not followed")
        case .missing:
            return .replacing(url)
        case .regularFile:
            guard found.isSymbolicLink else { return .replacing(url) }
            let resolved = url.resolvingSymlinksInPath()
            if resolved.path.hasPrefix("/proc/") || resolved.path.hasPrefix("/dev/") || resolved.path == url.path {
                return .inPlace(url.path)
            }
            return .replacing(resolved)
        }
    }

    /// Writes `bytes` and empties the buffer.
    func write(_ bytes: inout [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw ExportError.writeFailed(path: displayPath, reason: "\(error)")
        }
        if paths != nil {
            unsynced += bytes.count
            if unsynced >= Self.syncInterval {
                unsynced = 0
                let descriptor = handle.fileDescriptor
                syncQueue.async { _ = fdatasync(descriptor) }
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Completes the export: a file is flushed to disk, closed and renamed onto its
    /// destination (replacing what was there in one step).
    func commit() throws {
        guard let paths else { return }
        syncQueue.sync {}  // the background flushes are done before the descriptor closes
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            discard()
            throw ExportError.writeFailed(path: displayPath, reason: "\(error)")
        }
        guard rename(paths.temporary.path, paths.destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            // Best-effort clean-up of the temporary file after a failed export; the export's error is what is thrown.
            try? FileManager.default.removeItem(at: paths.temporary)
            throw ExportError.cannotRename(from: paths.temporary.path, to: paths.destination.path, reason: reason)
        }
    }

    /// Abandons the export: a file's temporary copy is closed and removed, so nothing partial
    /// is left behind; a handle is left open for its owner.
    func discard() {
        guard let paths else { return }
        syncQueue.sync {}
        // Closing a handle whose write already failed; the write's error is what is thrown.
        try? handle.close()
        // Best-effort clean-up after a failed export; the export's error is what is thrown.
        try? FileManager.default.removeItem(at: paths.temporary)
    }
}
