import Testing
@testable import CursesBackend

@Suite("Colour pairs allocated on demand")
struct ColorPairTableTests {
    @Test("default on default is pair 0 and never allocated")
    func defaultPair() {
        var table = ColorPairTable(pairCount: 4)
        #expect(table.pair(foreground: -1, background: -1) == .existing(0))
        #expect(table.count == 0)
    }

    @Test("a new combination gets the next number, a known one its number again")
    func allocation() {
        var table = ColorPairTable(pairCount: 4)
        #expect(table.pair(foreground: 1, background: -1) == .new(1))
        #expect(table.pair(foreground: 2, background: 0) == .new(2))
        #expect(table.pair(foreground: 1, background: -1) == .existing(1))
        #expect(table.count == 2)
    }

    @Test("a full table says so, and numbers start again after reset")
    func fullAndReset() {
        var table = ColorPairTable(pairCount: 3)
        #expect(table.pair(foreground: 1, background: 0) == .new(1))
        #expect(table.pair(foreground: 2, background: 0) == .new(2))
        #expect(table.pair(foreground: 3, background: 0) == .full)
        #expect(table.pair(foreground: 2, background: 0) == .existing(2))
        table.reset()
        #expect(table.count == 0)
        #expect(table.pair(foreground: 3, background: 0) == .new(1))
    }

    @Test("more than 32767 pairs are handed out (extended pairs)")
    func extendedPairs() {
        var table = ColorPairTable(pairCount: 65_536)
        var last = ColorPairTable.Allocation.full
        for index in 0..<40_000 { last = table.pair(foreground: Int32(index % 256), background: Int32(index / 256)) }
        #expect(last == .new(40_000))
    }
}
