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
            model is the one SRC records unless --model names one (which must be SRC's model).
            """
    )

    @Argument(help: "The store to read (a Quarry SQLite store, a JSON store folder or a postgres:// store URL).")
    var source: String

    @Argument(help: "The store to create.")
    var destination: String

    @Option(name: .long, help: "The model (by default the one the source records).")
    var model: String?

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
        let copied: Int
        do {
            let to: any PersistentStore = toPostgreSQL
                ? try PostgreSQLStoreOpening.store(destination, model: objectModel, readOnly: false)
                : toJSON ? try JSONStore(url: destinationURL, model: objectModel) as any PersistentStore
                : try SQLiteStore(url: destinationURL, model: objectModel)
            copied = try from.copyAllObjects(to: to)
        } catch {
            // Nothing half-made is left behind.
            toPostgreSQL ? PostgreSQLStoreOpening.destroy(destination) : StoreCreation.removeMadeStore(at: destination)
            throw CommandFailure("\(error)")
        }
        let kind = toPostgreSQL ? "PostgreSQL store" : toJSON ? "JSON store folder" : "SQLite store"
        let (shownSource, shownDestination) = (PostgreSQLStoreOpening.shown(source), PostgreSQLStoreOpening.shown(destination))
        print("converted \(shownSource) to \(shownDestination) (\(kind)): \(copied) objects")
    }
}
