import Foundation
import Quarry

/// Turns stored values into the text the browser shows, and typed text back into values.
///
/// Formatting is locale-independent (the same bytes on every machine), so screen tests and
/// captures are stable.
enum ValueText {
    /// The text for `value` in a table cell or a form field.
    static func format(_ value: Value) -> String {
        switch value {
        case .null: return ""
        case .integer(let i): return String(i)
        case .double(let d): return formatDouble(d)
        case .decimal(let d): return "\(d)"
        case .string(let s): return s
        case .bool(let b): return b ? "yes" : "no"
        case .date(let d): return formatDate(d)
        case .data(let d): return formatData(d)
        case .uuid(let u): return u.uuidString
        case .uri(let u): return u.absoluteString
        case .json(let j): return "\(j)"
        }
    }

    /// The text of binary data: its size, then its first 16 bytes in hex (`4 bytes 00010203`,
    /// `1 byte ff`, `300 bytes 89504e47…`).
    static func formatData(_ data: Data) -> String {
        let size = data.count == 1 ? "1 byte" : "\(data.count) bytes"
        guard !data.isEmpty else { return size }
        let hex = String(data.prefix(16).flatMap { [hexDigits[Int($0 >> 4)], hexDigits[Int($0 & 0xF)]] })
        return "\(size) \(hex)\(data.count > 16 ? "…" : "")"
    }

    private static let hexDigits = Array("0123456789abcdef")

    /// The text of a double: up to 6 decimals, trailing zeros dropped, at least one decimal for prices.
    static func formatDouble(_ d: Double) -> String {
        guard d.isFinite else { return String(d) }
        if d == d.rounded(), abs(d) < 1e15 { return DecimalText.fixed(d, decimals: 2) }
        var text = DecimalText.fixed(d, decimals: 6)
        // Keep at least two decimals (prices), drop the other trailing zeros.
        while text.hasSuffix("0"), let dot = text.firstIndex(of: "."), text.distance(from: dot, to: text.endIndex) > 3 {
            text.removeLast()
        }
        return text
    }

    /// Parses `text` typed into a field for an attribute of `type`.
    /// - Throws: ``ValueTextError`` saying what was expected.
    static func parse(_ text: String, as type: AttributeType, optional: Bool) throws -> Value {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty && type != .string { return .null }
        switch type {
        case .integer16, .integer32, .integer64:
            guard let i = Int64(trimmed) else { throw ValueTextError("expected a whole number") }
            return .integer(i)
        case .double, .float:
            guard let d = Double(trimmed), d.isFinite else { throw ValueTextError("expected a number") }
            return .double(d)
        case .decimal:
            guard let d = ScaledDecimal(string: trimmed) else { throw ValueTextError("expected a decimal number") }
            return .decimal(d)
        case .string:
            return text.isEmpty && optional ? .null : .string(text)
        case .boolean:
            switch trimmed.lowercased() {
            case "yes", "true", "1", "y": return .bool(true)
            case "no", "false", "0", "n": return .bool(false)
            default: throw ValueTextError("expected yes or no")
            }
        case .date:
            guard let d = parseDate(trimmed) else {
                throw ValueTextError("expected an existing date like 2026-11-22 or 2026-11-22 14:30:00")
            }
            return .date(d)
        case .uuid:
            guard let u = UUID(uuidString: trimmed) else { throw ValueTextError("expected a UUID") }
            return .uuid(u)
        case .uri:
            guard let u = URL(string: trimmed) else { throw ValueTextError("expected a URI") }
            return .uri(u)
        default:
            throw ValueTextError("\(type.rawValue) values cannot be edited here")
        }
    }

    /// Whether values of `type` can be typed into a form.
    static func isEditable(_ type: AttributeType) -> Bool {
        switch type {
        case .integer16, .integer32, .integer64, .double, .float, .decimal, .string, .boolean, .date, .uuid, .uri: return true
        default: return false
        }
    }

    /// Whether values of `type` are right-aligned (numbers).
    static func isNumeric(_ type: AttributeType) -> Bool {
        switch type {
        case .integer16, .integer32, .integer64, .double, .float, .decimal: return true
        default: return false
        }
    }

    /// A column width that suits values of `type`.
    static func defaultWidth(for type: AttributeType) -> Int {
        switch type {
        case .integer16, .integer32: return 8
        case .integer64: return 10
        case .double, .float, .decimal: return 12
        case .boolean: return 5
        case .date: return 19
        case .uuid: return 36
        default: return 20
        }
    }

    /// `yyyy-MM-dd HH:mm:ss` in `zone` (the user's local time by default, as Core Data's own
    /// tools show dates); a date-only value (``CalendarDate``) as its `yyyy-MM-dd` in every zone.
    static func formatDate(_ date: Date, in zone: TimeZone? = nil) -> String {
        if let day = CalendarDate(exactly: date) { return day.text }
        return formatDateTime(date, in: zone)
    }

    /// `yyyy-MM-dd HH:mm:ss` of `date` in `zone` (local time by default), even at a UTC midnight
    /// (for moments, such as when a merge happened, which are never date-only values).
    static func formatDateTime(_ date: Date, in zone: TimeZone? = nil) -> String {
        let instant = time_t(date.timeIntervalSince1970.rounded(.down))
        var seconds = instant + time_t(secondsFromGMT(at: instant, in: zone))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return dateText(Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                        Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// `yyyy-MM-dd HH:mm:ss` of the fields (`%04d-%02d-%02d %02d:%02d:%02d`).
    private static func dateText(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) -> String {
        let pad: (Int, Int) -> String = { DecimalText.zeroPadded($0, width: $1) }
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + " " + pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2)
    }

    /// Parses `yyyy-MM-dd`, `yyyy-MM-dd HH:mm` or `yyyy-MM-dd HH:mm:ss` (also with `T`), as a
    /// time in `zone` (local time by default, as dates are shown). A date without a time is a
    /// date-only value (``CalendarDate``), the same day in every zone, as it is shown.
    ///
    /// Strict: a date that does not exist (`2026-02-30`, a leap second, a local time skipped by
    /// a daylight-saving change) is refused rather than rolled over, by converting back and
    /// requiring the same fields (`timegm` normalizes).
    static func parseDate(_ text: String, in zone: TimeZone? = nil) -> Date? {
        let fields = text.split(whereSeparator: { "-: T".contains($0) }).map { Int($0) }
        guard (fields.count == 3 || fields.count == 5 || fields.count == 6), fields.allSatisfy({ $0 != nil }) else { return nil }
        let f = fields.map { $0! }
        if f.count == 3 { return CalendarDate(year: f[0], month: f[1], day: f[2])?.date }
        guard (1...12).contains(f[1]), (1...31).contains(f[2]) else { return nil }
        var parts = tm()
        parts.tm_year = Int32(f[0] - 1900)
        parts.tm_mon = Int32(f[1] - 1)
        parts.tm_mday = Int32(f[2])
        guard (0...23).contains(f[3]), (0...59).contains(f[4]) else { return nil }
        parts.tm_hour = Int32(f[3])
        parts.tm_min = Int32(f[4])
        if f.count == 6 {
            guard (0...60).contains(f[5]) else { return nil }
            parts.tm_sec = Int32(f[5])
        }
        // The fields read as UTC, then moved by the zone's offset at that moment (looked up
        // twice: the offset near the wall-clock time, then at the instant it gives).
        let wall = timegm(&parts)
        var instant = wall - time_t(secondsFromGMT(at: wall, in: zone))
        instant = wall - time_t(secondsFromGMT(at: instant, in: zone))
        let date = Date(timeIntervalSince1970: TimeInterval(instant))
        let expected = dateText(f[0], f[1], f[2], f[3], f[4], f.count == 6 ? f[5] : 0)
        guard formatDateTime(date, in: zone) == expected else { return nil }
        return date
    }
}

extension ValueText {
    /// `zone`'s offset from GMT at `instant`, in seconds; without a zone, local time's as the
    /// C library reads it (`TZ`, else `/etc/localtime`), the rules `TimeZone.current` follows,
    /// without loading ICU's time-zone data (about a megabyte resident) to show a date.
    static func secondsFromGMT(at instant: time_t, in zone: TimeZone?) -> Int {
        if let zone { return zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant))) }
        var t = instant, parts = tm()
        localtime_r(&t, &parts)
        return Int(parts.tm_gmtoff)
    }
}

/// Typed text that does not fit its attribute's type.
struct ValueTextError: Error, CustomStringConvertible {
    /// What was expected.
    var description: String
    init(_ description: String) { self.description = description }
}
