/// One column of a dictionary fetch (``FetchRequest/propertiesToFetch``): a key path's value, or
/// an aggregate over the objects of a group — Core Data's `propertiesToFetch` with its
/// `NSExpressionDescription`s.
///
/// ```swift
/// var request = FetchRequest(entityName: "Ticker")
/// request.propertiesToFetch = [.key("sector.name"), .count(), .aggregate(.sum, "volume")]
/// request.propertiesToGroupBy = ["sector.name"]
/// let rows = try context.fetchDictionaries(request)   // [["sector.name": …, "count()": …, "sum(volume)": …]]
/// ```
public enum FetchedProperty: Sendable, Hashable, CustomStringConvertible {
    /// The value of an attribute or a to-one key path (`sector.name`).
    case key(String)
    /// An aggregate of `keyPath` over each group (`count` with no key path counts objects).
    case aggregate(AggregateFunction, String?)

    /// How many objects each group has: `count()`.
    public static func count() -> FetchedProperty { .aggregate(.count, nil) }

    /// The key the column has in each result dictionary: the key path, or the aggregate as
    /// written (`count()`, `sum(volume)`, `count(distinct sector.name)`).
    public var name: String { description }

    /// The property as ``init(parsing:)`` reads it.
    public var description: String {
        switch self {
        case .key(let path): return path
        case .aggregate(.countDistinct, let path): return "count(distinct \(path ?? ""))"
        case .aggregate(let function, let path): return "\(function.rawValue)(\(path ?? ""))"
        }
    }

    /// Reads one property: a key path, or `FUNCTION(KEYPATH)` with `count()`, `count(KEYPATH)`,
    /// `count(distinct KEYPATH)`, `sum`, `avg`, `min`, `max` (function names in any case).
    /// - Throws: ``QueryError`` naming the text at fault.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let open = trimmed.firstIndex(of: "(") else {
            guard !trimmed.isEmpty, !trimmed.contains(")") else {
                throw QueryError.invalidOperand("'\(text)' is neither a key path nor an aggregate such as sum(volume)")
            }
            self = .key(trimmed)
            return
        }
        guard trimmed.hasSuffix(")") else { throw QueryError.invalidOperand("'\(text)': no ')' closes the aggregate") }
        let word = trimmed[..<open].trimmingCharacters(in: .whitespaces).lowercased()
        var argument = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)].trimmingCharacters(in: .whitespaces)
        var distinct = false
        if argument.lowercased().hasPrefix("distinct ") {
            distinct = true
            argument = String(argument.dropFirst("distinct ".count)).trimmingCharacters(in: .whitespaces)
        }
        guard let function = AggregateFunction(rawValue: word), function != .countDistinct else {
            throw QueryError.invalidOperand("'\(text)': unknown aggregate '\(word)' (count, sum, avg, min, max, count(distinct …))")
        }
        if distinct && function != .count { throw QueryError.invalidOperand("'\(text)': only count takes distinct") }
        if argument.isEmpty {
            guard function == .count, !distinct else { throw QueryError.invalidOperand("'\(text)': \(word) needs a key path") }
            self = .aggregate(.count, nil)
        } else {
            self = .aggregate(distinct ? .countDistinct : function, argument)
        }
    }

    /// Reads a comma-separated list of properties (`sector.name, count(), sum(volume)`).
    /// - Throws: ``QueryError`` naming the property at fault.
    public static func list(parsing text: String) throws -> [FetchedProperty] {
        var items: [String] = []
        var depth = 0, current = ""
        for c in text {
            if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }
            if c == ",", depth == 0 { items.append(current); current = "" } else { current.append(c) }
        }
        items.append(current)
        return try items.map(FetchedProperty.init(parsing:))
    }

    /// The key path the property reads, if any.
    var keyPath: String? {
        switch self {
        case .key(let path): return path
        case .aggregate(_, let path): return path
        }
    }
}

/// An aggregate of ``FetchedProperty/aggregate(_:_:)``, with SQL's meanings: `nil` values are
/// left out, and an aggregate of no values is `nil` (`count`: 0).
public enum AggregateFunction: String, Sendable, Hashable {
    /// How many objects (no key path) or non-`nil` values.
    case count
    /// How many distinct non-`nil` values.
    case countDistinct = "count distinct"
    /// The sum of numbers: an integer sum that leaves 64 bits is an error, never a wrap.
    case sum
    /// The mean of numbers (a double; a decimal for decimals).
    case avg
    /// The least value (numbers, strings, dates).
    case min
    /// The greatest value.
    case max
}
