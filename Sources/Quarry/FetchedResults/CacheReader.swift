#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open ``ResultsCache`` file, read by position (`pread`): nothing of it is mapped, so
/// reading a cache of any size adds only its readers' buffers to the process's memory (the
/// file's pages stay in the system's cache, not in the process).
final class CacheFile {
    let descriptor: Int32
    /// The file's size in bytes.
    let size: Int

    /// The file at `path`, opened for reading; `nil` when it cannot be.
    init?(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            return nil
        }
        descriptor = fd
        size = Int(info.st_size)
    }

    deinit { close(descriptor) }

    /// Reads up to `buffer.count` bytes at `offset`; the number read (short only at the end).
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int {
        var done = 0
        while done < buffer.count {
            let n = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw CacheReader.Overrun()
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// ``ResultsCache/checksum(_:)`` of the file's first `count` bytes, read a megabyte at a time.
    func checksum(ofFirst count: Int) throws -> UInt64 {
        var running = RunningChecksum()
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 8)
        defer { buffer.deallocate() }
        var offset = 0
        while true {
            let want = min(chunk, count - offset)
            guard try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<want]), at: offset) == want else { throw CacheReader.Overrun() }
            let whole = want / 8 * 8
            if offset + want == count { return running.finish(tail: UnsafeRawBufferPointer(rebasing: buffer[..<want])) }
            running.addWords(UnsafeRawBufferPointer(rebasing: buffer[..<whole]))
            offset += whole
        }
    }
}

/// Reads little-endian fields of a ``CacheFile`` in order from an offset, through a buffer of
/// its own, with bounds checks: reading past ``end`` throws. Several readers over one file
/// read its regions side by side (the IDs and each key column are written one after another;
/// an index is rebuilt a row at a time from all of them).
///
/// A class: its buffer is raw memory it owns, and bytes ``take(_:)`` returns point into it.
final class CacheReader {
    struct Overrun: Error {}

    private let file: CacheFile
    /// The first byte not to read (the checksum's place).
    let end: Int
    /// The file offset of the next field.
    private(set) var offset: Int
    private var buffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    /// The file offset of the buffer's first byte, and how many of its bytes are the file's.
    private var bufferStart = 0, bufferCount = 0
    private static let bufferSize = 64 << 10

    /// A reader of `file` from `offset`, up to `end`.
    init(file: CacheFile, offset: Int, end: Int) {
        self.file = file
        self.offset = offset
        self.end = end
    }

    deinit { buffer.deallocate() }

    var isAtEnd: Bool { offset == end }

    /// The next `n` bytes (valid until the reader is next used).
    func take(_ n: Int) throws -> UnsafeRawBufferPointer {
        guard n >= 0, n <= end - offset else { throw Overrun() }
        if offset < bufferStart || offset + n > bufferStart + bufferCount { try refill(atLeast: n) }
        let start = offset - bufferStart
        offset += n
        return UnsafeRawBufferPointer(rebasing: buffer[start..<(start + n)])
    }

    /// Passes over the next `n` bytes.
    func skip(_ n: Int) throws {
        guard n >= 0, n <= end - offset else { throw Overrun() }
        offset += n
    }

    private func refill(atLeast n: Int) throws {
        let size = min(max(n, Self.bufferSize), end - offset)
        if buffer.count < size {
            buffer.deallocate()
            buffer = .allocate(byteCount: size, alignment: 8)
        }
        let read = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<size]), at: offset)
        guard read >= n else { throw Overrun() }
        bufferStart = offset
        bufferCount = read
    }

    func bytes(_ n: Int) throws -> [UInt8] { Array(try take(n)) }
    func u8() throws -> UInt8 { try take(1)[0] }
    func u32() throws -> UInt32 { UInt32(littleEndian: try take(4).loadUnaligned(as: UInt32.self)) }
    func u64() throws -> UInt64 { UInt64(littleEndian: try take(8).loadUnaligned(as: UInt64.self)) }
    func i32() throws -> Int32 { Int32(littleEndian: try take(4).loadUnaligned(as: Int32.self)) }
    func i64() throws -> Int64 { Int64(littleEndian: try take(8).loadUnaligned(as: Int64.self)) }
    func f64() throws -> Double { Double(bitPattern: try u64()) }
    func string() throws -> String {
        let n = Int(try u32())
        return String(decoding: try take(n), as: UTF8.self)
    }
    /// A count read from the file, refused when it could not fit in what is left.
    func count(_ v: UInt64) throws -> Int {
        guard v <= UInt64(end - offset) else { throw Overrun() }
        return Int(v)
    }
}
