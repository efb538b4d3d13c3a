import Foundation
@_spi(Testing) @testable import QuarryBrowser
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

/// Dates are shown, and typed, in local time.
struct ValueTextLocalTimeTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    @Test func datesAreShownInTheGivenZone() {
        let instant = Date(timeIntervalSince1970: 1_522_434_146)   // 2018-03-30 18:22:26 UTC
        #expect(ValueText.formatDate(instant, in: TimeZone(identifier: "UTC")!) == "2018-03-30 18:22:26")
        #expect(ValueText.formatDate(instant, in: berlin) == "2018-03-30 20:22:26")   // summer time
        #expect(ValueText.formatDate(Date(timeIntervalSince1970: 1_514_764_801), in: berlin) == "2018-01-01 01:00:01")
        // Exactly a UTC midnight is a date-only value: its calendar date in every zone (issue 34, item 2).
        #expect(ValueText.formatDate(Date(timeIntervalSince1970: 1_514_764_800), in: berlin) == "2018-01-01")
    }

    @Test func typedDatesAreReadInTheGivenZoneAndRoundTrip() {
        #expect(ValueText.parseDate("2018-03-30 20:22:26", in: berlin) == Date(timeIntervalSince1970: 1_522_434_146))
        #expect(ValueText.parseDate("2018-01-01 00:00", in: berlin) == Date(timeIntervalSince1970: 1_514_761_200))
        // A date without a time is that calendar date, whatever the zone (issue 34, item 2).
        #expect(ValueText.parseDate("2018-01-01", in: berlin) == Date(timeIntervalSince1970: 1_514_764_800))
        // 02:30 on the morning clocks went forward does not exist in Berlin.
        #expect(ValueText.parseDate("2018-03-25 02:30:00", in: berlin) == nil)
        #expect(ValueText.parseDate("2018-03-25 02:30:00", in: TimeZone(identifier: "UTC")!) != nil)
    }
}
