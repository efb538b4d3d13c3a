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

    /// Every column end to end (for the cache file and re-chunking): primary keys, entity
    /// indexes, keys.
    func flattened() -> (pks: [Int64], entities: [Int32], columns: [KeyColumn]) {
        var pks: [Int64] = [], entities: [Int32] = []
        pks.reserveCapacity(count)
        entities.reserveCapacity(count)
        var columns = sortKeys.map { _ in KeyColumn() }
        for chunk in chunks {
            chunk.appendIDs(to: &pks, &entities)
            for k in columns.indices {
                let column = chunk.column(k)
                columns[k].append(contentsOf: column, range: 0..<column.count)
            }
        }
        return (pks, entities, columns)
    }
}
