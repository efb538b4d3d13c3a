extension SortedResults {
    /// Builds an index from results handed over in order (a store's rows, a list of
    /// entries), a chunk at a time: one chunk's worth of columns is buffered and reused, so no
    /// array of all results is ever built.
    struct Builder {
        let sortKeys: [SortKey]
        private var chunks: [ResultsChunk] = []
        private var pks: [Int64] = []
        private var entities: [Int32] = []
        private var columns: [KeyColumn]
        private var maxPrimaryKey: Int64 = -1
        private var total = 0

        /// A builder of an index ordered by `sortKeys`.
        init(sortKeys: [SortKey]) {
            self.sortKeys = sortKeys
            columns = sortKeys.map { _ in KeyColumn() }
            pks.reserveCapacity(SortedResults.chunkSize)
            entities.reserveCapacity(SortedResults.chunkSize)
        }

        /// Appends a store's row (its keys in the order of ``sortKeys``), reading integer and
        /// double keys without a ``Value``.
        mutating func append(_ row: any KeyedRow) {
            appendID(primaryKey: row.primaryKey, entityIndex: row.entityIndex)
            for k in columns.indices {
                switch row.kind(ofKey: k) {
                case .null: columns[k].appendNull()
                case .integer: columns[k].appendInteger(row.int64(ofKey: k))
                case .double: columns[k].appendDouble(row.double(ofKey: k))
                case .string: row.withUTF8(ofKey: k) { columns[k].appendUTF8($0) }
                case .other: columns[k].append(row.value(ofKey: k))
                }
            }
            cutIfFull()
        }

        /// Appends `entry` (after every result appended so far in the index's order).
        mutating func append(_ entry: Entry) {
            appendID(primaryKey: entry.id.primaryKey, entityIndex: entry.id.entityIndex)
            for k in columns.indices { columns[k].append(entry.keys[k]) }
            cutIfFull()
        }

        private mutating func appendID(primaryKey: Int64, entityIndex: Int32) {
            pks.append(primaryKey)
            entities.append(entityIndex)
            maxPrimaryKey = max(maxPrimaryKey, primaryKey)
            total += 1
        }

        /// Turns the buffered results into a chunk once there are ``SortedResults/chunkSize``.
        private mutating func cutIfFull() {
            if pks.count == SortedResults.chunkSize { cut() }
        }

        private mutating func cut() {
            guard !pks.isEmpty else { return }
            chunks.append(ResultsChunk(handle: Int32(chunks.count), pks: pks[...], entities: entities[...], columns: columns))
            pks.removeAll(keepingCapacity: true)
            entities.removeAll(keepingCapacity: true)
            for k in columns.indices { columns[k].removeAll() }
        }

        /// The chunks of everything appended, with what the index needs to know of them.
        mutating func finishChunks() -> (chunks: [ResultsChunk], maxPrimaryKey: Int64, count: Int) {
            cut()
            defer { chunks = [] }
            return (chunks, maxPrimaryKey, total)
        }

        /// The index of everything appended.
        mutating func finish() -> SortedResults {
            let built = finishChunks()
            return SortedResults(sortKeys: sortKeys, chunks: built.chunks, maxPrimaryKey: built.maxPrimaryKey, count: built.count)
        }
    }

    /// The index of what `query` selects in `store`, ordered by `sortKeys` (the query's own
    /// order), built from the store's rows as they are read.
    static func fetch(_ query: StoreQuery, from store: any PersistentStore, sortKeys: [SortKey]) throws -> SortedResults {
        var builder = Builder(sortKeys: sortKeys)
        try store.forEachKeyedRow(for: query, keyPaths: sortKeys.map(\.keyPath)) { builder.append($0) }
        return builder.finish()
    }
}
