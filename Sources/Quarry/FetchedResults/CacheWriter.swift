import Foundation

/// Appends little-endian fields to a ``ResultsCache`` file as they are encoded: bytes collect
/// in a buffer that is written out (and taken into the checksum) each time it passes 256 KiB,
/// so a cache of any size costs about that much memory to write (it is written once the index
/// is complete, at the browser's peak of memory).
///
/// A write error is kept and thrown by ``finish()``; nothing after it is written.
struct CacheWriter {
    private let file: FileHandle
    private var buffer: [UInt8] = []
    private var checksum = RunningChecksum()
    private var failure: (any Error)?
    /// Bytes are written out in whole multiples of this (a multiple of the checksum's 8-byte
    /// word), once the buffer holds at least as much.
    private static let flushSize = 256 << 10

    /// A writer appending to `file`.
    init(file: FileHandle) {
        self.file = file
        buffer.reserveCapacity(Self.flushSize + 4096)
    }

    mutating func bytes(_ b: [UInt8]) { b.withUnsafeBufferPointer { bytes($0) } }
    mutating func bytes(_ b: UnsafeBufferPointer<UInt8>) { buffer.append(contentsOf: b); flushIfFull() }
    mutating func bytes(_ b: UnsafeRawBufferPointer) { buffer.append(contentsOf: b); flushIfFull() }
    mutating func u8(_ v: UInt8) { buffer.append(v); flushIfFull() }
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes($0) } }
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes($0) } }
    mutating func i32(_ v: Int32) { withUnsafeBytes(of: v.littleEndian) { bytes($0) } }
    mutating func i64(_ v: Int64) { withUnsafeBytes(of: v.littleEndian) { bytes($0) } }
    mutating func f64(_ v: Double) { u64(v.bitPattern) }
    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            u32(UInt32(utf8.count))
            bytes(utf8)
        }
    }

    /// Appends a whole array of fixed-size little-endian values.
    mutating func array<T: FixedWidthInteger>(_ values: [T]) {
        values.withUnsafeBufferPointer { p in
            #if _endian(little)
            let raw = UnsafeRawBufferPointer(p)
            var start = 0
            while start < raw.count {
                let end = min(raw.count, start + Self.flushSize)
                bytes(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
                start = end
            }
            #else
            for v in p { withUnsafeBytes(of: v.littleEndian) { bytes($0) } }
            #endif
        }
    }

    /// Writes what is left and the checksum of every byte written; throws the first write error.
    mutating func finish() throws {
        let whole = buffer.count / 8 * 8
        write(upTo: whole)
        let sum = buffer.withUnsafeBytes { checksum.finish(tail: $0) }
        withUnsafeBytes(of: sum.littleEndian) { buffer.append(contentsOf: $0) }
        if failure == nil {
            do { try file.write(contentsOf: buffer) } catch { failure = error }
        }
        buffer.removeAll()
        if let failure { throw failure }
    }

    private mutating func flushIfFull() {
        if buffer.count >= Self.flushSize { write(upTo: buffer.count / 8 * 8) }
    }

    /// Takes the first `count` bytes (a multiple of 8) into the checksum and writes them out.
    private mutating func write(upTo count: Int) {
        guard count > 0 else { return }
        buffer.withUnsafeBytes { raw in
            let head = UnsafeRawBufferPointer(rebasing: raw[..<count])
            checksum.addWords(head)
            guard failure == nil else { return }
            do { try file.write(contentsOf: head) } catch { failure = error }
        }
        buffer.removeFirst(count)
    }
}

/// ``ResultsCache/checksum(_:)`` computed over bytes that arrive in parts: whole 8-byte words
/// first, then the final tail.
struct RunningChecksum {
    private var h: UInt64 = 0xCBF2_9CE4_8422_2325
    private var count = 0

    /// Adds `raw`, whose length is a multiple of 8.
    mutating func addWords(_ raw: UnsafeRawBufferPointer) {
        assert(raw.count % 8 == 0, "words only")
        for i in 0..<(raw.count / 8) {
            let w = raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)
            h = (h ^ w) &* 0x0000_0100_0000_01B3
            h ^= h >> 29
        }
        count += raw.count
    }

    /// The checksum once the last bytes (`tail`, fewer than 8 after the last whole word, or
    /// any number when no words came) are added.
    func finish(tail: UnsafeRawBufferPointer) -> UInt64 {
        var state = self
        let whole = tail.count / 8 * 8
        state.addWords(UnsafeRawBufferPointer(rebasing: tail[..<whole]))
        var h = state.h
        for i in whole..<tail.count {
            h = (h ^ UInt64(tail[i])) &* 0x0000_0100_0000_01B3
        }
        return h ^ UInt64(state.count + tail.count - whole)
    }
}
