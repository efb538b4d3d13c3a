import Foundation

extension PersistentStack.Options {
    /// Opens the back end these options name for a stack of `model`: the one place a store
    /// type (or a foreign database) picks its back end, so the stack itself never asks which
    /// one it holds.
    /// - Throws: the back end's open error (``StoreError``, ``JSONStoreError``, ...).
    func openBackEnd(model: ManagedObjectModel) throws -> any StoreBackEnd {
        switch storeType {
        case .inMemory:
            return InMemoryBackEnd.open(model: model)
        case .postgreSQL:
            return try PostgreSQLBackEnd.open(model: model, options: self)
        case .sqlite, .json:
            // A foreign database opens instead of a file at storeURL.
            if let foreignDatabase {
                return try ForeignBackEnd.open(foreignDatabase, model: model, busyTimeout: busyTimeout)
            }
            if storeType == .json { return try JSONBackEnd.open(model: model, options: self) }
            return try SQLiteBackEnd.open(model: model, options: self)
        }
    }
}
