import Foundation

/// The 32-byte header of an SQLite write-ahead log, read and written in one place: its magic
/// number (checksums over big- or little-endian words), page size, checkpoint sequence and
/// salts, and the checksum that makes SQLite accept it.
struct WALHeader {
    /// The header's length in bytes.
    static let size = 32
    private static let bigEndianMagic: UInt32 = 0x377F_0683
    private static let littleEndianMagic: UInt32 = 0x377F_0682

    /// The database page size the log is written for.
    var pageSize: Int
    /// How many times the log was restarted after a checkpoint.
    var checkpointSequence: UInt32
    /// The salts every frame of this generation carries.
    var salts: (UInt32, UInt32)
    /// The running checksum after the header, where the first frame's continues.
    var checksum: WALChecksum

    /// The header in `bytes` (at least 32 long), or `nil` when SQLite would reject it (it then
    /// replays nothing from the log).
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.size else { return nil }
        let magic = bytes.bigEndianWord(at: 0)
        guard magic == Self.bigEndianMagic || magic == Self.littleEndianMagic, bytes.bigEndianWord(at: 4) == 3_007_000 else { return nil }
        let raw = Int(bytes.bigEndianWord(at: 8))
        let pageSize = raw == 1 ? 65_536 : raw
        guard pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else { return nil }
        var checksum = WALChecksum(bigEndianWords: magic == Self.bigEndianMagic)
        checksum.add(UnsafeRawBufferPointer(rebasing: bytes[0..<24]))
        guard checksum.matches(bytes, at: 24) else { return nil }
        self.pageSize = pageSize
        self.checkpointSequence = bytes.bigEndianWord(at: 12)
        self.salts = (bytes.bigEndianWord(at: 16), bytes.bigEndianWord(at: 20))
        self.checksum = checksum
    }

    /// A header of a new, empty log for pages of `pageSize` bytes, with random salts, in this
    /// machine's byte order (as SQLite writes one).
    static func fresh(pageSize: Int) -> Data {
        var bytes = Data(count: size)
        func put(_ value: UInt32, at offset: Int) {
            for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(i))) }
        }
        let littleEndian = UInt32(1).littleEndian == 1
        put(littleEndian ? littleEndianMagic : bigEndianMagic, at: 0)
        put(3_007_000, at: 4)
        put(UInt32(pageSize == 65_536 ? 1 : pageSize), at: 8)
        put(0, at: 12)
        put(UInt32.random(in: .min ... .max), at: 16)
        put(UInt32.random(in: .min ... .max), at: 20)
        var checksum = WALChecksum(bigEndianWords: !littleEndian)
        bytes.withUnsafeBytes { checksum.add(UnsafeRawBufferPointer(rebasing: $0[0..<24])) }
        put(checksum.first, at: 24)
        put(checksum.second, at: 28)
        return bytes
    }
}
