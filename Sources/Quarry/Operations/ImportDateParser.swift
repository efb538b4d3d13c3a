import Foundation

/// Parses the ISO 8601 dates an import accepts, straight from bytes (Foundation's formatters
/// cost microseconds per call; a million-row import cannot pay that).
///
/// Accepted: `YYYY-MM-DD` (midnight UTC), or that followed by `T` (or a space) and `HH:MM`,
/// `HH:MM:SS` or `HH:MM:SS.fraction` (any number of digits), then an optional zone `Z`,
/// `±HH:MM`, `±HHMM` or `±HH`. A date-time without a zone is UTC. Fields are range-checked
/// (February 30th is refused).
enum ImportDateParser {
    /// The date `text` names, or `nil` when it is not one of the accepted forms.
    static func date(_ text: UnsafeRawBufferPointer) -> Date? {
        var i = 0
        let n = text.count
        func number(_ width: Int) -> Int? {
            guard i + width <= n else { return nil }
            var v = 0
            for k in i..<(i + width) {
                let b = text[k]
                guard b >= 48, b <= 57 else { return nil }
                v = v * 10 + Int(b - 48)
            }
            i += width
            return v
        }
        func expect(_ c: Character) -> Bool {
            guard i < n, text[i] == c.asciiValue! else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        var seconds = Double(daysFromCivil(year: year, month: month, day: day)) * 86_400
        guard i < n else { return Date(timeIntervalSince1970: seconds) }
        guard text[i] == UInt8(ascii: "T") || text[i] == UInt8(ascii: "t") || text[i] == UInt8(ascii: " ") else { return nil }
        i += 1
        guard let hour = number(2), hour < 24, expect(":"), let minute = number(2), minute < 60 else { return nil }
        seconds += Double(hour * 3600 + minute * 60)
        if expect(":") {
            guard let second = number(2), second < 60 else { return nil }
            seconds += Double(second)
            if expect(".") || expect(",") {
                var scale = 0.1
                let first = i
                while i < n, text[i] >= 48, text[i] <= 57 {
                    seconds += Double(text[i] - 48) * scale
                    scale /= 10
                    i += 1
                }
                guard i > first else { return nil }
            }
        }
        guard i < n else { return Date(timeIntervalSince1970: seconds) }
        if expect("Z") || expect("z") { return i == n ? Date(timeIntervalSince1970: seconds) : nil }
        let sign: Double
        if expect("+") { sign = 1 } else if expect("-") { sign = -1 } else { return nil }
        guard let zoneHour = number(2), zoneHour < 24 else { return nil }
        var zoneMinute = 0
        if i < n {
            _ = expect(":")
            guard let m = number(2), m < 60 else { return nil }
            zoneMinute = m
        }
        guard i == n else { return nil }
        return Date(timeIntervalSince1970: seconds - sign * Double(zoneHour * 3600 + zoneMinute * 60))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
