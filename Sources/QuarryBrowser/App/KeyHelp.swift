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
        .init("Finding", "/", "search the sort key (incremental)", details: "incremental search on the sort key"),
        .init("Finding", "n N", "next / previous match"),
        .init("Finding", "f", "filter with a predicate (empty clears)",
              details: "filter with a predicate (`price > 10 AND name BEGINSWITH[c] 'a'`; empty clears); errors point at their column and the old filter stays"),
        .init("Finding", "Tab", "pick the entity"),
        .init("Finding", "Esc  Ctrl-C", "cancel a running query (filtering…)",
              details: "while \"filtering…\": cancel the running query (filter, sort, entity, refetch); the old results stay"),
        .init("Columns", "s S", "sort by this column ascending / descending",
              details: "sort by the column under the cursor, ascending / descending"),
        .init("Columns", "< >", "narrow / widen this column"),
        .init("Columns", "-", "hide this column (= shows all)", details: "hide the column under the cursor (`=` shows all again)"),
        .init("Columns", "!", "freeze the first column"),
        .init("Objects", "Enter", "details and relationships (Enter follows, Esc back)",
              details: "the object's attributes and relationships; `Enter` follows one, `Esc` goes back"),
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
