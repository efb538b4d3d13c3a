import Testing
@testable import Quarry

@Suite("Property masks")
struct PropertyMaskTests {
    @Test("lowBits: the first 64 properties as bits, every bit once a higher one is in")
    func lowBits() {
        var mask = PropertyMask()
        #expect(mask.lowBits == 0)
        mask.insert(0)
        mask.insert(5)
        #expect(mask.lowBits == 0b100001)
        mask.insert(63)
        #expect(mask.lowBits == 0b100001 | UInt64(1) << 63)
        // A property past 63 cannot be told apart in one word: report everything changed.
        mask.insert(64)
        #expect(mask.lowBits == .max)
        var high = PropertyMask()
        high.insert(70)
        #expect(high.lowBits == .max)
    }
}
