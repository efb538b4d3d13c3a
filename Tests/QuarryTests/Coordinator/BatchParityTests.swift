import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Property test: the same generated batch updates and deletes (generated predicates, random
/// assignments, cascades and nullifies, some refused by the model) applied in lock step to the
/// same generated store on every back end leave every back end with the same objects, values
/// and relationships, and give the same counts and the same refusals.
///
/// Reproduce a failure with `QUARRY_PARITY_SEED=<seed> swift test --filter BatchParity`.
@Suite("Batch request parity")
struct BatchParityTests {
    static let assignments = [
        "price = price * 2", "price = coalesce(price, 0) + 1.25", "volume = volume + 1", "name = uppercase(name)",
        "name = concat(coalesce(name, ''), '!')", "active = nil", "listed = listed + 86400", "volume = length(name)",
        "price = price / 3", "price = price - 40", "symbol = lowercase(symbol)", "volume = volume * 1.5",
        "price = round(price), volume = volume - 50", "name = trim(name), active = true",
    ]

    /// Every ticker, sector and tag as one comparable text: values, to-ones and tag members.
    static func dump(_ context: ObjectContext) throws -> [String] {
        try context.performAndWait {
            context.reset()
            var lines: [String] = []
            for entity in ["Sector", "Tag", "Quote", "Ticker"] {
                for object in try context.fetch(FetchRequest(entityName: entity)).sorted(by: { $0.objectID < $1.objectID }) {
                    var line = "\(entity) \(object.objectID.primaryKey):"
                    for attribute in object.entity.attributes where !attribute.isTransient { line += " \(attribute.name)=\(object[attribute.name] as Value)" }
                    for (r, relationship) in object.entity.relationships.enumerated() {
                        if relationship.isToMany {
                            let members = try context.toManyContents(of: object, relationship: r).map(\.primaryKey).sorted()
                            line += " \(relationship.name)=\(members)"
                        } else {
                            line += " \(relationship.name)=\(object.toOne[r].map { String($0.primaryKey) } ?? "nil")"
                        }
                    }
                    lines.append(line)
                }
            }
            return lines
        }
    }

    /// The outcome of one request: its count, or its refusal.
    static func outcome(_ body: () throws -> BatchResult) -> String {
        do { return "count \(try body().count)" } catch { return "refused: \(error)" }
    }

    @Test("generated batch updates and deletes leave SQLite, in-memory and JSON stores (and PostgreSQL) identical")
    func parity() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = UInt64(environment["QUARRY_PARITY_SEED"] ?? "") ?? 0xBA7C_4ED1
        let steps = Int(environment["QUARRY_PARITY_ITERATIONS"] ?? "") ?? 60
        let kinds = StoreKind.allCases
        let stores = kinds.map { TestStore($0) }
        stores[0].model.registerTickerClasses()
        var writers: [StoreCoordinator] = []
        var readers: [ObjectContext] = []
        var rng = FuzzRandom(seed: seed)
        for store in stores {
            var copy = rng
            let seeding = try store.context("seed")
            try seeding.performAndWait {
                try PredicateParityTests.populate(seeding, rng: &copy)
                // Quotes, so that deleting a ticker cascades.
                for ticker in try seeding.fetch(FetchRequest(entityName: "Ticker")) as! [Ticker] where ticker.objectID.primaryKey % 3 == 0 {
                    let quote = try seeding.insert(Quote.self)
                    quote.price = 1; quote.time = Date(timeIntervalSinceReferenceDate: 0); quote.ticker = ticker
                }
                try seeding.save()
            }
            if store === stores.last { rng = copy }
            writers.append(try store.coordinator("writer"))
            readers.append(try store.context("reader"))
        }
        var gen = PredicateParityTests.Generator(rng: rng)
        var failures = 0
        var changed = 0, refused = 0
        for step in 0..<steps where failures < 3 {
            let predicate = gen.predicate()
            let operation: String
            let run: (StoreCoordinator) throws -> BatchResult
            // Mostly updates: deletes (with their cascades) soon leave too little to update.
            switch gen.rng.below(20) {
            case 0..<16:
                let set = gen.pick(Self.assignments)
                operation = "update Ticker set \(set) where \(predicate)"
                let request = try BatchUpdateRequest(entityName: "Ticker", predicate: predicate, setting: set)
                run = { try $0.execute(request) }
            case 16..<19:
                operation = "delete Ticker where \(predicate)"
                run = { try $0.execute(BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Ticker", predicate: predicate))) }
            default:
                let name = gen.pick(PredicateParityTests.sectors)
                operation = "delete Sector named \(name)"
                let fetch = FetchRequest(entityName: "Sector", predicate: try ObjectPredicate(format: "name == %@", .value(.string(name))))
                run = { try $0.execute(BatchDeleteRequest(fetchRequest: fetch)) }
            }
            let outcomes = writers.map { writer in Self.outcome { try run(writer) } }
            let states = try readers.map(Self.dump)
            if outcomes[0].hasPrefix("refused") { refused += 1 } else if outcomes[0] != "count 0" { changed += 1 }
            for i in 1..<kinds.count where outcomes[i] != outcomes[0] || states[i] != states[0] {
                failures += 1
                let firstDifference = zip(states[0], states[i]).first { $0 != $1 }
                Issue.record("""
                    batch parity failure (seed \(seed), step \(step)): \(operation)
                      \(kinds[0]): \(outcomes[0])
                      \(kinds[i]): \(outcomes[i])
                      objects: \(states[0].count) vs \(states[i].count); first difference:
                        \(firstDifference?.0 ?? "-")
                        \(firstDifference?.1 ?? "-")
                    """)
            }
        }
        // The generated requests change objects and are refused, both often: neither side of
        // the comparison is vacuous.
        #expect(changed > steps / 5 && refused >= 2, "\(changed) steps changed objects, \(refused) were refused, of \(steps)")
    }
}
