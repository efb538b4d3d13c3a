import QuarryTUI
import Testing

@Suite("Colour capability from the environment and terminfo")
struct ColorCapabilityDetectionTests {
    private func detect(_ environment: [String: String], colors: Int = 256) -> ColorCapability {
        ColorCapability.detect(environment: environment, terminalColors: colors)
    }

    @Test("NO_COLOR turns colour off, whatever else is set")
    func noColor() {
        #expect(detect(["NO_COLOR": "1", "COLORTERM": "truecolor"]) == .none)
        #expect(detect(["NO_COLOR": "anything"], colors: 16_777_216) == .none)
    }

    @Test("an empty NO_COLOR is not set")
    func emptyNoColor() {
        #expect(detect(["NO_COLOR": ""]) == .indexed256)
    }

    @Test("COLORTERM truecolor or 24bit asks for 24-bit colour", arguments: ["truecolor", "24bit", "TrueColor"])
    func colorTerm(value: String) {
        #expect(detect(["COLORTERM": value]) == .truecolor)
        #expect(detect(["COLORTERM": value], colors: 8) == .truecolor)
    }

    @Test("otherwise the terminfo colour count decides")
    func terminfoCount() {
        #expect(detect([:], colors: 16_777_216) == .truecolor)
        #expect(detect([:], colors: 256) == .indexed256)
        #expect(detect([:], colors: 88) == .ansi16)
        #expect(detect([:], colors: 16) == .ansi16)
        #expect(detect([:], colors: 8) == .ansi16)
        #expect(detect(["COLORTERM": "yes"], colors: 8) == .ansi16)
    }

    @Test("a terminal without colours gets none, even with COLORTERM")
    func monochrome() {
        #expect(detect([:], colors: 0) == .none)
        #expect(detect([:], colors: 2) == .none)
        #expect(detect(["COLORTERM": "truecolor"], colors: 0) == .none)
    }
}
