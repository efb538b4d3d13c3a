/// The bytes of a bracketed paste read straight from the terminal, up to its end marker
/// (`ESC[201~`), which may arrive split across reads.
///
/// curses reads the terminal a byte per system call: a 1 MB paste took six seconds to arrive,
/// most of it in `read`. Between the markers nothing needs decoding into keys (a paste is text
/// only), so the backend reads the paste itself in large reads and gives curses back only what
/// followed the end marker.
struct PasteCollector {
    /// The marker that ends a bracketed paste.
    static let endMarker: [UInt8] = Array("\u{1B}[201~".utf8)

    private var bytes: [UInt8] = []

    /// The paste's text and the bytes that followed its end marker, once `chunk` brought the
    /// marker; `nil` while the paste goes on.
    mutating func append(_ chunk: some Collection<UInt8>) -> (text: String, rest: [UInt8])? {
        // The marker may have begun in an earlier chunk: look from just before the new bytes.
        let searchStart = max(0, bytes.count - (Self.endMarker.count - 1))
        bytes.append(contentsOf: chunk)
        guard let end = Self.firstMarker(in: bytes, from: searchStart) else { return nil }
        let text = String(decoding: bytes[..<end], as: UTF8.self)
        let rest = Array(bytes[(end + Self.endMarker.count)...])
        bytes = []
        return (text, rest)
    }

    /// Where the first end marker at or after `start` begins.
    private static func firstMarker(in bytes: [UInt8], from start: Int) -> Int? {
        let marker = endMarker
        guard bytes.count >= marker.count, start <= bytes.count - marker.count else { return nil }
        var i = start
        while i <= bytes.count - marker.count {
            // The marker starts with ESC, which pasted text rarely holds: skip to the next one.
            guard let escape = bytes[i...].firstIndex(of: marker[0]), escape <= bytes.count - marker.count else { return nil }
            if bytes[escape..<(escape + marker.count)].elementsEqual(marker) { return escape }
            i = escape + 1
        }
        return nil
    }
}
