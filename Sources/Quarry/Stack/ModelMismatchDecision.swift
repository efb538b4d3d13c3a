extension PersistentStack {
    /// What ``Options/onModelMismatch`` decides for a store made with another model.
    public enum ModelMismatchDecision: Sendable, Equatable {
        /// Migrate the store to the stack's model (Core Data's inferred lightweight migration;
        /// what happens without a delegate while ``Options/automaticLightweightMigration`` is on).
        /// A JSON store cannot be migrated: it throws as ``refuse`` does.
        case migrate
        /// Leave the store untouched and throw ``StoreError/modelMismatch(path:entities:)``
        /// (as with ``Options/automaticLightweightMigration`` off).
        case refuse
        /// Delete the store (SQLite: the file, its `-wal` and `-shm`; JSON: the store folder)
        /// and create a new one with the stack's model (from ``Options/seedStoreURL`` when set,
        /// as on a first run). Only ever a store Quarry made: a foreign database never asks.
        case replace
    }
}
