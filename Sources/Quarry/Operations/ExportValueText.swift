import Foundation

/// The text forms of values in exports, appended straight to a byte buffer (no intermediate
/// strings for numbers and dates: an export of a million rows formats millions of values).
///
/// Integers in decimal; doubles in Swift's shortest round-tripping form; decimals exactly
/// (their full decimal digits); booleans `true`/`false`; dates ISO 8601 in UTC
/// (`2024-03-01T09:30:00Z`, with `.sss` or `.ssssss` when the time has a fraction; a date-only
/// value, ``CalendarDate``, as its date alone: `1929-10-21`); binary
/// data base64; UUIDs upper-case; URIs absolute; transformable values as JSON text; nil as
/// nothing.
enum ExportValueText {
    /// Appends the text form of `value` (nothing for `.null`).
    static func append(_ value: Value, to out: inout [UInt8]) {
        switch value {
        case .null: break
        case .integer(let v): appendInteger(v, to: &out)
        case .double(let v): out.append(contentsOf: v.description.utf8)
        case .decimal(let v): out.append(contentsOf: v.description.utf8)
        case .string(let v): out.append(contentsOf: v.utf8)
        case .bool(let v): out.append(contentsOf: v ? trueBytes : falseBytes)
        case .date(let v): appendISO8601(v, to: &out)
        case .data(let v): out.append(contentsOf: v.base64EncodedString().utf8)
        case .uuid(let v): out.append(contentsOf: v.uuidString.utf8)
        case .uri(let v): out.append(contentsOf: v.absoluteString.utf8)
        case .json(let v): out.append(contentsOf: v.jsonText.utf8)
        }
    }

    /// Whether the text of `value` may contain characters a CSV field must quote (commas,
    /// quotes, line breaks, edge spaces): only free text can.
    static func isFreeText(_ value: Value) -> Bool {
        switch value {
        case .string, .uri, .json: return true
        default: return false
        }
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)

    /// Appends `v` in decimal.
    static func appendInteger(_ v: Int64, to out: inout [UInt8]) {
        if v < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = v.magnitude
        // At most 20 digits; write them backwards into a small stack buffer.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var n = 20
            repeat {
                n -= 1
                digits[n] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[n..<20]))
        }
    }

    /// Appends `date` as ISO 8601 in UTC; times with a fraction get milliseconds, or
    /// microseconds when milliseconds would lose it. A date-only value (exactly a UTC midnight,
    /// ``CalendarDate``) is its date alone, which ISO 8601 readers take as that same midnight.
    static func appendISO8601(_ date: Date, to out: inout [UInt8]) {
        if let day = CalendarDate(exactly: date) {
            out.append(contentsOf: day.text.utf8)
            return
        }
        let t = date.timeIntervalSince1970
        // Years 0000...9999 only: anything else takes the slow, general path.
        guard t.isFinite, t >= -62_167_219_200, t < 253_402_300_800 else {
            out.append(contentsOf: ISO8601DateFormatter().string(from: date).utf8)
            return
        }
        var seconds = Int64(t.rounded(.down))
        var micros = Int64(((t - Double(seconds)) * 1_000_000).rounded())
        if micros >= 1_000_000 { seconds += 1; micros -= 1_000_000 }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = CivilCalendar.date(fromDays: days)
        appendPadded(year, width: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        appendPadded(month, width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendPadded(day, width: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        appendPadded(secondOfDay / 3600, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendPadded(secondOfDay / 60 % 60, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendPadded(secondOfDay % 60, width: 2, to: &out)
        if micros != 0 {
            out.append(UInt8(ascii: "."))
            if micros % 1000 == 0 { appendPadded(micros / 1000, width: 3, to: &out) } else { appendPadded(micros, width: 6, to: &out) }
        }
        out.append(UInt8(ascii: "Z"))
    }

    private static func appendPadded(_ v: Int64, width: Int, to out: inout [UInt8]) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = v
        while divisor > 0 {
            out.append(UInt8(ascii: "0") &+ UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}

extension Value {
    /// The value as an export writes it in a CSV field (before quoting): see ``CSVFormatter``.
    /// `nil` is the empty string, dates are ISO 8601 in UTC, decimals exact, binary base64.
    public var exportText: String {
        var bytes: [UInt8] = []
        ExportValueText.append(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
