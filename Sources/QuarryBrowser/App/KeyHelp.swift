import QuarryTUI

/// One key (or a few alike) of the browser: what the help overlay (`?`) and docs/browser.md's key
/// table both say of it.
public struct KeyBinding: Sendable, Equatable {
    /// The group it is listed under ("Moving", "Finding", …).
    public var group: String
    /// The keys as the overlay names them: alternatives separated by two spaces
    /// (`"↑ ↓  k j"`).
    public var keys: String
    /// What the key does, in a line (the overlay).
    public var summary: String
    /// What the key does, in full (docs/browser.md); the summary when it says enough.
    public var details: String

    /// The keys that act on the table, and what each does (empty for the mouse and for the
    /// second key of `z` commands, which the dispatcher reads itself).
    public var triggers: [Key: TableAction]

    init(_ group: String, _ keys: String, _ triggers: [Key: TableAction] = [:], _ summary: String, details: String? = nil) {
        self.group = group
        self.keys = keys
        self.triggers = triggers
        self.summary = summary
        self.details = details ?? summary
    }
}

/// Every key the browser understands: one list, from which the help overlay and docs/browser.md's key
/// table (``markdownTable``, printed by `quarry keys`) are both made.
public enum KeyHelp {
    /// The bindings, in the order the overlay and docs/browser.md list them.
    public static let bindings: [KeyBinding] = [
        .init("Moving", "↑ ↓  k j", [.up: .rowUp, .down: .rowDown, .character("k"): .rowUp, .character("j"): .rowDown], "previous / next row"),
        .init("Moving", "PgUp PgDn  Ctrl-B Ctrl-F  Space", [.pageUp: .pageUp, .pageDown: .pageDown, .control("b"): .pageUp, .control("f"): .pageDown, .character(" "): .pageDown], "previous / next page"),
        .init("Moving", "Ctrl-D Ctrl-U", [.control("d"): .halfPageDown, .control("u"): .halfPageUp], "half a page down / up"),
        .init("Moving", "g G  Home End", [.character("g"): .top, .character("G"): .bottom, .home: .top, .end: .bottom], "first / last row (with a count: that row)",
              details: "first / last row; with a count, that row (`100G` is row 100, as `:100`)"),
        .init("Moving", "1-9…", [:], "a count before a motion: 10j 5k 100G 3n 2]",
              details: "a count typed before a motion repeats it: `10j` ten rows down, `5k` five up, `100G` row 100, `3n` the third match, `2]` two sections on, `2 Ctrl-D` a page; Esc clears it"),
        .init("Moving", "[ ]", [.character("["): .previousSection, .character("]"): .nextSection], "previous / next section"),
        .init("Moving", "← →  h l", [.left: .columnLeft, .right: .columnRight, .character("h"): .columnLeft, .character("l"): .columnRight], "previous / next column", details: "move the column cursor (the view scrolls by column)"),
        .init("Moving", "0 $", [.character("0"): .firstColumn, .character("$"): .lastColumn], "first / last column"),
        .init("Moving", "c", [.character("c"): .jumpToColumn], "jump to a column by name (Tab completes)",
              details: "jump to a column by name: opens `:col ` on the command line, Tab completes the column names, a unique prefix will do"),
        .init("Moving", "t", [.character("t"): .followTop], "follow the first rows as new ones arrive (moving leaves)",
              details: "follow mode: the view stays on the first rows, so rows arriving at the top (the newest first, under a descending sort) are seen as they arrive, like `tail -f`; moving the cursor leaves it (`:follow` too)"),
        .init("Moving", ":", [.character(":"): .commandLine], "command line: 1500, q, w FILE, sort, filter, entity, theme, col, follow, freq, summary",
              details: "the command line: `:1500` jumps to row 1,500, `:q` quits, `:w FILE` exports the view (asking before replacing a file; `:w! FILE` replaces it), `:sort price desc, symbol`, `:filter …`, `:entity Quote`, `:theme light`, `:col price`, `:follow`, `:freq sector.name`, `:summary`; Tab completes commands, entity, key, column and theme names; ↑/↓ walk the history shared with `f` and `/` (kept in `$XDG_STATE_HOME/quarry/history`)"),
        .init("Moving", "click  wheel", [:], "click a row to move there, the wheel scrolls",
              details: "click a row to put the cursor (and the column cursor) there; the wheel moves three rows (`--no-mouse` leaves the mouse to the terminal)"),
        .init("Sections", "za  Enter", [.character("z"): .sectionPrefix], "collapse / expand this section",
              details: "collapse the cursor's section to its header and count (its rows are not read), or expand it; Enter or a click on a collapsed header expands it too"),
        .init("Sections", "zM zR", [:], "collapse / expand every section"),
        .init("Finding", "/", [.character("/"): .search], "search the column under the cursor",
              details: "search the column under the cursor: on the sort key incrementally (binary search), on another column when Enter is pressed; a search with no match leaves the cursor where it was"),
        .init("Finding", "n N", [.character("n"): .nextMatch, .character("N"): .previousMatch], "next / previous match"),
        .init("Finding", "f", [.character("f"): .filter], "filter with a predicate (empty clears)",
              details: "filter with a predicate (`price > 10 AND name BEGINSWITH[c] 'a'`; empty clears); errors point at their column and the old filter stays"),
        .init("Finding", "Tab", [.tab: .pickEntity], "pick the entity (each keeps its view)",
              details: "pick the entity from a list with each one's row count (counted off the main queue: the list shows at once, the counts as they land), narrowed as you type (Backspace widens, ↑↓ or Tab choose); each entity keeps its sort, filter, sections, hidden columns and cursor, restored when you come back"),
        .init("Finding", "Esc  Ctrl-C", [.escape: .cancel], "cancel a running query (filtering…)",
              details: "while \"filtering…\": cancel the running query (filter, sort, entity, refetch); the old results stay"),
        .init("Columns", "s S", [.character("s"): .sortAscending, .character("S"): .sortDescending], "sort by this column ascending / descending",
              details: "sort by the column under the cursor, ascending / descending; a click on a header sorts by it (again: the other way)"),
        .init("Columns", "< >", [.character("<"): .narrow, .character(">"): .widen], "narrow / widen this column"),
        .init("Columns", "-  =", [.character("-"): .hide, .character("="): .showAll], "hide this column (= shows all)", details: "hide the column under the cursor (`=` shows all again)"),
        .init("Columns", "!", [.character("!"): .freeze], "freeze the first column"),
        .init("Columns", "F", [.character("F"): .frequency], "frequency of this column's values, live (Enter filters)",
              details: "the frequency view of the column under the cursor (`:freq KEYPATH` for any key path, `sector.name`): a row per distinct value (numbers and dates over 20 values in bins, `<`/`>` change their width) with its count, percent and a bar, sorted by count (`s`/`S` sort by the column under the cursor); kept live from the changes as an importer runs, without re-running `GROUP BY` (the status line shows the last update's cost); Enter shows the table filtered to that value, Esc comes back"),
        .init("Columns", "%", [.character("%"): .summary], "summary line: count, sum, mean, min, max of each column, live",
              details: "the summary line (`:summary` too) under the table and under each section header: count, sum, mean, min and max of each numeric column, count and distinct count of the others, over the rows the filter keeps; kept live from the changes like the table; `%` again hides it"),
        .init("Objects", "Enter", [.enter: .open], "details and relationships; on a to-one cell: go to that object",
              details: "the object's attributes and relationships (`Enter` follows one, `Esc` goes back); on a to-one cell (`sector`), the object it names, in its own entity's table as you last left it"),
        .init("Objects", "Backspace  Ctrl-O", [.backspace: .back, .control("o"): .back], "back to where the last hop started",
              details: "back to where the last hop (Enter on a to-one cell) started: entity, filter, sort, collapsed sections, column scroll and cursor, 100 hops deep"),
        .init("Objects", "v V", [.character("v"): .toggleSelection, .character("V"): .selectMatching], "select this row (and move down) / the rows matching a predicate",
              details: "select or unselect the cursor's row and move down (`5v` five rows), or every row of the view matching a predicate (`V`, or `:select price > 100`; empty: all); selected rows are marked `*` in the gutter and counted on the status line; Esc or `:unselect` clears; with a selection `d` deletes the selected objects (asking; `u` brings them back), `E` sets a column of them, `x` exports them and `y`/`Y` copy their cells / rows"),
        .init("Objects", "y Y", [.character("y"): .copyCell, .character("Y"): .copyRow], "copy the cell / the row to the clipboard",
              details: "copy the cell, or the row (tab-separated), to the system clipboard through OSC 52 (works over ssh and in tmux with `set-clipboard on`)"),
        .init("Objects", "m", [.character("m"): .schema], "the model of this entity",
              details: "the model of the entity shown (attributes with types and flags, relationships with destination, inverse and delete rule, indexes, constraints), as `quarry model` prints it"),
        .init("Objects", "H", [.character("H"): .history], "the store's history (Enter: changes, then the object)",
              details: "the store's newest transactions (time, author, counts); Enter lists one's changes (each object named by its display key), Enter on a change shows its object in its table, and Esc there comes back to the list"),
        .init("Objects", "e", [.character("e"): .edit], "edit the row (Ctrl-S save, Esc discard)"),
        .init("Objects", "E", [.character("E"): .setColumn], "set this column of the selected rows (or this row) to a value or expression",
              details: "set the column under the cursor of the selected rows (the cursor's row without a selection) to a value or an expression over each row's own attributes: opens `:set price = ` (`price * 1.1`, `'Energy'`, `uppercase(name)`, `nil`; more keys after commas); one save, which `u` undoes; a value a rule refuses changes nothing and says which rule and rows"),
        .init("Objects", "a", [.character("a"): .add], "add an object"),
        .init("Objects", "d", [.character("d"): .delete], "delete the row (asks first)",
              details: "delete the row (the question says how many objects the delete rules remove)"),
        .init("Objects", "u  Ctrl-R", [.character("u"): .undo, .control("r"): .redo], "undo / redo your last edit, add or delete",
              details: "undo / redo the browser's own last edit, add or delete (a delete with its cascade), also after it was saved: the result is saved to disk at once; an undo that would overwrite another writer's change is refused and changes nothing"),
        .init("Objects", "x", [.character("x"): .export], "export the view (or the selected rows) to CSV, .jsonl or .json",
              details: "export the view (entity, filter, sort, visible columns), or only the selected rows when rows are selected, to a file it asks for (`<Entity>.csv` suggested; `.jsonl` and `.json` choose those formats), off the main queue with progress on the status line; Esc cancels and leaves no file"),
        .init("Live", "p", [.character("p"): .pause], "pause / resume the live merge", details: "pause / resume the live merge (resuming refetches)"),
        .init("Live", "R", [.character("R"): .refresh], "re-read the rows from the store",
              details: "re-read the rows from the store: how other programs' changes show where the store is not followed live (the status line says why)"),
        .init("Live", "Ctrl-L", [.control("l"): .redraw], "redraw the screen"),
        .init("Live", "?  F1", [.character("?"): .help, .function(1): .help], "this help (Esc closes)"),
        .init("Live", "q", [.character("q"): .quit], "quit"),
    ]

    /// What each key does on the table, from ``bindings`` (the dispatcher's one source).
    public static let actions: [Key: TableAction] = {
        var actions: [Key: TableAction] = [:]
        for binding in bindings {
            actions.merge(binding.triggers) { first, _ in
                assertionFailure("a key bound twice in KeyHelp.bindings")
                return first
            }
        }
        return actions
    }()

    /// How the help names `key`: `↑`, `PgUp`, `Ctrl-B`, `Space`, `F1`, `k`.
    public static func name(of key: Key) -> String {
        switch key {
        case .character(" "): return "Space"
        case .character(let c): return String(c)
        case .control(let c): return "Ctrl-" + c.uppercased()
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .home: return "Home"
        case .end: return "End"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        case .backspace: return "Backspace"
        case .delete: return "Del"
        case .function(let n): return "F\(n)"
        }
    }

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

    /// docs/browser.md's key table (Markdown): a row per binding, each alternative of its keys in
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
