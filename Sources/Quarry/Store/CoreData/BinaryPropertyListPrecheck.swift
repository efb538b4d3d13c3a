import Foundation

/// Checks a binary property list's objects before Foundation parses it, for what
/// swift-corelibs-foundation cannot survive: bridging a binary plist *set* (marker `0xC_`) to
/// Swift can crash the process (found by fuzzing the `modelcache` target). Keyed archives never
/// hold plist sets (an NSSet is archived as an object with `NS.objects`), so any set is refused.
///
/// Only the trailer and the offset table are read (every object is reached through it), with
/// every offset bounds-checked; XML property lists pass through untouched.
enum BinaryPropertyListPrecheck {
    /// Throws ``CoreDataModelCacheError/notAPropertyList(reason:)`` when `data` is a binary
    /// property list holding a set, or whose trailer or offset table is out of bounds.
    static func check(_ data: Data) throws(CoreDataModelCacheError) {
        let bytes = [UInt8](data)
        guard bytes.count >= 8, bytes[0..<6].elementsEqual("bplist".utf8) else { return }
        guard bytes.count >= 8 + 32 else { throw .notAPropertyList(reason: "binary property list shorter than its trailer") }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let objectCount = readInteger(bytes, at: trailer + 8, size: 8)
        let tableOffset = readInteger(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), let objectCount, let tableOffset,
              tableOffset >= 8, tableOffset <= trailer,
              objectCount <= (trailer - tableOffset) / offsetSize else {
            throw .notAPropertyList(reason: "binary property list trailer out of bounds")
        }
        for index in 0..<objectCount {
            guard let offset = readInteger(bytes, at: tableOffset + index * offsetSize, size: offsetSize),
                  offset >= 8, offset < trailer else {
                throw .notAPropertyList(reason: "binary property list object \(index) has an offset out of bounds")
            }
            if bytes[offset] >> 4 == 0xC {
                throw .notAPropertyList(reason: "binary property list object \(index) is a set, which keyed archives never hold")
            }
        }
    }

    /// The big-endian unsigned integer of `size` bytes at `offset`, when it fits an `Int`.
    private static func readInteger(_ bytes: [UInt8], at offset: Int, size: Int) -> Int? {
        guard offset >= 0, offset + size <= bytes.count else { return nil }
        var value: UInt64 = 0
        for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
        return value <= UInt64(Int.max / 2) ? Int(value) : nil
    }
}
