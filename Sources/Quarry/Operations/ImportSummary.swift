/// What an import did.
public struct ImportSummary: Sendable, Equatable {
    /// Rows validated in the first pass (every row of the file, unless cancelled during it).
    public var rowsValidated: Int
    /// Rows saved to the store (whole chunks).
    public var rowsImported: Int
    /// Chunks saved (one save, one did-save notification each).
    public var chunksSaved: Int
    /// Destination objects created for to-one key paths that found none.
    public var destinationsCreated: Int
    /// Whether the import was cancelled; ``rowsImported`` then counts the whole chunks saved before.
    public var wasCancelled: Bool
    /// Rows an earlier run of the same import had saved (it was stopped half-way), skipped by
    /// this one (see ``ImportOperation``).
    public var rowsAlreadySaved: Int = 0
}

/// Progress of an import, reported after each chunk.
public struct ImportProgress: Sendable, Equatable {
    /// The pass under way.
    public enum Phase: Sendable, Equatable {
        /// The first pass: rows are parsed and checked, nothing is written.
        case validating
        /// The second pass: rows are inserted and saved in chunks.
        case inserting
    }

    /// The pass under way.
    public var phase: Phase
    /// Rows validated (``Phase/validating``) or saved (``Phase/inserting``) so far.
    public var rowsDone: Int
    /// Rows in the file: known once validation is done (`nil` while validating).
    public var totalRows: Int?
}
