import Quarry

/// A command typed on the `:` line.
enum BrowserCommand: Equatable {
    /// `:1500`: the cursor to row 1,500 (1-based, counted over every section).
    case jump(Int)
    /// `:q`: quit (asking first over unsaved edits).
    case quit
    /// `:w FILE`: export the view to FILE (CSV, `.jsonl`, `.json`), asking before replacing an
    /// existing file; `:w! FILE` replaces it without asking (`force`).
    case write(String, force: Bool = false)
    /// `:sort price desc, symbol`: sort by these keys.
    case sort([SortKey])
    /// `:filter PREDICATE`: filter (empty clears).
    case filter(String?)
    /// `:entity Quote`: show another entity.
    case entity(String)
    /// `:theme light`: use another theme.
    case theme(String)
    /// `:col price`: the column cursor to a column (`c` opens it).
    case column(String)
    /// `:follow`: follow mode on or off (`t`).
    case follow
    /// `:select PREDICATE`: select the rows matching it (all without one; `V` opens it).
    case select(String?)
    /// `:unselect`: clear the selection.
    case unselect
    /// `:since 10m` or `:since 1234`: what changed since a time or a history token;
    /// `:since off` clears the marks it left on the table.
    case since(String)
    /// `:set price = price * 1.1, name = 'X'`: sets columns of the selected rows (the
    /// cursor's row without a selection) to values or expressions, in one undoable save (`E`).
    case set(String)

    /// `:freq sector.name`: the frequency view of a key path (`F` on a column).
    case frequency(String)
    /// `:summary`: the summary line on or off (`%`).
    case summary

    /// The command names, for completion and the error message.
    static let names = ["col", "entity", "filter", "follow", "freq", "q", "select", "set", "since", "sort", "summary", "theme", "unselect", "w"]

    /// Parses a command line (without its `:`).
    /// - Throws: ``BrowserCommandError`` saying what is wrong, with the 1-based column at fault.
    static func parse(_ line: String) throws(BrowserCommandError) -> BrowserCommand {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw BrowserCommandError("type a command: a row number, q, w FILE, sort KEY [desc], filter …, entity NAME or theme NAME", column: 1) }
        if let row = Int(trimmed) {
            guard row >= 1 else { throw BrowserCommandError("rows are numbered from 1", column: 1) }
            return .jump(row)
        }
        let name = String(trimmed.prefix { !$0.isWhitespace })
        let argument = trimmed.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        let argumentColumn = (line.count - line.drop { $0.isWhitespace }.count) + name.count + 2
        switch name {
        case "q", "quit", "q!":
            return .quit
        case "w", "write", "w!", "write!":
            guard !argument.isEmpty else { throw BrowserCommandError("\(name) needs a file name (\(name) Ticker.csv)", column: argumentColumn) }
            return .write(argument, force: name.hasSuffix("!"))
        case "sort":
            return .sort(try sortKeys(argument, column: argumentColumn))
        case "filter":
            return .filter(argument.isEmpty ? nil : argument)
        case "entity":
            guard !argument.isEmpty else { throw BrowserCommandError("entity needs a name (Tab completes)", column: argumentColumn) }
            return .entity(argument)
        case "theme":
            guard !argument.isEmpty else { throw BrowserCommandError("theme needs a name (Tab completes)", column: argumentColumn) }
            return .theme(argument)
        case "col", "column":
            guard !argument.isEmpty else { throw BrowserCommandError("col needs a column name (Tab completes)", column: argumentColumn) }
            return .column(argument)
        case "follow":
            return .follow
        case "select":
            return .select(argument.isEmpty ? nil : argument)
        case "unselect":
            return .unselect
        case "set":
            guard !argument.isEmpty else { throw BrowserCommandError("set needs a column and a value (set price = price * 1.1)", column: argumentColumn) }
            return .set(argument)
        case "since":
            guard !argument.isEmpty else { throw BrowserCommandError("since needs a history token or a time ago (since 10m)", column: argumentColumn) }
            return .since(argument)
        case "freq", "frequency":
            guard !argument.isEmpty else { throw BrowserCommandError("freq needs a key path (freq sector.name; Tab completes)", column: argumentColumn) }
            return .frequency(argument)
        case "summary":
            return .summary
        default:
            throw BrowserCommandError("unknown command '\(name)' (a row number, \(names.joined(separator: ", ")))", column: argumentColumn - name.count - 1)
        }
    }

    /// `price desc, symbol` (or `-price symbol`): keys separated by commas or spaces, each
    /// optionally followed by `asc` or `desc`.
    private static func sortKeys(_ text: String, column: Int) throws(BrowserCommandError) -> [SortKey] {
        let words = text.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
        guard !words.isEmpty else { throw BrowserCommandError("sort needs a key (sort price desc)", column: column) }
        var keys: [SortKey] = []
        for word in words {
            switch word.lowercased() {
            case "asc", "ascending":
                guard let last = keys.popLast() else { throw BrowserCommandError("asc follows a key", column: column) }
                keys.append(SortKey(last.keyPath, ascending: true))
            case "desc", "descending":
                guard let last = keys.popLast() else { throw BrowserCommandError("desc follows a key", column: column) }
                keys.append(SortKey(last.keyPath, ascending: false))
            default:
                keys.append(word.hasPrefix("-") ? SortKey(String(word.dropFirst()), ascending: false) : SortKey(word))
            }
        }
        return keys
    }
}

/// Why a `:` command was refused, and the column at fault.
struct BrowserCommandError: Error, Equatable, CustomStringConvertible {
    /// What is wrong.
    var message: String
    /// The 1-based column of the command line at fault.
    var column: Int

    init(_ message: String, column: Int) {
        self.message = message
        self.column = column
    }

    var description: String { message }
}
