import Testing
@testable import QuarryTUI

@Suite("Nearest xterm palette colour (one palette for themes and the curses backend)")
struct XtermPaletteTests {
    @Test("colours on the cube map to their exact entry")
    func exactCubeColors() {
        #expect(XtermPalette.nearestIndexed(to: .init(0, 0, 0)) == 16)
        #expect(XtermPalette.nearestIndexed(to: .init(255, 255, 255)) == 231)
        #expect(XtermPalette.nearestIndexed(to: .init(255, 0, 0)) == 196)
        #expect(XtermPalette.nearestIndexed(to: .init(95, 135, 0)) == 64)
        #expect(XtermPalette.nearestIndexed(to: .init(0, 95, 0)) == 22)
    }

    @Test("greys map to the grey ramp")
    func greys() {
        #expect(XtermPalette.nearestIndexed(to: .init(128, 128, 128)) == 244)
        #expect(XtermPalette.nearestIndexed(to: .init(8, 8, 8)) == 232)
        #expect(XtermPalette.nearestIndexed(to: .init(238, 238, 238)) == 255)
        #expect(XtermPalette.nearestIndexed(to: .init(30, 30, 31)) == 234)
    }

    @Test("colours between cube levels go to the nearest level")
    func inBetween() {
        // 250,128,114 (salmon): red 255, green 135, blue 95 → 16 + 36·5 + 6·2 + 1.
        #expect(XtermPalette.nearestIndexed(to: .init(250, 128, 114)) == 209)
        // 40,44,52 (a dark editor background) is nearer the grey ramp than the cube's black.
        #expect(XtermPalette.nearestIndexed(to: .init(40, 44, 52)) == 236)
    }

    @Test("every palette entry from 16 maps back to itself")
    func roundTrip() {
        for index in UInt8(16)...UInt8(255) {
            let color = XtermPalette.rgb(ofIndex: index)
            #expect(XtermPalette.rgb(ofIndex: XtermPalette.nearestIndexed(to: color)) == color, "index \(index)")
        }
    }

    @Test("RGB to the 16 ANSI colours")
    func ansi16() {
        #expect(XtermPalette.nearestANSI(to: .init(250, 10, 10)) == 9)
        #expect(XtermPalette.nearestANSI(to: .init(190, 0, 0)) == 1)
        #expect(XtermPalette.nearestANSI(to: .init(0, 0, 0)) == 0)
        #expect(XtermPalette.nearestANSI(to: .init(250, 250, 250)) == 15)
    }
}
