import Foundation
import Testing
@testable import QuarryTUI

/// Finding the theme the user asked for, and falling back to the default when it is unusable.
@Suite struct ThemeResolutionTests {
    /// Resolves `name` with one fresh search directory per element of `directories`, each holding
    /// the given files (name → TOML text), in that order.
    private func resolve(_ name: String?, environment: [String: String] = [:], in directories: [[String: String]]) throws -> ThemeResolution {
        let scratches = try directories.map { files in
            let scratch = try ThemeScratchDirectory()
            for (file, text) in files { try scratch.write(file, text) }
            return scratch
        }
        defer { scratches.forEach { $0.remove() } }
        return ThemeLoader.resolve(name: name, environment: environment, searchDirectories: scratches.map(\.url))
    }
    @Test func noNameAndNoFilesGivesTheBuiltInDefault() {
        let resolution = ThemeLoader.resolve(name: nil, environment: [:], searchDirectories: [])
        #expect(resolution.theme == .builtInDefault)
        #expect(resolution.problem == nil)
    }

    @Test func commandLineNameWinsOverEnvironment() throws {
        let files = ["flag.toml": "[row]\nfg = \"red\"\n", "env.toml": "[row]\nfg = \"green\"\n"]
        let fromFlag = try resolve("flag", environment: ["QUARRY_THEME": "env"], in: [files])
        #expect(fromFlag.theme.name == "flag")
        let fromEnvironment = try resolve(nil, environment: ["QUARRY_THEME": "env"], in: [files])
        #expect(fromEnvironment.theme.name == "env")
        #expect(fromEnvironment.theme[.row].foreground == .ansi(2))
    }

    @Test func earlierSearchDirectoryWins() throws {
        let resolution = try resolve("mine", in: [["mine.toml": "[row]\nfg = \"red\"\n"], ["mine.toml": "[row]\nfg = \"blue\"\n"]])
        #expect(resolution.theme[.row].foreground == .ansi(1))
    }

    @Test func defaultFileInASearchDirectoryOverridesTheBuiltIn() throws {
        let resolution = try resolve("default", in: [["default.toml": "[row]\nbg = \"black\"\n"]])
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
        let resolution = try resolve("bad", in: [["bad.toml": "[header]\nfg = \"white\"\n\n[cursor]\nfg = \"blurple\"\n"]])
        #expect(resolution.theme == .builtInDefault)
        let problem = try #require(resolution.problem)
        #expect(problem.file.hasSuffix("bad.toml"))
        #expect(problem.line == 5)
        #expect(problem.key == "cursor.fg")
        #expect(problem.description.hasSuffix("bad.toml:5: key 'cursor.fg': unknown colour 'blurple' (use a name like bright-blue or default, an index 0–255, \"color123\" or \"#rrggbb\")"))
    }

    @Test func inheritanceChainsAcrossDirectories() throws {
        let resolution = try resolve("mine", in: [
            ["mine.toml": "inherits = \"middle\"\n[row]\nfg = \"red\"\n"],
            [
                "middle.toml": "inherits = \"base\"\n[row]\nbg = \"blue\"\n[help]\nfg = \"cyan\"\n",
                "base.toml": "inherits = \"default\"\n[row]\nattrs = [\"dim\"]\n[help]\nbg = \"black\"\n",
            ],
        ])
        #expect(resolution.problem == nil)
        #expect(resolution.theme[.row] == CellStyle(foreground: .ansi(1), background: .ansi(4), attributes: [.dim]))
        #expect(resolution.theme[.help] == CellStyle(foreground: .ansi(6), background: .ansi(0)))
        #expect(resolution.theme[.header] == Theme.builtInDefault[.header])
    }

    @Test func inheritanceCycleIsAnError() throws {
        let resolution = try resolve("a", in: [["a.toml": "inherits = \"b\"\n", "b.toml": "# b\ninherits = \"a\"\n"]])
        #expect(resolution.theme == .builtInDefault)
        let problem = try #require(resolution.problem)
        #expect(problem.file.hasSuffix("b.toml"))
        #expect(problem.line == 2)
        #expect(problem.key == "inherits")
        #expect(problem.message == "inheritance cycle: a → b → a")
    }

    @Test func themeInheritingItselfIsACycle() throws {
        let resolution = try resolve("loop", in: [["loop.toml": "inherits = \"loop\"\n"]])
        #expect(resolution.problem?.message.hasPrefix("inheritance cycle") == true)
    }

    @Test func unknownInheritedThemeFallsBack() throws {
        let resolution = try resolve("orphan", in: [["orphan.toml": "inherits = \"ghost\"\n"]])
        #expect(resolution.theme == .builtInDefault)
        #expect(resolution.problem?.key == "inherits")
        #expect(resolution.problem?.line == 1)
        #expect(resolution.problem?.message.contains("unknown theme 'ghost'") == true)
    }
}
