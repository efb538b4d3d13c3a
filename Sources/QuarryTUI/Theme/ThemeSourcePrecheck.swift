/// Refuses, before toml++ sees it, theme text that makes toml++ abort.
///
/// Found by the `theme` fuzz target (`scripts/fuzz.sh`): toml++ fails internal assertions (the
/// process aborts) on a table header whose name starts with a character that is neither a
/// bare-key character nor a quote (`[é]`), on control characters inside deeply nested arrays,
/// and on a `}` where an array expects a value (`attrs = [}`). Every refusal here is one TOML
/// itself makes (control characters other than tab are not allowed anywhere; a table name
/// starts with a bare key or a quoted key; brackets pair up), except the nesting limit, which
/// no theme comes near. The check only tracks strings, comments and
/// brackets; everything else is left to toml++.
package enum ThemeSourcePrecheck {
    /// Arrays and inline tables nested deeper than this are refused.
    static let maximumNesting = 32

    /// Throws a ``ThemeError`` naming `file` and the line at fault.
    package static func check(_ text: String, file: String) throws {
        var scanner = Scanner(scalars: Array(text.unicodeScalars))
        if let (line, message) = scanner.firstProblem() {
            throw ThemeError(file: file, line: line, message: message)
        }
    }

    /// One pass over the text: string, comment and bracket state, line by line.
    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0
        var line = 1
        /// The arrays (`[`) and inline tables (`{`) open at this point, innermost last.
        var open: [Unicode.Scalar] = []
        /// Only white space since the start of the line.
        var atLineStart = true

        init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

        mutating func firstProblem() -> (Int, String)? {
            var countedLine = 1
            for scalar in scalars {
                if scalar == "\n" { countedLine += 1; continue }
                if ThemeSourcePrecheck.isForbiddenControl(scalar) {
                    return (countedLine, "control character U+\(ThemeSourcePrecheck.hex(scalar)) is not allowed in TOML")
                }
            }
            // toml++ skips a leading byte-order mark, so the first line starts after it.
            if scalars.first == "\u{FEFF}" { index = 1 }
            while index < scalars.count {
                let scalar = scalars[index]
                switch scalar {
                case "\n":
                    line += 1
                    atLineStart = true
                    index += 1
                case " ", "\t", "\r":
                    index += 1
                case "#":
                    skipToEndOfLine()
                case "\"", "'":
                    atLineStart = false
                    skipString(quote: scalar)
                case "[" where atLineStart && open.isEmpty:
                    if let problem = checkTableHeader() { return (line, problem) }
                    skipToEndOfLine()
                case "[", "{":
                    atLineStart = false
                    open.append(scalar)
                    if open.count > ThemeSourcePrecheck.maximumNesting {
                        return (line, "arrays or inline tables nested deeper than \(ThemeSourcePrecheck.maximumNesting)")
                    }
                    index += 1
                case "]", "}":
                    atLineStart = false
                    let opening: Unicode.Scalar = scalar == "]" ? "[" : "{"
                    guard let innermost = open.popLast() else { return (line, "'\(scalar)' closes nothing") }
                    guard innermost == opening else { return (line, "'\(scalar)' cannot close the '\(innermost)' open here") }
                    index += 1
                default:
                    atLineStart = false
                    index += 1
                }
            }
            return nil
        }

        /// A header's name must start with a bare-key character or a quote.
        private func checkTableHeader() -> String? {
            var i = index + 1
            if i < scalars.count, scalars[i] == "[" { i += 1 }
            while i < scalars.count, scalars[i] == " " || scalars[i] == "\t" { i += 1 }
            guard i < scalars.count, scalars[i] != "\n" else { return "a table header needs a name" }
            let first = scalars[i]
            if first == "\"" || first == "'" || ThemeSourcePrecheck.isBareKeyCharacter(first) { return nil }
            return "a table name cannot start with '\(first.isASCII && first.value >= 0x20 ? String(first) : "U+" + ThemeSourcePrecheck.hex(first))': use letters, digits, - and _, or quote it"
        }

        private mutating func skipToEndOfLine() {
            while index < scalars.count, scalars[index] != "\n" { index += 1 }
        }

        /// Skips a basic or literal string, single- or multi-line (a single-line one ends at the
        /// line's end at the latest; toml++ reports that).
        private mutating func skipString(quote: Unicode.Scalar) {
            let multiline = index + 2 < scalars.count && scalars[index + 1] == quote && scalars[index + 2] == quote
            index += multiline ? 3 : 1
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == "\\" && quote == "\"" { index += 2; continue }
                if scalar == "\n" {
                    guard multiline else { return }
                    line += 1
                }
                if scalar == quote {
                    if !multiline { index += 1; return }
                    if index + 2 < scalars.count, scalars[index + 1] == quote, scalars[index + 2] == quote {
                        index += 3
                        return
                    }
                }
                index += 1
            }
        }
    }

    private static func isForbiddenControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || scalar.value == 0x7F
    }

    private static func isBareKeyCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "-", "_": return true
        default: return false
        }
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
