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
            DST must not exist (--force replaces a regular file there; never a folder). Its kind is the other one: a SQLite file becomes a JSON store \
            folder and a folder becomes a SQLite file (a DST ending in .sqlite is always SQLite). \
            Every object and relationship is copied; converting back gives an equal store. The \
            model is the one SRC records unless --model names one (which must be SRC's model). \
            DST is built under a hidden name beside it and renamed into place when complete, so \
            an interrupted convert leaves nothing at DST. Progress (objects read, rate, time left) \
            is shown on standard error; Ctrl-C stops the convert, makes nothing at DST and exits \
            with status 130.
            """
    )

    @Argument(help: "The store to read (a Quarry SQLite store, a JSON store folder or a postgres:// store URL).")
    var source: String

    @Argument(help: "The store to create.")
    var destination: String

    @OptionGroup var modelOption: ModelOption

    @OptionGroup var forceOption: ForceOption

    @OptionGroup var quietOption: QuietOption

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
            try StoreCreation.checkCreatable(destinationURL, replacing: forceOption.force)
        }
        let sourceLocation = try StoreLocation(source)
        // A database Quarry did not make converts with the model recovered from it.
        let foreign = try StoreOpening.foreignDatabase(sourceLocation, modelPath: model)
        let objectModel = try foreign?.model ?? model.map { try ModelLoading.load(modelAt: $0) } ?? StoreOpening.recordedModel(sourceLocation)
        let from = try StoreOpening.readOnlyStore(sourceLocation, model: objectModel, foreign: foreign)
        // The other kind: a folder becomes a file, a file a folder (unless named .sqlite).
        let sourceIsJSON = sourceLocation == .jsonFolder(path: source)
        let toJSON = !toPostgreSQL && !sourceIsJSON && destinationURL.pathExtension != "sqlite"
        if !toPostgreSQL, StoreCreation.somethingExists(at: destination) {
            // Only with --force (checked above): a regular file, replaced by an SQLite store only.
            guard !toJSON else {
                throw CommandFailure("\(destination): a JSON store folder would replace the file there; --force replaces a file with an SQLite store only (name DST .sqlite)")
            }
            guard !Self.sameFile(source, destination) else {
                throw CommandFailure("\(destination): is the store being converted; name another DST")
            }
        }
        let reporter = ProgressReporter.standardError(command: "convert", unit: "objects", quiet: quietOption.quiet)
        let copied: Int
        do {
            copied = try InterruptWatch.during(onSignal: {}) { watch in
                // Asked after each batch read and once the copy is made: a signal stops the
                // convert before anything is at DST.
                let step: (Int, Int) throws -> Void = { read, total in
                    reporter.update(done: read, total: total, phase: "reading")
                    if watch.caught != nil { throw ConvertInterrupted(exitCode: watch.exitCode) }
                }
                defer { reporter.finish() }
                return try copy(from, model: objectModel, to: destinationURL, postgreSQL: toPostgreSQL, json: toJSON, step: step)
            }
        } catch let interrupted as ConvertInterrupted {
            FileHandle.standardError.write(Data("convert: interrupted; nothing was made at \(destinationLocation.shown)\n".utf8))
            throw ExitCode(interrupted.exitCode)
        }
        let kind = toPostgreSQL ? "PostgreSQL store" : toJSON ? "JSON store folder" : "SQLite store"
        let (shownSource, shownDestination) = (sourceLocation.shown, destinationLocation.shown)
        print("converted \(shownSource) to \(shownDestination) (\(kind)): \(copied) objects")
    }

    /// Whether `a` and `b` name the same file (device and inode).
    private static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        return stat(a, &first) == 0 && stat(b, &second) == 0 && first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// Copies every object of `from` to a new store at `destination` (built beside it and
    /// renamed into place when whole; on PostgreSQL, destroyed again on failure); `step` is
    /// called after each batch read, and once more before the store is put in place.
    private func copy(_ from: any PersistentStore, model objectModel: ManagedObjectModel, to destinationURL: URL,
                      postgreSQL toPostgreSQL: Bool, json toJSON: Bool, step: @escaping (Int, Int) throws -> Void) throws -> Int {
        var copied = 0
        if toPostgreSQL {
            do {
                copied = try from.copyAllObjects(to: try PostgreSQLStoreOpening.store(destination, model: objectModel, readOnly: false), progress: step)
            } catch {
                // Nothing half-made is left behind.
                PostgreSQLStoreOpening.destroy(destination)
                if error is ConvertInterrupted { throw error }
                throw CommandFailure("\(error)")
            }
            return copied
        }
        // Built beside the destination and renamed onto it when whole: an interrupted
        // convert leaves no store at the destination, so the rerun is not refused.
        do {
            try StoreCreation.buildThenRename(destinationURL, replacing: forceOption.force) { partial in
                if toJSON {
                    copied = try from.copyAllObjects(to: try JSONStore(url: partial, model: objectModel), progress: step)
                } else {
                    let to = try SQLiteStore(url: partial, model: objectModel)
                    copied = try from.copyAllObjects(to: to, progress: step)
                    try to.checkpointTruncatingLog()
                }
                try step(copied, copied)
            }
        } catch let error as ConvertInterrupted {
            throw error
        } catch {
            throw CommandFailure("\(error)")
        }
        return copied
    }
}

/// A signal stopped `quarry convert` (nothing was made at the destination).
private struct ConvertInterrupted: Error {
    /// 128 + the signal.
    var exitCode: Int32
}
