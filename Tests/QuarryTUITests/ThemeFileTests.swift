import Foundation
import Testing
@testable import QuarryTUI

/// The theme files shipped in `Themes/`.
@Suite struct ThemeFileTests {
    static let shippedThemes = ["default", "light", "solarized-dark", "solarized-light", "high-contrast"]

    @Test func defaultFileIsExactlyTheCompiledInTheme() throws {
        let theme = try ThemeLoader.load(contentsOf: repositoryThemesDirectory.appendingPathComponent("default.toml"))
        #expect(theme == Theme.builtInDefault)
    }

    @Test func builtInDefaultStylesEverySlotAndUsesTheTerminalBackgroundForRows() {
        #expect(Set(Theme.builtInDefault.styles.keys) == Set(ThemeSlot.allCases))
        #expect(Theme.builtInDefault[.row].background == .default)
        #expect(Theme.builtInDefault[.alternateRow].background == .default)
    }

    @Test(arguments: shippedThemes)
    func shippedThemeResolvesWithoutProblems(name: String) {
        let resolution = ThemeLoader.resolve(name: name, environment: [:], searchDirectories: [repositoryThemesDirectory])
        #expect(resolution.problem == nil)
        #expect(resolution.theme.name == name)
        #expect(Set(resolution.theme.styles.keys) == Set(ThemeSlot.allCases))
    }

    @Test(arguments: shippedThemes.filter { $0 != "default" })
    func shippedThemeSetsEverySlotItselfOrThroughInheritance(name: String) throws {
        let theme = try ThemeLoader.load(contentsOf: repositoryThemesDirectory.appendingPathComponent("\(name).toml"))
        // The cursor must differ from the rows it moves over.
        #expect(theme[.cursor] != theme[.row])
        #expect(theme[.cursor] != theme[.alternateRow])
    }

    @Test func lightInheritsTheSlotsItDoesNotSetFromDefault() throws {
        let light = try ThemeLoader.load(contentsOf: repositoryThemesDirectory.appendingPathComponent("light.toml"))
        #expect(light[.error] == Theme.builtInDefault[.error])
        #expect(light[.header] == CellStyle(foreground: .ansi(7), background: .indexed(24), attributes: [.bold]))
        #expect(light[.alternateRow] == CellStyle(background: .indexed(255)))
    }

    @Test func solarizedLightChainsThroughSolarizedDark() throws {
        let dark = try ThemeLoader.load(contentsOf: repositoryThemesDirectory.appendingPathComponent("solarized-dark.toml"))
        let light = try ThemeLoader.load(contentsOf: repositoryThemesDirectory.appendingPathComponent("solarized-light.toml"))
        #expect(light[.header] == dark[.header])
        #expect(light[.cursor] == CellStyle(foreground: .rgb(0xFD, 0xF6, 0xE3), background: .rgb(0x2A, 0xA1, 0x98), attributes: [.bold]))
        #expect(light[.row] == CellStyle(foreground: .rgb(0x65, 0x7B, 0x83), background: .rgb(0xFD, 0xF6, 0xE3)))
    }
}
