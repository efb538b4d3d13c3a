import Foundation
import Quarry
import Synchronization

/// Dates as a ``CellFormat/date(_:)`` pattern shows them: the POSIX locale, and the offset from
/// GMT the default text uses (``ValueText/secondsFromGMT(at:in:)``: the process's local time);
/// a date-only value (``CalendarDate``) in GMT, so it keeps its day in every zone.
enum CellDateText {
    /// Formatters by pattern and offset, made once: a formatter costs far more than a format.
    private static let formatters = Mutex<[String: DateFormatter]>([:])

    /// `date` written with `pattern`.
    static func format(_ date: Date, pattern: String) -> String {
        let offset = CalendarDate(exactly: date) != nil ? 0
            : ValueText.secondsFromGMT(at: time_t(date.timeIntervalSince1970.rounded(.down)), in: nil)
        return formatters.withLock { cache in
            let key = "\(offset) \(pattern)"
            if let formatter = cache[key] { return formatter.string(from: date) }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(secondsFromGMT: offset)
            formatter.dateFormat = pattern
            cache[key] = formatter
            return formatter.string(from: date)
        }
    }
}
