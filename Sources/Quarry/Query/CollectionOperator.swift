import Foundation

/// A collection operator of the predicate language: one value computed from an attribute of
/// a to-many's elements, in a key path (`tickers.@sum.volume > 1e9`) or after a `SUBQUERY`
/// (`SUBQUERY(tickers, $t, $t.active == YES).@avg.price < 10`). (`@count` needs no attribute
/// and is written on its own.)
///
/// Every back end computes them alike: `nil` values are left out; `@sum` of no values is 0
/// (an integer for integer attributes), `@avg`, `@min` and `@max` of no values are `nil`; an
/// integer `@sum` beyond 64 bits is an error, never a wrap; `@avg` is a double; decimals are
/// summed and averaged as doubles (as SQL compares them). `@sum` and `@avg` take integer,
/// double, float and decimal attributes; `@min` and `@max` also dates and Booleans.
public enum CollectionOperator: String, Sendable, Hashable, CaseIterable {
    /// The sum of the values (`@sum`).
    case sum = "@sum"
    /// The mean of the values, a double (`@avg`).
    case avg = "@avg"
    /// The least value (`@min`).
    case min = "@min"
    /// The greatest value (`@max`).
    case max = "@max"

    /// Why `attribute` cannot be summarized by this operator (`"@sum needs a number attribute;
    /// 'name' is a string"`), or `nil` when it can.
    func refusal(of attribute: AttributeDescription) -> String? {
        if attribute.isTransient { return "\(rawValue) needs a stored attribute; '\(attribute.name)' is transient" }
        switch (self, attribute.type) {
        case (_, .integer16), (_, .integer32), (_, .integer64), (_, .double), (_, .float), (_, .decimal): return nil
        case (.min, .date), (.min, .boolean), (.max, .date), (.max, .boolean): return nil
        default:
            let wanted = self == .sum || self == .avg ? "a number attribute" : "a number, date or Boolean attribute"
            return "\(rawValue) needs \(wanted); '\(attribute.name)' is \(Self.article(attribute.type))"
        }
    }

    /// The type of the operator's result over an attribute of `type` (one it accepts): an
    /// integer sum stays an integer, other sums and every mean are doubles, `@min`/`@max`
    /// keep the attribute's type.
    func resultType(over type: AttributeType) -> AttributeType {
        switch self {
        case .sum:
            switch type {
            case .integer16, .integer32, .integer64: return .integer64
            default: return .double
            }
        case .avg: return .double
        case .min, .max: return type
        }
    }

    /// The operator over `values` of an attribute of `type`, as every back end computes it.
    /// - Throws: ``QueryError/invalidOperand(_:)`` naming `name` when an integer sum leaves 64 bits.
    func summarize(_ values: [Value], type: AttributeType, name: @autoclosure () -> String) throws -> Value {
        let isInteger = resultType(over: type) == .integer64 || (self == .avg && [.integer16, .integer32, .integer64].contains(type))
        var accumulator = AggregateAccumulator(aggregateFunction, arithmetic: isInteger ? .integer : .double)
        for value in values {
            // Decimals add as doubles, the numbers SQL compares them as.
            if case .decimal = value, let d = value.numericValue {
                try accumulator.add(.double(d), name: name())
            } else {
                try accumulator.add(value, name: name())
            }
        }
        let result = accumulator.result
        if self == .sum, result.isNull { return isInteger ? .integer(0) : .double(0) }
        return result
    }

    /// The dictionary-fetch aggregate that computes the same thing over a group.
    var aggregateFunction: AggregateFunction {
        switch self {
        case .sum: return .sum
        case .avg: return .avg
        case .min: return .min
        case .max: return .max
        }
    }

    /// A type named with its article, for messages: "a string", "binary data".
    private static func article(_ type: AttributeType) -> String {
        switch type {
        case .string: return "a string"
        case .binary: return "binary data"
        case .uuid: return "a UUID"
        case .uri: return "a URI"
        case .transformable: return "transformable"
        case .undefined: return "of undefined type"
        case .date: return "a date"
        case .boolean: return "a Boolean"
        default: return "a \(type.rawValue)"
        }
    }
}
