import Testing
@testable import CursesBackend

@Suite("Nearest xterm palette colour")
struct XtermPaletteTests {
    @Test("colours on the cube map to their exact entry")
    func exactCubeColors() {
        #expect(XtermPalette.nearestIndex256(red: 0, green: 0, blue: 0) == 16)
        #expect(XtermPalette.nearestIndex256(red: 255, green: 255, blue: 255) == 231)
        #expect(XtermPalette.nearestIndex256(red: 255, green: 0, blue: 0) == 196)
        #expect(XtermPalette.nearestIndex256(red: 95, green: 135, blue: 0) == 64)
        #expect(XtermPalette.nearestIndex256(red: 0, green: 95, blue: 0) == 22)
    }

    @Test("greys map to the grey ramp")
    func greys() {
        #expect(XtermPalette.nearestIndex256(red: 128, green: 128, blue: 128) == 244)
        #expect(XtermPalette.nearestIndex256(red: 8, green: 8, blue: 8) == 232)
        #expect(XtermPalette.nearestIndex256(red: 238, green: 238, blue: 238) == 255)
        #expect(XtermPalette.nearestIndex256(red: 30, green: 30, blue: 31) == 234)
    }

    @Test("colours between cube levels go to the nearest level")
    func inBetween() {
        // 250,128,114 (salmon): red 255, green 135, blue 95 → 16 + 36·5 + 6·2 + 1.
        #expect(XtermPalette.nearestIndex256(red: 250, green: 128, blue: 114) == 209)
        // 40,44,52 (a dark editor background) is nearer the grey ramp than the cube's black.
        #expect(XtermPalette.nearestIndex256(red: 40, green: 44, blue: 52) == 236)
    }

    @Test("every palette entry from 16 maps back to itself")
    func roundTrip() {
        for index in UInt8(16)...UInt8(255) {
            let (red, green, blue) = XtermPalette.rgb(of: index)
            let nearest = XtermPalette.nearestIndex256(red: red, green: green, blue: blue)
            let found = XtermPalette.rgb(of: nearest)
            #expect([found.0, found.1, found.2] == [red, green, blue], "index \(index)")
        }
    }

    @Test("RGB to the 16 ANSI colours")
    func ansi16() {
        #expect(XtermPalette.nearestANSI16(red: 250, green: 10, blue: 10) == 9)
        #expect(XtermPalette.nearestANSI16(red: 190, green: 0, blue: 0) == 1)
        #expect(XtermPalette.nearestANSI16(red: 0, green: 0, blue: 0) == 0)
        #expect(XtermPalette.nearestANSI16(red: 250, green: 250, blue: 250) == 15)
    }
}
