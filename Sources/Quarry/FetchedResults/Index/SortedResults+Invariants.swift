extension SortedResults {
    /// In debug builds, stops with the broken invariant named when one is (after a build and
    /// after ``apply(dropping:adding:readded:)``); nothing in release builds.
    ///
    /// The check reads every result, so it runs after every change only while the index holds
    /// at most ``debugCheckBudget`` results (every unit test's index); a larger one is checked
    /// after its build and then after one change in `count / debugCheckBudget`, which keeps a
    /// debug build's cost per change bounded. (Checked after every change, a debug `quarry demo`
    /// of 9,000 tickers spent two thirds of its time here: on a loaded machine its main queue
    /// fell minutes behind the importer.)
    @inline(__always)
    func checkInvariantsInDebugBuilds() {
        #if DEBUG
        let stride = max(1, count / Self.debugCheckBudget)
        defer { debugChecks += 1 }
        guard debugChecks % stride == 0 else { return }
        if let violation = invariantViolation() { assertionFailure("fetched-results index invariant broken: \(violation)") }
        #endif
    }

    /// How many results a debug build's invariant check reads per change, on average.
    static var debugCheckBudget: Int { 2_048 }

    /// The first broken internal invariant, described (`nil` when all hold): the mirrors of
    /// the chunks (records, fences and handles), the position index, and the order. O(n).
    func invariantViolation() -> String? {
        guard chunkRecords.count == chunks.count, fences.count == chunks.count else { return "mirror counts differ: \(chunks.count) chunks, \(chunkRecords.count) records, \(fences.count) fences" }
        if count != (chunkRecords.last.map { $0.start + Int($0.count) } ?? 0) { return "count \(count) is not the chunks' total" }
        var previous: Entry?
        for (c, chunk) in chunks.enumerated() {
            if let violation = recordViolation(chunk: c) { return violation }
            for row in 0..<chunk.count {
                let entry = Entry(id: chunk.id(row), keys: sortKeys.indices.map { chunk.value($0, at: row) })
                let slot = chunk.block.slot(ofRow: row)
                if let p = positions[entry.id], p.handle == chunk.handle, p.slot == slot {} else { return "position of \(entry.id) (chunk \(c) row \(row))" }
                if let previous, !precedes(previous, entry) { return "order at chunk \(c) row \(row): \(previous.keys) \(previous.id) / \(entry.keys) \(entry.id)" }
                previous = entry
            }
        }
        return nil
    }

    /// What is wrong with chunk `c`'s record, fence or handle, if anything.
    private func recordViolation(chunk c: Int) -> String? {
        let chunk = chunks[c], record = chunkRecords[c]
        if chunk.count == 0 { return "chunk \(c) is empty" }
        if chunk.count > Self.maxChunk { return "chunk \(c) holds \(chunk.count), more than \(Self.maxChunk)" }
        if record.block.raw != chunk.block.raw { return "record \(c) names a stale block" }
        if let violation = chunk.overflowViolation() { return "chunk \(c): \(violation)" }
        if Int(record.count) != chunk.count { return "record \(c) counts \(record.count), the chunk holds \(chunk.count)" }
        if record.start != (c == 0 ? 0 : chunkRecords[c - 1].start + Int(chunkRecords[c - 1].count)) { return "record \(c) starts at \(record.start)" }
        if record.handle != chunk.handle || chunkIndexOfHandle[Int(chunk.handle)] != Int32(c) { return "handle of chunk \(c)" }
        if fences.value(at: c) != fence(of: chunk) { return "fence \(c): \(fences.value(at: c)) vs \(fence(of: chunk))" }
        return nil
    }
}
