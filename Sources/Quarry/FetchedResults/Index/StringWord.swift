/// How a block keeps a string sort key in its 8-byte word (``ResultsBlock/ColumnMode/string``):
/// the string's first seven UTF-8 bytes, big-endian and zero-padded, in the high 56 bits, and
/// in the low byte its length when it is at most seven bytes (the word *is* the string:
/// *inline*), else ``overflowMark`` (the chunk keeps the whole text beside the block).
///
/// Compared as unsigned integers, two words order their strings exactly as their UTF-8 bytes
/// do (``StringMatching/compareBinary(_:_:)``) whenever the words differ: the prefixes decide,
/// and on equal prefixes the shorter inline string is a prefix of the other. Equal words are
/// equal strings when inline; two overflow strings that share their first seven bytes are the
/// one case the words leave open. So a binary search over a chunk's strings reads the block
/// alone, as it does for integers, and a short key (a ticker symbol, a code) costs no memory
/// beyond its word.
enum StringWord {
    /// Strings of at most this many UTF-8 bytes are held whole in the word.
    static let inlineCapacity = 7
    /// The low byte of the word of a string longer than ``inlineCapacity``.
    static let overflowMark: UInt64 = 0xFF

    /// The word of the string whose UTF-8 bytes are `utf8`.
    @inline(__always)
    static func make(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var word: UInt64 = 0
        let n = min(utf8.count, inlineCapacity)
        for i in 0..<n { word |= UInt64(utf8[i]) << UInt64(56 - 8 * i) }
        return word | (utf8.count <= inlineCapacity ? UInt64(utf8.count) : overflowMark)
    }

    /// The word of `string`.
    @inline(__always)
    static func make(_ string: String) -> UInt64 {
        var string = string
        return string.withUTF8 { make($0) }
    }

    /// Whether `word` holds its whole string (else the chunk keeps the text).
    @inline(__always)
    static func isInline(_ word: UInt64) -> Bool { word & 0xFF != overflowMark }

    /// Whether every byte `word` shows is ASCII (all of an inline string, the first seven of a
    /// long one).
    @inline(__always)
    static func isASCII(_ word: UInt64) -> Bool { word & 0x8080_8080_8080_8000 == 0 }

    /// Whether the string of `word` and the string of `other` are surely not equal text (`==`
    /// on `String`, canonical equivalence) when `word` is a long string's (its text beyond the
    /// first bytes unseen): both hold ASCII in the bytes the words show, and either `other`
    /// is inline (a string of at most seven ASCII bytes, shorter than the long one) or the
    /// shown bytes differ. ASCII scalars are starters that normalization neither changes nor
    /// moves, so each string's normal form begins with those bytes; `false` is "cannot tell".
    @inline(__always)
    static func differsFromLong(_ word: UInt64, _ other: UInt64) -> Bool {
        assert(!isInline(word), "a long string's word")
        return isASCII(word) && isASCII(other) && (isInline(other) || word != other)
    }

    /// Calls `body` with the UTF-8 bytes of the inline `word` (valid during the call).
    @inline(__always)
    static func withUTF8<R>(ofInline word: UInt64, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        assert(isInline(word), "an overflow word holds only a prefix")
        let count = Int(word & 0xFF)
        var bytes = word.bigEndian
        return try withUnsafeBytes(of: &bytes) { raw in
            try body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count))
        }
    }

    /// The string of the inline `word`.
    static func string(ofInline word: UInt64) -> String {
        withUTF8(ofInline: word) { String(decoding: $0, as: UTF8.self) }
    }
}
