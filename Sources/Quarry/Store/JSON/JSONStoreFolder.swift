import Foundation

/// The files of a JSON store folder and the protocol that keeps a save atomic.
///
/// A save of generation *g + 1* over generation *g* runs these steps (``savePlan(files:metadata:)``):
/// 1. write every new file beside its final name (`Ticker.json.new`, `_Metadata.json.new`),
///    each flushed to disk;
/// 2. keep the current files under a second name (hard links `Ticker.json.old`), then
///    `_Metadata.json.old`: its presence says the backup is complete;
/// 3. rename the new entity files over the current ones, then `_Metadata.json.new` over
///    `_Metadata.json`, which commits: the metadata names generation *g + 1* (metadata last);
/// 4. remove `_Metadata.json.old`, then the other backups.
///
/// A reader (``currentFiles()``) decides which generation is whole: when `_Metadata.json.old`
/// exists and names the same generation as `_Metadata.json`, the save did not commit and the
/// backups (`.old`) are the store; otherwise the plain names are. So after a crash at any step the
/// store reads as the old or the new generation, whole. A writable open then puts the folder
/// back in order (``recoveryPlan()``): it restores or drops the backups and removes leftovers.
struct JSONStoreFolder {
    static let metadataName = "_Metadata.json"
    static let newSuffix = ".new"
    static let oldSuffix = ".old"

    let url: URL
    var path: String { url.path }

    /// The file name of `entity`'s objects.
    static func fileName(of entity: EntityDescription) -> String { "\(entity.name).json" }

    /// The entities that have a file: every concrete one (abstract entities have no objects).
    static func storedEntities(of model: ManagedObjectModel) -> [EntityDescription] {
        model.entities.filter { !$0.isAbstract }
    }

    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path)
    }

    func read(_ name: String) throws -> JSONStoreFileText {
        try JSONStoreFileText.read(url.appendingPathComponent(name))
    }

    /// The generation `name` (a metadata file) names, read without the model.
    func generation(in name: String) throws -> Int64 {
        let file = try read(name)
        guard case .object(let members) = file.document.root.kind, let node = members.first(where: { $0.key == "generation" })?.value else {
            throw file.fault(file.document.root, "the store metadata has no 'generation'")
        }
        return try file.integer(node, "generation")
    }

    /// Whether an interrupted save left its backup complete and uncommitted: the backups are the store.
    func hasUncommittedSave() throws -> Bool {
        let backup = Self.metadataName + Self.oldSuffix
        guard exists(backup) else { return false }
        return try generation(in: backup) == generation(in: Self.metadataName)
    }

    /// The file holding `entity`'s committed objects, `nil` when it has none (a hand-written
    /// folder may leave an empty entity out).
    func committedFile(of entity: EntityDescription, uncommittedSave: Bool) -> String? {
        let name = Self.fileName(of: entity)
        if uncommittedSave, exists(name + Self.oldSuffix) { return name + Self.oldSuffix }
        return exists(name) ? name : nil
    }

    /// The steps that put the folder in order after an interrupted save: restore the backups of
    /// an uncommitted save (or drop those of a committed one), then remove every leftover.
    func recoveryPlan(model: ManagedObjectModel) throws -> [JSONStoreFileStep] {
        let names = Self.storedEntities(of: model).map(Self.fileName(of:))
        var steps: [JSONStoreFileStep] = []
        if try hasUncommittedSave() {
            for name in names where exists(name + Self.oldSuffix) { steps.append(.rename(from: name + Self.oldSuffix, to: name)) }
            steps.append(.syncFolder)
        }
        let leftovers = [Self.metadataName + Self.oldSuffix, Self.metadataName + Self.newSuffix]
            + names.flatMap { [$0 + Self.oldSuffix, $0 + Self.newSuffix] }
        steps += leftovers.filter(exists).map(JSONStoreFileStep.remove)
        return steps.isEmpty || steps == [.syncFolder] ? [] : steps + [.syncFolder]
    }

    /// The steps of one atomic save of `files` (entity file name → contents) and `metadata`.
    func savePlan(files: [(name: String, text: String)], metadata: String) -> [JSONStoreFileStep] {
        let all = files + [(Self.metadataName, metadata)]
        var steps: [JSONStoreFileStep] = all.map { .write($0.name + Self.newSuffix, Data($0.text.utf8)) }
        for (name, _) in all {
            steps.append(.remove(name + Self.oldSuffix))
            // An entity that had no file is backed up as empty, so the backup is always complete.
            steps.append(exists(name) ? .link(from: name, to: name + Self.oldSuffix) : .write(name + Self.oldSuffix, Data("{}\n".utf8)))
        }
        steps.append(.syncFolder)
        steps += files.map { .rename(from: $0.name + Self.newSuffix, to: $0.name) }
        steps.append(.rename(from: Self.metadataName + Self.newSuffix, to: Self.metadataName))
        steps.append(.syncFolder)
        // The metadata's backup first: without it, no reader looks at the others.
        steps += ([(Self.metadataName, metadata)] + files).map { .remove($0.name + Self.oldSuffix) }
        steps.append(.syncFolder)
        return steps
    }

    /// Runs `steps` in order; with `limit`, only the first `limit` (a simulated crash after them).
    func run(_ steps: [JSONStoreFileStep], limit: Int = .max) throws {
        for (i, step) in steps.enumerated() {
            guard i < limit else { throw SimulatedCrash(step: i) }
            try step.run(in: url)
        }
    }
}

/// Thrown when a test cut a save short (``JSONStore/crashAfterFileSteps``).
struct SimulatedCrash: Error, Equatable {
    /// The index of the first step not run.
    let step: Int
}
