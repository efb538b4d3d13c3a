import CLibPQ

/// One statement of a pipeline: its text and parameters.
struct PGStatement: Sendable {
    /// The statement (one, with `$1`, `$2`, … for its parameters).
    var sql: String
    /// Its parameters.
    var binds: PGBindings

    init(_ sql: String, _ binds: PGBindings = PGBindings()) {
        self.sql = sql
        self.binds = binds
    }
}

extension PGConnection {
    /// Runs `statements` in order in one round trip (libpq's pipeline mode): all are sent, then
    /// one synchronization point, then every result is read. Returns each statement's result.
    ///
    /// Inside a transaction the statements act as if run one by one; once one fails the server
    /// skips the rest (up to the synchronization point) and its error is thrown.
    /// - Throws: ``PGError``: the first statement's error, or the connection's.
    func pipeline(_ statements: [PGStatement]) throws -> [PGResult] {
        guard !statements.isEmpty else { return [] }
        guard PQenterPipelineMode(handle) == 1 else { throw PGError.connection(PGError.message(handle)) }
        defer { PQexitPipelineMode(handle) }
        var sent = 0
        for statement in statements {
            let queued = statement.binds.withParameterArrays { types, values, lengths, formats in
                PQsendQueryParams(handle, statement.sql, Int32(statement.binds.count), types, values, lengths, formats, 1)
            }
            guard queued == 1 else { break }
            sent += 1
        }
        let sendFailure: PGError? = sent < statements.count ? .connection(PGError.message(handle)) : nil
        guard PQpipelineSync(handle) == 1 else { throw sendFailure ?? .connection(PGError.message(handle)) }
        var results: [PGResult] = []
        var failure: PGError? = sendFailure
        // Each statement's results end with a null result; the synchronization point's with none.
        for _ in 0..<sent {
            while let raw = PQgetResult(handle) {
                switch PQresultStatus(raw) {
                case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
                    results.append(PGResult(raw))
                case PGRES_PIPELINE_ABORTED:
                    PQclear(raw)
                default:
                    if failure == nil { failure = PGError.from(raw, connection: handle) }
                    PQclear(raw)
                }
            }
        }
        while let raw = PQgetResult(handle) {
            let status = PQresultStatus(raw)
            PQclear(raw)
            if status == PGRES_PIPELINE_SYNC { break }
        }
        if let failure { throw failure }
        guard results.count == statements.count else {
            throw PGError.connection("a pipeline of \(statements.count) statements returned \(results.count) results")
        }
        return results
    }
}
