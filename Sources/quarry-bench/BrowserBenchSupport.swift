import Foundation
import Quarry
import QuarryBrowser
import QuarryTUI

/// The screen the in-memory browser scenarios draw (`freq-first-screen`, `freq-live`,
/// `follow-hop`): 120×40, no terminal.
let benchScreen = TerminalSize(width: 120, height: 40)

/// A browser over the store at `url` showing `entityName` sorted by `sort`, in memory (no
/// terminal, no remote-change watcher), with the column cursor put on `column` (`:col`) and a
/// first frame drawn.
@MainActor
func benchBrowser(url: URL, model: ManagedObjectModel, entityName: String, sort: [SortKey], column: String) throws -> BrowserBox {
    var options = PersistentStack.Options()
    options.storeURL = url
    options.watchesRemoteChanges = false
    let stack = try PersistentStack(model: model, options: options)
    let browser = try Browser(stack: stack, configuration: BrowserConfiguration(storeTitle: url.lastPathComponent, entityName: entityName, sort: sort))
    browser.prepareFrame(size: benchScreen)
    for character in ":col \(column)" { browser.handle(.key(.character(character))) }
    browser.handle(.key(.enter))
    _ = drawFrame(browser)
    return BrowserBox(browser, stack)
}

/// Lays out and draws a frame of ``benchScreen``, as the app does after a key; returns the
/// screen's lines.
@MainActor
func drawFrame(_ browser: Browser) -> [String] {
    browser.prepareFrame(size: benchScreen)
    return browser.render(size: benchScreen).lines
}

/// Hands the main-actor browser and its stack to a scenario's rounds' thread, which only
/// passes them back to the main queue. `@unchecked Sendable`: both are touched on the main
/// queue only.
final class BrowserBox: @unchecked Sendable {
    let browser: Browser
    let stack: PersistentStack
    init(_ browser: Browser, _ stack: PersistentStack) {
        self.browser = browser
        self.stack = stack
    }
}
