import Foundation
import Testing
@testable import QuarryTUI

/// Where themes are looked for by default.
@Suite struct ThemeSearchDirectoryTests {
    @Test func userDirectoryComesFirstFromXDGConfigHome() {
        let directories = ThemeLoader.defaultSearchDirectories(
            environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/u"], executableURL: nil)
        #expect(directories.first?.path == "/cfg/quarry/themes")
    }

    @Test func userDirectoryFallsBackToDotConfigUnderHome() {
        let directories = ThemeLoader.defaultSearchDirectories(environment: ["HOME": "/home/u"], executableURL: nil)
        #expect(directories.first?.path == "/home/u/.config/quarry/themes")
        #expect(directories.last?.path == FileManager.default.currentDirectoryPath + "/Themes")
    }

    @Test func themesFolderInAnAncestorOfTheExecutableIsSecond() throws {
        let clone = try ThemeScratchDirectory()
        defer { clone.remove() }
        try clone.write("Themes/default.toml", "")
        let executable = try clone.write(".build/x86_64-unknown-linux-gnu/release/quarry", "")
        let directories = ThemeLoader.defaultSearchDirectories(environment: ["HOME": "/home/u"], executableURL: executable)
        #expect(directories.count == 3)
        #expect(directories[1].resolvingSymlinksInPath().path == clone.url.appendingPathComponent("Themes").resolvingSymlinksInPath().path)
    }

    @Test func themesFolderNextToTheExecutableIsPreferredToAnAncestors() throws {
        let root = try ThemeScratchDirectory()
        defer { root.remove() }
        try root.write("Themes/a.toml", "")
        try root.write("bin/Themes/b.toml", "")
        let executable = try root.write("bin/quarry", "")
        let directories = ThemeLoader.defaultSearchDirectories(environment: ["HOME": "/home/u"], executableURL: executable)
        #expect(directories[1].lastPathComponent == "Themes")
        #expect(directories[1].deletingLastPathComponent().lastPathComponent == "bin")
    }

    @Test func executableWithoutThemesAddsNothing() {
        let directories = ThemeLoader.defaultSearchDirectories(
            environment: ["HOME": "/home/u"], executableURL: URL(fileURLWithPath: "/nonexistent/bin/quarry"))
        #expect(directories.map(\.path) == ["/home/u/.config/quarry/themes", FileManager.default.currentDirectoryPath + "/Themes"])
    }
}
