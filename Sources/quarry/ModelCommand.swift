import ArgumentParser
import Foundation
import Quarry
import QuarryBrowser
import QuarryTUI

/// `quarry model MODEL_OR_STORE [--json | --xcode]`: prints a model, or converts it.
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Describe a model, or convert it to JSON or to an Xcode model.",
        discussion: """
            MODEL_OR_STORE is a model file (.json, .xcdatamodel, .xcdatamodeld, contents, .momd or .mom) or a \
            Quarry store, whose recorded model is read without changing the file. Without a flag \
            the model is described: entities, attributes with types and flags, relationships, \
            inverses, delete rules, constraints, indexes and the loader's warnings. --json prints \
            the JSON model format (to --output FILE if given); --xcode writes an .xcdatamodel \
            folder at --output. An existing --output file is refused, left as it is, unless \
            --force (--json only: an existing folder is never replaced).
            """
    )

    /// What to print the model as.
    enum Format: String, EnumerableFlag {
        /// The JSON model format.
        case json
        /// An Xcode `.xcdatamodel` folder.
        case xcode

        static func help(for value: Format) -> ArgumentHelp? {
            switch value {
            case .json: return "Print the model in the JSON model format."
            case .xcode: return "Write the model as an .xcdatamodel folder at --output."
            }
        }
    }

    @Argument(help: "A model file or folder (- : a JSON model or Xcode contents document on standard input), a Quarry store, or a postgres:// store URL.")
    var modelOrStore: String

    @Flag(help: "The format to convert to (default: a readable description).")
    var format: Format?

    @Option(name: .long, help: "Where to write --json or --xcode output (- : standard output; an existing file needs --force; a folder is never replaced).")
    var output: String?

    @OptionGroup var forceOption: ForceOption

    @OptionGroup var transformers: TransformerMappingOptions

    /// `--output`, `nil` for `-` (standard output).
    var outputFile: String? { output == "-" ? nil : output }

    func validate() throws {
        guard modelOrStore == "-" || StoreLocation.isPostgreSQLURL(modelOrStore) || StoreCreation.somethingExists(at: modelOrStore) else {
            throw ValidationError("\(modelOrStore): no such file")
        }
        if output != nil, format == nil {
            throw ValidationError("--output needs --json or --xcode")
        }
        if format == .xcode {
            guard let output else { throw ValidationError("--xcode needs --output PATH.xcdatamodel") }
            guard output != "-" else { throw ValidationError("--xcode writes a folder: --output - (standard output) cannot hold it") }
            guard URL(fileURLWithPath: output).pathExtension == "xcdatamodel" else {
                throw ValidationError("--output \(output): an Xcode model folder's name ends in .xcdatamodel")
            }
        }
        if let output = outputFile, StoreCreation.somethingExists(at: output) {
            guard forceOption.force, format == .json else {
                throw ValidationError("--output \(output): already exists; it was left as it is"
                                      + (format == .json ? " (--force replaces it)" : " (an Xcode model folder is never replaced)"))
            }
            do { try OutputTarget.check(output, force: true) } catch { throw ValidationError("--output \(error)") }
        }
    }

    func run() throws {
        let url = URL(fileURLWithPath: modelOrStore)
        let model: ManagedObjectModel
        let source: String
        if modelOrStore == "-" {
            // Standard input: a JSON model or Xcode contents document, told apart by its first byte.
            let input = try StandardInputCopy(pathExtension: "model")
            defer { input.remove() }
            do {
                model = try ModelLoading.load(modelAt: input.url.path, reportingWarnings: format != nil)
            } catch {
                throw CommandFailure(input.naming("\(error)"))
            }
            try show(model, source: StandardInputCopy.name)
            return
        }
        switch try StoreLocation.store(orModelFile: modelOrStore) {
        case let .postgreSQL(argument)?:
            let location = StoreLocation.postgreSQL(url: argument)
            let store = try PostgreSQLStoreOpening.store(argument, model: nil, readOnly: true)
            ModelLoading.reportWarnings(of: store.model)
            PostgreSQLStoreOpening.reportWarnings(of: store)
            model = store.model
            source = "\(location.shown) (\(store.foreign.map(PostgreSQLStoreOpening.foreignOrigin) ?? "the model recorded in the store"))"
        case .foreignDatabase(let path)?:
            let foreign = try StoreOpening.foreignDatabase(at: path)
            model = foreign.model
            source = "\(url.path) (\(foreign.kind.rawValue); model from \(foreign.modelSource))"
        case .sqliteFile?, .jsonFolder?:
            // A peek at Z_METADATA: the store, its -wal and -shm are never written.
            model = try SQLiteStore.readMetadata(url: url).model
            source = "\(url.path) (the model recorded in the store)"
        case nil:
            // The description lists the warnings itself; conversions print them on stderr.
            model = try ModelLoading.load(modelAt: modelOrStore, reportingWarnings: format != nil)
            source = url.path
        }
        try show(model, source: source)
    }

    /// Prints `model` (read from `source`) as asked: described, as JSON, or as an Xcode model.
    private func show(_ model: ManagedObjectModel, source: String) throws {
        switch format {
        case nil:
            print(ModelDescriptionText(source: source, model: model).text)
        case .json:
            let text = model.definition.jsonText()
            if let output = outputFile {
                try write(Data(text.utf8), to: URL(fileURLWithPath: output), replacing: forceOption.force)
                print("wrote \(output): \(model.entities.count) entities")
            } else {
                print(text, terminator: "")
            }
        case .xcode:
            let folder = URL(fileURLWithPath: output!)
            for loss in model.definition.xcodeContentsLosses() {
                FileHandle.standardError.write(Data("quarry: \(ConsoleText.escapedLines(loss.description))\n".utf8))
            }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            } catch {
                throw OutputError(path: folder.path, reason: "\(error.localizedDescription)")
            }
            do {
                try write(Data(model.definition.xcodeContentsXML().utf8), to: folder.appendingPathComponent("contents"))
            } catch {
                try? FileManager.default.removeItem(at: folder)  // made above, empty
                throw error
            }
            print("wrote \(folder.path): \(model.entities.count) entities")
        }
    }

    /// Writes `data` to a new file at `url`, refusing (rather than replacing) one that
    /// appeared since ``validate()`` looked; with `replacing` (`--force`), a file there is
    /// replaced whole (a symbolic link's target, never the link), a FIFO or device written in place.
    private func write(_ data: Data, to url: URL, replacing: Bool = false) throws {
        do {
            if replacing {
                switch FileKind(path: url.path).kind {
                case .fifo, .characterDevice:
                    let handle = try FileHandle(forWritingTo: url)
                    defer { try? handle.close() }  // closing a written pipe or device: nothing to lose
                    try handle.write(contentsOf: data)
                default:
                    try data.write(to: url.resolvingSymlinksInPath(), options: .atomic)
                }
                return
            }
            try data.write(to: url, options: .withoutOverwriting)
        } catch {
            throw OutputError(path: url.path, reason: "\(error.localizedDescription)")
        }
    }
}

/// An output file of `quarry model` could not be written.
struct OutputError: Error, CustomStringConvertible {
    /// The file or folder.
    var path: String
    /// What the system said.
    var reason: String
    var description: String { "\(path): cannot be written: \(reason)" }
}
