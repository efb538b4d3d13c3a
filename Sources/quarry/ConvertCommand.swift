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

    @OptionGroup var modelOption: ModelOption

    @OptionGroup var transformers: TransformerMappingOptions

    /// `--model`: the source's model, instead of the one it records.
    var model: String? { modelOption.model }

    func validate() throws {
        guard !StoreLocation.isAbsent(source) else {
            throw ValidationError("\(source): no such store")
        }
    }

    func run() throws {
        let destinationLocation = StoreLocation(newStoreAt: destination)
        let destinationURL = URL(fileURLWithPath: destination)
        let toPostgreSQL = destinationLocation.isPostgreSQL
        if toPostgreSQL {
            if try PostgreSQLStoreOpening.exists(destination) {
                throw CommandFailure("\(destinationLocation.shown): a store is there already; quarry convert never overwrites one")
            }
        } else {
            try StoreCreation.checkCreatable(destinationURL)
        }
        let sourceLocation = try StoreLocation(source)
        // A database Quarry did not make converts with the model recovered from it.
        let foreign = try StoreOpening.foreignDatabase(sourceLocation, modelPath: model)
        let objectModel = try foreign?.model ?? model.map { try ModelLoading.load(modelAt: $0) } ?? StoreOpening.recordedModel(sourceLocation)
        let from = try StoreOpening.readOnlyStore(sourceLocation, model: objectModel, foreign: foreign)
        // The other kind: a folder becomes a file, a file a folder (unless named .sqlite).
        let sourceIsJSON = sourceLocation == .jsonFolder(path: source)
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
        let (shownSource, shownDestination) = (sourceLocation.shown, destinationLocation.shown)
        print("converted \(shownSource) to \(shownDestination) (\(kind)): \(copied) objects")
    }
}
