import Foundation
import Synchronization

/// Imports a CSV, JSON Lines or JSON file into one entity, validating every row before writing any.
///
/// Two passes over the file, which is memory-mapped and read one record at a time (memory stays
/// bounded at any size; rows are never all held):
/// 1. **Validation** parses every row and checks it against the model (types, integer ranges,
///    required values, minimum/maximum/pattern rules, unknown columns, to-one destinations found
///    exactly once). A bad file writes nothing: ``result`` is ``ImportError/invalidRows(file:errors:totalCount:)``
///    with the first ``maximumReportedErrors`` bad rows as `FILE:LINE:COLUMN: message` (the
///    physical line where the row or field starts, the 1-based character column of the field).
/// 2. **Insertion** parses again and inserts in chunks of ``Options/chunkSize`` rows, saving each
///    through an importer context on the stack's writer coordinator, so the smart merge shows
///    each chunk in the main context (and a live browser) as it lands.
///
/// Columns map to attributes by name, or through ``Options/columnMapping`` (column → attribute,
/// or `relationship.attribute` for a to-one destination found by that attribute). Values are
/// parsed as `ImportValueParser` describes (dates: ISO 8601, UTC when no zone is given).
///
/// **Runs that were stopped**: each saved chunk's history transaction is authored with the
/// import's mark (`ImportMark`: the file's content, the entity, the chunk size, the chunk).
/// A later import of the same file into the same entity skips the chunks an earlier run saved
/// (``ImportSummary/rowsAlreadySaved``), and refuses with ``ImportError/alreadyImported(file:entity:rows:chunks:)``
/// when every chunk was saved, unless ``Options/importsAgain``. A store without history keeps no marks.
///
/// **Cancellation** is checked between chunks (and every chunk of validated rows): a cancelled
/// import saves nothing of the chunk under way; whole chunks saved before it stay in the store.
///
/// ```swift
/// let op = ImportOperation(stack: stack, entityName: "Company", fileURL: url,
///                          options: .init(columnMapping: ["Sector": "sector.name"], createsMissingDestinations: true))
/// queue.addOperation(op)
/// queue.waitUntilAllOperationsAreFinished()
/// switch op.result { case .success(let s)?: print(s.rowsImported); case .failure(let e)?: print(e); case nil: break }
/// ```
public final class ImportOperation: ContextOperation, @unchecked Sendable {
    // Immutable after init except `outcome`, which sits behind a Mutex.

    /// How an import reads its file.
    public struct Options: Sendable {
        /// The file's format; `nil` picks it from the extension (`csv`, `jsonl`/`ndjson`, `json`;
        /// CSV for any other).
        public var format: ImportFormat?
        /// Column name → attribute name or `relationship.attribute` key path; unlisted columns
        /// map to the attribute of their own name.
        public var columnMapping: [String: String]
        /// Create a destination (with only its key attribute set) when a key path finds none;
        /// off: a missing destination is a bad row.
        public var createsMissingDestinations: Bool
        /// Rows per saved chunk.
        public var chunkSize: Int
        /// Import the file even when its marks say an earlier import saved all of it, and save
        /// every chunk even when an earlier run saved some (off: resume or refuse).
        public var importsAgain = false

        /// Import options.
        public init(format: ImportFormat? = nil, columnMapping: [String: String] = [:],
                    createsMissingDestinations: Bool = false, chunkSize: Int = 5_000) {
            self.format = format
            self.columnMapping = columnMapping
            self.createsMissingDestinations = createsMissingDestinations
            self.chunkSize = max(1, chunkSize)
        }
    }

    /// At most this many bad rows are reported (the error says how many more there were).
    public static let maximumReportedErrors = 100

    /// The stack whose writer coordinator the rows are saved through.
    public let stack: PersistentStack
    /// The entity rows become.
    public let entityName: String
    /// The file read.
    public let fileURL: URL
    /// How the file is read.
    public let options: Options
    private let progress: (@Sendable (ImportProgress) -> Void)?
    private let outcome = Mutex<Result<ImportSummary, ImportError>?>(nil)

    /// An import of `fileURL` into entity `entityName` of `stack`'s store.
    /// - Parameters:
    ///   - stack: The stack whose store receives the objects.
    ///   - entityName: The entity the rows become objects of.
    ///   - fileURL: The CSV, JSON Lines or JSON file to read.
    ///   - options: How the file is read.
    ///   - progress: called on the operation's thread after each chunk validated or saved.
    public init(stack: PersistentStack, entityName: String, fileURL: URL, options: Options = Options(),
                progress: (@Sendable (ImportProgress) -> Void)? = nil) {
        self.stack = stack
        self.entityName = entityName
        self.fileURL = fileURL
        self.options = options
        self.progress = progress
        super.init(stack: stack)
    }

    /// What the import did, once the operation has finished (`nil` before).
    public var result: Result<ImportSummary, ImportError>? { outcome.withLock { $0 } }

    /// The import on an operation queue: runs in the operation's ``ContextOperation/threadContext``
    /// (on the stack's writer coordinator, so the smart merge brings each chunk to the main
    /// context) and records ``result``. A failed import throws its ``ImportError`` (also in
    /// ``ContextOperation/error``).
    override public func execute(in context: ObjectContext) throws {
        let result = Result { () throws(ImportError) in try run(in: context) }
        outcome.withLock { $0 = result }
        if case .failure(let error) = result { throw error }
    }

    /// Runs the import on the calling thread (what the operation does when it starts): for
    /// callers that want to wait for it without a queue.
    /// - Throws: ``ImportError``.
    public func run() throws(ImportError) -> ImportSummary {
        try run(in: stack.importerContext())
    }

    /// The import through `context` (a private-queue context on the writer coordinator).
    private func run(in context: ObjectContext) throws(ImportError) -> ImportSummary {
        let file = fileURL.path
        guard let entity = stack.model.entity(named: entityName), !entity.isAbstract else { throw .unknownEntity(entityName) }
        let format = options.format ?? ImportFormat(pathExtension: fileURL.pathExtension) ?? .csv
        let data: Data
        do { data = try Data(contentsOf: fileURL, options: .alwaysMapped) } catch {
            throw .unreadable(file: file, reason: (error as NSError).localizedDescription)
        }
        let result: Result<ImportSummary, ImportError> = context.performAndWait {
            // A row whose unique key is already stored stops the import (as documented: a file
            // imported again clashes) instead of being merged by the importer's object-trump policy.
            context.uniquenessMergePolicy = .error
            return data.withUnsafeBytes { bytes in
                let session = ImportSession(
                    file: file, bytes: bytes, format: format, entity: entity, context: context, options: options,
                    isCancelled: { [unowned self] in self.isCancelled }, progress: progress)
                return Result { () throws(ImportError) in try session.run() }
            }
        }
        return try result.get()
    }
}
