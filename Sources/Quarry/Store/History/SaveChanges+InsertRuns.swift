extension SaveChanges {
    /// The inserted objects as runs of one entity with consecutive keys, in order: what
    /// history stores as one change row each (`Z_PK` the first key, `Z_COUNT` the run's length).
    var insertRuns: [(first: ObjectID, count: Int)] {
        var runs: [(first: ObjectID, count: Int)] = []
        var start = 0
        while start < inserted.count {
            let first = inserted[start]
            var end = start + 1
            while end < inserted.count, inserted[end].entityIndex == first.entityIndex,
                  inserted[end].primaryKey == first.primaryKey + Int64(end - start) { end += 1 }
            runs.append((first, end - start))
            start = end
        }
        return runs
    }
}
