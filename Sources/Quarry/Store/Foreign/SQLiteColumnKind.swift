import GRDB

/// The attribute type Quarry shows one column of a foreign table as, and the expression that
/// reads its values in Quarry's stored form.
///
/// The type follows the declared type's affinity (SQLite's rules: `INT` → integer, `CHAR`,
/// `CLOB`, `TEXT` → text, `BLOB` or none → blob, `REAL`, `FLOA`, `DOUB` → real, else numeric),
/// checked against its first 200 values (among the first 10,000 rows), since SQLite lets any column hold any type: a column
/// whose sample holds text is shown as text whatever its declaration, an untyped one as what
/// its sample holds. A column named or declared as a date or time (`DATE`, `DATETIME`,
/// `TIMESTAMP`, `…_at`, `createdAt`, `date`, `time`…) is shown as a date when every sampled
/// value is ISO-8601 text, Unix seconds or Unix milliseconds. A column declared with a scale
/// (`NUMERIC(10,2)`, `DECIMAL(8,3)`) holding numbers is a decimal shown with that scale.
struct SQLiteColumnKind: Equatable {
    /// How many values of a column are looked at.
    static let sampleSize = 200
    /// How many rows are read to find them.
    static let scanLimit = 10_000

    var type: AttributeType
    /// The expression reading the column `s.<name>` in Quarry's form.
    var expression: String

    /// SQLite's affinity of a declared type.
    enum Affinity { case integer, text, blob, real, numeric }

    static func affinity(ofDeclaredType declared: String) -> Affinity {
        let t = declared.uppercased()
        if t.contains("INT") { return .integer }
        if t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT") { return .text }
        if t.isEmpty || t.contains("BLOB") { return .blob }
        if t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB") { return .real }
        return .numeric
    }

    /// Whether a column's name or declared type says it holds dates or times.
    static func looksLikeDate(name: String, declaredType: String) -> Bool {
        let t = declaredType.uppercased()
        if t.contains("DATE") || t.contains("TIME") { return true }
        let lower = name.lowercased()
        if ["date", "time", "timestamp", "datetime", "created", "updated", "modified", "deleted"].contains(lower) { return true }
        if lower.hasSuffix("_at") || lower.hasSuffix("_on") || lower.hasSuffix("_date") || lower.hasSuffix("_time") || lower.hasSuffix("timestamp") { return true }
        // camelCase: createdAt, updatedOn, birthDate, startTime.
        for suffix in ["At", "On", "Date", "Time"] where name.hasSuffix(suffix) && name.count > suffix.count {
            if name.dropLast(suffix.count).last?.isLowercase == true { return true }
        }
        return false
    }

    /// The scale `s` of a declared `NUMERIC(p,s)`, `DECIMAL(p,s)` or `DEC(p,s)`, else `nil`.
    static func declaredScale(_ declaredType: String) -> Int? {
        let t = declaredType.uppercased().filter { !$0.isWhitespace }
        guard t.hasPrefix("NUMERIC(") || t.hasPrefix("DECIMAL(") || t.hasPrefix("DEC("), t.hasSuffix(")"),
              let open = t.firstIndex(of: "(") else { return nil }
        let parts = t[t.index(after: open)..<t.index(before: t.endIndex)].split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, Int(parts[0]) != nil, let scale = Int(parts[1]), (0...ScaledDecimal.maximumScale).contains(scale) else { return nil }
        return scale
    }

    /// `value` (a column of a declared scale) as decimal text: with exactly `scale` digits after
    /// the point when that keeps every digit SQLite holds (NUMERIC affinity stores `12.50` as
    /// the real 12.5 and `15.00` as the integer 15), otherwise as SQLite writes it, so no digit
    /// is ever rounded away.
    static func scaledText(_ value: String, scale: Int) -> String {
        "CASE WHEN typeof(\(value)) IN ('integer', 'real') AND round(\(value), \(scale)) = \(value) "
            + "THEN printf('%.\(scale)f', \(value)) ELSE CAST(\(value) AS TEXT) END"
    }

    /// Decides the kind of column `column` (quoted name inside `source`, a `FROM` target such as
    /// `main."t"`), reading at most ``sampleSize`` of its non-null values.
    static func decide(_ db: Database, column: String, declaredType: String, source: String) throws -> SQLiteColumnKind {
        let quoted = sqlIdentifier(column)
        let plain = "s.\(quoted)"
        // Among the first rows only: a mostly empty column of a large table is not scanned whole.
        let sample = "SELECT v FROM (SELECT \(quoted) AS v FROM \(source) LIMIT \(scanLimit)) WHERE v IS NOT NULL LIMIT \(sampleSize)"
        var types: [String: Int] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT typeof(v), count(*) FROM (\(sample)) GROUP BY 1") {
            types[row[0]] = row[1]
        }
        let kinds = Set(types.keys)
        if looksLikeDate(name: column, declaredType: declaredType), !kinds.isEmpty {
            if kinds == ["text"] {
                let unparsed = try Int.fetchOne(db, sql: """
                    SELECT count(*) FROM (\(sample)) WHERE julianday(v) IS NULL \
                    OR v NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*'
                    """) ?? 1
                if unparsed == 0 { return SQLiteColumnKind(type: .date, expression: "round((julianday(\(plain)) - 2451910.5) * 86400.0, 3)") }
            } else if kinds.isSubset(of: ["integer", "real"]) {
                let row = try Row.fetchOne(db, sql: "SELECT min(v), max(v) FROM (\(sample))")
                let low: Double = row?[0] ?? 0, high: Double = row?[1] ?? 0
                // Seconds from 1973 to 2096; milliseconds over the same span.
                if low >= 1e8, high < 4e9 { return SQLiteColumnKind(type: .date, expression: "(\(plain) - 978307200.0)") }
                if low >= 1e11, high < 4e12 { return SQLiteColumnKind(type: .date, expression: "(\(plain) / 1000.0 - 978307200.0)") }
            }
        }
        if let scale = declaredScale(declaredType), kinds.isSubset(of: ["integer", "real"]) {
            return SQLiteColumnKind(type: .decimal, expression: scaledText(plain, scale: scale))
        }
        let affinity = affinity(ofDeclaredType: declaredType)
        if declaredType.uppercased().contains("BOOL"), kinds.isSubset(of: ["integer"]) {
            let others = try Int.fetchOne(db, sql: "SELECT count(*) FROM (\(sample)) WHERE v NOT IN (0, 1)") ?? 1
            if others == 0 { return SQLiteColumnKind(type: .boolean, expression: plain) }
        }
        let type: AttributeType
        if kinds.isEmpty {
            switch affinity {
            case .integer: type = .integer64
            case .real, .numeric: type = .double
            case .text: type = .string
            case .blob: type = declaredType.isEmpty ? .string : .binary
            }
        } else if kinds == ["blob"] && affinity != .text {
            type = .binary
        } else if kinds.isSubset(of: ["integer"]) && affinity != .text && affinity != .real {
            type = .integer64
        } else if kinds.isSubset(of: ["integer", "real"]) && affinity != .text {
            type = .double
        } else {
            type = .string
        }
        return SQLiteColumnKind(type: type, expression: plain)
    }
}
