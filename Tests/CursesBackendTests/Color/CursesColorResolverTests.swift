import QuarryTUI
import Testing
@testable import CursesBackend

@Suite("Terminal colours to curses colour numbers")
struct CursesColorResolverTests {
    private let palette256 = CursesColorResolver(terminalColors: 256, usesColor: true, supportsDefaultColors: true)
    private let ansi8 = CursesColorResolver(terminalColors: 8, usesColor: true, supportsDefaultColors: true)
    private let direct = CursesColorResolver(terminalColors: 1 << 24, usesColor: true, supportsDefaultColors: true)

    @Test("default is -1, or white on black without default-colour support")
    func defaultColor() {
        #expect(palette256.number(for: .default, isForeground: true) == -1)
        let noDefault = CursesColorResolver(terminalColors: 256, usesColor: true, supportsDefaultColors: false)
        #expect(noDefault.number(for: .default, isForeground: true) == 7)
        #expect(noDefault.number(for: .default, isForeground: false) == 0)
    }

    @Test("palette colours pass through when the terminal has them")
    func palettePassThrough() {
        #expect(palette256.number(for: .ansi(9), isForeground: true) == 9)
        #expect(palette256.number(for: .indexed(208), isForeground: true) == 208)
    }

    @Test("24-bit colours become the nearest 256-palette entry without direct colour")
    func rgbSafetyNet() {
        #expect(palette256.number(for: .rgb(255, 0, 0), isForeground: true) == 196)
        #expect(ansi8.number(for: .rgb(250, 10, 10), isForeground: true) == 1)
    }

    @Test("on 8-colour terminals bright and indexed colours fold onto the eight")
    func eightColors() {
        #expect(ansi8.number(for: .ansi(9), isForeground: true) == 1)
        #expect(ansi8.number(for: .indexed(196), isForeground: true) == 1)
    }

    @Test("direct colour passes RGB through and keeps only ANSI 0-7 as palette numbers")
    func directColor() {
        #expect(direct.isDirectColor)
        #expect(direct.number(for: .rgb(0x12, 0x34, 0x56), isForeground: true) == 0x123456)
        #expect(direct.number(for: .ansi(3), isForeground: true) == 3)
        #expect(direct.number(for: .indexed(196), isForeground: true) == 0xFF0000)
        #expect(direct.number(for: .rgb(0, 0, 1), isForeground: true) == 8)
    }

    @Test("without colour everything is the terminal's own")
    func noColor() {
        let none = CursesColorResolver(terminalColors: 256, usesColor: false, supportsDefaultColors: true)
        #expect(none.number(for: .rgb(1, 2, 3), isForeground: true) == -1)
        #expect(none.number(for: .ansi(1), isForeground: false) == -1)
    }
}
