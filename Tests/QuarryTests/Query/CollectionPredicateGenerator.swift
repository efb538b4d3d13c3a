import Foundation
@testable import Quarry
import QuarryTestSupport

/// Generates predicates with collection operators, subqueries and quantifiers over the
/// to-manys of the ticker model, for ``CollectionOperatorParityTests``: on `Sector` (its
/// tickers), `Tag` (its tickers, many-to-many) and `Ticker` (its tags, its sector's tickers).
/// Inner subquery predicates are ``PredicateParityTests/Generator``'s ticker comparisons
/// (names, prices, `sector.name`, `ANY tags.label`, …), relative to the element.
struct CollectionPredicateGenerator {
    var base: PredicateParityTests.Generator

    init(rng: FuzzRandom) { base = PredicateParityTests.Generator(rng: rng) }

    mutating func pick<T>(_ xs: [T]) -> T { base.pick(xs) }
    mutating func chance(_ percent: Int) -> Bool { base.chance(percent) }
    mutating func below(_ n: Int) -> Int { base.rng.below(n) }

    static let comparisons: [ComparisonOperator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
    static let patterns = ["file[0-9]+", ".*e.*", "[A-Z].*", "a.c", "東京.*", ".*"]

    // MARK: Constants

    mutating func price() -> Value { .double(Double(below(200)) / 4) }
    mutating func volume() -> Value { .integer(Int64(below(100)) * (chance(30) ? 50_000_000 : 1)) }
    mutating func date() -> Value { .date(Date(timeIntervalSinceReferenceDate: Double(below(100)) * 86_400)) }
    mutating func count() -> Value { .integer(Int64(below(16))) }

    /// A constant for an operand of `type`, `nil` sometimes.
    mutating func constant(_ type: AttributeType) -> Value {
        if chance(8) { return .null }
        switch type {
        case .double: return price()
        case .integer64: return chance(50) ? volume() : count()
        case .date: return date()
        case .boolean: return .bool(chance(50))
        default: return base.stringValue()
        }
    }

    /// `lhs` compared with constants of `type` by an operator that fits it (any comparison,
    /// `IN`, `BETWEEN`; for text also the string operators, with options).
    mutating func compare(_ lhs: Operand, _ type: AttributeType, modifier: ComparisonModifier = .direct) -> ObjectPredicate {
        let text = type == .string
        var ops = Self.comparisons + [.in, .between]
        if text { ops += [.beginsWith, .endsWith, .contains, .like, .matches] }
        let op = pick(ops)
        let rhs: Operand
        switch op {
        case .in: rhs = .list((0..<(1 + below(3))).map { _ in .constant(constant(type)) })
        case .between:
            let a = constant(type), b = constant(type)
            rhs = .list([.constant(a), .constant(b)].sorted { l, r in
                if case .constant(let x) = l, case .constant(let y) = r { return ValueOrdering.compare(x, y) < 0 }
                return false
            })
        case .matches: rhs = .constant(.string(pick(Self.patterns)))
        case .like:
            var pattern = base.stringValue()
            if case .string(let s) = pattern { pattern = .string(String(s.prefix(2)) + pick(["*", "?", "*e*", ""])) }
            rhs = .constant(pattern)
        default: rhs = .constant(constant(type))
        }
        let options: ComparisonOptions = text ? base.options() : []
        return .comparison(PredicateComparison(lhs, op, rhs, modifier: modifier, options: options))
    }

    // MARK: Operands over a to-many

    /// A collection operator over `collection`'s elements (tickers) and its type.
    mutating func tickerAggregate(_ collection: String) -> (String, AttributeType) {
        pick([
            ("\(collection).@sum.volume", .integer64), ("\(collection).@avg.price", .double), ("\(collection).@min.listed", .date),
            ("\(collection).@max.price", .double), ("\(collection).@count", .integer64), ("\(collection).@min.price", .double),
            ("\(collection).@max.volume", .integer64), ("\(collection).@avg.volume", .double), ("\(collection).@sum.price", .double),
            ("\(collection).@max.active", .boolean), ("\(collection).@max.listed", .date),
        ])
    }

    /// A ticker predicate, relative to the ticker (a subquery's inner predicate).
    mutating func tickerPredicate() -> ObjectPredicate {
        if chance(15) {
            // A nested subquery over the ticker's tags.
            let inner = compare(.keyPath("label"), .string)
            let nested = PredicateSubquery("tags", variable: "g", where: inner)
            return .comparison(PredicateComparison(.subquery(nested), pick(Self.comparisons), .constant(.integer(Int64(below(3))))))
        }
        return base.predicate(depth: 1)
    }

    /// `SUBQUERY(collection, $t, <ticker predicate>)` with `@count` or a collection operator, compared.
    mutating func tickerSubquery(_ collection: String) -> ObjectPredicate {
        let operations: [(PredicateSubquery.Operation, AttributeType)] = [
            (.count, .integer64), (.count, .integer64), (.count, .integer64), (.aggregate(.sum, attribute: "volume"), .integer64),
            (.aggregate(.avg, attribute: "price"), .double), (.aggregate(.min, attribute: "listed"), .date),
            (.aggregate(.max, attribute: "price"), .double),
        ]
        let (operation, type) = pick(operations)
        let subquery = PredicateSubquery(collection, variable: "t", where: tickerPredicate(), operation)
        if case .count = operation {
            return .comparison(PredicateComparison(.subquery(subquery), pick(Self.comparisons + [.between]), .constant(count()))
                .fixingBetween(low: count(), high: count()))
        }
        return compare(.subquery(subquery), type)
    }

    /// `ANY`/`ALL`/`NONE` `collection.<attribute> <any operator>` over tickers.
    mutating func tickerQuantifier(_ collection: String) -> ObjectPredicate {
        let (key, type): (String, AttributeType) = pick([
            ("name", .string), ("name", .string), ("price", .double), ("volume", .integer64), ("listed", .date), ("active", .boolean),
            ("sector.name", .string),
        ])
        return compare(.keyPath("\(collection).\(key)"), type, modifier: pick([.any, .all, .none]))
    }

    // MARK: Per entity

    /// A comparison on a sector.
    mutating func sectorComparison() -> ObjectPredicate {
        switch below(10) {
        case 0, 1, 2:
            let (path, type) = tickerAggregate("tickers")
            return compare(.keyPath(path), type)
        case 3, 4, 5: return tickerSubquery("tickers")
        case 6, 7, 8: return tickerQuantifier("tickers")
        default: return compare(.keyPath("name"), .string)
        }
    }

    /// A comparison on a tag (its tickers are many-to-many).
    mutating func tagComparison() -> ObjectPredicate {
        switch below(8) {
        case 0, 1, 2:
            let (path, type) = tickerAggregate("tickers")
            return compare(.keyPath(path), type)
        case 3, 4: return tickerSubquery("tickers")
        case 5, 6: return tickerQuantifier("tickers")
        default: return compare(.keyPath("label"), .string)
        }
    }

    /// A comparison on a ticker: over its tags, or over its sector's tickers.
    mutating func tickerComparison() -> ObjectPredicate {
        switch below(8) {
        case 0, 1:
            let labels = compare(.keyPath("label"), .string)
            let tags = PredicateSubquery("tags", variable: "g", where: chance(50) ? labels
                : .comparison(PredicateComparison(.keyPath("label"), .beginsWith, .constant(.string("g")), options: .caseInsensitive)))
            return .comparison(PredicateComparison(.subquery(tags), pick(Self.comparisons), .constant(.integer(Int64(below(4))))))
        case 2: return .comparison(PredicateComparison(.keyPath("tags.@count"), pick(Self.comparisons), .constant(.integer(Int64(below(4))))))
        case 3:
            let (path, type) = tickerAggregate("sector.tickers")
            return compare(.keyPath(path), type)
        case 4: return tickerSubquery("sector.tickers")
        case 5: return compare(.keyPath("tags.label"), .string, modifier: pick([.any, .all, .none]))
        default: return base.comparison()
        }
    }

    /// `leaf`s combined with `AND`, `OR` and `NOT`.
    mutating func combined(depth: Int = 0, _ leaf: (inout Self) -> ObjectPredicate) -> ObjectPredicate {
        guard depth < 2, chance(40) else { return leaf(&self) }
        switch below(3) {
        case 0: return .and((0..<(2 + below(2))).map { _ in combined(depth: depth + 1, leaf) })
        case 1: return .or((0..<(2 + below(2))).map { _ in combined(depth: depth + 1, leaf) })
        default: return .not(combined(depth: depth + 1, leaf))
        }
    }
}

extension PredicateComparison {
    /// A `BETWEEN` given a list of bounds (`low`, `high`, ordered) instead of one constant.
    fileprivate func fixingBetween(low: Value, high: Value) -> PredicateComparison {
        guard op == .between else { return self }
        var c = self
        let bounds = ValueOrdering.compare(low, high) <= 0 ? [low, high] : [high, low]
        c.rhs = .list(bounds.map(Operand.constant))
        return c
    }
}
