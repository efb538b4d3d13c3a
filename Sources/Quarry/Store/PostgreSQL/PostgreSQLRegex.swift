/// Turns a `MATCHES` pattern (ICU syntax, see ``StringMatching``) into a whole-string
/// PostgreSQL ARE pattern, refusing what the two engines read differently (see
/// ``PostgreSQLDialect`` for the list).
enum PostgreSQLRegex {
    /// `^(?:pattern)$` with `.` outside brackets excluding ICU's line terminators.
    /// - Throws: ``QueryError/invalidOperand(_:)`` naming the construct PostgreSQL would read
    ///   differently.
    static func translate(_ pattern: String) throws -> String {
        func refuse(_ what: String) -> QueryError {
            QueryError.invalidOperand("MATCHES /\(pattern)/: \(what) is not supported by the PostgreSQL store (its regular expressions differ from ICU's there)")
        }
        let chars = Array(pattern.unicodeScalars)
        var out = "^(?:"
        var i = 0
        var inBracket = false
        var bracketStart = 0
        while i < chars.count {
            let c = chars[i]
            if c == "\\" {
                guard i + 1 < chars.count else { throw refuse("a trailing backslash") }
                let n = chars[i + 1]
                if "bBpPQEhHRXNGkKzZxv0".unicodeScalars.contains(n) { throw refuse("\\\(n)") }
                out.unicodeScalars.append(c)
                out.unicodeScalars.append(n)
                i += 2
                continue
            }
            if inBracket {
                if c == "[" {
                    guard i + 1 < chars.count, ":.=".unicodeScalars.contains(chars[i + 1]) else { throw refuse("a nested set or set operation") }
                    // A POSIX class `[:alpha:]`: copy through its closing `:]`.
                    let close = chars[i + 1]
                    var j = i + 2
                    while j + 1 < chars.count, !(chars[j] == close && chars[j + 1] == "]") { j += 1 }
                    guard j + 1 < chars.count else { throw refuse("an unterminated class") }
                    for k in i...(j + 1) { out.unicodeScalars.append(chars[k]) }
                    i = j + 2
                    continue
                }
                if (c == "&" || c == "-") && i + 1 < chars.count && chars[i + 1] == c && c == "&" { throw refuse("a set operation") }
                if c == "]" && i > bracketStart + 1 && !(i == bracketStart + 2 && chars[bracketStart + 1] == "^") {
                    inBracket = false
                }
                out.unicodeScalars.append(c)
                i += 1
                continue
            }
            switch c {
            case "[":
                inBracket = true
                bracketStart = i
                out.unicodeScalars.append(c)
            case ".":
                out += "[^\\n\\r\\u0085\\u2028\\u2029]"
            case "(":
                if i + 1 < chars.count, chars[i + 1] == "?" {
                    let rest = String(String.UnicodeScalarView(chars[(i + 2)...].prefix(2)))
                    guard rest.hasPrefix(":") || rest.hasPrefix("=") || rest.hasPrefix("!") || rest == "<=" || rest == "<!" else {
                        throw refuse("the group (?\(rest.prefix(1))")
                    }
                }
                out.unicodeScalars.append(c)
            case "*", "+", "?", "}":
                out.unicodeScalars.append(c)
                if i + 1 < chars.count, chars[i + 1] == "+" { throw refuse("a possessive quantifier") }
            default:
                out.unicodeScalars.append(c)
            }
            i += 1
        }
        guard !inBracket else { throw refuse("an unterminated set") }
        return out + ")$"
    }
}
