import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An SQLite write-ahead log opened for reading by position, its frames scanned as SQLite's
/// recovery reads them: from a generation's start, while the salts match and the running
/// checksum holds.
///
/// Frames are read 64 KiB at a time into one buffer (small enough to stay in the processor's
/// cache while it is checked) and checked in place: a log of a thousand 4 KiB frames
/// (SQLite's checkpoint threshold) is scanned in about a millisecond, where a read per frame
/// took ten. The log is read with its own descriptor: SQLite keeps no
/// POSIX locks on a `-wal` file, so opening and closing it cannot drop a lock this process
/// holds (unlike the database file's).
final class WALFile {
    /// One frame met by ``scan(from:pageSize:salts:checksum:_:)``, valid inside its call only.
    struct Frame {
        /// The page the frame holds.
        let pageNumber: UInt32
        /// Whether the frame commits a transaction (its header's database size is not zero).
        let isCommit: Bool
        /// Where the next frame starts.
        let end: UInt64
        /// The running checksum after this frame, where the next one's continues.
        let checksum: WALChecksum
        /// The page's bytes, in the scan's buffer (not to be kept).
        let page: UnsafeRawBufferPointer
    }

    /// The length of a frame's header.
    static let frameHeaderSize = 24
    /// How many bytes one read asks for, at most (whole frames).
    private static let chunkBytes = 1 << 16

    /// The log's path.
    let path: String
    private let descriptor: Int32

    /// The log at `path`, opened read-only; `nil` when it does not exist.
    /// - Throws: `CocoaError(.fileReadNoPermission)` naming the path when it exists but cannot be opened.
    init?(path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path,
                                                               NSLocalizedDescriptionKey: String(cString: strerror(errno))])
        }
        descriptor = fd
        self.path = path
    }

    deinit { close(descriptor) }

    /// The log's header, or `nil` when it is short or one SQLite would reject (it then replays
    /// nothing from the log).
    /// - Throws: ``ReadFailed`` when the system cannot read it.
    func header() throws(ReadFailed) -> WALHeader? {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: WALHeader.size, alignment: 8)
        defer { buffer.deallocate() }
        guard try read(into: buffer, at: 0) == WALHeader.size else { return nil }
        return WALHeader(UnsafeRawBufferPointer(buffer))
    }

    /// Calls `body` for each frame from `offset` on that carries `salts` and whose running
    /// checksum (continuing `checksum`) holds, in log order, until one does not or the log
    /// ends.
    /// - Throws: ``ReadFailed`` when the system cannot read the log (`body` has seen the frames before).
    func scan(from offset: UInt64, pageSize: Int, salts: (UInt32, UInt32), checksum: WALChecksum,
              _ body: (Frame) -> Void) throws(ReadFailed) {
        let frameSize = Self.frameHeaderSize + pageSize
        let framesPerRead = max(1, Self.chunkBytes / frameSize)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: framesPerRead * frameSize, alignment: 8)
        defer { buffer.deallocate() }
        var running = checksum
        var position = offset
        while true {
            let count = try read(into: buffer, at: position)
            var start = 0
            while start + frameSize <= count {
                let frame = UnsafeRawBufferPointer(rebasing: buffer[start..<(start + frameSize)])
                guard (frame.bigEndianWord(at: 8), frame.bigEndianWord(at: 12)) == salts else { return }
                running.add(UnsafeRawBufferPointer(rebasing: frame[0..<8]))
                running.add(UnsafeRawBufferPointer(rebasing: frame[Self.frameHeaderSize...]))
                guard running.matches(frame, at: 16) else { return }
                position += UInt64(frameSize)
                body(Frame(pageNumber: frame.bigEndianWord(at: 0), isCommit: frame.bigEndianWord(at: 4) != 0, end: position,
                           checksum: running, page: UnsafeRawBufferPointer(rebasing: frame[Self.frameHeaderSize...])))
                start += frameSize
            }
            // A short read: the log ends (or a frame is still being written) here.
            guard count == buffer.count else { return }
        }
    }

    /// Where the frames carrying `salts` that follow `offset` end (valid or not, committed or
    /// not): how far a new generation of the log has overwritten an old one.
    /// - Throws: ``ReadFailed`` when the system cannot read the log.
    func extent(from offset: UInt64, pageSize: Int, salts: (UInt32, UInt32)) throws(ReadFailed) -> UInt64 {
        let frameSize = UInt64(Self.frameHeaderSize + pageSize)
        let header = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 8)
        defer { header.deallocate() }
        var end = offset
        while try read(into: header, at: end) == 16,
              (UnsafeRawBufferPointer(header).bigEndianWord(at: 8), UnsafeRawBufferPointer(header).bigEndianWord(at: 12)) == salts {
            end += frameSize
        }
        return end
    }

    /// Reads up to `buffer.count` bytes at `offset`; the number read (short at the end of the log).
    private func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ReadFailed) -> Int {
        var done = 0
        while done < buffer.count {
            let n = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                throw ReadFailed(path: path, offset: offset + UInt64(done), reason: String(cString: strerror(code)))
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// The system could not read the log.
    struct ReadFailed: Error, CustomStringConvertible {
        /// The log's path.
        let path: String
        /// Where the read started.
        let offset: UInt64
        /// What the system said.
        let reason: String

        var description: String { "\(path): cannot read at byte \(offset): \(reason)" }
    }
}
