extension SortedResults {
    /// Where runs of equal first keys start, and the first key of each run (runs whose keys
    /// share a section name are one).
    ///
    /// A chunk whose fence equals the next chunk's holds that one value throughout when the
    /// first key orders exactly by value (typed numbers, dates, booleans, binary strings):
    /// such chunks are passed over on the fences alone, so a million results in a few
    /// sections cost a pass over the chunks' fences, not over every result.
    func runs() -> [(start: Int, key: Value)] {
        guard let first = sortKeys.first, count > 0 else { return [] }
        var result: [(start: Int, key: Value)] = []
        var previous: Value?
        func visit(_ value: Value, at global: Int) {
            if let p = previous, p == value || p.sectionName == value.sectionName { return }
            previous = value
            result.append((global, value))
        }
        let exactKinds: Set<KeyColumn.Kind> = first.comparison == .binary ? [.integer, .bool, .double, .date, .string] : [.integer, .bool, .double, .date]
        let uniformByFences = exactKinds.contains(fences.kind)
        for (c, chunk) in chunks.enumerated() where chunk.count > 0 {
            if uniformByFences && c + 1 < chunks.count && fences.same(c, as: fences, c + 1) {
                visit(fences.value(at: c), at: chunkRecords[c].start)
                continue
            }
            for row in 0..<chunk.count where row == 0 || !chunk.same(0, row, as: chunk, row - 1) {
                visit(chunk.value(0, at: row), at: chunkRecords[c].start + row)
            }
        }
        return result
    }

    /// Every column end to end (for re-chunking and tests): primary keys, entity indexes, keys.
    func flattened() -> (pks: [Int64], entities: [Int32], columns: [KeyColumn]) {
        let (pks, entities) = flattenedIDs()
        return (pks, entities, sortKeys.indices.map(flattenedColumn))
    }

    /// The primary keys and entity indexes end to end.
    func flattenedIDs() -> (pks: [Int64], entities: [Int32]) {
        var pks: [Int64] = [], entities: [Int32] = []
        pks.reserveCapacity(count)
        entities.reserveCapacity(count)
        for chunk in chunks { chunk.appendIDs(to: &pks, &entities) }
        return (pks, entities)
    }

    /// Key column `k` end to end (the cache file writes one at a time, so that a copy of one
    /// column at most is held besides the index).
    func flattenedColumn(_ k: Int) -> KeyColumn {
        var column = KeyColumn()
        for chunk in chunks {
            let part = chunk.column(k)
            column.append(contentsOf: part, range: 0..<part.count)
        }
        return column
    }
}
