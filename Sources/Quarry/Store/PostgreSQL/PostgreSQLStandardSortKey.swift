/// A byte string per string whose byte order (`memcmp`, then length: PostgreSQL's `bytea`
/// order) is ``StandardStringOrder/compare(_:_:)``: what the PostgreSQL store keeps in each
/// text column's `__STD` shadow so `ORDER BY` sorts like the in-memory store.
///
/// The case-folded string is cut into the same chunks as ``StandardStringOrder``; each is
/// encoded so that comparing encodings compares chunks the same way:
/// - a digit run: `0x01`, the length of its digits without leading zeros (4 bytes, big-endian:
///   a shorter number is smaller), those digits (same length: bytewise is numeric);
/// - any other run: `0x02`, its UTF-8 bytes with `0x00` escaped as `0x00 0xFF`, then
///   `0x00 0x00` (so a run that is a prefix of another sorts first, like ``StringMatching/compareBinary(_:_:)``);
/// then `0x00` (fewer chunks sort first: every chunk starts with a larger byte), then the
/// original string's UTF-8 bytes: the binary tie-break between equal-looking strings.
enum PostgreSQLStandardSortKey {
    /// The sort key of `s`.
    static func key(_ s: String) -> [UInt8] {
        s.utf8.allSatisfy({ $0 < 0x80 }) ? asciiKey(s) : chunkedKey(s)
    }

    /// ``key(_:)`` by ``StandardStringOrder``'s chunks of the case-folded string: any string.
    static func chunkedKey(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count * 2 + 8)
        for chunk in StandardStringOrder.chunks(StringMatching.fold(s, .caseInsensitive)) {
            switch chunk {
            case .number(let digits):
                let stripped = digits.drop { $0 == "0" }.utf8
                let n = UInt32(stripped.count)
                out.append(0x01)
                out += [UInt8(n >> 24), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)]
                out += stripped
            case .text(let text):
                out.append(0x02)
                for byte in text.utf8 {
                    if byte == 0 { out += [0x00, 0xFF] } else { out.append(byte) }
                }
                out += [0x00, 0x00]
            }
        }
        out.append(0x00)
        out += s.utf8
        return out
    }

    /// ``key(_:)`` of an ASCII string, from its bytes: the same chunks (runs of `0`–`9` and of
    /// anything else, of the lowercased bytes) without making a string per chunk. One
    /// allocation, the key's: the bytes are read in place and written one by one (the importer
    /// writes a key per text value of every row it copies).
    static func asciiKey(_ s: String) -> [UInt8] {
        var s = s
        return s.withUTF8 { bytes in
            // At most: per byte, 2 (a NUL escaped), per run, 5 more (a number's header, a text's
            // 0x02 and end); then the separator and the bytes again.
            [UInt8](unsafeUninitializedCapacity: 8 * bytes.count + 1) { out, written in
                var o = 0
                @inline(__always) func put(_ byte: UInt8) { out[o] = byte; o += 1 }
                @inline(__always) func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
                var i = 0
                while i < bytes.count {
                    let digits = isDigit(bytes[i])
                    var j = i
                    while j < bytes.count && isDigit(bytes[j]) == digits { j += 1 }
                    if digits {
                        var start = i
                        while start < j && bytes[start] == 0x30 { start += 1 }
                        let n = UInt32(j - start)
                        put(0x01)
                        put(UInt8(n >> 24)); put(UInt8((n >> 16) & 0xFF)); put(UInt8((n >> 8) & 0xFF)); put(UInt8(n & 0xFF))
                        for k in start..<j { put(bytes[k]) }
                    } else {
                        put(0x02)
                        for k in i..<j {
                            switch bytes[k] {
                            case 0: put(0x00); put(0xFF)
                            case 0x41...0x5A: put(bytes[k] + 0x20)
                            default: put(bytes[k])
                            }
                        }
                        put(0x00); put(0x00)
                    }
                    i = j
                }
                put(0x00)
                for byte in bytes { put(byte) }
                assert(o <= out.count, "the key outgrew its bound")
                written = o
            }
        }
    }
}
