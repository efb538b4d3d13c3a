import Testing
@testable import QuarryTUI

/// Detecting what the terminal can show and downgrading themes to it.
@Suite struct ThemeColorAdaptationTests {
    // MARK: detection

    @Test(arguments: [
        (["NO_COLOR": "1", "COLORTERM": "truecolor", "TERM": "xterm-256color"], ColorCapability.none),
        (["NO_COLOR": "", "TERM": "xterm-256color"], .indexed256),
        (["COLORTERM": "truecolor", "TERM": "xterm"], .truecolor),
        (["COLORTERM": "24bit"], .truecolor),
        (["TERM": "screen-256color"], .indexed256),
        (["TERM": "dumb"], .none),
        (["TERM": "xterm"], .ansi16),
        ([:], .ansi16),
    ] as [([String: String], ColorCapability)])
    func detectsCapabilityFromEnvironment(environment: [String: String], expected: ColorCapability) {
        #expect(ColorCapability.detect(environment: environment) == expected)
    }

    // MARK: palette maths

    /// The xterm-256 colour of an index, written out independently of the palette code.
    private func xterm(_ index: Int) -> (Int, Int, Int) {
        if index >= 232 { let v = 8 + 10 * (index - 232); return (v, v, v) }
        let level = { (step: Int) in step == 0 ? 0 : 55 + 40 * step }
        let cube = index - 16
        return (level(cube / 36), level((cube / 6) % 6), level(cube % 6))
    }

    /// Brute force over 16–255 with squared RGB distance, lowest index on ties.
    private func nearestByBruteForce(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
        let distances = (16...255).map { index -> (Int, Int) in
            let (pr, pg, pb) = xterm(index)
            return ((pr - r) * (pr - r) + (pg - g) * (pg - g) + (pb - b) * (pb - b), index)
        }
        return UInt8(distances.min { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }!.1)
    }

    @Test func paletteMatchesTheXtermFormula() {
        for index in 16...255 {
            let rgb = XtermPalette.rgb(ofIndex: UInt8(index))
            let expected = xterm(index)
            #expect((rgb.red, rgb.green, rgb.blue) == expected, "index \(index)")
        }
    }

    @Test func knownRGBToIndexed() {
        #expect(TerminalColor.rgb(0xFF, 0x00, 0x00).adapted(to: .indexed256) == .indexed(196))
        #expect(TerminalColor.rgb(0x80, 0x80, 0x80).adapted(to: .indexed256) == .indexed(244))
        #expect(TerminalColor.rgb(0x00, 0x00, 0x00).adapted(to: .indexed256) == .indexed(16))
        #expect(TerminalColor.rgb(0xFF, 0xFF, 0xFF).adapted(to: .indexed256) == .indexed(231))
        #expect(TerminalColor.rgb(0x00, 0x2B, 0x36).adapted(to: .indexed256) == .indexed(nearestByBruteForce(0x00, 0x2B, 0x36)))
    }

    @Test func rgbToIndexedAgreesWithBruteForceOnAGrid() {
        for r in stride(from: 0, through: 255, by: 17) {
            for g in stride(from: 0, through: 255, by: 51) {
                for b in stride(from: 3, through: 255, by: 28) {
                    let adapted = TerminalColor.rgb(UInt8(r), UInt8(g), UInt8(b)).adapted(to: .indexed256)
                    #expect(adapted == .indexed(nearestByBruteForce(r, g, b)), "\(r),\(g),\(b)")
                }
            }
        }
    }

    @Test func indexedAndRGBToANSI() {
        #expect(TerminalColor.indexed(196).adapted(to: .ansi16) == .ansi(9))
        #expect(TerminalColor.indexed(3).adapted(to: .ansi16) == .ansi(3))
        #expect(TerminalColor.indexed(232).adapted(to: .ansi16) == .ansi(0))
        #expect(TerminalColor.indexed(231).adapted(to: .ansi16) == .ansi(15))
        #expect(TerminalColor.rgb(0x80, 0x80, 0x80).adapted(to: .ansi16) == .ansi(8))
        #expect(TerminalColor.rgb(0x00, 0x00, 0xEE).adapted(to: .ansi16) == .ansi(4))
        #expect(TerminalColor.rgb(0xCD, 0x00, 0x00).adapted(to: .ansi16) == .ansi(1))
    }

    @Test func colourKindsTheTerminalCanShowAreUnchanged() {
        let colors: [TerminalColor] = [.default, .ansi(5), .indexed(100), .rgb(1, 2, 3)]
        #expect(colors.map { $0.adapted(to: .truecolor) } == colors)
        #expect(TerminalColor.indexed(100).adapted(to: .indexed256) == .indexed(100))
        #expect(TerminalColor.ansi(5).adapted(to: .indexed256) == .ansi(5))
        #expect(TerminalColor.ansi(5).adapted(to: .ansi16) == .ansi(5))
        #expect(colors.map { $0.adapted(to: .none) } == [.default, .default, .default, .default])
    }

    // MARK: whole themes

    @Test func withoutColourAttributesStayAndTheCursorGetsReverse() {
        let theme = Theme.builtInDefault.adapted(to: .none)
        for slot in ThemeSlot.allCases {
            #expect(theme[slot].foreground == .default)
            #expect(theme[slot].background == .default)
            #expect(theme[slot].attributes.isSuperset(of: Theme.builtInDefault[slot].attributes))
        }
        #expect(theme[.cursor].attributes.contains(.reverse))
        #expect(theme[.header].attributes == [.bold, .reverse])
        #expect(theme[.row] == .plain)
        #expect(theme[.cursor] != theme[.row])
    }

    @Test func cursorThatAlreadyReversesOrHadNoColourKeepsItsAttributes() {
        let theme = Theme(name: "t", styles: [
            .cursor: CellStyle(foreground: .ansi(1), attributes: [.reverse, .bold]),
            .header: CellStyle(attributes: [.underline]),
        ]).adapted(to: .none)
        #expect(theme[.cursor] == CellStyle(attributes: [.reverse, .bold]))
        #expect(theme[.header] == CellStyle(attributes: [.underline]))
    }

    @Test func solarizedOnA256ColourTerminalUsesOnlyIndexedColours() throws {
        let theme = try ThemeLoader.load(contentsOf: repositoryThemesDirectory.appendingPathComponent("solarized-dark.toml"))
        let adapted = theme.adapted(to: .indexed256)
        for slot in ThemeSlot.allCases {
            for color in [adapted[slot].foreground, adapted[slot].background] {
                guard case .indexed = color else { Issue.record("\(slot): \(color)"); continue }
            }
            #expect(adapted[slot].attributes == theme[slot].attributes)
        }
        let ansi = theme.adapted(to: .ansi16)
        for slot in ThemeSlot.allCases {
            guard case .ansi = ansi[slot].background else { Issue.record("\(slot)"); continue }
        }
    }

    @Test func truecolorLeavesTheThemeAlone() throws {
        let theme = try ThemeLoader.load(contentsOf: repositoryThemesDirectory.appendingPathComponent("solarized-dark.toml"))
        #expect(theme.adapted(to: .truecolor) == theme)
    }
}

@Suite("NO_COLOR keeps live changes visible")
struct NoColorFlashTests {
    @Test("without colour a flashed row is marked bold and underlined, unlike a plain row")
    func flashIsMarkedWithoutColour() {
        let theme = Theme.builtInDefault.adapted(to: .none)
        #expect(theme[.updatedFlash].attributes.contains(.bold))
        #expect(theme[.updatedFlash].attributes.contains(.underline))
        #expect(theme[.updatedFlash] != theme[.row])
    }
}
