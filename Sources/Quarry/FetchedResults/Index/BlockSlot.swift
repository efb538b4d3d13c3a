/// Where a result is stored in its ``ResultsBlock``: an index into the block's per-slot
/// arrays, fixed for as long as the result stays in the block.
///
/// A *slot* is not a *row*: a row (an `Int`) is a result's place in sort order within the
/// chunk, and moves whenever a result is inserted or removed before it; the block's order
/// maps each row to its slot. The ``PositionIndex`` records slots, so that an edit of one
/// chunk rewrites no entry of the results that stay in it.
struct BlockSlot: Hashable, Comparable, CustomStringConvertible {
    /// The slot's index in the per-slot arrays (below ``ResultsBlock/maxCapacity``).
    let index: Int

    /// Slot number `index`.
    @inline(__always)
    init(_ index: Int) {
        assert(index >= 0 && index < ResultsBlock.maxCapacity, "slot \(index) out of range")
        self.index = index
    }

    static func < (a: BlockSlot, b: BlockSlot) -> Bool { a.index < b.index }

    var description: String { "slot \(index)" }
}
