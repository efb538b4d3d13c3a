/// Finds the line of a key in a theme file's text, because TOMLKit does not expose where parsed
/// nodes came from.
///
/// It reads table headers (`[cursor]`), `key = value` lines and dotted keys (`cursor.fg = ...`)
/// with a light scan that ignores comments and quoted text. A key it cannot find is reported at
/// its table's line (an inline table is on one line anyway).
package struct ThemeSourceLocator {
    private var lines: [(path: [String], line: Int)] = []

    /// Indexes the keys of `text`.
    package init(text: String) {
        var table: [String] = []
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = Self.withoutComment(rawLine).trimmedOfWhitespace()
            if line.hasPrefix("[") {
                table = Self.keyPath(line.drop(while: { $0 == "[" }).prefix(while: { $0 != "]" }))
                lines.append((table, lineNumber))
            } else if let equals = Self.firstUnquoted("=", in: line) {
                lines.append((table + Self.keyPath(line[..<equals]), lineNumber))
            }
        }
    }

    /// The 1-based line of the dotted `key`, else of its nearest enclosing table, else `nil`.
    package func line(ofKey key: String) -> Int? {
        let path = Self.keyPath(Substring(key))
        for length in stride(from: path.count, to: 0, by: -1) {
            let prefix = Array(path.prefix(length))
            if let entry = lines.first(where: { $0.path == prefix }) { return entry.line }
        }
        return nil
    }

    private static func keyPath(_ text: Substring) -> [String] {
        text.split(separator: ".").map { part in
            String(part.trimmedOfWhitespace().trimmed(of: "\"'"))
        }
    }

    private static func withoutComment(_ line: Substring) -> Substring {
        firstUnquoted("#", in: line).map { line[..<$0] } ?? line
    }

    /// The index of the first `target` outside a quoted string.
    private static func firstUnquoted(_ target: Character, in line: Substring) -> Substring.Index? {
        var quote: Character?
        var escaped = false
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if escaped { escaped = false } else if character == "\\" && open == "\"" { escaped = true } else if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == target {
                return index
            }
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmedOfWhitespace() -> Substring {
        trimmed(of: " \t\r")
    }

    fileprivate func trimmed(of set: String) -> Substring {
        let start = firstIndex(where: { !set.contains($0) }) ?? endIndex
        let end = lastIndex(where: { !set.contains($0) }).map(index(after:)) ?? start
        return start < end ? self[start..<end] : self[start..<start]
    }
}
