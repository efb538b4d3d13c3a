import Foundation
import Quarry
import QuarryTUI
import Testing
@_spi(Testing) import QuarryBrowser

@MainActor
@Suite("Browser: NO_COLOR keeps live changes visible")
struct NoColorFlashTests {
    @Test("on a colourless terminal an updated row is drawn bold and underlined, its neighbours plain")
    func updatedRowIsMarkedWithoutColour() async throws {
        let f = try BrowserFixture()
        let terminal = InMemoryTerminal(size: TerminalSize(width: 120, height: 40), colorCapability: .none)
        let app = BrowserApp(browser: f.browser, backend: terminal)
        try app.start()
        try await f.importerSave { context in
            try BrowserFixture.ticker("T03", in: context).setValue(.double(33.5), forKey: "price")
        }
        let buffer = f.browser.render(size: TerminalSize(width: 120, height: 40))
        #expect(buffer.line(4).contains("33.50"))
        let flashed = buffer[0, 4].style, plain = buffer[0, 5].style
        #expect(flashed.foreground == .default && flashed.background == .default)
        #expect(flashed.attributes.contains(.bold) && flashed.attributes.contains(.underline))
        #expect(flashed != plain)
        app.stop()
    }
}
