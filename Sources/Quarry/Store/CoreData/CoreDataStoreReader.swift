import Foundation
import GRDB

/// Opens what an Apple Core Data SQLite store holds, read-only: the model (with Core Data's
/// real entity and property names) and a ``ForeignSource`` presenting the `Z` tables in
/// Quarry's layout of it.
///
/// The model comes from, in order: the `--model` candidates (the version whose entity and
/// property names fit the store's tables best), the store's own `Z_MODELCACHE`, the tables
/// themselves (``CoreDataStoreTableModel``). Each step skipped adds a warning saying what and
/// why; bad input never throws past a fallback. When the store tracks persistent history,
/// read-only history entities are added (``CoreDataHistory``).
///
/// ```swift
/// let description = try queue.read { db in
///     try CoreDataStoreReader.read(db, path: path, candidates: history?.versions ?? [])
/// }
/// ```
enum CoreDataStoreReader {
    /// Whether `db` looks like a Core Data store: it has `Z_PRIMARYKEY` and `Z_METADATA`.
    static func isCoreDataStore(_ db: Database) throws -> Bool {
        try db.tableExists("Z_PRIMARYKEY", in: "main") && db.tableExists("Z_METADATA", in: "main")
    }

    /// Recovers the model and source of the Core Data store open on `db` (never written).
    /// - Parameters:
    ///   - path: the store's path, for messages.
    ///   - candidates: the versions of `--model` (empty when none was given).
    /// - Throws: ``CoreDataStoreReaderError`` when not even the tables give a valid model, or
    ///   an SQLite error reading the schema.
    static func read(_ db: Database, path: String, candidates: [ModelVersionHistory.Version]) throws -> CoreDataStoreDescription {
        CoreDataArchiveTransformer.register()
        var warnings: [String] = []
        let metadata = CoreDataStoreMetadata.read(db, warnings: &warnings)
        let schema = try CoreDataStoreSchema.read(db, warnings: &warnings)
        let hasHistory = CoreDataHistory.isPresent(in: schema)

        var options: [() -> (ModelDefinition, [ModelWarning], String)?] = []
        options.append {
            chooseCandidate(candidates, schema: schema, metadata: metadata, warnings: &warnings)
        }
        options.append {
            modelCache(db, schema: schema, metadata: metadata, warnings: &warnings)
        }
        options.append {
            warnings.append("the model was recovered from the store's tables: entity names from Z_PRIMARYKEY, property names from columns (lowercased), relationships only where a column is named after an entity")
            return (CoreDataStoreTableModel.definition(schema, warnings: &warnings), [], "the store's tables")
        }
        for option in options {
            guard let (definition, modelWarnings, modelSource) = option() else { continue }
            do {
                let built = try build(definition, warnings: modelWarnings, schema: schema, history: hasHistory)
                var source = CoreDataStoreSource(model: built.model, schema: schema)
                try source.build(db, skipping: built.history.map { [$0.transaction, $0.change] } ?? [])
                if let names = built.history {
                    CoreDataHistory.addSource(to: &source.source, model: built.model, names: names, schema: schema)
                }
                var seen = Set<String>()
                let all = (warnings + built.warnings + source.warnings).filter { seen.insert($0).inserted }
                return CoreDataStoreDescription(model: built.model, source: source.source, modelSource: modelSource,
                                                warnings: all, storeIdentifier: metadata.storeIdentifier, historyEntityNames: built.history)
            } catch let error as DatabaseError {
                throw error
            } catch {
                warnings.append("the model from \(modelSource) was skipped: it does not validate (\(error))")
            }
        }
        throw CoreDataStoreReaderError.noModel(path: path, warnings: warnings)
    }

    /// The best-fitting candidate, or `nil` (with a warning when candidates were given).
    private static func chooseCandidate(_ candidates: [ModelVersionHistory.Version], schema: CoreDataStoreSchema,
                                        metadata: CoreDataStoreMetadata, warnings: inout [String]) -> (ModelDefinition, [ModelWarning], String)? {
        guard !candidates.isEmpty else { return nil }
        var best: (version: ModelVersionHistory.Version, score: CoreDataStoreModelScore)?
        for version in candidates {
            let score = CoreDataStoreModelScore.score(version.model, schema: schema, metadata: metadata)
            // Ties go to the later (newer) version.
            if best == nil || !(score < best!.score) { best = (version, score) }
        }
        guard let best else { return nil }
        guard best.score.isUsable else {
            warnings.append("--model skipped: no version matches the store's tables (closest, '\(best.version.name)': \(best.score))")
            return nil
        }
        let how = best.score.isExact
            ? "its entity and property names match the store's"
            : "closest by entity and property names: \(best.score)"
        if !best.score.isExact {
            warnings.append("--model: no version matches the store exactly; using '\(best.version.name)' (\(best.score))")
        }
        return (best.version.model.definition, best.version.model.warnings, "version '\(best.version.name)' of --model (\(how))")
    }

    /// The model in `Z_MODELCACHE`, or `nil` with a warning naming what was wrong.
    private static func modelCache(_ db: Database, schema: CoreDataStoreSchema, metadata: CoreDataStoreMetadata,
                                   warnings: inout [String]) -> (ModelDefinition, [ModelWarning], String)? {
        guard let table = schema.tableName("Z_MODELCACHE") else {
            warnings.append("the store has no Z_MODELCACHE; the model is recovered from its tables")
            return nil
        }
        let blob: Data?
        do {
            blob = try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM main.\(sqlIdentifier(table)) LIMIT 1")
        } catch {
            warnings.append("Z_MODELCACHE skipped: unreadable (\(error)); the model is recovered from the store's tables")
            return nil
        }
        guard let blob else {
            warnings.append("Z_MODELCACHE skipped: it holds no model; the model is recovered from the store's tables")
            return nil
        }
        // The definition first: an app's own transformer names (`MyApp.ColorTransformer`) are
        // registered nowhere here, and would refuse the model before they are replaced.
        let definition: ModelDefinition, modelWarnings: [ModelWarning]
        do {
            (definition, modelWarnings) = try CoreDataModelCache.definition(fromArchive: RawInflate.inflate(blob))
        } catch {
            warnings.append("Z_MODELCACHE skipped: \(error); the model is recovered from the store's tables")
            return nil
        }
        let model: ManagedObjectModel
        do {
            model = try ManagedObjectModel(readingTransformables(definition), warnings: modelWarnings)
        } catch {
            warnings.append("Z_MODELCACHE skipped: \(CoreDataModelCacheError.invalidModel(reason: String(describing: error))); the model is recovered from the store's tables")
            return nil
        }
        let score = CoreDataStoreModelScore.score(model, schema: schema, metadata: metadata)
        guard score.isUsable else {
            warnings.append("Z_MODELCACHE skipped: its model does not match the store's tables (\(score)); the model is recovered from the tables")
            return nil
        }
        return (model.definition, model.warnings, "the store's Z_MODELCACHE")
    }

    private struct Built {
        var model: ManagedObjectModel
        var history: CoreDataHistory.Names?
        var warnings: [String] = []
    }

    /// `definition` with every transformable attribute read through ``CoreDataArchiveTransformer``
    /// (the app's own transformers do not exist here; the bytes are decoded as archives).
    private static func readingTransformables(_ definition: ModelDefinition) -> ModelDefinition {
        var definition = definition
        for e in definition.entities.indices {
            for a in definition.entities[e].attributes.indices where definition.entities[e].attributes[a].type == .transformable {
                definition.entities[e].attributes[a].valueTransformerName = CoreDataArchiveTransformer.name
            }
        }
        return definition
    }

    /// The model to browse with: `definition` with every transformable read through
    /// ``CoreDataArchiveTransformer``, plus the history entities.
    private static func build(_ definition: ModelDefinition, warnings: [ModelWarning], schema: CoreDataStoreSchema, history: Bool) throws -> Built {
        var definition = readingTransformables(definition)
        var names: CoreDataHistory.Names?
        if history {
            let chosen = CoreDataHistory.names(avoiding: Set(definition.entities.map(\.name)))
            names = chosen
            definition.entities += CoreDataHistory.definitions(chosen)
        }
        let model = try ManagedObjectModel(definition, warnings: warnings)
        // The loader's own notes (an ignored diagram layout…) stay on the model's `warnings`.
        var built = Built(model: model, history: names)
        if let names, names.transaction != "History" {
            built.warnings.append("persistent history is shown as \(names.transaction) and \(names.change) (the model already has an entity named History or HistoryChange)")
        }
        return built
    }
}

/// Why a Core Data store could not be opened at all.
enum CoreDataStoreReaderError: Error, CustomStringConvertible {
    /// No source gave a valid model; `warnings` say why each was skipped.
    case noModel(path: String, warnings: [String])

    var description: String {
        switch self {
        case .noModel(let path, let warnings):
            return "\(path): no model could be recovered from this Core Data store (\(warnings.joined(separator: "; ")))"
        }
    }
}
