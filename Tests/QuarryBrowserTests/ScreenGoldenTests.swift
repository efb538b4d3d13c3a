import Foundation
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// The browser's screens on the demo store, compared whole with
/// `Goldens/screens/<screen>-<width>x<height>.txt` (issue 40, item 4): the text of every cell,
/// one screen row a line, trailing blanks trimmed. A change to what a screen shows (a word of
/// the status line, a column's width) shows in review as a diff of these files. At 120×40 the
/// cells' styles are compared too, with `<screen>-120x40.styles.txt` (``ScreenStyleMap``).
/// Re-record after an intended change: `QUARRY_RECORD=1 swift test --filter Golden`.
@MainActor
@Suite("Golden: the browser's screens on the demo store")
struct ScreenGoldenTests {
    /// Where the screen goldens are.
    static let directory = GoldenFile.directory("Goldens/screens")

    /// A screen of the browser: its golden's name, and the keys that lead to it from the
    /// demo's first screen.
    enum Screen: String, CaseIterable, Sendable {
        /// The first screen, the live importer paused on a busy store.
        case first
        /// The detail page of the first ticker (Enter).
        case detail
        /// The edit form of the first ticker, its price `abc` refused on Ctrl-S.
        case editValidationError = "edit-validation-error"
        /// The key help (`?`).
        case help
        /// The first section collapsed (`za`).
        case collapsedSection = "collapsed-section"
        /// The entity's model (`m`).
        case schema
    }

    /// The size whose styles are compared as well.
    nonisolated static let styledSize = TerminalSize(width: 120, height: 40)

    /// The sizes every screen is compared at: a small terminal, the usual one, a large one.
    nonisolated static let sizes = [TerminalSize(width: 60, height: 20), TerminalSize(width: 120, height: 40), TerminalSize(width: 220, height: 60)]

    /// Opens the demo at `size` and leads the browser to `screen`; returns it, and the theme
    /// it was drawn in.
    func render(_ screen: Screen, at size: TerminalSize) async throws -> (buffer: ScreenBuffer, theme: Theme) {
        let f = try await DemoScreenFixture(size: size)
        switch screen {
        case .first:
            let importer = try await f.pauseImporter()
            defer { try? importer.stop() }  // the screen is taken; a failure to stop changes nothing it shows
            return (f.screen(size), f.browser.theme)
        case .detail:
            f.press(.enter)
        case .editValidationError:
            f.type("e")
            try focusField("price", in: f)
            f.press(.control("u"))
            f.type("abc")
            f.press(.control("s"))
        case .help:
            f.type("?")
        case .collapsedSection:
            f.type("za")
        case .schema:
            f.type("m")
        }
        await f.browser.fetchesSettled()
        return (f.screen(size), f.browser.theme)
    }

    /// Focuses the field `key` of the open edit form (Tab moves through the fields).
    func focusField(_ key: String, in f: DemoScreenFixture) throws {
        for _ in 0..<20 {
            if case .form(let session) = f.browser.overlay, session.fields[session.focus].key == key { return }
            f.press(.tab)
        }
        Issue.record("the edit form has no field \(key)")
    }

    @Test("each screen at each size is its golden file",
          arguments: Screen.allCases, sizes.map { [$0.width, $0.height] })
    func screenMatchesGolden(_ screen: Screen, _ size: [Int]) async throws {
        let size = TerminalSize(width: size[0], height: size[1])
        let (buffer, theme) = try await render(screen, at: size)
        let name = "\(screen.rawValue)-\(size.width)x\(size.height)"
        assertGolden(buffer.text, named: name + ".txt", in: Self.directory)
        if size == Self.styledSize {
            assertGolden(ScreenStyleMap.text(of: buffer, theme: theme), named: name + ".styles.txt", in: Self.directory)
        }
    }

    @Test("the paused importer's alert is on the first screen's status line")
    func firstScreenShowsThePause() async throws {
        let size = TerminalSize(width: 120, height: 40)
        let lines = try await render(.first, at: size).buffer.lines
        #expect(lines.count == size.height)
        #expect(lines.last?.contains("import paused: store busy") == true, "\(lines.last ?? "")")
    }

    @Test("every screen golden names a screen and a size that are compared")
    func noStaleGoldens() {
        let expected = Set(Screen.allCases.flatMap { screen in
            Self.sizes.map { "\(screen.rawValue)-\($0.width)x\($0.height).txt" }
                + ["\(screen.rawValue)-\(Self.styledSize.width)x\(Self.styledSize.height).styles.txt"]
        })
        // Hidden files left out: a golden being recorded meanwhile is written through one.
        let present = Set(((try? FileManager.default.contentsOfDirectory(atPath: Self.directory.path)) ?? []).filter { !$0.hasPrefix(".") })
        let stale = present.subtracting(expected).sorted()
        #expect(stale.isEmpty, "golden files of no screen in \(Self.directory.lastPathComponent): \(stale); delete them")
    }
}
