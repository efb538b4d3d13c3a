/// What migrating a store to a model does, entity by entity: printed by `quarry migrate` and
/// `quarry browse` before they ask, and by ``SQLiteStore/migrationPlan(url:to:versions:countingRows:)``.
///
/// ```swift
/// if let plan = try SQLiteStore.migrationPlan(url: url, to: newModel) {
///     print(plan)   // per entity: added, removed, renamed, in place or copied, rows
/// }
/// ```
public struct MigrationPlan: Sendable, CustomStringConvertible {
    /// One inferred migration between two consecutive models.
    public struct Step: Sendable {
        /// The version the step starts from, when a bundle named it.
        public var sourceVersion: String?
        /// The version the step ends at, when a bundle named it.
        public var destinationVersion: String?
        /// What happens to each entity (destination entities, then removed ones).
        public var entities: [EntityChange]
    }

    /// The store file, or a PostgreSQL store's URL (never with its password).
    public var path: String
    /// The steps, in order (more than one when migrating through a bundle's versions).
    public var steps: [Step]
    /// What the plan had to go around: a bundle version between the store's and the target
    /// that does not load, with its file and why.
    public var notes: [String] = []

    /// Every entity change of every step.
    public var entities: [EntityChange] { steps.flatMap(\.entities) }

    /// Whether any table is copied (the slow kind of change, reported through progress).
    public var copiesRows: Bool { entities.contains { $0.strategy == .copy } }

    public var description: String {
        var lines = ["migrate \(path)" + (steps.count > 1 ? " in \(steps.count) steps" : "") + ":"]
        lines += notes.map { "  note: " + $0 }
        for (i, step) in steps.enumerated() {
            if steps.count > 1 || step.sourceVersion != nil {
                lines.append("  step \(i + 1): \(step.sourceVersion ?? "stored model") → \(step.destinationVersion ?? "new model")")
            }
            let indent = steps.count > 1 || step.sourceVersion != nil ? "    " : "  "
            for change in step.entities where change.kind != .unchanged || change.strategy != .unchanged {
                lines.append(indent + change.summary)
                lines += change.changes.map { indent + "  " + $0 }
            }
            if step.entities.allSatisfy({ $0.kind == .unchanged && $0.strategy == .unchanged }) {
                lines.append(indent + "(no entity changes: the model's version hash differs only)")
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// What a migration step does to one entity.
public struct EntityChange: Sendable, Hashable {
    /// How the entity relates to the old model.
    public enum Kind: Sendable, Hashable {
        /// New in the model.
        case added
        /// Gone from the model (its rows are deleted).
        case removed
        /// Renamed through its renaming identifier from the old name.
        case renamed(from: String)
        /// Same name, with property or structure changes.
        case changed
        /// Nothing about it changed.
        case unchanged
    }

    /// How its rows are treated.
    public enum Strategy: String, Sendable, Hashable {
        /// Its table is left alone.
        case unchanged
        /// Its table is altered where it stands (`ALTER TABLE`, row updates at most).
        case inPlace = "in place"
        /// Its rows are copied into a new table.
        case copy = "copied"
        /// Its table is created empty.
        case create = "created"
        /// Its rows are deleted (the entity was removed).
        case drop = "dropped"
    }

    /// The entity's name (the old name for a removed entity).
    public var name: String
    /// Added, removed, renamed, changed or unchanged.
    public var kind: Kind
    /// One line per property or structure change, e.g. `+ volume: Integer 64, optional`.
    public var changes: [String]
    /// How its rows are treated.
    public var strategy: Strategy
    /// The rows of this entity (not its sub-entities) in the store, when counted.
    public var rows: Int?

    /// The entity's headline: name, kind, strategy and rows.
    public var summary: String {
        var text = name
        switch kind {
        case .added: text += " (added)"
        case .removed: text += " (removed)"
        case .renamed(let old): text += " (renamed from \(old))"
        case .changed, .unchanged: break
        }
        text += ": " + strategy.rawValue
        if let rows { text += ", \(rows) row\(rows == 1 ? "" : "s")" + (strategy == .copy || strategy == .drop ? "" : " affected") }
        return text
    }
}
