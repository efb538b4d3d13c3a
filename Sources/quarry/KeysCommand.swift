import ArgumentParser
import QuarryBrowser

/// `quarry keys`: the browser's keys, as docs/browser.md's key table lists them (Markdown), made from
/// the one list the help overlay (`?`) shows.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List the browser's keys (a Markdown table, as in docs/browser.md)."
    )

    func run() {
        print(KeyHelp.markdownTable, terminator: "")
    }
}
