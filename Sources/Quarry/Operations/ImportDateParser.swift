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
        // A cursor with mutating methods, not closures over a local: closures capturing a
        // mutable local pay a dynamic exclusivity check on every access (visible in profiles).
        var c = ImportByteCursor(text)
        guard let year = c.number(4), c.skip("-"), let month = c.number(2), c.skip("-"), let day = c.number(2),
              (1...12).contains(month), day >= 1, day <= CivilCalendar.daysIn(month: month, year: year) else { return nil }
        var seconds = Double(CivilCalendar.days(year: year, month: month, day: day)) * 86_400
        guard !c.atEnd else { return Date(timeIntervalSince1970: seconds) }
        guard c.skip("T") || c.skip("t") || c.skip(" ") else { return nil }
        guard let hour = c.number(2), hour < 24, c.skip(":"), let minute = c.number(2), minute < 60 else { return nil }
        seconds += Double(hour * 3600 + minute * 60)
        if c.skip(":") {
            guard let second = c.number(2), second < 60 else { return nil }
            seconds += Double(second)
            if c.skip(".") || c.skip(",") {
                guard let fraction = c.fraction() else { return nil }
                seconds += fraction
            }
        }
        guard !c.atEnd else { return Date(timeIntervalSince1970: seconds) }
        if c.skip("Z") || c.skip("z") { return c.atEnd ? Date(timeIntervalSince1970: seconds) : nil }
        let sign: Double
        if c.skip("+") { sign = 1 } else if c.skip("-") { sign = -1 } else { return nil }
        guard let zoneHour = c.number(2), zoneHour < 24 else { return nil }
        var zoneMinute = 0
        if !c.atEnd {
            _ = c.skip(":")
            guard let m = c.number(2), m < 60 else { return nil }
            zoneMinute = m
        }
        guard c.atEnd else { return nil }
        return Date(timeIntervalSince1970: seconds - sign * Double(zoneHour * 3600 + zoneMinute * 60))
    }
}
