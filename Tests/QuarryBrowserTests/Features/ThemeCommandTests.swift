import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) import QuarryBrowser

/// `:theme NAME` (issue 34, item 13): every shipped theme and the user's own, Tab completing
/// their names, without anything but the configuration wiring the theme loader.
@MainActor
@Suite("Browser: :theme switches among the shipped and the user's themes")
struct ThemeCommandTests {
    /// The clone's `Themes/` folder: the shipped themes.
    static let shipped = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Themes")

    private func command(_ f: BrowserFixture, _ line: String) {
        f.press(.character(":"))
        f.type(line)
        f.press(.enter)
    }

    /// A browser on `f`'s store whose themes are looked for in `directories`.
    private func browser(_ f: BrowserFixture, themes directories: [URL]) throws -> Browser {
        var configuration = f.browser.configuration
        configuration.themeSearchDirectories = directories
        return try Browser(stack: f.stack, configuration: configuration)
    }

    @Test("a browser with the default configuration switches to each shipped theme, drawn as its file says",
          arguments: ["light", "solarized-dark", "solarized-light", "high-contrast", "default"])
    func shippedTheme(name: String) throws {
        let f = try BrowserFixture()
        command(f, "theme \(name)")
        let expected = try ThemeLoader.load(contentsOf: Self.shipped.appendingPathComponent("\(name).toml"), searchDirectories: [Self.shipped])
        #expect(f.browser.theme == expected.adapted(to: f.browser.colorCapability))
        let screen = f.browser.render(size: TerminalSize(width: 120, height: 40))
        #expect(screen.lines.last?.contains("theme \(name)") == true)
        #expect(screen[0, 0].style == f.browser.theme[.header])
    }

    @Test("Tab offers default, the shipped themes and the user's, read when Tab is pressed")
    func completion() throws {
        let f = try BrowserFixture()
        let user = TemporaryDirectory()
        let browser = try browser(f, themes: [user.url, Self.shipped])
        // Added after the browser started: still offered.
        try "inherits = \"light\"\n".write(to: user.file("mine.toml"), atomically: true, encoding: .utf8)
        browser.handle(.key(.character(":")))
        for character in "theme " { browser.handle(.key(.character(character))) }
        browser.handle(.key(.tab))
        let lines = browser.render(size: TerminalSize(width: 120, height: 40)).lines
        #expect(lines.contains { $0.contains("6 completions: default high-contrast light mine solarized-dark solarized-light") })
        #expect(browser.themeNames == ["default", "high-contrast", "light", "mine", "solarized-dark", "solarized-light"])
    }

    @Test("a user's theme is completed by Tab and switched to, inheriting a shipped one")
    func userTheme() throws {
        let f = try BrowserFixture()
        let user = TemporaryDirectory()
        try "inherits = \"light\"\n[cursor]\nbg = \"#5f0087\"\n".write(to: user.file("mine.toml"), atomically: true, encoding: .utf8)
        let browser = try browser(f, themes: [user.url, Self.shipped])
        browser.handle(.key(.character(":")))
        for character in "theme mi" { browser.handle(.key(.character(character))) }
        browser.handle(.key(.tab))
        #expect(browser.render(size: TerminalSize(width: 120, height: 40)).lines.last?.hasPrefix(":theme mine") == true)
        browser.handle(.key(.enter))
        #expect(browser.theme.name == "mine")
        #expect(browser.theme[.cursor].background == TerminalColor.rgb(0x5F, 0x00, 0x87).adapted(to: browser.colorCapability))
        let light = try ThemeLoader.load(contentsOf: Self.shipped.appendingPathComponent("light.toml"))
        #expect(browser.theme[.header] == light.adapted(to: browser.colorCapability)[.header])
    }

    @Test("an unknown or malformed theme is refused in the prompt, naming it, and the theme stays")
    func refusals() throws {
        let f = try BrowserFixture()
        let user = TemporaryDirectory()
        try "[cursor]\nfg = \"blurple\"\n".write(to: user.file("bad.toml"), atomically: true, encoding: .utf8)
        let browser = try browser(f, themes: [user.url, Self.shipped])
        let before = browser.theme
        for (line, expected) in [("theme nope", "no theme 'nope' (Tab completes: bad, default,"), ("theme bad", "bad.toml:2: key 'cursor.fg'")] {
            browser.handle(.key(.character(":")))
            for character in line { browser.handle(.key(.character(character))) }
            browser.handle(.key(.enter))
            let lines = browser.render(size: TerminalSize(width: 120, height: 40)).lines
            #expect(lines.contains { $0.contains(expected) }, "\(lines.suffix(2))")
            #expect(browser.theme == before)
            browser.handle(.key(.escape))
        }
    }
}
