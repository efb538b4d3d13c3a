import ArgumentParser
import Foundation
import Quarry

/// `quarry export STORE --entity E [--where P] [--sort K] [--columns a,b,sector.name]
/// [--format csv|jsonl|json] [-o FILE]`: one entity's objects as CSV, JSON Lines or a JSON array.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export an entity's objects as CSV, JSON Lines or a JSON array.",
        discussion: """
            Objects are read in batches (bounded memory at any size). A file (-o) is written \
            beside its destination and renamed at the end, so an interrupted export leaves no \
            partial file; a FIFO or character device (/dev/stdout) is opened and written in place, a \
            symbolic link is followed (the link stays), and - is standard output. An existing file is \
            refused, left as it is, unless --force. The format follows -o's extension; a --format \
            another known extension contradicts is refused. Progress (rows, rate, time left) is \
            shown on standard error; Ctrl-C stops the export, leaving no partial file, and exits \
            with status 130. CSV follows RFC 4180; dates are ISO 8601, binary base64, nil empty.
            """
    )

    @Argument(help: "The store (a Quarry SQLite store, JSON store folder or postgres:// store URL).")
    var store: String

    @Option(name: .long, help: "The entity to export.")
    var entity: String

    @Option(name: .customLong("where"), help: "A predicate selecting the objects (as in the browser's filter).")
    var predicate: String?

    // Unconditional: the value is taken even when it starts with `-` (`--sort -price,symbol`).
    @Option(name: .long, parsing: .unconditional,
            help: "Sort keys, e.g. symbol or -price,symbol (default: object ID order).")
    var sort: String?

    @Option(name: .long, help: "The columns, comma-separated; key paths such as sector.name allowed, and with --group-by aggregates: count(), count(KEY), count(distinct KEY), sum(KEY), avg(KEY), min(KEY), max(KEY) (default: every stored attribute).")
    var columns: String?

    @Option(name: .customLong("group-by"), help: "Key paths, comma-separated: one record per group of equal values, its --columns the group keys and aggregates.")
    var groupBy: String?

    @Option(name: .long, help: "csv, jsonl or json (default: from -o's extension, else csv).")
    var format: String?

    @Option(name: .shortAndLong, help: "The file to write; - or none: standard output. An existing file needs --force; a FIFO or device is written in place, a symbolic link's target is replaced, never the link.")
    var output: String?

    @OptionGroup var forceOption: ForceOption

    @OptionGroup var quietOption: QuietOption

    func validate() throws {
        if let format, !["csv", "jsonl", "json"].contains(format) { throw ValidationError("--format \(format): one of csv, jsonl, json") }
        _ = try FormatChoice.format(format, path: output == "-" ? nil : output, option: "-o")
    }

    func run() throws {
        let file = output == "-" ? nil : output
        // What is at -o is decided before anything is opened: an existing file is never touched
        // without --force.
        if let file {
            do { try OutputTarget.check(file, force: forceOption.force) } catch { throw CommandFailure("\(error)") }
        }
        let stack = try StoreOpening.openReadOnly(try StoreLocation(store))
        guard let described = stack.model.entity(named: entity) else {
            throw ValidationError("--entity \(entity): the model has no such entity (it has \(stack.model.entities.map(\.name).joined(separator: ", ")))")
        }
        let objectPredicate: ObjectPredicate?
        do {
            objectPredicate = try predicate.map { try ObjectPredicate(format: $0) }
            if let objectPredicate { _ = try PredicateEvaluator(objectPredicate, entity: described, model: stack.model) }
        } catch {
            throw ValidationError("--where: \(error)")
        }
        let sortKeys = try sort.map(BrowseCommand.parseSort) ?? []
        let kind = try FormatChoice.format(format, path: file, option: "-o")
        if groupBy != nil || columns?.contains("(") == true {
            try exportGroups(stack, entity: described.name, predicate: objectPredicate, sortKeys: sortKeys, file: file, kind: kind)
            return
        }
        let chosen = columns?.split(separator: ",").map { ExportColumn(String($0).trimmingCharacters(in: .whitespaces)) }
        let formatter = ExportOperation.formatter(forPathExtension: kind, columns: chosen)
        let destination: ExportOperation.Destination = file.map { .file(URL(fileURLWithPath: $0)) } ?? .standardOutput
        let operation = ExportOperation(stack: stack, entityName: entity, predicate: objectPredicate,
                                        sortDescriptors: sortKeys, destination: destination, formatter: formatter)
        let reporter = ProgressReporter.standardError(command: "export", quiet: quietOption.quiet)
        operation.progressHandler = { reporter.update(done: $0.rowsDone, total: $0.totalRows) }
        try InterruptWatch.during(onSignal: { operation.cancel() }) { watch in
            let queue = OperationQueue()
            queue.addOperations([operation], waitUntilFinished: true)
            reporter.finish()
            if watch.caught != nil, operation.isCancelled {
                FileHandle.standardError.write(Data((Self.interruption(written: operation.statistics.rowsWritten, file: file) + "\n").utf8))
                throw ExitCode(watch.exitCode)
            }
        }
        if let error = operation.error { throw CommandFailure("\(error)") }
        if let file {
            FileHandle.standardError.write(Data("exported \(operation.statistics.rowsWritten) \(entity) objects to \(file)\n".utf8))
        }
    }
}

extension ExportCommand {
    /// What an interrupted export says: a file is left as it was (the export is renamed onto
    /// it only when whole); a FIFO, a device or standard output has what was written.
    static func interruption(written: Int, file: String?) -> String {
        guard let file else { return "export: interrupted after \(written) rows written to standard output" }
        switch FileKind(path: file).kind {
        case .fifo, .characterDevice: return "export: interrupted after \(written) rows written to \(file)"
        default: return "export: interrupted; nothing written to \(file) (a file there is as it was)"
        }
    }

    /// `--group-by` (or an aggregate in `--columns`): one record per group, computed by the
    /// store's rows without loading objects (``GroupedExport``).
    func exportGroups(_ stack: PersistentStack, entity: String, predicate: ObjectPredicate?, sortKeys: [SortKey],
                      file: String?, kind: String) throws {
        guard let columns else { throw ValidationError("--group-by needs --columns: the group keys and aggregates, e.g. 'sector.name,count(),sum(volume)'") }
        var request = FetchRequest(entityName: entity, predicate: predicate, sortDescriptors: sortKeys)
        do {
            request.propertiesToFetch = try FetchedProperty.list(parsing: columns)
        } catch {
            throw ValidationError("--columns: \(error)")
        }
        request.propertiesToGroupBy = groupBy.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
        let destination: ExportOperation.Destination = file.map { .file(URL(fileURLWithPath: $0)) } ?? .standardOutput
        let formatter = ExportOperation.formatter(forPathExtension: kind, columns: nil)
        guard let rows = formatter as? any ValueRowFormatter else { throw CommandFailure("--format \(kind): not available for grouped exports") }
        let written: Int
        do {
            written = try GroupedExport.run(request, coordinator: stack.writerCoordinator, destination: destination, formatter: rows)
        } catch let error as QueryError {
            throw ValidationError("--columns/--group-by: \(error)")
        } catch {
            throw CommandFailure("\(error)")
        }
        if let file { FileHandle.standardError.write(Data("exported \(written) groups of \(entity) objects to \(file)\n".utf8)) }
    }
}

/// A command's failure, printed as `quarry: MESSAGE` with exit status 1 (no usage text).
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
