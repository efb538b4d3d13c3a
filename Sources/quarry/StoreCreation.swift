import Foundation
import Quarry

/// Creates new, empty stores for `quarry create` and `quarry browse NEW --model M`.
enum StoreCreation {
    /// Why a store was not created.
    enum Refusal: Error, CustomStringConvertible {
        /// Something (a file, a folder, a link) is at the path already.
        case exists(path: String)
        /// A write-ahead log or shared-memory file of an earlier store is beside the path: a new
        /// store there could pick it up.
        case leftover(path: String)
        /// The folder the store would go in does not exist.
        case noFolder(path: String)
        /// `--force` replaces a regular file only: this is another kind of thing.
        case notReplaceable(path: String, kind: FileKind)

        var description: String {
            switch self {
            case .exists(let path): return "\(path): already exists; it was left as it is (--force replaces a file)"
            case .notReplaceable(let path, let kind): return "\(path): \(kind) is there; --force replaces a regular file only"
            case .leftover(let path): return "\(path): an earlier store's file is there; remove it or choose another path"
            case .noFolder(let path): return "\(path): no such folder"
            }
        }
    }

    /// Whether anything, even a dangling symbolic link, is at `path` (SQLite would create the
    /// link's target).
    static func somethingExists(at path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// Checks that a store can be created at `url`: nothing is there (with `replacing`, `--force`:
    /// nothing or a regular file, not through a symbolic link), no `-wal`/`-shm` of an earlier
    /// store is beside it, and its folder exists.
    static func checkCreatable(_ url: URL, replacing: Bool = false) throws {
        let path = url.path
        if somethingExists(at: path) {
            guard replacing else { throw Refusal.exists(path: path) }
            let found = FileKind(path: path)
            guard found.kind == .regularFile, !found.isSymbolicLink else { throw Refusal.notReplaceable(path: path, kind: found) }
        }
        for suffix in ["-wal", "-shm", "-journal"] where somethingExists(at: path + suffix) {
            throw Refusal.leftover(path: path + suffix)
        }
        var isDirectory: ObjCBool = false
        let folder = url.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Refusal.noFolder(path: folder)
        }
    }

    /// Creates an empty store for `model` at `url` (schema and metadata in one transaction),
    /// or fills an empty file there, and closes it, so no `-wal`/`-shm` is left beside it.
    /// When creation fails, the files it made are removed; files that were there before stay.
    /// Removes a store this command made (the file or JSON store folder, its `-wal` and
    /// `-shm`) after the command failed: nothing half-made is left behind.
    static func removeMadeStore(at path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Runs `build` on a hidden path beside `url` (`.NAME.UUID.partial`), then renames what it
    /// made onto `url`, which must still be free (never replaced) unless `replacing` (`--force`:
    /// a file made by `build` then replaces a regular file at `url` in one rename). When `build`
    /// throws or the rename fails, what it made is removed; a process killed meanwhile leaves
    /// only the hidden path, never a store at `url`.
    static func buildThenRename(_ url: URL, replacing: Bool = false, _ build: (URL) throws -> Void) throws {
        let partial = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
        do {
            try build(partial)
            // A store's connections are closed by now: a log left beside the partial store
            // would not follow it, so one with frames stops the rename.
            let log = partial.path + "-wal"
            if let size = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? NSNumber)?.intValue, size > 0 {
                throw CommandFailure("\(url.path): the new store's write-ahead log could not be emptied; nothing was made")
            }
            // Never onto something made there meanwhile: a file is linked (which fails on an
            // existing name), a folder renamed only while nothing is there.
            let isFolder = FileKind(path: partial.path).kind == .directory
            let target = FileKind(path: url.path)
            let replaces = replacing && !isFolder && target.kind == .regularFile && !target.isSymbolicLink
            let moved = replaces ? rename(partial.path, url.path) == 0
                      : isFolder ? !somethingExists(at: url.path) && rename(partial.path, url.path) == 0
                                 : link(partial.path, url.path) == 0 && unlink(partial.path) == 0
            guard moved else {
                let reason = errno == EEXIST || somethingExists(at: url.path) ? "something was made there meanwhile; it is left as it is" : String(cString: strerror(errno))
                throw CommandFailure("\(url.path): \(reason)")
            }
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: partial.path + suffix) }
        } catch {
            removeMadeStore(at: partial.path)
            throw error
        }
    }

    static func create(at url: URL, model: ManagedObjectModel) throws {
        let paths = ["", "-wal", "-shm"].map { url.path + $0 }
        let existing = Set(paths.filter(somethingExists))
        do {
            // The store is released at the end of this scope: its connections close and the
            // last one checkpoints the log away.
            _ = try SQLiteStore(url: url, model: model)
        } catch {
            for path in paths where !existing.contains(path) { try? FileManager.default.removeItem(atPath: path) }
            throw error
        }
    }

    /// "created PATH: N entities (A, B, C)", for the user.
    static func summary(of url: URL, model: ManagedObjectModel) -> String {
        summary(of: url.path, model: model)
    }

    /// "created STORE: N entities (A, B, C)", for a store named `store` (a path or a URL); past
    /// ``namesShown`` entities, the first of them and "and K more" (`quarry model` lists all).
    static func summary(of store: String, model: ManagedObjectModel) -> String {
        let names = model.entities.map(\.name)
        let shown = names.count > namesShown ? names.prefix(namesShown) + ["and \(names.count - namesShown) more"] : names[...]
        return "created \(store): \(names.count) \(names.count == 1 ? "entity" : "entities")"
            + (names.isEmpty ? "" : " (\(shown.joined(separator: ", ")))")
    }

    /// How many entity names the summary lists.
    static let namesShown = 20
}
