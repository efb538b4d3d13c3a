import Foundation

/// The expression a derived attribute's value is computed from: the forms Core Data's
/// `NSDerivedAttributeDescription` accepts, as Xcode's model editor writes them in
/// `derivationExpression`.
///
/// - a key path: an attribute of the object (`name`), of a to-one destination (`author.name`),
///   or a collection operator over a to-many: `items.@count`, and `items.@sum.price` with
///   `@sum`, `@avg`, `@min` or `@max` (KVC's order; `items.price.@sum` is read the same);
/// - `now()`: the time of the save;
/// - `canonical:(name)`, `lowercase:(name)`, `uppercase:(name)` of a string key path
///   (`canonical` folds case and removes diacritics, as a `[cd]` comparison does).
///
/// ```swift
/// let count = try DerivationExpression(parsing: "items.@count")   // .keyPath("items.@count")
/// let name = try DerivationExpression(parsing: "lowercase:(title)") // .function(.lowercase, "title")
/// ```
public enum DerivationExpression: Sendable, Hashable, CustomStringConvertible {
    /// The value at a key path (see the type's forms).
    case keyPath(String)
    /// A string function of the value at a key path.
    case function(DerivationFunction, String)
    /// The time of the save that computes it.
    case now

    /// A fault in a derivation expression: what is wrong, at which 1-based column.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The 1-based column (in characters) of the fault.
        public var column: Int
        /// What is wrong.
        public var reason: String
        public var description: String { "\(reason) at column \(column)" }
    }

    /// Parses `text`.
    /// - Throws: ``SyntaxError`` naming the column at fault.
    public init(parsing text: String) throws(SyntaxError) {
        let characters = Array(text)
        var start = 0, end = characters.count
        while start < end, characters[start].isWhitespace { start += 1 }
        while end > start, characters[end - 1].isWhitespace { end -= 1 }
        guard start < end else { throw SyntaxError(column: 1, reason: "empty expression") }
        let body = String(characters[start..<end])
        if body.lowercased() == "now()" { self = .now; return }
        if let open = characters[start..<end].firstIndex(of: "(") {
            var nameEnd = open
            if nameEnd > start, characters[nameEnd - 1] == ":" { nameEnd -= 1 }
            let name = String(characters[start..<nameEnd]).trimmingCharacters(in: .whitespaces)
            guard let function = DerivationFunction(rawValue: name.lowercased()) else {
                throw SyntaxError(column: start + 1, reason: "unknown function '\(name)' (canonical:, lowercase:, uppercase: or now())")
            }
            guard characters[end - 1] == ")" else { throw SyntaxError(column: end, reason: "no ')' closes the argument of \(name)") }
            var argStart = open + 1, argEnd = end - 1
            while argStart < argEnd, characters[argStart].isWhitespace { argStart += 1 }
            while argEnd > argStart, characters[argEnd - 1].isWhitespace { argEnd -= 1 }
            guard argStart < argEnd else { throw SyntaxError(column: open + 2, reason: "\(name) needs a key path argument") }
            let path = try Self.keyPath(characters, argStart, argEnd)
            self = .function(function, path)
            return
        }
        self = .keyPath(try Self.keyPath(characters, start, end))
    }

    /// The key path in `characters[start..<end]`, collection operator in KVC's place.
    private static func keyPath(_ characters: [Character], _ start: Int, _ end: Int) throws(SyntaxError) -> String {
        var parts: [String] = []
        var current = ""
        var partStart = start
        for i in start..<end {
            let c = characters[i]
            if c == "." {
                guard !current.isEmpty else { throw SyntaxError(column: i + 1, reason: "empty key in the key path") }
                parts.append(current)
                current = ""
                partStart = i + 1
                continue
            }
            let allowed = c == "_" || c.isLetter || (c.isNumber && !current.isEmpty) || (c == "@" && current.isEmpty)
            guard allowed else { throw SyntaxError(column: i + 1, reason: "unexpected '\(c)' in the key path") }
            current.append(c)
        }
        guard !current.isEmpty else { throw SyntaxError(column: end + 1, reason: "the key path ends with '.'") }
        parts.append(current)
        if let bad = parts.first(where: { $0.hasPrefix("@") && !["@count", "@sum", "@avg", "@min", "@max"].contains($0) }) {
            throw SyntaxError(column: partStart + 1, reason: "unknown collection operator '\(bad)' (@count, @sum, @avg, @min, @max)")
        }
        // `items.price.@sum` (the operator last) is KVC's `items.@sum.price`.
        if parts.count >= 3, let last = parts.last, last != "@count", last.hasPrefix("@"), !parts[parts.count - 2].hasPrefix("@") {
            parts.swapAt(parts.count - 1, parts.count - 2)
        }
        return parts.joined(separator: ".")
    }

    /// The key path the expression reads (`nil` for `now()`).
    public var keyPathRead: String? {
        switch self {
        case .keyPath(let path), .function(_, let path): return path
        case .now: return nil
        }
    }

    /// The expression in the form ``init(parsing:)`` reads (KVC's operator order).
    public var description: String {
        switch self {
        case .keyPath(let path): return path
        case .function(let f, let path): return "\(f.rawValue):(\(path))"
        case .now: return "now()"
        }
    }
}

/// A string function of ``DerivationExpression/function(_:_:)``.
public enum DerivationFunction: String, Sendable, Hashable {
    /// Case folded and diacritics removed (a `[cd]` comparison's form of the string).
    case canonical
    /// Lowercased.
    case lowercase
    /// Uppercased.
    case uppercase

    /// `value` with the function applied (`nil` stays `nil`; a non-string is refused by the
    /// model check, so never reaches here).
    func apply(to value: Value) -> Value {
        guard case .string(let s) = value else { return value }
        switch self {
        case .canonical: return .string(StringMatching.fold(s, [.caseInsensitive, .diacriticInsensitive]))
        case .lowercase: return .string(s.lowercased())
        case .uppercase: return .string(s.uppercased())
        }
    }
}
