import Foundation

/// Dates in a JSON store: `yyyy-mm-dd hh:mm:ss ±hhmm` (M3CoreData's form), with a fraction of a
/// second when the date has one (`2024-05-01 12:00:00.25 +0000`); a date-only value
/// (``CalendarDate``: exactly a UTC midnight) as its date alone, `1929-10-21`, read back as
/// that midnight.
///
/// The fraction is the shortest decimal that reads back as the same `Date`, so a store copied
/// SQLite → JSON → SQLite keeps every date bit for bit. Dates are written in UTC (`+0000`); any
/// offset is read. Calendar arithmetic is done on integers (proleptic Gregorian), not through
/// `DateFormatter`, so the text does not depend on the locale or the time zone of the machine.
enum JSONStoreDate {
    /// The text of `date`.
    static func format(_ date: Date) -> String {
        if let day = CalendarDate(exactly: date) { return day.text }
        let t = date.timeIntervalSinceReferenceDate
        guard t.isFinite else { return "\(t)" }
        let whole = t.rounded(.down)
        let fraction = t - whole  // exact: subtracting the integral part of a double loses nothing
        let seconds = Int64(whole) + referenceOffset
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (y, m, d) = CivilCalendar.date(fromDays: days)
        var text = pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + " " + pad(secondOfDay / 3600, 2) + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if fraction > 0 { text += fractionDigits(fraction) }
        return text + " +0000"
    }

    /// The date `text` names, or `nil` when it is not in the store's form.
    static func parse(_ text: String) -> Date? {
        if let day = CalendarDate(parsing: text) { return day.date }
        let bytes = Array(text.utf8)
        // yyyy-mm-dd hh:mm:ss[.f+] ±hhmm
        guard bytes.count >= 25, let y = number(bytes, 0, 4), bytes[4] == 0x2D, let mo = number(bytes, 5, 2),
              bytes[7] == 0x2D, let d = number(bytes, 8, 2), bytes[10] == 0x20, let h = number(bytes, 11, 2),
              bytes[13] == 0x3A, let mi = number(bytes, 14, 2), bytes[16] == 0x3A, let s = number(bytes, 17, 2),
              (1...12).contains(mo), (1...CivilCalendar.daysIn(month: mo, year: y)).contains(d), h < 24, mi < 60, s < 60
        else { return nil }
        var i = 19
        var fraction = 0.0
        if bytes[i] == 0x2E {
            let start = i
            i += 1
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
            guard i > start + 1, let f = Double("0" + String(decoding: bytes[start..<i], as: UTF8.self)) else { return nil }
            fraction = f
        }
        guard bytes.count == i + 6, bytes[i] == 0x20, bytes[i + 1] == 0x2B || bytes[i + 1] == 0x2D,
              let oh = number(bytes, i + 2, 2), let om = number(bytes, i + 4, 2), oh < 24, om < 60
        else { return nil }
        let offset = Int64((oh * 60 + om) * 60) * (bytes[i + 1] == 0x2D ? -1 : 1)
        let local = CivilCalendar.days(year: y, month: mo, day: d) * 86_400 + Int64(h * 3600 + mi * 60 + s)
        let whole = local - offset - referenceOffset
        // whole + fraction is the stored double exactly (see `format`), so the sum rounds to it.
        return Date(timeIntervalSinceReferenceDate: Double(whole) + fraction)
    }

    /// Seconds from 1970-01-01 to 2001-01-01 (the reference date).
    private static let referenceOffset: Int64 = 978_307_200

    /// `.ddd`: the shortest digits that read back as `fraction` (in [0, 1)).
    private static func fractionDigits(_ fraction: Double) -> String {
        let text = "\(fraction)"  // shortest round-trip form: "0.25" or "1.1920928955078125e-07"
        guard let e = text.firstIndex(of: "e"), let exponent = Int(text[text.index(after: e)...]) else {
            return String(text.dropFirst())  // drop the leading "0"
        }
        let digits = text[..<e].filter(\.isNumber)
        return "." + String(repeating: "0", count: -exponent - 1) + digits
    }

    private static func pad(_ value: some BinaryInteger, _ width: Int) -> String {
        let text = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for b in bytes[start..<start + count] {
            guard isDigit(b) else { return nil }
            value = value * 10 + Int(b - 0x30)
        }
        return value
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }
}
