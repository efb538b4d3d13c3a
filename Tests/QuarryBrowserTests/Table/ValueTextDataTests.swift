import Foundation
@testable import QuarryBrowser
import Testing

/// Binary cells show their size and their first bytes in hex.
struct ValueTextDataTests {
    @Test func sizeThenHexOfTheFirstSixteenBytes() {
        #expect(ValueText.format(.data(Data())) == "0 bytes")
        #expect(ValueText.format(.data(Data([0xff]))) == "1 byte ff")
        #expect(ValueText.format(.data(Data([0, 1, 2, 3]))) == "4 bytes 00010203")
        let long = Data((0..<300).map { UInt8($0 % 256) })
        #expect(ValueText.format(.data(long)) == "300 bytes 000102030405060708090a0b0c0d0e0f…")
    }
}
