import ArgumentParser
import Foundation
import Quarry

/// `quarry convert SRC DST [--model M]`: a SQLite store to a JSON store folder or back, every
/// object and relationship kept.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a SQLite store to a JSON store folder, or a JSON store to a SQLite store.",
        discussion: """
            DST must not exist. Its kind is the other one: a SQLite file becomes a JSON store \
            folder and a folder becomes a SQLite file (a DST ending in .sqlite is always SQLite). \
            Every object and relationship is copied; converting back gives an equal store. The \
            model is the one SRC records unless --model names one (which must be SRC's model). \
            DST is built under a hidden name beside it and renamed into place when complete, so \
            an interrupted convert leaves nothing at DST.
            """
    )

    @Argument(help: "The store to read (a Quarry SQLite store, a JSON store folder or a postgres:// store URL).")
    var source: String

    @Argument(help: "The store to create.")
    var destination: String

    @Option(name: .long, help: "The model (by default the one the source records).")
    var model: String?

    @OptionGroup var transformers: TransformerMappingOptions

    func validate() throws {
        guard PostgreSQLStoreOpening.isURL(source) || FileManager.default.fileExists(atPath: source) else {
            throw ValidationError("\(source): no such store")
        }
    }

    func run() throws {
        let sourceIsJSON = StoreOpening.isJSONStore(source)
        let destinationURL = URL(fileURLWithPath: destination)
        let toPostgreSQL = PostgreSQLStoreOpening.isURL(destination)
        if toPostgreSQL {
            if try PostgreSQLStoreOpening.exists(destination) {
                throw CommandFailure("\(PostgreSQLStoreOpening.shown(destination)): a store is there already; quarry convert never overwrites one")
            }
        } else {
            try StoreCreation.checkCreatable(destinationURL)
        }
        // A database Quarry did not make converts with the model recovered from it.
        let foreign = try StoreOpening.foreignDatabase(source, modelPath: model)
        let objectModel = try foreign?.model ?? model.map { try ModelLoading.load(modelAt: $0) } ?? StoreOpening.recordedModel(source)
        let from = try StoreOpening.readOnlyStore(source, model: objectModel, foreign: foreign)
        let toJSON = !toPostgreSQL && !sourceIsJSON && destinationURL.pathExtension != "sqlite"
        var copied = 0
        if toPostgreSQL {
            do {
                copied = try from.copyAllObjects(to: try PostgreSQLStoreOpening.store(destination, model: objectModel, readOnly: false))
            } catch {
                // Nothing half-made is left behind.
                PostgreSQLStoreOpening.destroy(destination)
                throw CommandFailure("\(error)")
            }
        } else {
            // Built beside the destination and renamed onto it when whole: an interrupted
            // convert leaves no store at the destination, so the rerun is not refused.
            do {
                try StoreCreation.buildThenRename(destinationURL) { partial in
                    if toJSON {
                        copied = try from.copyAllObjects(to: try JSONStore(url: partial, model: objectModel))
                    } else {
                        let to = try SQLiteStore(url: partial, model: objectModel)
                        copied = try from.copyAllObjects(to: to)
                        try to.checkpointTruncatingLog()
                    }
                }
            } catch {
                throw CommandFailure("\(error)")
            }
        }
        let kind = toPostgreSQL ? "PostgreSQL store" : toJSON ? "JSON store folder" : "SQLite store"
        let (shownSource, shownDestination) = (PostgreSQLStoreOpening.shown(source), PostgreSQLStoreOpening.shown(destination))
        print("converted \(shownSource) to \(shownDestination) (\(kind)): \(copied) objects")
    }
}
