import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Property test: generated grouped and aggregate fetches (random filters, group-by keys and
/// aggregates, having) over the generated ticker store give, on every back end, the results a
/// plain reading of the objects gives (an oracle written without the engine's aggregator).
///
/// Reproduce a failure with `QUARRY_PARITY_SEED=<seed> swift test --filter AggregateParity`.
@Suite("Aggregate parity")
struct AggregateParityTests {
    static let groupKeys = ["sector.name", "active", "volume", "listed"]
    static let aggregates: [FetchedProperty] = [
        .count(), .aggregate(.count, "price"), .aggregate(.sum, "volume"), .aggregate(.avg, "price"), .aggregate(.min, "name"),
        .aggregate(.max, "listed"), .aggregate(.countDistinct, "sector.name"), .aggregate(.sum, "price"), .aggregate(.max, "volume"),
    ]

    /// What `properties` grouped by `groupBy` give over `objects`, read value by value.
    static func oracle(_ objects: [ManagedObject], groupBy: [String], properties: [FetchedProperty], context: ObjectContext) throws -> [[String: Value]] {
        let entity = context.model.entity(named: "Ticker")!
        func value(_ o: ManagedObject, _ path: String) throws -> Value {
            try KeyPathPlan(path, entity: entity, model: context.model).values(of: ObjectSubject(object: o)).first ?? .null
        }
        var order: [[Value]] = []
        var members: [[Value]: [ManagedObject]] = [:]
        for o in objects {
            let key = try groupBy.map { try value(o, $0) }
            if members[key] == nil { order.append(key) }
            members[key, default: []].append(o)
        }
        if order.isEmpty && groupBy.isEmpty { order = [[]]; members[[]] = [] }
        return try order.map { key in
            let group = members[key]!
            var row: [String: Value] = [:]
            for property in properties {
                switch property {
                case .key(let path): row[property.name] = key[groupBy.firstIndex(of: path)!]
                case .aggregate(let f, let path):
                    let values = try path.map { p in try group.map { try value($0, p) }.filter { !$0.isNull } } ?? []
                    switch f {
                    case .count: row[property.name] = .integer(Int64(path == nil ? group.count : values.count))
                    case .countDistinct: row[property.name] = .integer(Int64(Set(values).count))
                    case .min: row[property.name] = values.min { ValueOrdering.compare($0, $1) < 0 } ?? .null
                    case .max: row[property.name] = values.max { ValueOrdering.compare($0, $1) < 0 } ?? .null
                    case .sum, .avg:
                        if values.isEmpty { row[property.name] = .null; break }
                        if case .integer = values[0] {
                            let sum = values.reduce(Int64(0)) { if case .integer(let i) = $1 { return $0 + i }; return $0 }
                            row[property.name] = f == .sum ? .integer(sum) : .double(Double(sum) / Double(values.count))
                        } else {
                            let sum = values.reduce(0.0) { if case .double(let d) = $1 { return $0 + d }; return $0 }
                            row[property.name] = f == .sum ? .double(sum) : .double(sum / Double(values.count))
                        }
                    }
                }
            }
            return row
        }.sorted { a, b in
            for p in properties {
                let c = ValueOrdering.compare(a[p.name] ?? .null, b[p.name] ?? .null)
                if c != 0 { return c < 0 }
            }
            return false
        }
    }

    @Test("generated grouped fetches give the oracle's results on every back end")
    func parity() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = UInt64(environment["QUARRY_PARITY_SEED"] ?? "") ?? 0xA66_2E6A7E
        let iterations = Int(environment["QUARRY_PARITY_ITERATIONS"] ?? "") ?? 150
        for kind in StoreKind.allCases {
            let store = TestStore(kind)
            store.model.registerTickerClasses()
            let context = try store.context("parity")
            var rng = FuzzRandom(seed: seed)
            try context.performAndWait {
                try PredicateParityTests.populate(context, rng: &rng)
                context.reset()
                let all = try context.objects(ofEntity: "Ticker").sorted { $0.objectID < $1.objectID }
                let entity = context.model.entity(named: "Ticker")!
                var gen = PredicateParityTests.Generator(rng: rng)
                var failures = 0
                for iteration in 0..<iterations where failures < 3 {
                    let predicate = gen.chance(70) ? gen.predicate() : nil
                    let groupBy = Self.groupKeys.filter { _ in gen.chance(30) }
                    var properties = groupBy.map(FetchedProperty.key)
                    for aggregate in Self.aggregates where gen.chance(35) { properties.append(aggregate) }
                    if properties.isEmpty || properties.allSatisfy({ if case .key = $0 { return true } else { return false } }) { properties.append(.count()) }
                    var request = FetchRequest(entityName: "Ticker", predicate: predicate)
                    request.propertiesToFetch = properties
                    request.propertiesToGroupBy = groupBy
                    let evaluator = try predicate.map { try PredicateEvaluator($0, entity: entity, model: context.model) }
                    let selected = all.filter { evaluator?.evaluate($0) ?? true }
                    let expected = try Self.oracle(selected, groupBy: groupBy, properties: properties, context: context)
                    let got = try context.fetchDictionaries(request)
                    if got != expected {
                        failures += 1
                        Issue.record("""
                            \(kind) aggregate parity failure (seed \(seed), iteration \(iteration))
                              filter: \(predicate.map(\.description) ?? "none"); group by \(groupBy); properties \(properties.map(\.name))
                              got \(got.count) rows, expected \(expected.count); first difference:
                                \(zip(got, expected).first { $0 != $1 }.map { "\($0.0)\n    \($0.1)" } ?? "(one is a prefix of the other)")
                            """)
                    }
                }
            }
        }
    }
}
