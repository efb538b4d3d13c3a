import Foundation

extension SQLiteStore {
    /// Gives an existing store whose `-wal` is missing or empty a log holding only a header,
    /// before GRDB's pool opens it for writing.
    ///
    /// GRDB makes sure a writable pool has a non-empty `-wal` (its readers fail to open
    /// without one) by committing a dummy transaction (`CREATE TABLE grdb_issue_102 …; DROP
    /// TABLE …`) whenever it finds none. Checkpointed at close, that transaction changed the
    /// file of a store the user only browsed: its schema version went up by two and it grew a
    /// free page. A log with a valid header and no frame is what SQLite itself writes when it
    /// restarts a log: it replays nothing, the first commit writes its own header over it, and
    /// the last connection to close removes it as usual.
    ///
    /// The file is only read here (its page size, through SQLite, never with a descriptor of
    /// our own: see ``poolPath(_:readOnly:)``); only the `-wal` is written, and SQLite keeps no
    /// locks on it. Called for Quarry stores only, which are always in WAL mode.
    static func prepareLogForWriting(path: String) throws {
        let log = path + "-wal"
        let size = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? NSNumber)?.intValue
        guard size == nil || size == 0, let header = fileHeaderFields(path: path) else { return }
        var bytes = Data(count: 32)
        func put(_ value: UInt32, at offset: Int) {
            for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(i))) }
        }
        let littleEndian = UInt32(1).littleEndian == 1
        put(littleEndian ? 0x377F_0682 : 0x377F_0683, at: 0)
        put(3_007_000, at: 4)
        put(UInt32(header.pageSize == 65_536 ? 1 : header.pageSize), at: 8)
        put(0, at: 12)
        put(UInt32.random(in: .min ... .max), at: 16)
        put(UInt32.random(in: .min ... .max), at: 20)
        var checksum = WALChecksum(bigEndianWords: !littleEndian)
        checksum.add(bytes[0..<24])
        put(checksum.first, at: 24)
        put(checksum.second, at: 28)
        do {
            // Never over a log that another connection wrote meanwhile: only an empty one.
            if size == nil {
                guard FileManager.default.createFile(atPath: log, contents: bytes) else { throw CocoaError(.fileWriteUnknown) }
            } else {
                let handle = try FileHandle(forUpdating: URL(fileURLWithPath: log))
                defer { try? handle.close() }
                guard try handle.seekToEnd() == 0 else { return }
                try handle.write(contentsOf: bytes)
            }
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "cannot prepare its write-ahead log \(log): \(error.localizedDescription)")
        }
    }
}
