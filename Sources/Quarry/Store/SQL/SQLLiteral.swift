import Foundation

extension Value {
    /// The value in its stored form as an SQL literal (see ``SQLiteStore`` for the mapping), for
    /// column defaults a migration writes in a statement (DDL takes no bound parameters).
    var sqlLiteral: String {
        func text(_ s: String) -> String { sqlQuoted(s, by: "'") }
        func real(_ d: Double) -> String {
            guard d.isFinite else { return d.isNaN ? "NULL" : (d > 0 ? "9e999" : "-9e999") }
            let s = "\(d)"
            return s.contains(".") || s.contains("e") ? s : s + ".0"
        }
        switch self {
        case .null: return "NULL"
        case .integer(let v): return String(v)
        case .double(let d): return real(d)
        case .bool(let b): return b ? "1" : "0"
        case .string(let s): return text(s)
        case .date(let d): return real(d.timeIntervalSinceReferenceDate)
        case .decimal(let d): return text(d.description)
        case .uuid(let u): return text(u.uuidString)
        case .uri(let u): return text(u.absoluteString)
        case .json(let j): return text(j.jsonText)
        case .data(let data): return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}
