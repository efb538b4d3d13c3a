/// Object ID → its row in an ``AggregateGroupTable``: per entity, a dense table over primary
/// keys while they are compact (4 bytes an object, one memory access a lookup: the common case
/// of a store's keys 1…n), a dictionary for the rest (temporary IDs, far-off keys).
///
/// A live aggregate over a million objects looks up every object a save changes: in a
/// dictionary of a million IDs each lookup hashes and misses the cache several times.
struct ObjectRowMap {
    private static let absent: Int32 = -1
    /// Per entity index, rows by primary key (`absent` where none).
    private var dense: [[Int32]] = []
    private var sparse: [ObjectID: Int32] = [:]
    /// How many objects have a row.
    private(set) var count = 0

    /// The row of `id`, if it has one.
    subscript(id: ObjectID) -> Int32? {
        let e = Int(id.entityIndex), k = id.primaryKey
        if e >= 0 && e < dense.count && k >= 0 && k < Int64(dense[e].count) {
            let row = dense[e][Int(k)]
            if row != Self.absent { return row }
        }
        return sparse.isEmpty ? nil : sparse[id]
    }

    /// Gives `id` the row `row` (replacing any it had).
    mutating func set(_ row: Int32, for id: ObjectID) {
        assert(row >= 0, "rows are numbered from 0")
        let e = Int(id.entityIndex), k = id.primaryKey
        guard e >= 0, k >= 0 else {
            if sparse.updateValue(row, forKey: id) == nil { count += 1 }
            return
        }
        if e >= dense.count { dense += Array(repeating: [], count: e + 1 - dense.count) }
        if k >= Int64(dense[e].count) && k < Int64(max(count, dense[e].count)) * 2 + 1024 {
            // Grown by half again at least, so that keys arriving in order cost amortized O(1).
            let size = max(Int(k) + 1, dense[e].count * 3 / 2)
            dense[e] += Array(repeating: Self.absent, count: size - dense[e].count)
        }
        if k < Int64(dense[e].count) {
            if dense[e][Int(k)] == Self.absent {
                if sparse.removeValue(forKey: id) == nil { count += 1 }
            }
            dense[e][Int(k)] = row
        } else if sparse.updateValue(row, forKey: id) == nil {
            count += 1
        }
    }

    /// Forgets the row of `id`; returns it, if it had one.
    @discardableResult
    mutating func removeValue(forKey id: ObjectID) -> Int32? {
        let e = Int(id.entityIndex), k = id.primaryKey
        if e >= 0 && e < dense.count && k >= 0 && k < Int64(dense[e].count) {
            let row = dense[e][Int(k)]
            if row != Self.absent {
                dense[e][Int(k)] = Self.absent
                count -= 1
                return row
            }
        }
        guard let row = sparse.removeValue(forKey: id) else { return nil }
        count -= 1
        return row
    }
}
