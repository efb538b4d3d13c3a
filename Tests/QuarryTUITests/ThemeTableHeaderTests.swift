import Foundation
import QuarryTUI
import Testing

/// Found by the theme fuzz target (scripts/fuzz.sh): a table header whose name starts with a
/// character that is neither a bare-key character nor a quote aborts inside toml++ (a failed
/// assertion in `parse_key()`); the theme loader must refuse it with a ThemeError instead.
struct ThemeTableHeaderTests {
    @Test(.disabled("aborts in toml++ until ThemeLoader.parse refuses such headers (issue 15 CI report; Fuzz/QuarryFuzz/KnownCrashes.swift)"),
          arguments: ["[é]\n", "[!]\n", "[ \u{7F}]\n", "[[é]]\n", "[row]\nforeground = \"red\"\n[\u{FFFD}\u{0F}er]\n"])
    func aTableNameStartingWithAnInvalidCharacterIsRefused(text: String) {
        #expect(throws: ThemeError.self) {
            try ThemeLoader.parse(text, file: "broken.toml") { _ in Theme.builtInDefault }
        }
    }

    /// toml++ fails `!is_value_terminator(*cp)` in `parse_value()` (abort) inside deeply nested
    /// arrays with NUL bytes; the fuzzer's input, as found.
    @Test(.disabled("aborts in toml++ (parse_value assertion) until the theme loader stops handing toml++ such input (issue 15 CI report)"))
    func aMalformedNestedArrayIsRefused() throws {
        let data = try #require(Data(base64Encoded: "IyD/////////////////+P//82h0Igppbmhncml0cyA9W1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW30AAAAAAAAAW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbICJzb2xhEAAAAAAAAAByaXplZC0/YjgzIiAgICAgICAgICAgIyBiYSMAAAAAAAAAc2UwADA="))
        #expect(throws: ThemeError.self) {
            try ThemeLoader.parse(String(decoding: data, as: UTF8.self), file: "broken.toml") { _ in Theme.builtInDefault }
        }
    }
}
