import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// What the parity suites share: the seed and iteration count (overridable from the
/// environment, `QUARRY_PARITY_SEED` and `QUARRY_PARITY_ITERATIONS`) and the comparison of a
/// store's fetch with the in-memory evaluator and sorter over the same objects.
enum ParityHarness {
    /// `QUARRY_PARITY_SEED`, or `value`.
    static func seed(default value: UInt64) -> UInt64 {
        UInt64(ProcessInfo.processInfo.environment["QUARRY_PARITY_SEED"] ?? "") ?? value
    }

    /// `QUARRY_PARITY_ITERATIONS`, or `value`.
    static func iterations(default value: Int) -> Int {
        Int(ProcessInfo.processInfo.environment["QUARRY_PARITY_ITERATIONS"] ?? "") ?? value
    }

    /// How many objects both select when the store behind `context` (called on its queue,
    /// with nothing unsaved) selects the same IDs in the same order for `predicate` and `keys`
    /// as the in-memory evaluator and sorter over `objects` (every object of `entity`); else
    /// `nil`, with an issue recorded naming `backEnd`, the seed and the iteration. An error on
    /// either side is a failure.
    static func agreement(_ context: ObjectContext, entity: EntityDescription, objects: [ManagedObject],
                          predicate: ObjectPredicate, keys: [SortKey], backEnd: String, seed: UInt64, iteration: Int) -> Int? {
        let store: [ObjectID], memory: [ObjectID]
        do {
            store = try context.fetchObjectIDs(FetchRequest(entityName: entity.name, predicate: predicate, sortDescriptors: keys))
        } catch {
            Issue.record("\(backEnd) parity failure (seed \(seed), iteration \(iteration)): the store failed: \(error)\n  predicate: \(predicate)")
            return nil
        }
        do {
            let evaluator = try PredicateEvaluator(predicate, entity: entity, model: context.model)
            let sorter = try SubjectSorter<ObjectSubject>(keys, entity: entity, model: context.model)
            let selected = try objects.filter { try evaluator.test($0) }.map(\.objectID)
            memory = sorter.sort(selected) { ObjectSubject(object: context.object(with: $0)) }
        } catch {
            Issue.record("\(backEnd) parity failure (seed \(seed), iteration \(iteration)): memory failed: \(error)\n  predicate: \(predicate)")
            return nil
        }
        guard store != memory else { return store.count }
        let onlyStore = Set(store).subtracting(memory).map { context.object(with: $0).description }
        let onlyMemory = Set(memory).subtracting(store).map { context.object(with: $0).description }
        Issue.record("""
            \(backEnd) parity failure (seed \(seed), iteration \(iteration))
              predicate: \(predicate)
              sort: \(keys)
              counts: store \(store.count), memory \(memory.count)
              same members: \(Set(store) == Set(memory))
              only in the store: \(onlyStore.prefix(3))
              only in memory: \(onlyMemory.prefix(3))
            """)
        return nil
    }
}
