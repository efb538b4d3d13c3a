import ArgumentParser
import Foundation
import Quarry

/// `quarry import STORE FILE --entity E [--format csv|jsonl|json] [--model M] [--map col=attr]
/// [--create-missing]`: rows of a file into a store, every row checked before any is written.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a CSV, JSON Lines or JSON file into an entity.",
        discussion: """
            Columns map to attributes by name (--map renames: --map Sector=sector.name finds the \
            to-one destination by its name). Every row is checked first: a bad file writes \
            nothing and up to 100 bad rows are reported as FILE:LINE:COLUMN: message. Rows are then \
            saved in chunks, so a browser on the store sees them arrive. Each chunk's history \
            records which file and chunk it holds: a rerun after an interrupted import saves only \
            the chunks still missing, and a file imported whole is refused (--again imports it \
            once more). With --model, a STORE that does not exist is created. FILE - reads \
            standard input. The format follows FILE's extension; a --format another known \
            extension contradicts is refused. Progress (rows, rate, time left) is shown on \
            standard error; Ctrl-C stops after the chunk under way, says how many rows the saved \
            chunks hold (they stay; the rerun adds the rest) and exits with status 130.
            """
    )

    @Argument(help: "The store (a Quarry SQLite store, JSON store folder or postgres:// store URL).")
    var store: String

    @Argument(help: "The file to import (- reads standard input).")
    var file: String

    @Option(name: .long, help: "The entity the rows become.")
    var entity: String

    @Option(name: .long, help: "csv, jsonl or json (default: from the file's extension, else csv).")
    var format: String?

    @OptionGroup var modelOption: ModelOption

    @Option(name: .long, parsing: .singleValue, help: "COLUMN=KEY: map a column to an attribute or to-one key path (repeatable).")
    var map: [String] = []

    @Flag(name: .long, help: "Create a to-one destination a key path does not find.")
    var createMissing = false

    @Flag(name: .long, help: "Import the file again although an earlier import saved it (by default a rerun resumes after the chunks an interrupted run saved, and refuses a file imported whole).")
    var again = false

    @OptionGroup var quietOption: QuietOption

    @OptionGroup var transformers: TransformerMappingOptions

    /// `--model`.
    var model: String? { modelOption.model }

    /// Whether FILE is `-`: standard input.
    var readsStandardInput: Bool { file == "-" }

    func validate() throws {
        if let format, ImportFormat(rawValue: format) == nil {
            throw ValidationError("--format \(format): one of \(ImportFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        for pair in map where !pair.contains("=") { throw ValidationError("--map \(pair): expected COLUMN=KEY") }
        guard !readsStandardInput else { return }
        switch FileKind(path: file).kind {
        case .missing: throw ValidationError("\(file): no such file")
        case .directory: throw ValidationError("\(file): is a folder; name a file (or - for standard input)")
        case .regularFile, .fifo, .characterDevice: break
        case .blockDevice, .socket: throw ValidationError("\(file): not a file; name a file (or - for standard input)")
        }
        _ = try FormatChoice.format(format, path: file, option: "FILE")
    }

    func run() throws {
        // Nothing is opened to learn whether a store is there: what is there is decided (and
        // refused when it is not a Quarry store) once --model has been read.
        let target = StoreLocation(newStoreAt: store)
        let input = try readsStandardInput ? StandardInputCopy(pathExtension: format ?? "csv") : nil
        defer { input?.remove() }
        let stack: PersistentStack
        var created = false
        if try StoreOpening.storeExists(at: target) {
            let loaded = try model.map { try ModelLoading.load(modelAt: $0) }
            stack = try StoreOpening.openForWriting(try StoreLocation(store), model: loaded)
        } else {
            guard let model else {
                throw ValidationError("\(target.shown): no such store (give --model to create it)")
            }
            let loaded = try ModelLoading.load(modelAt: model)
            // A PostgreSQL store is created by opening it with a model.
            if let url = target.fileURL { try StoreCreation.create(at: url, model: loaded) }
            created = true
            stack = try StoreOpening.openForWriting(target, model: loaded)
        }
        /// A store this command made for a file it refused (or an import stopped before any
        /// row was saved) is not left behind.
        func removeMadeStore() {
            guard created else { return }
            target.isPostgreSQL ? PostgreSQLStoreOpening.destroy(store) : StoreCreation.removeMadeStore(at: store)
        }
        var mapping: [String: String] = [:]
        for pair in map {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            mapping[parts[0]] = parts[1]
        }
        var options = ImportOperation.Options(format: format.flatMap(ImportFormat.init(rawValue:)), columnMapping: mapping,
                                              createsMissingDestinations: createMissing)
        options.importsAgain = again
        let reporter = ProgressReporter.standardError(command: "import", quiet: quietOption.quiet)
        let fileURL = input?.url ?? URL(fileURLWithPath: file)
        let operation = ImportOperation(stack: stack, entityName: entity, fileURL: fileURL, options: options) { progress in
            reporter.update(done: progress.rowsDone, total: progress.totalRows, phase: progress.phase == .validating ? "checking" : "saving")
        }
        let shownFile = readsStandardInput ? StandardInputCopy.name : file
        try InterruptWatch.during(onSignal: { operation.cancel() }) { watch in
            let summary: ImportSummary
            do {
                summary = try operation.run()
            } catch {
                reporter.finish()
                removeMadeStore()
                throw CommandFailure(input?.naming("\(error)") ?? "\(error)")
            }
            reporter.finish()
            if summary.wasCancelled {
                if summary.rowsImported == 0 { removeMadeStore() }
                FileHandle.standardError.write(Data((Self.interruption(summary, file: shownFile, removedStore: created && summary.rowsImported == 0) + "\n").utf8))
                throw ExitCode(watch.exitCode)
            }
            if summary.rowsAlreadySaved > 0 {
                print("resumed: \(summary.rowsAlreadySaved) row(s) of \(shownFile) were saved by an earlier import that stopped; not imported twice")
            }
            print("imported \(summary.rowsImported) \(entity) objects from \(shownFile)"
                  + (summary.destinationsCreated > 0 ? " (\(summary.destinationsCreated) related objects created)" : ""))
        }
    }

    /// What an interrupted import says: what it kept, and what was not imported.
    static func interruption(_ summary: ImportSummary, file: String, removedStore: Bool) -> String {
        if summary.rowsImported == 0 {
            let when = summary.rowsValidated == 0 ? "while checking the rows" : "before the first chunk was saved"
            return "import: interrupted \(when); nothing imported" + (removedStore ? " (the new store was removed)" : "")
        }
        let chunks = "\(summary.chunksSaved) saved chunk\(summary.chunksSaved == 1 ? "" : "s")"
        return "import: interrupted; \(summary.rowsImported) rows in \(chunks) kept, the rest not imported"
            + " (the same import run again adds the rest of \(file))"
    }
}
