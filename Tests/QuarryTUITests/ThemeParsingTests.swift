import Testing
@testable import QuarryTUI

/// Reading theme TOML: colours, attributes, inheritance of slots and keys.
@Suite struct ThemeParsingTests {
    private func parse(_ text: String, inherited: [String: Theme] = [:]) throws -> Theme {
        try ThemeLoader.parse(text, file: "Themes/test.toml") { name in
            guard let theme = inherited[name] else { throw ThemeError(file: "\(name).toml", message: "missing in test") }
            return theme
        }
    }

    @Test func nameComesFromTheFile() throws {
        #expect(try parse("").name == "test")
        #expect(try ThemeLoader.parse("", file: "/x/y/solarized-dark.toml") { _ in .builtInDefault }.name == "solarized-dark")
    }

    @Test func colourForms() throws {
        let theme = try parse("""
            [header]
            fg = "bright-blue"
            bg = "default"
            [row]
            fg = 123
            bg = "color200"
            [cursor]
            fg = "#FF8000"
            bg = "Colour7"
            [status]
            fg = "black"
            bg = "WHITE"
            """)
        #expect(theme[.header] == CellStyle(foreground: .ansi(12), background: .default))
        #expect(theme[.row] == CellStyle(foreground: .indexed(123), background: .indexed(200)))
        #expect(theme[.cursor] == CellStyle(foreground: .rgb(255, 128, 0), background: .indexed(7)))
        #expect(theme[.status] == CellStyle(foreground: .ansi(0), background: .ansi(7)))
    }

    @Test func everyAnsiNameMapsToItsIndex() {
        let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
        for (index, name) in names.enumerated() {
            #expect(TerminalColor(themeName: name) == .ansi(UInt8(index)))
            #expect(TerminalColor(themeName: "bright-\(name)") == .ansi(UInt8(index + 8)))
        }
        for bad in ["blurple", "#12345", "#1234567", "#gg0000", "color256", "color", "color+1", "bright-", ""] {
            #expect(TerminalColor(themeName: bad) == nil, "\(bad)")
        }
    }

    @Test func attributesAndDottedKeys() throws {
        let theme = try parse("""
            cursor.attrs = ["bold", "reverse"]
            error = { fg = "red", attrs = ["underline", "italic", "dim"] }
            """)
        #expect(theme[.cursor] == CellStyle(attributes: [.bold, .reverse]))
        #expect(theme[.error] == CellStyle(foreground: .ansi(1), attributes: [.underline, .italic, .dim]))
    }

    @Test func slotsNotGivenArePlainWithoutInheritance() throws {
        let theme = try parse("[header]\nattrs = [\"bold\"]\n")
        #expect(Set(theme.styles.keys) == Set(ThemeSlot.allCases))
        #expect(theme[.help] == .plain)
    }

    @Test func inheritedSlotsAndKeysFillTheGaps() throws {
        let base = Theme(name: "base", styles: [
            .header: CellStyle(foreground: .ansi(15), background: .ansi(4), attributes: [.bold]),
            .cursor: CellStyle(foreground: .ansi(0), background: .ansi(6), attributes: [.reverse]),
        ])
        let theme = try parse("""
            inherits = "base"
            [cursor]
            bg = "magenta"
            attrs = []
            """, inherited: ["base": base])
        #expect(theme.name == "test")
        #expect(theme[.header] == base[.header])
        #expect(theme[.cursor] == CellStyle(foreground: .ansi(0), background: .ansi(5)))
        #expect(theme[.row] == .plain)
    }

    @Test func commentsAndDescriptionAreIgnored() throws {
        let theme = try parse("""
            # a comment with = and [brackets]
            description = "mine"
            [section]   # trailing comment
            fg = "#b58900"   # yellow
            """)
        #expect(theme[.section] == CellStyle(foreground: .rgb(0xB5, 0x89, 0x00)))
    }
}
