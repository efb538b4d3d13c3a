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

    @Argument(help: "The store (a Quarry SQLite store, JSON store folder or postgres:// store URL).")
    var store: String

    @Option(name: .long, help: "The entity whose objects are updated.")
    var entity: String

    @Option(name: .customLong("where"), help: "A predicate selecting the objects (default: all of them).")
    var predicate: String?

    @Option(name: .long, help: "The assignments, e.g. 'price = price * 1.1, name = uppercase(name)'.")
    var set: String

    @Flag(name: .long, help: "Do not ask before changing the objects.")
    var yes = false

    @Flag(name: .long, help: "Only count the objects that would change.")
    var dryRun = false

    func run() throws {
        let stack = try BatchCommandSupport.open(store)
        let (described, objectPredicate) = try BatchCommandSupport.selection(stack, entity: entity, predicate: predicate)
        var request: BatchUpdateRequest
        do {
            request = try BatchUpdateRequest(entityName: described.name, predicate: objectPredicate, setting: set)
        } catch {
            throw ValidationError("--set: \(error)")
        }
        let count = try BatchCommandSupport.count(stack, entity: described.name, predicate: objectPredicate)
        let what = BatchCommandSupport.objects(count, described.name)
        if dryRun {
            print("would update \(what)")
            return
        }
        guard count > 0 else {
            print("no \(described.name) object matches: nothing to update")
            return
        }
        try BatchCommandSupport.confirm("update \(what)?", yes: yes)
        let bar = ProgressBar()
        request.progress = BatchCommandSupport.progress(bar, "computed")
        request.author = "quarry update"
        let result: BatchResult
        do {
            result = try stack.execute(request)
        } catch {
            bar.finish()
            throw CommandFailure("\(error)")
        }
        bar.finish()
        print("updated \(BatchCommandSupport.objects(result.count, described.name))")
    }
}
