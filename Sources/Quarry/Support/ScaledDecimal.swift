import Foundation

/// An exact decimal number with the number of digits after its point it was written with:
/// `12.50` stays `12.50`, `15.00` stays `15.00`.
///
/// Foundation's `Decimal` drops trailing zeros (`Decimal(string: "12.50")` is `12.5`), so the
/// scale is kept beside it: read from the text a value comes from (an import, a form, a store's
/// `TEXT`, a JSON store's string), or from a column's declared scale (`NUMERIC(10,2)`), and used
/// wherever the number is shown or written. A scale is never below the number's own: no digit
/// is ever cut. Two values are equal when both the number and the scale are (`12.5` and `12.50`
/// are different texts); predicates and sorts compare the numbers alone.
///
/// ```swift
/// let price = ScaledDecimal(string: "12.50")!
/// price.description          // "12.50"
/// object["price"] = .decimal(price)
/// ```
public struct ScaledDecimal: Sendable, Hashable, CustomStringConvertible {
    /// The number.
    public let decimal: Decimal
    /// How many digits follow the point when the number is written (at least the number's own).
    public let scale: Int

    /// The largest scale kept: beyond `Decimal`'s 38 significant digits a zero says nothing.
    public static let maximumScale = 38

    /// `decimal` with `scale` digits after the point, or with its own when those are more.
    public init(_ decimal: Decimal, scale: Int = 0) {
        self.decimal = decimal
        self.scale = min(Self.maximumScale, max(scale, Self.ownScale(of: decimal)))
    }

    /// Reads a decimal number written in the `C` locale (`12.50`, `-0.5`, `1.25e3`), keeping its
    /// digits after the point; `nil` when the text is not a number.
    public init?(string: some StringProtocol) {
        let text = String(string)
        guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
        self.init(decimal, scale: Self.writtenScale(of: text))
    }

    /// Whether this is "not a number" (what `Decimal` gives for some failed arithmetic).
    public var isNaN: Bool { decimal.isNaN }

    /// The number in plain notation with exactly ``scale`` digits after the point.
    public var description: String {
        let plain = decimal.description
        guard !decimal.isNaN else { return plain }
        let own = plain.firstIndex(of: ".").map { plain.distance(from: $0, to: plain.endIndex) - 1 } ?? 0
        guard scale > own else { return plain }
        return plain + (own == 0 ? "." : "") + String(repeating: "0", count: scale - own)
    }

    /// The digits after the point `decimal`'s own plain text has.
    private static func ownScale(of decimal: Decimal) -> Int {
        decimal.isNaN || decimal.isZero ? 0 : max(0, -decimal.exponent)
    }

    /// The digits after the point that `text` writes: those after its `.`, less an exponent's
    /// (`1.250e1` writes 12.50).
    private static func writtenScale(of text: String) -> Int {
        let lower = text.lowercased()
        let mantissa = lower.split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
        let fraction = mantissa[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits = fraction.count == 2 ? fraction[1].filter(\.isNumber).count : 0
        let exponent = mantissa.count == 2 ? Int(mantissa[1]) ?? 0 : 0
        return max(0, digits - exponent)
    }
}
