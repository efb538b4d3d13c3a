/// A run of consecutive results: a ``ResultsBlock`` plus the boxed key columns, if any, and
/// the text of strings too long for the block's words, if any.
///
/// The block is owned here (freed on deinit) and may be replaced by a larger or wider one when
/// results are inserted past its capacity or its layout (slots are kept).
final class ResultsChunk {
    /// Stable name of the chunk in ``PositionIndex`` entries.
    let handle: Int32
    private(set) var block: ResultsBlock
    /// Columns kept as ``KeyColumn``s (by slot, one value per slot), by sort key (empty until
    /// one is).
    private var boxed: [KeyColumn] = []
    /// For the first sort key, when it is a string column: by slot, the whole text of each
    /// string longer than ``StringWord/inlineCapacity`` (the block's word holds its first
    /// bytes; the text of a slot whose word is inline is unused). Kept in the object, so an
    /// edit reaches it with no load beyond the object's (see ``prefetchOverflow()``).
    private var firstOverflow = OverflowTexts()
    /// Where ``firstOverflow``'s sparse records start, refreshed on every change to it: a
    /// trivial field, so that ``prefetchOverflow()`` reads no reference (a retain of the
    /// records' buffer would wait for the very line the prefetch is for). Only ever
    /// prefetched, never read through.
    private var firstOverflowLine: UnsafeRawPointer?
    /// The same for the other sort keys, by key from the second (empty until one has a long
    /// string).
    private var otherOverflow: [OverflowTexts] = []
    let keyCount: Int

    /// Results in the chunk.
    var count: Int { block.count }

    /// A chunk of the given results, in order (row `o` in slot `o`), in a block with room for
    /// `capacity` (by default ``capacity(for:)``).
    init(handle: Int32, pks: ArraySlice<Int64>, entities: ArraySlice<Int32>, columns: [KeyColumn], capacity: Int? = nil) {
        precondition(pks.count == entities.count && columns.allSatisfy { $0.count == pks.count })
        self.handle = handle
        keyCount = columns.count
        let n = pks.count
        let wide = pks.contains { ResultsBlock.PrimaryKeyWidth(fitting: $0) == .wide }
        let entity = entities.first ?? 0
        let shape = ResultsBlock.Shape(capacity: capacity ?? Self.capacity(for: n), keys: columns.count,
                                       primaryKeyWidth: wide ? .wide : .narrow,
                                       entitiesPerSlot: entities.contains { $0 != entity })
        block = ResultsBlock.allocate(shape, sharedEntity: entity)
        precondition(n <= block.capacity)
        for (o, (pk, e)) in zip(pks, entities).enumerated() {
            block.setID(ObjectID(entityIndex: Int(e), primaryKey: pk), in: BlockSlot(o))
            block.setOccupied(BlockSlot(o), true)
        }
        block.setIdentityOrder(n)
        for (k, column) in columns.enumerated() { put(column, at: k) }
    }

    deinit { block.deallocate() }

    /// Room for `n` results and eight more (a change event's few insertions into a chunk
    /// land in place; more grow the block), a multiple of 8, at most ``SortedResults/maxChunk``.
    static func capacity(for n: Int) -> Int {
        min(SortedResults.maxChunk, (n + 8 + 7) & ~7)
    }

    /// Stores a whole column `k` (row `o` in slot `o`).
    private func put(_ column: KeyColumn, at k: Int) {
        let n = count
        let mode = ResultsBlock.ColumnMode(column.kind)
        guard k < ResultsBlock.maxKeyColumns, mode != .boxed else {
            var padded = column
            for _ in n..<block.capacity { padded.appendNull() }
            box(padded, at: k)
            return
        }
        block.setMode(k, mode)
        if mode == .string {
            var long = 0
            for o in 0..<n where !column.isNull(o) && column.strings.withUTF8(at: o, { $0.count > StringWord.inlineCapacity }) { long += 1 }
            if long > OverflowTexts.sparseLimit { self[overflow: k] = .dense() }
        }
        let words = block.words(k)
        for o in 0..<n {
            if column.isNull(o) {
                block.setNull(k, BlockSlot(o), true)
                words[o] = 0
            } else if mode == .string {
                column.strings.withUTF8(at: o) { utf8 in
                    let word = StringWord.make(utf8)
                    words[o] = Int64(bitPattern: word)
                    if !StringWord.isInline(word) { keepOverflow(k, utf8, in: BlockSlot(o)) }
                }
            } else {
                words[o] = column.word(at: o)
            }
        }
    }

    /// Keeps the text `utf8` of the long string whose first bytes `slot` of column `k` holds.
    private func keepOverflow(_ k: Int, _ utf8: UnsafeBufferPointer<UInt8>, in slot: BlockSlot) {
        let block = block
        self[overflow: k].set(utf8, in: slot) { block.isOccupied($0) && block.holdsOverflowString(k, $0) }
    }

    /// The long strings' text of column `k`.
    private subscript(overflow k: Int) -> OverflowTexts {
        _read {
            if k == 0 {
                yield firstOverflow
            } else {
                yield k <= otherOverflow.count ? otherOverflow[k - 1] : OverflowTexts()
            }
        }
        _modify {
            if k == 0 {
                defer { firstOverflowLine = firstOverflow.firstLine }
                yield &firstOverflow
            } else {
                if otherOverflow.count < k { otherOverflow += repeatElement(OverflowTexts(), count: k - otherOverflow.count) }
                yield &otherOverflow[k - 1]
            }
        }
    }

    /// Starts loading the first key's long-string text, for an edit about to store one (the
    /// object itself must be in cache or on its way: ``SortedResults`` prefetches it first).
    @inline(__always)
    func prefetchOverflow() {
        if let firstOverflowLine { Prefetch.read(firstOverflowLine) }
    }

    /// Keeps column `k` as `column` (one value per slot).
    private func box(_ column: KeyColumn, at k: Int) {
        if k < block.keyColumnCount { block.setMode(k, .boxed) }
        if boxed.isEmpty { boxed = [KeyColumn](repeating: KeyColumn(), count: keyCount) }
        boxed[k] = column
    }

    /// The ID of row `row`.
    func id(_ row: Int) -> ObjectID { block.id(row: row) }

    /// Whether column `k` is a boxed ``KeyColumn``.
    @inline(__always)
    func isBoxed(_ k: Int) -> Bool { block.mode(k) == .boxed }

    /// Column `k` when it is boxed (by slot), else `nil`: for a search that compares many rows
    /// of one column, reading it once rather than through ``compare(_:_:_:key:)`` per row
    /// (each of which copies the column out of the chunk).
    @inline(__always)
    func boxedColumn(_ k: Int) -> KeyColumn? { isBoxed(k) ? boxed[k] : nil }

    /// The value of row `row` of column `k`.
    func value(_ k: Int, at row: Int) -> Value { value(k, in: block.slot(ofRow: row)) }

    /// The value in `slot` of column `k`.
    private func value(_ k: Int, in slot: BlockSlot) -> Value {
        if isBoxed(k) { return boxed[k].value(at: slot.index) }
        if block.holdsOverflowString(k, slot) { return .string(self[overflow: k].string(in: slot)) }
        return block.value(k, slot)
    }

    /// Calls `body` with the UTF-8 bytes of the string in `slot` of string column `k` (not nil).
    private func withUTF8<R>(_ k: Int, in slot: BlockSlot, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let word = UInt64(bitPattern: block.word(k, slot))
        return StringWord.isInline(word) ? StringWord.withUTF8(ofInline: word, body) : self[overflow: k].withUTF8(in: slot, body)
    }

    /// ``SortKey/compare(_:_:)`` of row `row` of column `k` with `v` (direction not applied).
    @inline(__always)
    func compare(_ k: Int, _ row: Int, _ v: Value, key: SortKey) -> Int {
        if isBoxed(k) { return boxed[k].compare(block.slot(ofRow: row).index, v, key: key) }
        if let order = block.compare(k, row: row, v, key: key) { return order }
        // A long string whose first bytes do not decide: its whole text.
        let slot = block.slot(ofRow: row)
        if key.comparison == .binary, case .string(let y) = v {
            return self[overflow: k].compareBinary(in: slot, y)
        }
        return key.compare(value(k, in: slot), v)
    }

    /// Whether row `row` of column `k` holds `v`.
    @inline(__always)
    func holds(_ k: Int, _ v: Value, at row: Int) -> Bool {
        if isBoxed(k) { return boxed[k].holds(v, at: block.slot(ofRow: row).index) }
        if let holds = block.holds(k, v, row: row) { return holds }
        guard case .string(let y) = v else { return false }
        return self[overflow: k].holds(y, in: block.slot(ofRow: row))
    }

    /// Whether row `i` of column `k` and row `j` of `other`'s hold the same value.
    func same(_ k: Int, _ i: Int, as other: ResultsChunk, _ j: Int) -> Bool {
        if let same = block.sameWord(k, row: i, as: other.block, row: j) { return same }
        return value(k, at: i) == other.value(k, at: j)
    }

    /// What is wrong with the long strings' text (a slot whose word names more text than the
    /// overflow column holds for it), if anything; for the index's debug checks.
    func overflowViolation() -> String? {
        for k in 0..<keyCount where !isBoxed(k) && block.mode(k) == .string {
            for row in 0..<count {
                let slot = block.slot(ofRow: row)
                guard block.holdsOverflowString(k, slot) else { continue }
                guard self[overflow: k].hasText(in: slot) else { return "no text for the long string in \(slot) of column \(k)" }
                let word = self[overflow: k].withUTF8(in: slot) { StringWord.make($0) }
                if word != UInt64(bitPattern: block.word(k, slot)) { return "the text in \(slot) of column \(k) does not start as its word" }
            }
        }
        return nil
    }

    /// Column `k`'s rows, in order, as a ``KeyColumn``.
    func column(_ k: Int) -> KeyColumn {
        var column = KeyColumn(kind: isBoxed(k) ? boxed[k].kind : block.mode(k).kind!)
        column.reserveCapacity(count)
        if isBoxed(k) {
            for row in 0..<count { column.appendRow(of: boxed[k], block.slot(ofRow: row).index) }
        } else if block.mode(k) == .string {
            for row in 0..<count {
                let slot = block.slot(ofRow: row)
                if block.isNull(k, slot) { column.appendNull() } else { withUTF8(k, in: slot) { column.appendUTF8($0) } }
            }
        } else {
            for row in 0..<count { column.append(block.value(k, block.slot(ofRow: row))) }
        }
        return column
    }

    /// Every column, all rows in order.
    var columns: [KeyColumn] { (0..<keyCount).map { column($0) } }

    /// Appends the rows' primary keys and entity indexes, in order.
    func appendIDs(to pks: inout [Int64], _ entities: inout [Int32]) {
        for row in 0..<count {
            let slot = block.slot(ofRow: row)
            pks.append(block.primaryKey(slot))
            entities.append(block.entityIndex(slot))
        }
    }

    /// Removes row `row`: frees its slot and shifts the order after it.
    func remove(at row: Int) { block.remove(row: row) }

    /// Inserts `entry` before row `row`, moving the block to a larger or wider one if it must
    /// (so ``block`` may change; slots stay). A value of another kind than its column's
    /// boxes the column. Returns the slot the entry is stored in.
    @discardableResult
    func insert(_ entry: SortedResults.Entry, at row: Int) -> BlockSlot {
        if let slot = block.insert(entry, at: row) { return slot }
        var shape = block.shape(fitting: entry.id)
        let n = count
        if n == block.capacity { shape.capacity = min(ResultsBlock.maxCapacity, (max(n + 1, min(SortedResults.maxChunk, n + n / 2)) + 7) & ~7) }
        if shape != block.shape { relayout(as: shape) }
        let slot = block.freeSlot()
        for k in 0..<keyCount {
            let v = entry.keys[k]
            if isBoxed(k) {
                boxed[k].set(v, at: slot.index)
            } else if block.store(k, v, in: slot) {
                continue
            } else if block.mode(k) == .string, case .string(var long) = v {
                long.withUTF8 { utf8 in
                    block.setWord(k, slot, Int64(bitPattern: StringWord.make(utf8)))
                    block.setNull(k, slot, false)
                    keepOverflow(k, utf8, in: slot)
                }
            } else {
                boxColumn(k, storing: v, in: slot)
            }
        }
        block.link(entry.id, slot: slot, at: row)
        return slot
    }

    /// Boxes block column `k` as it is (slot by slot), with `v` in `slot`.
    private func boxColumn(_ k: Int, storing v: Value, in slot: BlockSlot) {
        var column = KeyColumn()
        column.reserveCapacity(block.capacity)
        for s in 0..<block.capacity {
            let t = BlockSlot(s)
            column.append(block.isOccupied(t) ? value(k, in: t) : .null)
        }
        column.set(v, at: slot.index)
        box(column, at: k)
        self[overflow: k] = OverflowTexts()
    }

    /// Moves the results into a block of `shape` (slot numbers kept).
    private func relayout(as shape: ResultsBlock.Shape) {
        let old = block
        let grownBy = shape.capacity - old.capacity
        block = old.relaid(as: shape)
        old.deallocate()
        for k in boxed.indices where isBoxed(k) {
            for _ in 0..<grownBy { boxed[k].appendNull() }
        }
    }
}
