import Foundation
import QuarryTUI
import Testing

/// Found by the theme fuzz target (scripts/fuzz.sh): a table header whose name starts with a
/// character that is neither a bare-key character nor a quote aborts inside toml++ (a failed
/// assertion in `parse_key()`); the theme loader must refuse it with a ThemeError instead.
struct ThemeTableHeaderTests {
    @Test(arguments: ["[é]\n", "[!]\n", "[ \u{7F}]\n", "[[é]]\n", "[row]\nforeground = \"red\"\n[\u{FFFD}\u{0F}er]\n",
                      "\u{FEFF}[\u{FFFD}\u{FFFD}"])
    func aTableNameStartingWithAnInvalidCharacterIsRefused(text: String) {
        #expect(throws: ThemeError.self) {
            try ThemeLoader.parse(text, file: "broken.toml") { _ in Theme.builtInDefault }
        }
    }

    /// toml++ fails `!is_value_terminator(*cp)` in `parse_value()` (abort) inside deeply nested
    /// arrays with NUL bytes; the fuzzer's input, as found.
    @Test
    func aMalformedNestedArrayIsRefused() throws {
        let data = try #require(Data(base64Encoded: "IyD/////////////////+P//82h0Igppbmhncml0cyA9W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW30AAAAAAAAAW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbICJzb2xhEAAAAAAAAAByaXplZC0/YjgzIiAgICAgICAgICAgIyBiYSMAAAAAAAAAc2UwADA="))
        #expect(throws: ThemeError.self) {
            try ThemeLoader.parse(String(decoding: data, as: UTF8.self), file: "broken.toml") { _ in Theme.builtInDefault }
        }
    }
}

/// The precheck refuses only what TOML refuses (and absurd nesting); ordinary themes pass.
struct ThemeSourcePrecheckTests {
    @Test func aMultiLineArrayMayStartALineWithABracket() throws {
        let text = "[header]\nattrs = [\n  \"bold\",\n  \"underline\"\n]\n# [not a header\n[row]\nfg = \"red\"\n"
        let theme = try ThemeLoader.parse(text, file: "multi.toml") { _ in Theme.builtInDefault }
        #expect(theme[.header].attributes.contains(.bold))
    }

    @Test func controlCharactersAreNamedWithTheirLine() {
        #expect(throws: ThemeError(file: "c.toml", line: 2, message: "control character U+0001 is not allowed in TOML")) {
            try ThemeLoader.parse("[row]\nfg = \"r\u{01}ed\"\n", file: "c.toml") { _ in Theme.builtInDefault }
        }
    }

    /// Found by the theme fuzz target with toml++'s assertions on: a `}` where an array expects a
    /// value aborted the process (`parse_value`: `!is_value_terminator(*cp)`).
    @Test(arguments: ["attrs = [}\n", "attrs = [ }\n", "attrs = {b=[}\n", "attrs = [[}]]\n", "attrs = [\n}\n]\n",
                      "attrs = [ # c\n}\n", "attrs = [}}}}}}}}\"bold\"]\n", "attrs = ]\n"])
    func aBracketClosedByTheWrongKindIsRefused(line: String) {
        #expect(throws: ThemeError.self) {
            try ThemeLoader.parse("[header]\n" + line, file: "brackets.toml") { _ in Theme.builtInDefault }
        }
    }

    @Test func deepNestingIsRefused() {
        let text = "[row]\nattrs = " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "\n"
        #expect(throws: ThemeError.self) {
            try ThemeLoader.parse(text, file: "deep.toml") { _ in Theme.builtInDefault }
        }
    }
}
