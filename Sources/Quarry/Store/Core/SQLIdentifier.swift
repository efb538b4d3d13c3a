/// `name` as a quoted SQL identifier (standard SQL double quotes, as SQLite and PostgreSQL read it).
func sqlIdentifier(_ name: String) -> String { sqlQuoted(name, by: "\"") }

/// `text` between two `quote` characters (ASCII), each `quote` inside it doubled: an SQL
/// identifier (`"`) or text literal (`'`). Done on the UTF-8 bytes, where an ASCII quote is
/// never part of another character, whatever combining marks follow it; a text without the
/// quote is not copied byte by byte.
func sqlQuoted(_ text: String, by quote: Unicode.Scalar) -> String {
    assert(quote.isASCII, "sqlQuoted: the quote must be ASCII")
    let q = UInt8(quote.value)
    let mark = String(quote)
    guard text.utf8.contains(q) else { return mark + text + mark }
    var bytes: [UInt8] = [q]
    bytes.reserveCapacity(text.utf8.count + 8)
    for byte in text.utf8 {
        bytes.append(byte)
        if byte == q { bytes.append(q) }
    }
    bytes.append(q)
    return String(decoding: bytes, as: UTF8.self)
}
