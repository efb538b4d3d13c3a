import ArgumentParser
import Foundation
import Quarry
import QuarryBrowser
import QuarryTUI

/// `quarry browse STORE`: opens any Quarry store in the browser.
struct BrowseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Browse a Quarry store, any SQLite database or a Core Data store in the terminal.",
        discussion: """
            The model comes from the store's own metadata unless --model names a model file \
            (.json, .xcdatamodel, .xcdatamodeld, .momd or .mom). With --model, a STORE that does not exist is \
            created, new and empty (never with --read-only). An SQLite database Quarry did not \
            make opens read-only with a model read from its schema; an Apple Core Data store with \
            its own entity names (from --model, else the store's model cache, else its tables). \
            Press ? in the browser for every key.
            """
    )

    @Argument(help: "The store file (a Quarry SQLite store, any SQLite database or a Core Data store; a Quarry store is created when absent and --model is given), or a postgres:// store URL.")
    var store: String

    @OptionGroup var modelOption: ModelOption

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

    @OptionGroup var themeOption: ThemeOption

    @Option(name: .long, help: "A TOML file of cell formats: [Entity.column] tables setting number = DIGITS, date = \"PATTERN\" or map = { TEXT = \"SHOWN\" } (table cells only; the detail page and edit form keep raw values).")
    var formats: String?

    @Option(name: .customLong("on-enter"), help: "What Enter does on a row: detail (the default), edit, or follow:RELATIONSHIP.")
    var onEnter: String?

    @Flag(name: .long, help: "Neither read nor write the sorted index in the cache ($XDG_CACHE_HOME/quarry/frc, kept per store and view so that reopening an unchanged store skips reading every row).")
    var noCache = false

    // Unconditional: a negative number is read as the value (and refused by validate() with
    // the reason), not as an option.
    @Option(name: .long, parsing: .unconditional, help: "How many rows are read from the store at once as they come into view.")
    var batchSize: Int = BrowserConfiguration.defaultBatchSize

    @OptionGroup var mouseOption: MouseOption

    @OptionGroup var accessOption: AccessOption

    @OptionGroup var transformers: TransformerMappingOptions

    /// `--model`.
    var model: String? { modelOption.model }
    /// `--read-only`.
    var readOnly: Bool { accessOption.readOnly }
    /// `--write`.
    var write: Bool { accessOption.write }

    func validate() throws {
        try accessOption.checkConsistent()
        if batchSize < 1 { throw ValidationError("--batch-size must be at least 1 (got \(batchSize))") }
        if let onEnter { _ = try Self.selectionAction(onEnter) }
    }

    /// The `--on-enter` action, its syntax checked (the relationship is checked once the entity is known).
    static func selectionAction(_ text: String) throws -> SelectionAction {
        do {
            return try SelectionAction.parse(text)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func run() async throws {
        let location = try StoreLocation(store)
        let url = URL(fileURLWithPath: store)
        // Any SQLite database or Core Data store Quarry did not make opens read-only with the
        // model recovered from it (--model: the Core Data model versions to choose from).
        let foreign = try StoreOpening.foreignDatabase(location, modelPath: model)
        if let foreign, write {
            throw ValidationError("\(store): a \(foreign.kind.rawValue) Quarry did not make is opened read-only; --write is not supported for it")
        }
        // A PostgreSQL schema Quarry did not make is read as it is, read-only, with the model
        // read from its catalog.
        let foreignSchema = try location.isPostgreSQL && PostgreSQLStoreOpening.isForeign(store) ? Self.foreignSchema(store) : nil
        if foreignSchema != nil {
            if write { throw ValidationError("\(location.shown): a PostgreSQL schema Quarry did not make is opened read-only; --write is not supported for it") }
            if model != nil { throw ValidationError("--model: \(location.shown) is a schema Quarry did not make; its model is read from its catalog") }
        }
        let readOnly = readOnly || foreign != nil || foreignSchema != nil
        let creating: Bool
        switch location {
        case .postgreSQL: creating = foreignSchema != nil ? false : try Self.needsCreatingPostgreSQL(store, model: model, readOnly: readOnly)
        case .foreignDatabase: creating = false
        case .jsonFolder, .sqliteFile: creating = try Self.needsCreating(url, model: model, readOnly: readOnly)
        }
        let objectModel: ManagedObjectModel
        if let foreign {
            objectModel = foreign.model
        } else if let foreignSchema {
            objectModel = foreignSchema.model
        } else if let model {
            objectModel = try ModelLoading.load(modelAt: model)
        } else {
            objectModel = try StoreOpening.recordedModel(location)
        }
        if case .sqliteFile = location, let model, !creating {
            try Self.migrateIfAsked(url, to: objectModel, modelPath: model, readOnly: readOnly)
        }
        let entityDescription: EntityDescription
        if let entity {
            guard let found = objectModel.entity(named: entity) else {
                throw ValidationError("--entity \(entity): the model has no such entity (it has \(objectModel.entities.map(\.name).joined(separator: ", ")))")
            }
            entityDescription = found
        } else {
            entityDescription = try Self.largestEntity(in: objectModel, location: creating ? nil : location, foreign: foreign,
                                                       estimatedRows: foreignSchema?.estimatedRows ?? [:])
        }
        // Empty for an entity with nothing sortable (only binary attributes): object-ID order.
        let sortKeys = try sort.map(Self.parseSort) ?? BrowserConfiguration.defaultSort(for: entityDescription)
        if let filter {
            // Parsed and checked against the entity (unknown keys, mismatched types), so a bad
            // --where is reported with its column before the screen opens.
            do {
                _ = try PredicateEvaluator(try ObjectPredicate(format: filter), entity: entityDescription, model: objectModel)
            } catch {
                throw ValidationError("--where: \(error)")
            }
        }
        let selectionAction = try onEnter.map(Self.selectionAction) ?? .openDetail
        do {
            try selectionAction.validate(for: entityDescription)
        } catch {
            throw ValidationError("\(error)")
        }
        let cellFormats = try Self.cellFormats(formats, model: objectModel)
        var startMessage = foreign.map { "read-only \($0.kind.rawValue); model from \($0.modelSource)" + Self.warningsNote($0.warnings) }
            ?? foreignSchema.map { "read-only PostgreSQL schema Quarry did not make; model from \($0.modelSource)" + Self.warningsNote($0.warnings) }
        if creating {
            // Everything that could refuse the command has been checked: a new store is only
            // made for a browser that will open on it.
            BrowserLauncher.requireTerminal()
            // A PostgreSQL store is created by the stack opening it with the model.
            if !location.isPostgreSQL { try StoreCreation.create(at: url, model: objectModel) }
            startMessage = "created a new, empty store for \(objectModel.entities.count) entities"
        }
        var options = try StoreOpening.stackOptions(for: location)
        options.readOnly = readOnly
        options.foreignDatabase = foreign
        let stack = try PersistentStack(model: objectModel, options: options)
        var configuration = BrowserConfiguration(
            storeTitle: location.isPostgreSQL ? location.shown : url.lastPathComponent, entityName: entityDescription.name, sort: sortKeys, sectionKey: section,
            filter: filter, isReadOnly: readOnly, startMessage: startMessage)
        configuration.usesIndexCache = !noCache
        configuration.usesMouse = !mouseOption.noMouse
        configuration.batchSize = batchSize
        configuration.cellFormats = cellFormats
        configuration.selectionAction = selectionAction
        configuration.firstScreenRows = BrowserConfiguration.previewRows
        configuration.estimatedRowCount = foreignSchema?.estimatedRows[entityDescription.name].flatMap { $0 > 0 ? $0 : nil }
        await BrowserLauncher.run(stack: stack, configuration: configuration, themeName: themeOption.theme)
    }

    /// Whether the store at `url` must be created: nothing is there, or an empty file (which
    /// SQLite also creates). That needs `--model` and is refused with `--read-only`.
    static func needsCreating(_ url: URL, model: String?, readOnly: Bool) throws -> Bool {
        let path = url.path
        let file = FileKind(path: path)
        let isEmptyFile = !file.isSymbolicLink && file.kind == .regularFile && file.size == 0
        guard !StoreCreation.somethingExists(at: path) || isEmptyFile else { return false }
        let what = isEmptyFile ? "an empty file" : "no such file"
        guard model != nil else {
            throw ValidationError("\(path): \(what) (give --model to create a new store there)")
        }
        guard !readOnly else {
            throw ValidationError("\(path): \(what), and --read-only never creates a store")
        }
        if !isEmptyFile { try StoreCreation.checkCreatable(url) }
        return true
    }

    /// Whether the PostgreSQL store at `argument` must be created: no store is in its schema.
    /// That needs `--model` and is refused with `--read-only`.
    static func needsCreatingPostgreSQL(_ argument: String, model: String?, readOnly: Bool) throws -> Bool {
        guard try !PostgreSQLStoreOpening.exists(argument) else { return false }
        let shown = PostgreSQLStoreOpening.shown(argument)
        guard model != nil else { throw ValidationError("\(shown): no Quarry store there (give --model to create a new one)") }
        guard !readOnly else { throw ValidationError("\(shown): no Quarry store there, and --read-only never creates a store") }
        return true
    }

    /// When the store was made with another model: shows the migration plan and migrates after
    /// the user agrees (never silently); refuses with `--read-only`, and when the user declines.
    static func migrateIfAsked(_ url: URL, to model: ManagedObjectModel, modelPath: String, readOnly: Bool) throws {
        let versions = try MigrationConsole.versions(forModelAt: modelPath)
        guard let plan = try SQLiteStore.migrationPlan(url: url, to: model, versions: versions) else { return }
        if readOnly { throw MigrationError.readOnly(path: url.path, plan: plan.description) }
        MigrationConsole.show(plan, on: .standardError)
        guard MigrationConsole.confirm("The store was made with another model. Migrate it?") else {
            FileHandle.standardError.write(Data("quarry: \(url.path): not migrated (unchanged); open it without --model, or migrate it\n".utf8))
            throw ExitCode(1)
        }
        try MigrationConsole.migrate(url, to: model, versions: versions)
    }

    /// The concrete entity with the most objects (the first in model order on a tie, and for a
    /// store not created yet, `location` nil).
    ///
    /// A schema Quarry did not make may hold tables too large to count: `estimatedRows` (the
    /// planner's, by entity name) decide when it has made some, and nothing is opened.
    static func largestEntity(in model: ManagedObjectModel, location: StoreLocation?, foreign: ForeignDatabase? = nil,
                              estimatedRows: [String: Int] = [:]) throws -> EntityDescription {
        let concrete = model.entities.filter { !$0.isAbstract }
        guard !concrete.isEmpty else { throw ValidationError("the model has no concrete entity") }
        guard let location else { return concrete[0] }
        let count: (EntityDescription) throws -> Int
        if estimatedRows.values.contains(where: { $0 > 0 }) {
            count = { estimatedRows[$0.name] ?? 0 }
        } else {
            let store = try StoreOpening.readOnlyStore(location, model: model, foreign: foreign)
            count = { try store.count(for: StoreQuery(entity: $0, includesSubentities: false)) }
        }
        var best = concrete[0], bestCount = -1
        for entity in concrete {
            let n = try count(entity)
            if n > bestCount { (best, bestCount) = (entity, n) }
        }
        return best
    }

    /// The schema Quarry did not make at `argument`, read once (its warnings on stderr).
    static func foreignSchema(_ argument: String) throws -> ForeignPostgreSQLSchema? {
        let opened = try PostgreSQLStoreOpening.store(argument, model: nil, readOnly: true)
        defer { opened.close() }
        PostgreSQLStoreOpening.reportWarnings(of: opened)
        return opened.foreign
    }

    /// " (N warnings on stderr)" after a start message, or nothing without warnings.
    static func warningsNote(_ warnings: [String]) -> String {
        warnings.isEmpty ? "" : " (\(warnings.count) warning\(warnings.count == 1 ? "" : "s") on stderr)"
    }

    /// The cell formats of the `--formats` file at `path` for `model`; none without a file.
    /// - Throws: a `ValidationError` naming the file, line and key at fault.
    static func cellFormats(_ path: String?, model: ManagedObjectModel) throws -> [CellFormatKey: CellFormat] {
        guard let path else { return [:] }
        do {
            return try CellFormatFile.load(contentsOf: URL(fileURLWithPath: path), model: model, file: path)
        } catch {
            throw ValidationError("--formats \(error)")
        }
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
