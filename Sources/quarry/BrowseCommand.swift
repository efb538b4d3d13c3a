import ArgumentParser
import Foundation
import Quarry
import QuarryBrowser
import QuarryTUI

/// `quarry browse STORE`: opens any Quarry store in the browser.
struct BrowseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Browse a Quarry store in the terminal.",
        discussion: """
            The model comes from the store's own metadata unless --model names a model file \
            (.json, .xcdatamodel or .xcdatamodeld). Press ? in the browser for every key.
            """
    )

    @Argument(help: "The store file (a Quarry SQLite store).")
    var store: String

    @Option(name: .long, help: "A model file to use instead of the one kept in the store.")
    var model: String?

    @Option(name: .long, help: "The entity to show first (default: the one with the most objects).")
    var entity: String?

    // Unconditional: the value is taken even when it starts with `-` (`--sort -price`).
    @Option(name: .long, parsing: .unconditional,
            help: "Sort keys, comma-separated; a leading - sorts descending (e.g. price,-volume).")
    var sort: String?

    @Option(name: .long, help: "A key path to section the rows by (it becomes the first sort key).")
    var section: String?

    @Option(name: .customLong("where"), help: "A predicate filtering the rows, e.g. \"price > 10 AND name BEGINSWITH[c] 'a'\".")
    var filter: String?

    @Option(name: .long, help: "A theme name or .toml file (default: $QUARRY_THEME, else default).")
    var theme: String?

    @Flag(name: .long, help: "Open the store read-only (PRAGMA query_only); editing is disabled.")
    var readOnly = false

    func run() async throws {
        // Messages echo names from the model file, the store and the command line: escape
        // their control characters so a crafted store cannot drive the terminal.
        do {
            try await browse()
        } catch let error as ArgumentParser.ValidationError {
            throw ArgumentParser.ValidationError(ControlEscaping.escaped(error.message))
        } catch let error as ExitCode {
            throw error
        } catch {
            throw EscapedError(message: ControlEscaping.escaped("\(error)"))
        }
    }

    /// An error whose message had its control characters escaped.
    struct EscapedError: Error, CustomStringConvertible {
        /// The escaped message.
        var message: String
        var description: String { message }
    }

    private func browse() async throws {
        let url = URL(fileURLWithPath: store)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw ValidationError("\(store): no such file")
        }
        let objectModel: ManagedObjectModel
        if let model {
            let modelURL = URL(fileURLWithPath: model)
            objectModel = modelURL.pathExtension == "json"
                ? try ManagedObjectModel.load(jsonAt: modelURL)
                : try ManagedObjectModel.load(xcodeModelAt: modelURL)
        } else {
            objectModel = try SQLiteStore(url: url, model: nil, options: .init(readOnly: true)).model
        }
        let entityDescription: EntityDescription
        if let entity {
            guard let found = objectModel.entity(named: entity) else {
                throw ValidationError("--entity \(entity): the model has no such entity (it has \(objectModel.entities.map(\.name).joined(separator: ", ")))")
            }
            entityDescription = found
        } else {
            entityDescription = try Self.largestEntity(in: objectModel, storeURL: url)
        }
        let sortKeys = try sort.map(Self.parseSort) ?? BrowserConfiguration.defaultSort(for: entityDescription)
        guard !sortKeys.isEmpty || section != nil else {
            throw ValidationError("\(entityDescription.name) has no attribute to sort by; give --sort")
        }
        if let filter {
            // Parsed and checked against the entity (unknown keys, mismatched types), so a bad
            // --where is reported with its column before the screen opens.
            do {
                _ = try PredicateEvaluator(try ObjectPredicate(format: filter), entity: entityDescription, model: objectModel)
            } catch {
                throw ValidationError("--where: \(error)")
            }
        }
        var options = PersistentStack.Options()
        options.storeURL = url
        options.readOnly = readOnly
        let stack = try PersistentStack(model: objectModel, options: options)
        let configuration = BrowserConfiguration(
            storeTitle: url.lastPathComponent, entityName: entityDescription.name, sort: sortKeys, sectionKey: section,
            filter: filter, isReadOnly: readOnly)
        await BrowserLauncher.run(stack: stack, configuration: configuration, themeName: theme)
    }

    /// The concrete entity with the most objects (the first in model order on a tie).
    static func largestEntity(in model: ManagedObjectModel, storeURL: URL) throws -> EntityDescription {
        let concrete = model.entities.filter { !$0.isAbstract }
        guard !concrete.isEmpty else { throw ValidationError("the model has no concrete entity") }
        let store = try SQLiteStore(url: storeURL, model: model, options: .init(readOnly: true))
        var best = concrete[0], bestCount = -1
        for entity in concrete {
            let count = try store.count(for: StoreQuery(entity: entity, includesSubentities: false))
            if count > bestCount { (best, bestCount) = (entity, count) }
        }
        return best
    }

    /// Parses `price,-volume` into sort keys.
    static func parseSort(_ text: String) throws -> [SortKey] {
        try text.split(separator: ",").map { part in
            let key = part.trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, key != "-" else { throw ValidationError("--sort \(text): empty key") }
            return key.hasPrefix("-") ? SortKey(String(key.dropFirst()), ascending: false) : SortKey(key)
        }
    }
}
