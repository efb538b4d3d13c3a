/// Object ID → where the controller's index keeps it: the handle of its chunk and its slot
/// in that chunk's block (a ``BlockSlot``), packed in 32 bits (handle · 128 + slot). A dense table over primary keys when they are compact (4 bytes a result, the
/// common case), a dictionary for the rest (temporary IDs, far-off keys).
///
/// Slots do not move while a chunk lives, so an entry is exact until the chunk is rebuilt,
/// and then it is rewritten. The reader still checks the slot's ID, and looks through the
/// chunk when it differs, so a stale or foreign entry reads as "absent", never as a wrong
/// place.
struct PositionIndex {
    private static let absent = UInt32.max
    private static let slotBits: UInt32 = 7
    /// The most chunk handles an entry can name.
    static let maxHandles = 1 << (32 - 7) - 1
    private var dense: [UInt32] = []
    private var sparse: [ObjectID: UInt32] = [:]
    private var count = 0

    init() {}

    /// Sizes the dense table for keys up to `maxKey`.
    mutating func reserve(maxKey: Int64, count: Int) {
        if maxKey >= 0 && maxKey < Int64(count) * 4 + 1024 && Int(maxKey) >= dense.count {
            grow(to: Int(maxKey) + 1)
        }
    }

    /// Makes the dense table `n` entries long, new ones absent: a new table in memory asked
    /// to be in huge pages before it is written (lookups land anywhere in it; see
    /// ``SortedResults/BlockArena``).
    private mutating func grow(to n: Int) {
        let old = dense
        dense = [UInt32](unsafeUninitializedCapacity: n) { buffer, initialized in
            SortedResults.BlockArena.adviseHugePages(UnsafeMutableRawPointer(buffer.baseAddress!), bytes: n * 4)
            _ = buffer.initialize(from: old)
            buffer[old.count...].initialize(repeating: Self.absent)
            initialized = n
        }
    }

    /// Records that `id` is in slot `slot` of the chunk named `handle`.
    mutating func set(_ id: ObjectID, handle: Int32, slot: BlockSlot) {
        precondition(Int(handle) < Self.maxHandles && slot.index < 1 << Self.slotBits)
        let packed = UInt32(handle) << Self.slotBits | UInt32(slot.index)
        let k = id.primaryKey
        if k >= 0 && Int(k) >= dense.count && k < Int64(max(count, dense.count)) * 2 + 1024 {
            grow(to: max(Int(k) + 1, dense.count * 3 / 2))
        }
        if k >= 0 && Int(k) < dense.count {
            if dense[Int(k)] == Self.absent { count += 1 }
            dense[Int(k)] = packed
            if !sparse.isEmpty { sparse[id] = nil }
        } else {
            if sparse.updateValue(packed, forKey: id) == nil { count += 1 }
        }
    }

    /// Forgets `id`.
    mutating func remove(_ id: ObjectID) {
        let k = id.primaryKey
        if k >= 0 && Int(k) < dense.count && dense[Int(k)] != Self.absent {
            dense[Int(k)] = Self.absent
            count -= 1
        } else if sparse.removeValue(forKey: id) != nil {
            count -= 1
        }
    }

    /// Starts loading the entry of `id` (a hint; nothing waits).
    @inline(__always)
    func prefetch(_ id: ObjectID) {
        let k = id.primaryKey
        if k >= 0 && Int(k) < dense.count { dense.withUnsafeBufferPointer { Prefetch.read($0.baseAddress! + Int(k)) } }
    }

    /// The chunk handle and slot recorded for `id`, if any.
    subscript(id: ObjectID) -> (handle: Int32, slot: BlockSlot)? {
        let k = id.primaryKey
        var packed = Self.absent
        if k >= 0 && Int(k) < dense.count { packed = dense[Int(k)] }
        if packed == Self.absent, !sparse.isEmpty { packed = sparse[id] ?? Self.absent }
        guard packed != Self.absent else { return nil }
        return (Int32(packed >> Self.slotBits), BlockSlot(Int(packed & (1 << Self.slotBits - 1))))
    }
}
