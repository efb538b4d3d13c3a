import ArgumentParser
import Foundation
import Quarry

/// The arguments `quarry update` and `quarry delete` share: the store, the entity, `--where`,
/// `--yes` and `--dry-run`.
struct BatchSelectionOptions: ParsableArguments {
    @Argument(help: "The store (a Quarry SQLite store, JSON store folder or postgres:// store URL).")
    var store: String

    @Option(name: .long, help: "The entity whose objects change.")
    var entity: String

    @Option(name: .customLong("where"), help: "A predicate selecting the objects (default: all of them).")
    var predicate: String?

    @Flag(name: .long, help: "Do not ask before changing the objects.")
    var yes = false

    @Flag(name: .long, help: "Only count the objects that would change.")
    var dryRun = false

    @OptionGroup var quietOption: QuietOption
}

/// What `quarry update` and `quarry delete` share: the store opened for writing (a store Quarry
/// did not make refused, naming it), the entity and `--where` checked before anything is
/// counted, the count, the question before anything changes, the progress line.
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

    /// Opens the store `options` name, checks the entity and `--where`, counts the objects and
    /// says the count (`--dry-run`: `would VERB N objects`, then stops), asks unless `--yes`, then
    /// runs `execute` with a progress callback (labelled `verb`) and returns its result; `nil`
    /// when nothing ran. `prepare` checks the rest of the command line before anything is counted.
    static func run(_ options: BatchSelectionOptions, verb: String, consequence: (EntityDescription) -> String = { _ in "" },
                    prepare: (EntityDescription, ObjectPredicate?) throws -> Void = { _, _ in },
                    execute: (PersistentStack, EntityDescription, ObjectPredicate?, @escaping @Sendable (BatchProgress) -> Void) throws -> BatchResult)
        throws -> (result: BatchResult, entity: EntityDescription)? {
        let stack = try open(options.store)
        let (described, objectPredicate) = try selection(stack, entity: options.entity, predicate: options.predicate)
        try prepare(described, objectPredicate)
        let count = try count(stack, entity: described.name, predicate: objectPredicate)
        let what = objects(count, described.name) + consequence(described)
        if options.dryRun {
            print("would \(verb) \(what)")
            return nil
        }
        guard count > 0 else {
            print("no \(described.name) object matches: nothing to \(verb)")
            return nil
        }
        try confirm("\(verb) \(what)?", yes: options.yes)
        let reporter = ProgressReporter.standardError(command: verb, unit: "objects", quiet: options.quietOption.quiet)
        let progress: @Sendable (BatchProgress) -> Void = { progress in
            reporter.update(done: progress.done, total: progress.total, phase: progress.written ? "writing" : "reading")
        }
        defer { reporter.finish() }
        do {
            return (try execute(stack, described, objectPredicate, progress), described)
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}
