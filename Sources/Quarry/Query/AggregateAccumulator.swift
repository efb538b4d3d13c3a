import Foundation

/// One aggregate of one group, fed value by value: SQL's meanings (`nil` values left out; an
/// aggregate of no values is `nil`, `count` is 0), an integer sum that leaves 64 bits an error.
struct AggregateAccumulator {
    /// How the values of a sum or mean are added.
    enum Arithmetic {
        case integer, double, decimal, none
    }

    let function: AggregateFunction
    let arithmetic: Arithmetic
    /// How many non-`nil` values (objects, for `count()`) were fed.
    private(set) var count = 0
    private var integerSum: Int64 = 0
    private var integerOverflowed = false
    private var doubleSum = 0.0
    private var decimalSum = Decimal(0)
    private var extreme: Value?
    private var distinct = Set<Value>()

    init(_ function: AggregateFunction, arithmetic: Arithmetic) {
        self.function = function
        self.arithmetic = arithmetic
    }

    /// Counts one object (`count()` only).
    mutating func addObject() { count += 1 }

    /// Feeds one value of the aggregated key path.
    /// - Throws: ``QueryError/invalidOperand(_:)`` when an integer sum leaves 64 bits.
    mutating func add(_ value: Value, name: @autoclosure () -> String) throws {
        if case .null = value { return }
        count += 1
        switch function {
        case .count: return
        case .countDistinct: distinct.insert(Self.distinctKey(value))
        case .sum, .avg:
            switch (arithmetic, value) {
            case (.integer, .integer(let i)):
                let (sum, overflow) = integerSum.addingReportingOverflow(i)
                // A mean goes on in doubles (as SQL's avg does); a sum stops.
                if overflow && function == .sum { throw QueryError.invalidOperand("\(name()) overflows a 64-bit integer") }
                integerSum = sum
                integerOverflowed = integerOverflowed || overflow
                doubleSum += Double(i)
            case (.decimal, .decimal(let d)): decimalSum += d.decimal
            case (_, .double(let d)): doubleSum += d
            case (_, .integer(let i)): doubleSum += Double(i)
            default: break
            }
        case .min, .max:
            guard let current = extreme else { extreme = value; return }
            let order = ValueOrdering.compare(value, current)
            if (function == .min && order < 0) || (function == .max && order > 0) { extreme = value }
        }
    }

    /// The aggregate of what was fed.
    var result: Value {
        switch function {
        case .count: return .integer(Int64(count))
        case .countDistinct: return .integer(Int64(distinct.count))
        case .min, .max: return extreme ?? .null
        case .sum:
            guard count > 0 else { return .null }
            switch arithmetic {
            case .integer: return .integer(integerSum)
            case .decimal: return .decimal(decimalSum)
            default: return .double(doubleSum)
            }
        case .avg:
            guard count > 0 else { return .null }
            switch arithmetic {
            case .integer: return .double((integerOverflowed ? doubleSum : Double(integerSum)) / Double(count))
            case .decimal: return .decimal(decimalSum / Decimal(count))
            default: return .double(doubleSum / Double(count))
            }
        }
    }

    /// Equal numbers of different kinds count once (`2` and `2.0`), as SQL compares them.
    private static func distinctKey(_ value: Value) -> Value {
        if case .integer(let i) = value { return .double(Double(i)) }
        return value
    }
}
