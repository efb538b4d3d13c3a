import Foundation

/// A stack's back end for a database Quarry did not make (``ForeignDatabase``): opened
/// read-only once per coordinator, never watched, never destroyed.
struct ForeignBackEnd: StoreBackEnd {
    let database: ForeignDatabase
    let main: SQLiteStore
    let writer: SQLiteStore

    /// Opens `database` for a stack whose model must be the one it recovered.
    static func open(_ database: ForeignDatabase, model: ManagedObjectModel, busyTimeout: Double) throws -> ForeignBackEnd {
        precondition(database.model == model, "a foreign database opens with the model it recovered")
        let writer = try SQLiteStore(foreign: database, busyTimeout: busyTimeout)
        let main = try SQLiteStore(foreign: database, busyTimeout: busyTimeout)
        return ForeignBackEnd(database: database, main: main, writer: writer)
    }

    /// The origin the viewing stores were given (they never write history).
    var historyOrigin: UUID? { writer.historyOrigin }

    /// Refused: a database Quarry did not make is never deleted (nor written).
    func destroy() throws {
        throw StoreError.readOnly(path: database.path)
    }
}
