import Foundation

/// Numbers as decimal text, the way C's `printf` writes them in the `C` locale (`%0Nd`,
/// `%.Nf`), without Foundation's `String(format:)`.
///
/// `String(format:)` parses its format at every call and sets itself up on the first one;
/// the browser formats every visible price and date of its first screen, where that set-up
/// was a quarter of drawing the first frame. These are locale-independent as
/// `String(format:)` is (the browser sets the user's locale for curses, so the C library's
/// own `snprintf` would write a decimal comma in some locales).
package enum DecimalText {
    /// `value` in decimal, zero-padded to `width` characters, a minus sign counting as one
    /// (`printf("%0*d", width, value)`).
    package static func zeroPadded(_ value: some BinaryInteger, width: Int) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - sign.count - digits.count)) + digits
    }

    /// `value` with exactly `decimals` digits after the point (0...9), rounded as
    /// `printf("%.*f", decimals, value)` rounds: the double's exact binary value to the
    /// nearest, a tie to the even last digit. A negative value keeps its sign even when it
    /// rounds to zero (`-0.00`), as `printf` does.
    ///
    /// Exact through 128-bit integers for magnitudes below 2⁶³; larger values (whole numbers
    /// of up to 309 digits) and non-finite ones are left to `String(format:)`.
    package static func fixed(_ value: Double, decimals: Int) -> String {
        precondition((0...9).contains(decimals), "0 to 9 decimals")
        guard value.isFinite, value.magnitude < 0x1p63 else { return String(format: "%.*f", decimals, value) }
        let scale = UInt128(powersOfTen[decimals])
        let magnitude = value.magnitude
        // magnitude = significand × 2^exponent exactly, significand < 2⁵³.
        let significand = UInt128(magnitude.significandBitPattern | (magnitude.isNormal ? 1 << 52 : 0))
        let exponent = magnitude.isNormal ? Int(magnitude.exponent) - 52 : -1074
        var scaled: UInt128  // magnitude × 10^decimals, rounded to the nearest, ties to even
        if exponent >= 0 {
            scaled = (significand << UInt128(exponent)) * scale  // < 2⁶³ · 10⁹ < 2⁹³
        } else {
            let product = significand * scale  // < 2⁵³ · 10⁹ < 2⁸³
            let shift = -exponent
            if shift > 100 {
                scaled = 0  // product < 2⁸³ ≤ half of 2¹⁰⁰: rounds to zero
            } else {
                scaled = product >> UInt128(shift)
                let remainder = product & ((1 << UInt128(shift)) - 1)
                let half = UInt128(1) << UInt128(shift - 1)
                if remainder > half || (remainder == half && scaled & 1 == 1) { scaled += 1 }
            }
        }
        let whole = String(scaled / scale)
        let sign = value.sign == .minus ? "-" : ""
        guard decimals > 0 else { return sign + whole }
        return sign + whole + "." + zeroPadded(scaled % scale, width: decimals)
    }

    private static let powersOfTen: [UInt64] = (0...9).map { n in (0..<n).reduce(1) { p, _ in p * 10 } }
}
