import ArgumentParser
import Foundation
import Quarry

/// `quarry delete STORE --entity E [--where P] [--yes | --dry-run]`: a batch delete with every
/// delete rule applied, merged live into every browser and stack watching the store.
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete every object a predicate selects, with the model's delete rules, in one transaction.",
        discussion: """
            Delete rules apply as when objects are deleted one by one: Cascade deletes the related \
            objects too, Nullify removes the deleted objects from the objects that held them, Deny \
            refuses the whole delete (naming the relationship and how many objects hold it), No \
            Action leaves related objects as they are. Prints how many objects will be deleted and \
            asks first (--yes skips the question, --dry-run only counts). The delete is recorded in \
            the store's history, so browsers and stacks watching the store merge it at once. Stores \
            Quarry did not make are refused.
            """
    )

    @Argument(help: "The store (a Quarry SQLite store, JSON store folder or postgres:// store URL).")
    var store: String

    @Option(name: .long, help: "The entity whose objects are deleted.")
    var entity: String

    @Option(name: .customLong("where"), help: "A predicate selecting the objects (default: all of them).")
    var predicate: String?

    @Flag(name: .long, help: "Do not ask before deleting the objects.")
    var yes = false

    @Flag(name: .long, help: "Only count the objects that would be deleted.")
    var dryRun = false

    func run() throws {
        let stack = try BatchCommandSupport.open(store)
        let (described, objectPredicate) = try BatchCommandSupport.selection(stack, entity: entity, predicate: predicate)
        let count = try BatchCommandSupport.count(stack, entity: described.name, predicate: objectPredicate)
        let what = BatchCommandSupport.objects(count, described.name)
        let cascades = described.relationships.contains { $0.deleteRule == .cascade } ? " (and what their Cascade rules reach)" : ""
        if dryRun {
            print("would delete \(what)\(cascades)")
            return
        }
        guard count > 0 else {
            print("no \(described.name) object matches: nothing to delete")
            return
        }
        try BatchCommandSupport.confirm("delete \(what)\(cascades)?", yes: yes)
        let bar = ProgressBar()
        var request = BatchDeleteRequest(fetchRequest: FetchRequest(entityName: described.name, predicate: objectPredicate))
        request.progress = BatchCommandSupport.progress(bar, "planned")
        request.author = "quarry delete"
        let result: BatchResult
        do {
            result = try stack.execute(request)
        } catch {
            bar.finish()
            throw CommandFailure("\(error)")
        }
        bar.finish()
        let related = result.changes.deleted.count - result.count
        print("deleted \(BatchCommandSupport.objects(result.count, described.name))"
              + (related > 0 ? " and \(related.formatted(.number.grouping(.automatic))) related object\(related == 1 ? "" : "s") (Cascade)" : ""))
    }
}
