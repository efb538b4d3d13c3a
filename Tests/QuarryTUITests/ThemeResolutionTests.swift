import Foundation
import Testing
@testable import QuarryTUI

/// Finding the theme the user asked for, and falling back to the default when it is unusable.
@Suite struct ThemeResolutionTests {
    @Test func noNameAndNoFilesGivesTheBuiltInDefault() {
        let resolution = ThemeLoader.resolve(name: nil, environment: [:], searchDirectories: [])
        #expect(resolution.theme == .builtInDefault)
        #expect(resolution.problem == nil)
    }

    @Test func commandLineNameWinsOverEnvironment() throws {
        let scratch = try ThemeScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("flag.toml", "[row]\nfg = \"red\"\n")
        try scratch.write("env.toml", "[row]\nfg = \"green\"\n")
        let fromFlag = ThemeLoader.resolve(name: "flag", environment: ["QUARRY_THEME": "env"], searchDirectories: [scratch.url])
        #expect(fromFlag.theme.name == "flag")
        let fromEnvironment = ThemeLoader.resolve(name: nil, environment: ["QUARRY_THEME": "env"], searchDirectories: [scratch.url])
        #expect(fromEnvironment.theme.name == "env")
        #expect(fromEnvironment.theme[.row].foreground == .ansi(2))
    }

    @Test func earlierSearchDirectoryWins() throws {
        let user = try ThemeScratchDirectory()
        let shipped = try ThemeScratchDirectory()
        defer { user.remove(); shipped.remove() }
        try user.write("mine.toml", "[row]\nfg = \"red\"\n")
        try shipped.write("mine.toml", "[row]\nfg = \"blue\"\n")
        let resolution = ThemeLoader.resolve(name: "mine", environment: [:], searchDirectories: [user.url, shipped.url])
        #expect(resolution.theme[.row].foreground == .ansi(1))
    }

    @Test func defaultFileInASearchDirectoryOverridesTheBuiltIn() throws {
        let scratch = try ThemeScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("default.toml", "[row]\nbg = \"black\"\n")
        let resolution = ThemeLoader.resolve(name: "default", environment: [:], searchDirectories: [scratch.url])
        #expect(resolution.problem == nil)
        #expect(resolution.theme[.row].background == .ansi(0))
    }

    @Test func missingThemeFallsBackWithAProblem() {
        let resolution = ThemeLoader.resolve(name: "nope", environment: [:], searchDirectories: [])
        #expect(resolution.theme == .builtInDefault)
        #expect(resolution.problem?.message.contains("no theme named 'nope'") == true)
    }

    @Test func nameWithSlashOrTomlIsAPath() throws {
        let scratch = try ThemeScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.write("sub/odd name.toml", "[cursor]\nattrs = [\"reverse\"]\n")
        let resolution = ThemeLoader.resolve(name: file.path, environment: [:], searchDirectories: [])
        #expect(resolution.problem == nil)
        #expect(resolution.theme.name == "odd name")
        #expect(resolution.theme[.cursor].attributes == .reverse)
        let missing = ThemeLoader.resolve(name: scratch.url.path + "/gone.toml", environment: [:], searchDirectories: [])
        #expect(missing.theme == .builtInDefault)
        #expect(missing.problem?.message == "no such theme file")
        #expect(missing.problem?.file.hasSuffix("gone.toml") == true)
    }

    @Test func malformedThemeFallsBackNamingFileLineAndKey() throws {
        let scratch = try ThemeScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("bad.toml", "[header]\nfg = \"white\"\n\n[cursor]\nfg = \"blurple\"\n")
        let resolution = ThemeLoader.resolve(name: "bad", environment: [:], searchDirectories: [scratch.url])
        #expect(resolution.theme == .builtInDefault)
        let problem = try #require(resolution.problem)
        #expect(problem.file.hasSuffix("bad.toml"))
        #expect(problem.line == 5)
        #expect(problem.key == "cursor.fg")
        #expect(problem.description.hasSuffix("bad.toml:5: key 'cursor.fg': unknown colour 'blurple' (use a name like bright-blue or default, an index 0–255, \"color123\" or \"#rrggbb\")"))
    }

    @Test func inheritanceChainsAcrossDirectories() throws {
        let user = try ThemeScratchDirectory()
        let shipped = try ThemeScratchDirectory()
        defer { user.remove(); shipped.remove() }
        try user.write("mine.toml", "inherits = \"middle\"\n[row]\nfg = \"red\"\n")
        try shipped.write("middle.toml", "inherits = \"base\"\n[row]\nbg = \"blue\"\n[help]\nfg = \"cyan\"\n")
        try shipped.write("base.toml", "inherits = \"default\"\n[row]\nattrs = [\"dim\"]\n[help]\nbg = \"black\"\n")
        let resolution = ThemeLoader.resolve(name: "mine", environment: [:], searchDirectories: [user.url, shipped.url])
        #expect(resolution.problem == nil)
        #expect(resolution.theme[.row] == CellStyle(foreground: .ansi(1), background: .ansi(4), attributes: [.dim]))
        #expect(resolution.theme[.help] == CellStyle(foreground: .ansi(6), background: .ansi(0)))
        #expect(resolution.theme[.header] == Theme.builtInDefault[.header])
    }

    @Test func inheritanceCycleIsAnError() throws {
        let scratch = try ThemeScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("a.toml", "inherits = \"b\"\n")
        try scratch.write("b.toml", "# b\ninherits = \"a\"\n")
        let resolution = ThemeLoader.resolve(name: "a", environment: [:], searchDirectories: [scratch.url])
        #expect(resolution.theme == .builtInDefault)
        let problem = try #require(resolution.problem)
        #expect(problem.file.hasSuffix("b.toml"))
        #expect(problem.line == 2)
        #expect(problem.key == "inherits")
        #expect(problem.message == "inheritance cycle: a → b → a")
    }

    @Test func themeInheritingItselfIsACycle() throws {
        let scratch = try ThemeScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("loop.toml", "inherits = \"loop\"\n")
        let resolution = ThemeLoader.resolve(name: "loop", environment: [:], searchDirectories: [scratch.url])
        #expect(resolution.problem?.message.hasPrefix("inheritance cycle") == true)
    }

    @Test func unknownInheritedThemeFallsBack() throws {
        let scratch = try ThemeScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("orphan.toml", "inherits = \"ghost\"\n")
        let resolution = ThemeLoader.resolve(name: "orphan", environment: [:], searchDirectories: [scratch.url])
        #expect(resolution.theme == .builtInDefault)
        #expect(resolution.problem?.key == "inherits")
        #expect(resolution.problem?.line == 1)
        #expect(resolution.problem?.message.contains("unknown theme 'ghost'") == true)
    }
}
