import Testing
@testable import CursesBackend

@Suite("Locale for curses")
struct TerminalLocaleTests {
    @Test("a named locale is respected")
    func respected() {
        #expect(TerminalLocale.characterTypeOverride(environment: ["LANG": "en_US.UTF-8"]) == nil)
        #expect(TerminalLocale.characterTypeOverride(environment: ["LC_ALL": "C"]) == nil)
        #expect(TerminalLocale.characterTypeOverride(environment: ["LC_CTYPE": "de_DE.ISO-8859-1"]) == nil)
    }

    @Test("an unconfigured environment gets C.UTF-8")
    func fallback() {
        #expect(TerminalLocale.characterTypeOverride(environment: [:]) == "C.UTF-8")
        #expect(TerminalLocale.characterTypeOverride(environment: ["LANG": ""]) == "C.UTF-8")
    }
}
