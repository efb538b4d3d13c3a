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

    @OptionGroup var selection: BatchSelectionOptions

    func run() throws {
        let done = try BatchCommandSupport.run(selection, verb: "delete", consequence: { entity in
            entity.relationships.contains { $0.deleteRule == .cascade } ? " (and what their Cascade rules reach)" : ""
        }, execute: { stack, entity, predicate, progress in
            var request = BatchDeleteRequest(fetchRequest: FetchRequest(entityName: entity.name, predicate: predicate))
            request.progress = progress
            request.author = "quarry delete"
            return try stack.execute(request)
        })
        guard let done else { return }
        let related = done.result.changes.deleted.count - done.result.count
        print("deleted \(BatchCommandSupport.objects(done.result.count, done.entity.name))"
              + (related > 0 ? " and \(related.formatted(.number.grouping(.automatic))) related object\(related == 1 ? "" : "s") (Cascade)" : ""))
    }
}
