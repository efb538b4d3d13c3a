import ArgumentParser
import Foundation
import Quarry

/// What `quarry update` and `quarry delete` share: the store opened for writing (a store Quarry
/// did not make refused, naming it), the entity and `--where` checked before anything is
/// counted, the question before anything changes, the progress line.
enum BatchCommandSupport {
    /// Opens `store` for writing with the model it records.
    static func open(_ store: String) throws -> PersistentStack {
        let location = try StoreLocation(store)
        guard try StoreOpening.storeExists(at: location) else { throw ValidationError("\(location.shown): no such store") }
        return try StoreOpening.openForWriting(location, model: nil)
    }

    /// The entity named `--entity` and the predicate of `--where`, checked against the model.
    static func selection(_ stack: PersistentStack, entity: String, predicate: String?) throws -> (EntityDescription, ObjectPredicate?) {
        guard let described = stack.model.entity(named: entity) else {
            throw ValidationError("--entity \(entity): the model has no such entity (it has \(stack.model.entities.map(\.name).joined(separator: ", ")))")
        }
        do {
            let parsed = try predicate.map { try ObjectPredicate(format: $0) }
            if let parsed { _ = try PredicateEvaluator(parsed, entity: described, model: stack.model) }
            return (described, parsed)
        } catch {
            throw ValidationError("--where: \(error)")
        }
    }

    /// How many objects of `entity` `predicate` selects now.
    static func count(_ stack: PersistentStack, entity: String, predicate: ObjectPredicate?) throws -> Int {
        let context = stack.importerContext()
        return try context.performAndWait { try context.count(for: FetchRequest(entityName: entity, predicate: predicate)) }
    }

    /// `count` objects of `entity`, in words ("1 Sector object", "25,000 Ticker objects").
    static func objects(_ count: Int, _ entity: String) -> String {
        "\(count.formatted(.number.grouping(.automatic))) \(entity) object\(count == 1 ? "" : "s")"
    }

    /// Asks `question` on standard error and reads the answer from standard input, unless `yes`;
    /// anything but `y` or `yes` (an end of input included) stops the command, nothing changed.
    static func confirm(_ question: String, yes: Bool) throws {
        guard !yes else { return }
        FileHandle.standardError.write(Data("\(ConsoleText.escapedLines(question)) [y/N] ".utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else {
            throw CommandFailure("not confirmed: nothing was changed (--yes skips the question)")
        }
    }

    /// A progress callback drawing `bar`, labelled `verb` (e.g. "computed", "planned").
    static func progress(_ bar: ProgressBar, _ verb: String) -> @Sendable (BatchProgress) -> Void {
        { progress in
            bar.draw(done: progress.done, total: progress.total, label: progress.written ? "written" : verb)
        }
    }
}
