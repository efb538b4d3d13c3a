/// `name` as a quoted SQL identifier (standard SQL double quotes, as SQLite and PostgreSQL read it).
func sqlIdentifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
