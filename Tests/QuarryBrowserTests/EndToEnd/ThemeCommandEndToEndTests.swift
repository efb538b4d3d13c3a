import Foundation
import QuarryTestSupport
import Testing

/// `:theme NAME` in the real program (issue 34, item 13): every shipped theme and a user's own
/// theme (`$XDG_CONFIG_HOME/quarry/themes`), Tab completing its name, the colours changing.
@Suite("End to end in tmux: :theme", .serialized, .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
struct ThemeCommandEndToEndTests {
    let directory = TemporaryDirectory()
    let e2e = TerminalEndToEndTests()

    /// Waits for the status line to say the theme is `name` (not the `:` line typing it).
    func waitForTheme(_ tmux: TmuxHarness, _ name: String) async throws {
        _ = try await e2e.waitFor(tmux, "the status line to say \"theme \(name)\"") { screen in
            screen.contains { $0.hasPrefix(" row ") && ($0.hasSuffix("  theme \(name)") || $0.contains("  theme \(name) ")) }
        }
    }

    @Test(":theme switches to each shipped theme and to the user's own, whose name Tab completes")
    func switchesThemes() async throws {
        let store = directory.file("themes.sqlite").path
        try e2e.seed(store, rows: 50)
        let themes = directory.file("config/quarry/themes")
        try FileManager.default.createDirectory(at: themes, withIntermediateDirectories: true)
        try "inherits = \"light\"\n[header]\nbg = \"#5f0087\"\n".write(to: themes.appendingPathComponent("mine.toml"), atomically: true, encoding: .utf8)
        let tmux = try await e2e.shell()
        defer { tmux.shutDown() }
        try e2e.type(tmux, "clear; XDG_CONFIG_HOME=\(directory.file("config").path) \(try e2e.quarry()) browse \(store) --entity Ticker --sort symbol")
        _ = try await e2e.waitFor(tmux, text: "row 1/50")

        for name in ["light", "solarized-dark", "solarized-light", "high-contrast", "default"] {
            try e2e.type(tmux, ":theme \(name)")
            try await waitForTheme(tmux, name)
            if name == "light" {
                // light's header: xterm colour 24.
                let header = try tmux.screen(escapes: true)[0]
                #expect(header.contains("48;5;24m"), "\(header.debugDescription)")
            }
        }

        try e2e.type(tmux, ":theme mi", enter: false)
        try tmux.send("Tab")
        _ = try await e2e.waitFor(tmux, "Tab to complete the user's theme") { $0.contains { $0.hasPrefix(":theme mine") } }
        try tmux.send("Enter")
        try await waitForTheme(tmux, "mine")
        // Its own header colour (#5f0087 is xterm colour 54), over light's other slots.
        let header = try tmux.screen(escapes: true)[0]
        #expect(header.contains("48;5;54m"), "\(header.debugDescription)")
        try tmux.send("q")
        #expect(try await tmux.waitForLastRow(TerminalEndToEndTests.prompt, timeout: .seconds(60)))
    }
}
