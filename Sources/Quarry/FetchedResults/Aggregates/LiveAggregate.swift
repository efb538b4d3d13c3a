import Foundation

/// One aggregate of one live group that values can leave as well as join: what a
/// ``AggregateResultsController`` keeps per group and column, with the meanings of
/// ``AggregateAccumulator`` (`nil` values left out; an aggregate of no values is `nil`,
/// `count` is 0).
///
/// Counts and integer sums are exact (integers add in 128 bits, so no order of joins and
/// leaves overflows on the way); double sums are compensated (Neumaier), so a long run of
/// joins and leaves stays within a few units in the last place of a fresh sum; decimal sums
/// are exact. A minimum or maximum whose value leaves is marked stale: its owner recomputes
/// it from the group's remaining values (``needsRecompute``).
struct LiveAggregate {
    let function: AggregateFunction
    let arithmetic: AggregateAccumulator.Arithmetic
    /// How many non-`nil` values (objects, for `count()`) the group holds.
    private(set) var count = 0
    private var integerSum: Int128 = 0
    private var doubleSum = 0.0
    private var doubleCompensation = 0.0
    private var decimalSum = Decimal(0)
    /// `count(distinct)`: how many times each distinct value is held.
    private var distinct: [Value: Int] = [:]
    /// The current minimum or maximum, when known.
    private var extreme: Value?
    /// Whether the extreme left the group and must be recomputed from its values.
    private(set) var needsRecompute = false

    init(_ function: AggregateFunction, arithmetic: AggregateAccumulator.Arithmetic) {
        self.function = function
        self.arithmetic = arithmetic
    }

    /// Counts one more object (`count()` only).
    mutating func addObject() { count += 1 }

    /// Counts one object less (`count()` only).
    mutating func removeObject() {
        assert(count > 0, "an object leaves a group it was counted in")
        count -= 1
    }

    /// A value joins the group.
    mutating func add(_ value: Value) {
        if case .null = value { return }
        count += 1
        switch function {
        case .count: return
        case .countDistinct: distinct[Self.distinctKey(value), default: 0] += 1
        case .sum, .avg: accumulate(value, sign: 1)
        case .min, .max:
            guard !needsRecompute else { return }
            guard let current = extreme else { extreme = value; return }
            if beats(value, current) { extreme = value }
        }
    }

    /// A value the group held leaves it.
    mutating func remove(_ value: Value) {
        if case .null = value { return }
        assert(count > 0, "a value leaves a group that held it")
        count -= 1
        switch function {
        case .count: return
        case .countDistinct:
            let key = Self.distinctKey(value)
            let left = (distinct[key] ?? 1) - 1
            distinct[key] = left > 0 ? left : nil
        case .sum, .avg: accumulate(value, sign: -1)
        case .min, .max:
            guard count > 0 else { extreme = nil; needsRecompute = false; return }
            // Only the extreme leaving changes it; a value beyond it cannot have been held.
            if let current = extreme, ValueOrdering.compare(value, current) == 0 { needsRecompute = true }
        }
    }

    /// Sets a minimum or maximum from every value the group still holds (after
    /// ``needsRecompute``).
    mutating func recompute(from values: some Sequence<Value>) {
        extreme = nil
        needsRecompute = false
        for value in values where !value.isNull {
            if let current = extreme, !beats(value, current) { continue }
            extreme = value
        }
    }

    /// The aggregate now.
    /// - Throws: ``QueryError/invalidOperand(_:)`` for an integer sum beyond 64 bits.
    func result(name: @autoclosure () -> String) throws -> Value {
        assert(!needsRecompute, "a stale extreme is recomputed before it is read")
        switch function {
        case .count: return .integer(Int64(count))
        case .countDistinct: return .integer(Int64(distinct.count))
        case .min, .max: return count > 0 ? extreme ?? .null : .null
        case .sum:
            guard count > 0 else { return .null }
            switch arithmetic {
            case .integer:
                guard let sum = Int64(exactly: integerSum) else { throw QueryError.invalidOperand("\(name()) overflows a 64-bit integer") }
                return .integer(sum)
            case .decimal: return .decimal(decimalSum)
            default: return .double(doubleSum + doubleCompensation)
            }
        case .avg:
            guard count > 0 else { return .null }
            switch arithmetic {
            case .integer: return .double(Double(integerSum) / Double(count))
            case .decimal: return .decimal(decimalSum / Decimal(count))
            default: return .double((doubleSum + doubleCompensation) / Double(count))
            }
        }
    }

    /// Adds (`sign` 1) or subtracts (`sign` -1) one number.
    private mutating func accumulate(_ value: Value, sign: Int) {
        switch (arithmetic, value) {
        case (.integer, .integer(let i)): integerSum += sign > 0 ? Int128(i) : -Int128(i)
        case (.decimal, .decimal(let d)): decimalSum += sign > 0 ? d.decimal : -d.decimal
        case (_, .double(let d)): addDouble(sign > 0 ? d : -d)
        case (_, .integer(let i)): addDouble(Double(sign) * Double(i))
        default: break
        }
    }

    /// Neumaier's compensated addition: the low-order bits each step loses are kept apart.
    private mutating func addDouble(_ x: Double) {
        let t = doubleSum + x
        if abs(doubleSum) >= abs(x) {
            doubleCompensation += (doubleSum - t) + x
        } else {
            doubleCompensation += (x - t) + doubleSum
        }
        doubleSum = t
    }

    /// Whether `value` is a better extreme than `current` (less for `min`, greater for `max`).
    private func beats(_ value: Value, _ current: Value) -> Bool {
        let order = ValueOrdering.compare(value, current)
        return function == .min ? order < 0 : order > 0
    }

    /// Equal numbers of different kinds count once (`2` and `2.0`), as SQL compares them.
    private static func distinctKey(_ value: Value) -> Value {
        if case .integer(let i) = value { return .double(Double(i)) }
        return value
    }
}
