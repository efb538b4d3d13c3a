import ArgumentParser
import QuarryBrowser

/// `quarry keys`: the browser's keys, as docs/browser.md's key table lists them (Markdown), made from
/// the one list the help overlay (`?`) shows; `--commands` prints its `:` command table instead.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List the browser's keys (a Markdown table, as in docs/browser.md).",
        discussion: "With --commands, the browser's `:` commands instead (docs/browser.md's command table)."
    )

    @Flag(name: .long, help: "List the `:` commands instead of the keys.")
    var commands = false

    func run() {
        print(commands ? BrowserCommandHelp.markdownTable : KeyHelp.markdownTable, terminator: "")
    }
}
