import Foundation

/// A column of strings kept as one buffer of UTF-8 bytes and each row's span in it: about
/// eight bytes a row plus the text, and one allocation for a whole chunk, where an array of
/// `String`s costs sixteen bytes a row and an allocation for each string of more than 15
/// bytes.
///
/// Rows are edited in place (a row's new text is appended to the buffer and its span
/// moved); the buffer is compacted when more than half of it is text no row uses.
struct UTF8Column {
    /// Where a row's text is in ``bytes``.
    private struct Span {
        var start: UInt32
        var length: UInt32
    }

    private var bytes: [UInt8] = []
    private var spans: [Span] = []
    /// Bytes of ``bytes`` no span covers.
    private var unusedBytes = 0

    /// Rows in the column.
    var count: Int { spans.count }

    mutating func reserveCapacity(_ n: Int) { spans.reserveCapacity(n) }

    /// Removes every row, keeping the storage.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
        unusedBytes = 0
    }

    /// Calls `body` with row `i`'s UTF-8 bytes (valid during the call).
    @inline(__always)
    func withUTF8<R>(at i: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let span = spans[i]
        return try bytes.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[Int(span.start)..<Int(span.start + span.length)]))
        }
    }

    /// The ``StringWord`` of row `i`'s text.
    @inline(__always)
    func stringWord(at i: Int) -> UInt64 { withUTF8(at: i) { StringWord.make($0) } }

    /// Row `i`'s text.
    func string(at i: Int) -> String { withUTF8(at: i) { String(decoding: $0, as: UTF8.self) } }

    /// Appends a row of `utf8`.
    mutating func append(utf8: UnsafeBufferPointer<UInt8>) {
        spans.append(store(utf8))
    }

    /// Appends a row holding `s`.
    mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { append(utf8: $0) }
    }

    /// Appends row `i` of `other`.
    mutating func append(rowOf other: UTF8Column, _ i: Int) {
        other.withUTF8(at: i) { append(utf8: $0) }
    }

    /// Inserts a row holding `s` before row `i`.
    mutating func insert(_ s: String, at i: Int) {
        var s = s
        let span = s.withUTF8 { store($0) }
        spans.insert(span, at: i)
    }

    /// Appends `n` rows of empty text.
    mutating func appendEmptyRows(_ n: Int) {
        spans.append(contentsOf: repeatElement(Span(start: UInt32(bytes.count), length: 0), count: n))
    }

    /// Makes row `i` hold `s`.
    mutating func set(_ s: String, at i: Int) {
        var s = s
        s.withUTF8 { set(utf8: $0, at: i) }
    }

    /// Makes row `i` hold the text `utf8`.
    mutating func set(utf8: UnsafeBufferPointer<UInt8>, at i: Int) {
        unusedBytes += Int(spans[i].length)
        spans[i] = store(utf8)
        compactIfWasteful()
    }

    /// Removes row `i`.
    mutating func remove(at i: Int) {
        unusedBytes += Int(spans.remove(at: i).length)
        compactIfWasteful()
    }

    /// ``StringMatching/compareBinary(_:_:)`` of row `i` with `y`: by UTF-8 bytes.
    @inline(__always)
    func compareBinary(_ i: Int, _ y: String) -> Int { withUTF8(at: i) { Self.compareBinary($0, y) } }

    /// Whether row `i` holds `y` (`==` on `String`: canonical equivalence, so texts that
    /// differ in bytes are compared as strings unless both are ASCII).
    @inline(__always)
    func holds(_ y: String, at i: Int) -> Bool { withUTF8(at: i) { Self.holds($0, y) } }

    /// ``StringMatching/compareBinary(_:_:)`` of the text `x` with `y`: by UTF-8 bytes.
    @inline(__always)
    static func compareBinary(_ x: UnsafeBufferPointer<UInt8>, _ y: String) -> Int {
        var y = y
        return y.withUTF8 { y in
            let common = min(x.count, y.count)
            if common > 0 {
                let c = memcmp(x.baseAddress!, y.baseAddress!, common)
                if c != 0 { return c < 0 ? -1 : 1 }
            }
            return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
        }
    }

    /// Whether the text `x` is `y` (`==` on `String`, as ``holds(_:at:)``).
    @inline(__always)
    static func holds(_ x: UnsafeBufferPointer<UInt8>, _ y: String) -> Bool {
        if compareBinary(x, y) == 0 { return true }
        return !(x.allSatisfy { $0 < 0x80 } && y.utf8.allSatisfy { $0 < 0x80 }) && String(decoding: x, as: UTF8.self) == y
    }

    /// Whether row `i` and row `j` of `other` hold the same text (as ``holds(_:at:)``).
    func same(_ i: Int, as other: UTF8Column, _ j: Int) -> Bool {
        if withUTF8(at: i, { x in other.withUTF8(at: j) { y in x.elementsEqual(y) } }) { return true }
        return !(isASCII(i) && other.isASCII(j)) && string(at: i) == other.string(at: j)
    }

    /// Whether row `i`'s text is all ASCII.
    private func isASCII(_ i: Int) -> Bool { withUTF8(at: i) { $0.allSatisfy { $0 < 0x80 } } }

    /// Copies `utf8` to the end of the buffer; returns its span.
    private mutating func store(_ utf8: UnsafeBufferPointer<UInt8>) -> Span {
        precondition(bytes.count + utf8.count <= Int(UInt32.max), "a string column holds at most 4 GiB of text")
        let span = Span(start: UInt32(bytes.count), length: UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
        return span
    }

    /// Rewrites the buffer with only the rows' text, in row order, once most of it is unused.
    private mutating func compactIfWasteful() {
        guard unusedBytes > 64 && unusedBytes * 2 > bytes.count else { return }
        var compact = UTF8Column()
        compact.bytes.reserveCapacity(bytes.count - unusedBytes)
        compact.spans.reserveCapacity(spans.count)
        for i in spans.indices { compact.append(rowOf: self, i) }
        self = compact
    }
}
