import ArgumentParser
import Foundation
import Quarry

/// `quarry update STORE --entity E [--where P] --set 'a = EXPR, …' [--yes | --dry-run]`: a batch
/// update, merged live into every browser and stack watching the store.
struct UpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Set attributes of every object a predicate selects, in one transaction.",
        discussion: """
            Each value is an expression over the object's own attributes: numbers and + - * /, \
            strings in quotes, nil, and the functions uppercase, lowercase, trim, length, abs, round, \
            floor, ceiling, min, max, coalesce, concat and now; every expression reads the object as \
            it was before the update. Prints how many objects will change and asks first (--yes \
            skips the question, --dry-run only counts). Every value is checked against the model \
            (type, required, minimum and maximum, pattern, uniqueness) before anything is written: \
            one bad value refuses the whole update, naming the attribute and the first objects at \
            fault. The update is recorded in the store's history, so browsers and stacks watching \
            the store merge it at once. Stores Quarry did not make are refused.
            """
    )

    @OptionGroup var selection: BatchSelectionOptions

    @Option(name: .long, help: "The assignments, e.g. 'price = price * 1.1, name = uppercase(name)'.")
    var set: String

    func run() throws {
        var request: BatchUpdateRequest?
        let done = try BatchCommandSupport.run(selection, verb: "update", prepare: { entity, predicate in
            do {
                request = try BatchUpdateRequest(entityName: entity.name, predicate: predicate, setting: set)
            } catch {
                throw ValidationError("--set: \(error)")
            }
        }, execute: { stack, _, _, progress in
            guard var request else { throw CommandFailure("no update prepared") }
            request.progress = progress
            request.author = "quarry update"
            return try stack.execute(request)
        })
        guard let done else { return }
        print("updated \(BatchCommandSupport.objects(done.result.count, done.entity.name))")
    }
}
