/// One command of the browser's `:` line, as the documentation lists it.
public struct BrowserCommandHelpEntry: Sendable, Equatable {
    /// The command as typed, with its argument (`sort KEY [desc], …`).
    public let syntax: String
    /// The command's name as the parser knows it (`sort`); `nil` for a row number.
    public let name: String?
    /// Other names the parser accepts for it (`quit`, `q!`).
    public let aliases: [String]
    /// An example the parser accepts (`sort price desc, symbol`).
    public let example: String
    /// What the command does.
    public let summary: String
}

/// The browser's `:` commands: one list, from which docs/browser.md's command table is made
/// (a test checks that the table is ``markdownTable``, and that the list and the parser name
/// the same commands).
public enum BrowserCommandHelp {
    /// The commands, in the order the documentation lists them.
    public static let entries: [BrowserCommandHelpEntry] = [
        .init(syntax: "NUMBER", name: nil, aliases: [], example: "1500",
              summary: "move the cursor to row NUMBER, counted from 1 over every section (waits for the full index)"),
        .init(syntax: "q", name: "q", aliases: ["quit", "q!"], example: "q",
              summary: "quit, asking first when an edit or add form has unsaved values"),
        .init(syntax: "w[!] FILE", name: "w", aliases: ["write"], example: "w Ticker.csv",
              summary: "export the view (entity, filter, sort, visible columns), or only the selected rows when rows are selected, to FILE: CSV, or JSON Lines and JSON for `.jsonl` and `.json`; as `x` does; asks before replacing a file, `w!` replaces it"),
        .init(syntax: "sort KEY [desc], …", name: "sort", aliases: [], example: "sort price desc, symbol",
              summary: "sort by these keys, separated by commas or spaces (`-price` is `price desc`); a section key stays first"),
        .init(syntax: "filter [PREDICATE]", name: "filter", aliases: [], example: "filter price > 10",
              summary: "filter with a predicate, as `f` does; without one, clear the filter"),
        .init(syntax: "entity NAME", name: "entity", aliases: [], example: "entity Quote",
              summary: "show another entity (any case), as `Tab` does"),
        .init(syntax: "theme NAME", name: "theme", aliases: [], example: "theme light",
              summary: "draw with another theme: a name from `Themes/` or a theme file's path"),
        .init(syntax: "col NAME", name: "col", aliases: ["column"], example: "col price",
              summary: "put the column cursor on the column NAME (any case; a unique prefix will do), as `c` does"),
        .init(syntax: "follow", name: "follow", aliases: [], example: "follow",
              summary: "follow mode on or off, as `t` does: the view stays on the first rows as rows arrive; moving leaves it"),
        .init(syntax: "select [PREDICATE]", name: "select", aliases: [], example: "select price > 100",
              summary: "select the rows of the view (its filter applies) matching PREDICATE, or every row without one, as `V` does"),
        .init(syntax: "unselect", name: "unselect", aliases: [], example: "unselect",
              summary: "clear the selection, as Esc does"),
        .init(syntax: "set KEY = EXPRESSION, …", name: "set", aliases: [], example: "set price = price * 1.1",
              summary: "set attributes of the selected rows (the cursor's row without a selection) to values (`'Energy'`, `12.5`, `nil`) or expressions over each row's own attributes (`price * 1.1`, `uppercase(name)`), in one save that `u` undoes, as `E` does; a value a rule refuses changes nothing"),
        .init(syntax: "freq KEYPATH", name: "freq", aliases: ["frequency"], example: "freq sector.name",
              summary: "the frequency view of a key path, as `F` on its column does: a row per value (or bin) with count, percent and a bar, kept live; Enter filters the table to a value, Esc comes back"),
        .init(syntax: "summary", name: "summary", aliases: [], example: "summary",
              summary: "the summary line on or off, as `%` does: count, sum, mean, min and max of each numeric column (count and distinct count of the others) under the table and each section header, kept live"),
        .init(syntax: "since TOKEN|AGO", name: "since", aliases: [], example: "since 10m",
              summary: "the objects inserted, updated (with the keys) and deleted since a history token or a time ago (`90s`, `10m`, `2h`, `1d`), from persistent history, kept live as changes arrive; Enter shows an object (Esc comes back); the table marks the changed cells (whole rows for inserted objects) until `:since off`; `x` exports the list"),
    ]

    /// docs/browser.md's command table (Markdown): a row per command, its syntax and other
    /// names, an example, and what it does.
    public static var markdownTable: String {
        var lines = ["| command | example | what it does |", "|---|---|---|"]
        for entry in entries {
            let names = ([entry.syntax] + entry.aliases).map { "`:\($0)`" }.joined(separator: " ")
            lines.append("| \(names) | `:\(entry.example)` | \(entry.summary.replacingOccurrences(of: "|", with: "\\|")) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
