/// `name` as a quoted SQL identifier (standard SQL double quotes, as SQLite and PostgreSQL read it).
func sqlIdentifier(_ name: String) -> String {
    // Most names hold no quote: no search-and-replace for them (it is the slow part of
    // building statement text).
    guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
    return "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
}
