import Testing
@testable import CursesBackend

/// A bracketed paste read straight from the terminal (issue 34, item 22: curses read a 1 MB
/// paste a byte per system call, six seconds): the text up to the end marker, wherever the
/// reads split it, and what followed the marker kept for curses.
@Suite("Bracketed paste read in large reads")
struct PasteCollectorTests {
    static let marker = "\u{1B}[201~"

    @Test("the marker ends the text in every split of the bytes, and what follows it is kept", arguments: [1, 2, 5, 6, 7, 64])
    func everySplit(chunkSize: Int) {
        let bytes = Array(("naïve 👨‍👩‍👧 x\u{1B}q\u{1B}[A" + Self.marker + "jk").utf8)
        var collector = PasteCollector()
        var result: (text: String, rest: [UInt8])?
        var start = 0
        while result == nil, start < bytes.count {
            let end = min(start + chunkSize, bytes.count)
            result = collector.append(bytes[start..<end])
            start = end
        }
        #expect(result?.text == "naïve 👨‍👩‍👧 x\u{1B}q\u{1B}[A")
        // Bytes of the same read after the marker, then the reads not made yet.
        #expect((result?.rest ?? []) + bytes[start...] == Array("jk".utf8))
    }

    @Test("a megabyte arrives whole; an ESC that starts no marker is text; no marker, no paste yet")
    func largeAndPartial() {
        var collector = PasteCollector()
        let big = String(repeating: "a\u{1B}[201", count: 150_000)  // a marker without its "~"
        #expect(collector.append(Array(big.utf8)) == nil)
        #expect(collector.append(Array("\u{1B}[20".utf8)) == nil)
        let done = collector.append(Array("1~".utf8))
        #expect(done?.text == big)
        #expect(done?.rest == [])
        // The collector starts again empty.
        #expect(collector.append(Array(("b" + Self.marker).utf8))?.text == "b")
    }
}
