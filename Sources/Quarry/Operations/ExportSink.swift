import Foundation

/// Where an export's bytes go: a temporary file beside the destination that is renamed onto
/// it when complete (so the destination is either untouched or whole), or an open file
/// handle written in place (standard output).
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
            let folder = url.deletingLastPathComponent()
            let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).export-partial")
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                let reason = FileManager.default.fileExists(atPath: folder.path) ? "permission denied" : "no folder \(folder.path)"
                throw ExportError.cannotCreate(path: url.path, reason: reason)
            }
            do {
                self.handle = try FileHandle(forWritingTo: temporary)
            } catch {
                try? FileManager.default.removeItem(at: temporary)
                throw ExportError.cannotCreate(path: url.path, reason: "\(error)")
            }
            self.paths = (temporary, url)
            self.displayPath = url.path
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
            try? FileManager.default.removeItem(at: paths.temporary)
            throw ExportError.cannotRename(from: paths.temporary.path, to: paths.destination.path, reason: reason)
        }
    }

    /// Abandons the export: a file's temporary copy is closed and removed, so nothing partial
    /// is left behind; a handle is left open for its owner.
    func discard() {
        guard let paths else { return }
        syncQueue.sync {}
        try? handle.close()
        try? FileManager.default.removeItem(at: paths.temporary)
    }
}
