import Foundation
import Quarry

/// Which table column a ``CellFormat`` applies to: an entity's name and a column's key (an
/// attribute's name, or a to-one relationship's name for the related object's display text).
public struct CellFormatKey: Hashable, Sendable, CustomStringConvertible {
    /// The entity's name (`Ticker`).
    public var entity: String
    /// The column: an attribute's or a to-one relationship's name (`price`, `sector`).
    public var column: String

    /// The format key of `column` in `entity`'s table.
    public init(entity: String, column: String) {
        self.entity = entity
        self.column = column
    }

    /// `Ticker.price`.
    public var description: String { "\(entity).\(column)" }
}

/// How the browser's table shows the cells of one column, instead of its default text.
///
/// Only table cells (and what is copied from them with `y` and `Y`) are formatted: the detail
/// page and the edit form keep the raw values, so an edit parses what the user types against the
/// attribute's type, never formatted text; sorting, searching (`/`) and exports use the raw
/// values too. A to-one column formats its related object's display
/// text (the value of the destination's display key).
///
/// ```swift
/// configuration.cellFormats = [
///     CellFormatKey(entity: "Ticker", column: "price"): .number(decimals: 3),
///     CellFormatKey(entity: "Ticker", column: "sector"): .mapping(["Energy": "⚡ Energy"]),
/// ]
/// ```
///
/// Not `Equatable`: a ``custom(_:)`` closure has no equality.
public enum CellFormat: Sendable {
    /// Numbers (integers, doubles, decimals) with exactly this many digits after the point
    /// (0 to 9; outside that range, the nearest), locale-independent (`1234.500`). Other values
    /// keep their default text.
    case number(decimals: Int)
    /// Dates with a date pattern (`yyyy-MM-dd HH:mm`, Unicode patterns as `DateFormatter` reads
    /// them) in the POSIX locale and the process's time zone, as the default text uses; a
    /// date-only value (a UTC midnight) keeps its day in every zone. Other values keep their
    /// default text.
    case date(String)
    /// The default text of a value → the text shown; values not in the mapping are unchanged.
    case mapping([String: String])
    /// A closure given the cell's value (for a to-one column, the related object's display-key
    /// value, or its object ID's URI text when the destination has no display key; `.null` for
    /// an empty cell). Called on the main actor when the table draws.
    case custom(@Sendable (Value) -> String)

    /// The text of `value`, whose default text is `defaultText`.
    func text(for value: Value, defaultText: String) -> String {
        switch self {
        case .number(let decimals):
            return Self.numberText(value, decimals: min(9, max(0, decimals))) ?? defaultText
        case .date(let pattern):
            guard case .date(let date) = value else { return defaultText }
            return CellDateText.format(date, pattern: pattern)
        case .mapping(let map):
            return map[defaultText] ?? defaultText
        case .custom(let body):
            return body(value)
        }
    }

    /// `value` with `decimals` digits after the point, if it is a number.
    private static func numberText(_ value: Value, decimals: Int) -> String? {
        switch value {
        case .integer(let i): return DecimalText.fixed(Double(i), decimals: decimals)
        case .double(let d): return DecimalText.fixed(d, decimals: decimals)
        case .decimal(let d):
            guard !d.isNaN else { return nil }
            var number = d.decimal, rounded = Decimal()
            NSDecimalRound(&rounded, &number, decimals, .plain)
            return ScaledDecimal(rounded, scale: decimals).description
        default: return nil
        }
    }
}
