import QuarryTUI

/// One key (or a few alike) of the browser: what the help overlay (`?`) and README's key
/// table both say of it.
public struct KeyBinding: Sendable, Equatable {
    /// The group it is listed under ("Moving", "Finding", …).
    public var group: String
    /// The keys as the overlay names them: alternatives separated by two spaces
    /// (`"↑ ↓  k j"`).
    public var keys: String
    /// What the key does, in a line (the overlay).
    public var summary: String
    /// What the key does, in full (README); the summary when it says enough.
    public var details: String

    init(_ group: String, _ keys: String, _ summary: String, details: String? = nil) {
        self.group = group
        self.keys = keys
        self.summary = summary
        self.details = details ?? summary
    }
}

/// Every key the browser understands: one list, from which the help overlay and README's key
/// table (``markdownTable``, printed by `quarry keys`) are both made.
public enum KeyHelp {
    /// The bindings, in the order the overlay and README list them.
    public static let bindings: [KeyBinding] = [
        .init("Moving", "↑ ↓  k j", "previous / next row"),
        .init("Moving", "PgUp PgDn  Ctrl-B Ctrl-F", "previous / next page"),
        .init("Moving", "g G  Home End", "first / last row"),
        .init("Moving", "[ ]", "previous / next section"),
        .init("Moving", "← →  h l", "previous / next column", details: "move the column cursor (the view scrolls by column)"),
        .init("Moving", ":", "command line: 1500, q, w FILE, sort, filter, entity, theme",
              details: "the command line: `:1500` jumps to row 1,500, `:q` quits, `:w FILE` exports the view, `:sort price desc, symbol`, `:filter …`, `:entity Quote`, `:theme light`; Tab completes commands, entity, key and theme names; ↑/↓ walk the history shared with `f` and `/` (kept in `$XDG_STATE_HOME/quarry/history`)"),
        .init("Moving", "click  wheel", "click a row to move there, the wheel scrolls",
              details: "click a row to put the cursor (and the column cursor) there; the wheel moves three rows (`--no-mouse` leaves the mouse to the terminal)"),
        .init("Sections", "za  Enter", "collapse / expand this section",
              details: "collapse the cursor's section to its header and count (its rows are not read), or expand it; Enter or a click on a collapsed header expands it too"),
        .init("Sections", "zM zR", "collapse / expand every section"),
        .init("Finding", "/", "search the column under the cursor",
              details: "search the column under the cursor: on the sort key incrementally (binary search), on another column when Enter is pressed; a search with no match leaves the cursor where it was"),
        .init("Finding", "n N", "next / previous match"),
        .init("Finding", "f", "filter with a predicate (empty clears)",
              details: "filter with a predicate (`price > 10 AND name BEGINSWITH[c] 'a'`; empty clears); errors point at their column and the old filter stays"),
        .init("Finding", "Tab", "pick the entity (each keeps its view)",
              details: "pick the entity; each entity keeps its sort, filter, sections, hidden columns and cursor, restored when you come back"),
        .init("Finding", "Esc  Ctrl-C", "cancel a running query (filtering…)",
              details: "while \"filtering…\": cancel the running query (filter, sort, entity, refetch); the old results stay"),
        .init("Columns", "s S", "sort by this column ascending / descending",
              details: "sort by the column under the cursor, ascending / descending; a click on a header sorts by it (again: the other way)"),
        .init("Columns", "< >", "narrow / widen this column"),
        .init("Columns", "-", "hide this column (= shows all)", details: "hide the column under the cursor (`=` shows all again)"),
        .init("Columns", "!", "freeze the first column"),
        .init("Objects", "Enter", "details and relationships (Enter follows, Esc back)",
              details: "the object's attributes and relationships; `Enter` follows one, `Esc` goes back"),
        .init("Objects", "y Y", "copy the cell / the row to the clipboard",
              details: "copy the cell, or the row (tab-separated), to the system clipboard through OSC 52 (works over ssh and in tmux with `set-clipboard on`)"),
        .init("Objects", "m", "the model of this entity",
              details: "the model of the entity shown (attributes with types and flags, relationships with destination, inverse and delete rule, indexes, constraints), as `quarry model` prints it"),
        .init("Objects", "H", "the store's history (Enter: changes, then the object)",
              details: "the store's newest transactions (time, author, counts); Enter lists one's changes, Enter on a change shows its object"),
        .init("Objects", "e", "edit the row (Ctrl-S save, Esc discard)"),
        .init("Objects", "a", "add an object"),
        .init("Objects", "d", "delete the row (asks first)",
              details: "delete the row (the question says how many objects the delete rules remove)"),
        .init("Objects", "x", "export the view (entity, filter, sort, visible columns) to CSV, .jsonl or .json",
              details: "export the view (entity, filter, sort, visible columns) to a file it asks for (`<Entity>.csv` suggested; `.jsonl` and `.json` choose those formats), off the main queue with progress on the status line; Esc cancels and leaves no file"),
        .init("Live", "p", "pause / resume the live merge", details: "pause / resume the live merge (resuming refetches)"),
        .init("Live", "Ctrl-L", "redraw the screen"),
        .init("Live", "?", "this help (Esc closes)"),
        .init("Live", "q", "quit"),
    ]

    /// The help overlay's entries: each group's heading, then its bindings.
    static let entries: [ListOverlay.Entry] = {
        var entries: [ListOverlay.Entry] = []
        for binding in bindings {
            if entries.last(where: \.isHeading)?.label != binding.group {
                entries.append(.init(label: binding.group, isHeading: true))
            }
            entries.append(.init(label: binding.keys, value: binding.summary))
        }
        return entries
    }()

    /// README's key table (Markdown): a row per binding, each alternative of its keys in
    /// backticks, then its details.
    public static var markdownTable: String {
        var lines = ["| keys | what they do |", "|---|---|"]
        for binding in bindings {
            let keys = binding.keys.components(separatedBy: "  ").map { "`\($0)`" }.joined(separator: " ")
            lines.append("| \(keys) | \(binding.details.replacingOccurrences(of: "|", with: "\\|")) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
