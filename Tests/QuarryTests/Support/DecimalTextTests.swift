import Foundation
@testable import Quarry
import QuarryDemo
import Testing

/// `DecimalText` writes what `String(format:)` writes for `%0Nd` and `%.Nf`, byte for byte.
struct DecimalTextTests {
    /// Values whose rounding is easy to get wrong: exact ties (ties go to the even digit),
    /// near-ties whose binary value falls on either side, carries into the whole part,
    /// subnormals, signed zeros, negatives that round to zero, the edges of the exact range.
    static let edgeCases: [Double] = [
        0, -0.0, 0.125, 0.375, 0.625, 2.5, 3.5, -0.125, 1.005, 2.675, 1.115, 0.045, 9.995, 99.995, 0.999999,
        -0.001, -0.004, -0.005, 1e-7, 5e-7, 1.5e-6, 0.0000005, 123456.789, 1e15 - 0.5, 4503599627370495.5,
        9.2e18, 0x1p63.nextDown, 1e-310, Double.leastNonzeroMagnitude, -Double.leastNormalMagnitude,
        10.01, 10.99, 19.999, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3,
    ]

    @Test(arguments: [0, 1, 2, 6, 9])
    func edgeCasesAsPrintfWritesThem(decimals: Int) {
        for value in Self.edgeCases {
            #expect(DecimalText.fixed(value, decimals: decimals) == String(format: "%.*f", decimals, value), "\(value)")
        }
    }

    /// Seeded random doubles of every scale, and random prices with two decimals (whose binary
    /// values lie just above or below the tie of `%.2f`'s and `%.6f`'s last digit).
    @Test func randomValuesAsPrintfWritesThem() {
        var generator = SplitMix64(seed: 0xDEC1_3A1)
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            let bits = UInt64.random(in: 0...UInt64.max, using: &generator)
            let any = Double(bitPattern: bits)
            let price = Double(Int.random(in: -10_000_000...10_000_000, using: &generator)) / 1000
            let scaled = Double.random(in: -1...1, using: &generator) * pow(10, Double(Int.random(in: -8...18, using: &generator)))
            for value in [any, price, scaled] where value.isFinite {
                for decimals in [2, 6] where DecimalText.fixed(value, decimals: decimals) != String(format: "%.*f", decimals, value) {
                    mismatches.append("\(value) %.\(decimals)f")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test func zeroPaddingCountsTheSign() {
        for (value, width) in [(0, 4), (7, 2), (42, 2), (123, 2), (-5, 4), (-12345, 4), (2026, 4), (Int.min, 4)] {
            #expect(DecimalText.zeroPadded(value, width: width) == String(format: "%0*ld", width, value), "\(value) \(width)")
        }
    }
}
