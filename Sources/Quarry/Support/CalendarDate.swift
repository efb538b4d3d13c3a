import Foundation

/// A date without a time of day (`1929-10-21`): the same calendar date in every time zone.
///
/// Quarry keeps a date-only value as a ``Value/date(_:)`` at exactly 00:00:00 UTC of its day,
/// which is the instant SQLite's date functions, ISO 8601 readers and Quarry's import already
/// give a date written without a time; so it is stored, compared, sorted and migrated like
/// every other date, in every back end, with no change to the stores' formats. Whatever shows
/// or writes a date asks ``init(exactly:)`` first: a date at a UTC midnight is shown and written
/// as its calendar date (`1929-10-21`, never moved into the viewer's zone, never with a
/// meaningless `00:00:00`), any other date as a time. Text typed or read as a bare date becomes
/// that midnight again (``date``), so a date-only value stays date-only when edited and saved.
///
/// The price of needing no flag beside the value: an instant that falls exactly on a UTC
/// midnight, to the second with no fraction, is shown as its UTC calendar date.
///
/// ```swift
/// let born = CalendarDate(year: 1929, month: 10, day: 21)!
/// object["born"] = .date(born.date)
/// CalendarDate(exactly: born.date)?.text   // "1929-10-21"
/// ```
public struct CalendarDate: Sendable, Hashable, CustomStringConvertible {
    /// The year (proleptic Gregorian; 0 is 1 BC).
    public let year: Int
    /// The month, 1–12.
    public let month: Int
    /// The day of the month, 1–31.
    public let day: Int

    /// The date `year`-`month`-`day`, or `nil` when it does not exist (`2023-02-29`).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), (1...CivilCalendar.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The calendar date of `date` when `date` is exactly a UTC midnight (a date-only value);
    /// `nil` for any other instant.
    public init?(exactly date: Date) {
        let t = date.timeIntervalSince1970
        guard t.isFinite, t == t.rounded(.down), t.magnitude < 1e15 else { return nil }
        let seconds = Int64(t)
        guard seconds % 86_400 == 0 else { return nil }
        let (y, m, d) = CivilCalendar.date(fromDays: seconds / 86_400)
        // Four-digit years only: others have no unambiguous `yyyy-mm-dd` text.
        guard (0...9999).contains(y) else { return nil }
        self.init(year: Int(y), month: Int(m), day: Int(d))
    }

    /// Reads `yyyy-mm-dd` (exactly that: four-digit year, two-digit month and day); `nil` for
    /// anything else or a date that does not exist.
    public init?(parsing text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for b in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) else { return nil }
                value = value * 10 + Int(b - UInt8(ascii: "0"))
            }
            return value
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The instant Quarry keeps this date as: 00:00:00 UTC of the day.
    public var date: Date {
        Date(timeIntervalSince1970: TimeInterval(CivilCalendar.days(year: year, month: month, day: day) * 86_400))
    }

    /// `yyyy-mm-dd`.
    public var text: String {
        DecimalText.zeroPadded(year, width: 4) + "-" + DecimalText.zeroPadded(month, width: 2) + "-" + DecimalText.zeroPadded(day, width: 2)
    }

    public var description: String { text }
}
