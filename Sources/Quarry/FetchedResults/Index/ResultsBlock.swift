/// One chunk's results in one block of raw memory: a typed ``Header``, then the *order* (the
/// slot of each row, one byte per row), primary keys and entity indexes by slot, and for each
/// of the first ``maxKeyColumns`` sort keys one 8-byte word per slot and a null bitmap.
///
/// Results live in slots that never move while the block lives (``BlockSlot``); the order
/// lists the slots in sort order, so inserting or removing a result writes one slot and
/// shifts at most ``maxCapacity`` order bytes, and an object's slot recorded in the
/// ``PositionIndex`` stays exact until the chunk is rebuilt. A *row* (an `Int`) is a place
/// in sort order: `slot(ofRow:)` maps one to the other.
///
/// Primary keys take 4 bytes a slot while every one fits `0...UInt32.max` (the common case)
/// and 8 otherwise; entity indexes take none while every result is of one entity (kept in
/// the header) and 4 bytes a slot otherwise. Integers, booleans, doubles and dates are
/// stored in the words (doubles and dates by bit pattern), strings as a ``StringWord`` (the
/// whole string when it is short, else its first bytes, the text then kept by the
/// ``ResultsChunk``); a column of another kind is *boxed* (kept by the ``ResultsChunk``,
/// marked in the header).
///
/// The memory is reached only through the accessors below, which compute every array's
/// place from the header and check rows, slots and columns in debug builds. A block is a
/// view (a pointer): its ``ResultsChunk`` owns and frees it.
struct ResultsBlock {
    /// How a block column stores its words.
    enum ColumnMode: UInt8 {
        case integer = 0, bool, double, date
        /// ``StringWord``s: short strings whole, longer ones' first bytes (their text in the
        /// chunk's overflow column).
        case string
        /// The column is kept by the chunk as a ``KeyColumn``.
        case boxed = 0xFF

        /// The mode storing a column of `kind`, `.boxed` for other values.
        init(_ kind: KeyColumn.Kind) { self = ColumnMode(rawValue: kind.rawValue) ?? .boxed }

        /// The column kind the words hold (`nil` when boxed).
        var kind: KeyColumn.Kind? { self == .boxed ? nil : KeyColumn.Kind(rawValue: rawValue) }
    }

    /// How primary keys are stored.
    enum PrimaryKeyWidth: UInt8 {
        /// `UInt32` per slot: every key in `0...UInt32.max`.
        case narrow = 4
        /// `Int64` per slot.
        case wide = 8

        /// The narrowest width storing `key`.
        init(fitting key: Int64) { self = key >= 0 && key <= Int64(UInt32.max) ? .narrow : .wide }
    }

    /// The block's first bytes: its counts and how its arrays are laid out.
    struct Header {
        /// Results in the block.
        var rowCount: Int32 = 0
        /// Slots in the block (a multiple of 8, at most ``maxCapacity``).
        var capacity: Int32
        /// Sort keys with a column in the block (at most ``maxKeyColumns``).
        var keyColumnCount: UInt8
        var primaryKeyWidth: PrimaryKeyWidth
        /// Whether each slot stores its entity index (else every result's is ``sharedEntity``).
        var entitiesPerSlot: Bool
        /// Bit `k`: column `k` may hold a nil (its null bitmap is read; else it is all clear).
        var columnsWithNulls: UInt16 = 0
        /// Every result's entity index while not ``entitiesPerSlot``.
        var sharedEntity: Int32
        /// Occupied slots, one bit each.
        var occupied = InlineArray<2, UInt64>(repeating: 0)
        /// Each block column's mode.
        var columnModes = InlineArray<16, ColumnMode>(repeating: .integer)
    }

    /// The shape of a block: what its header says about the arrays' sizes.
    struct Shape: Equatable {
        var capacity: Int
        var keyColumns: Int
        var primaryKeyWidth: PrimaryKeyWidth
        var entitiesPerSlot: Bool

        /// A block of `capacity` slots for `keys` sort keys holding results like `ids`.
        init(capacity: Int, keys: Int, primaryKeyWidth: PrimaryKeyWidth = .narrow, entitiesPerSlot: Bool = false) {
            self.capacity = capacity
            keyColumns = min(keys, ResultsBlock.maxKeyColumns)
            self.primaryKeyWidth = primaryKeyWidth
            self.entitiesPerSlot = entitiesPerSlot
        }

        // Byte offsets of the arrays, each aligned to 8 (capacity is a multiple of 8).
        var orderOffset: Int { ResultsBlock.headerBytes }
        var primaryKeysOffset: Int { orderOffset + capacity }
        var entitiesOffset: Int { primaryKeysOffset + capacity * Int(primaryKeyWidth.rawValue) }
        var wordsOffset: Int { entitiesOffset + (entitiesPerSlot ? capacity * 4 : 0) }
        var nullBitmapsOffset: Int { wordsOffset + capacity * 8 * keyColumns }
        var byteCount: Int { nullBitmapsOffset + ResultsBlock.nullBitmapBytes * keyColumns }
    }

    /// Sort keys past this many are always boxed.
    static let maxKeyColumns = 16
    /// The most slots a block has (the order stores slots in bytes, the bitmaps have 128 bits).
    static let maxCapacity = 128
    static let headerBytes = 64
    private static let nullBitmapBytes = maxCapacity / 8

    /// The block's first byte (its header).
    let raw: UnsafeMutableRawPointer

    /// A new block of `shape`, with no result yet.
    static func allocate(_ shape: Shape, sharedEntity: Int32 = 0) -> ResultsBlock {
        precondition(shape.capacity > 0 && shape.capacity <= maxCapacity && shape.capacity % 8 == 0)
        assert(MemoryLayout<Header>.size <= headerBytes)
        let raw = SortedResults.BlockArena.shared.allocate(bytes: shape.byteCount)
        raw.bindMemory(to: Header.self, capacity: 1).initialize(to: Header(
            capacity: Int32(shape.capacity), keyColumnCount: UInt8(shape.keyColumns), primaryKeyWidth: shape.primaryKeyWidth,
            entitiesPerSlot: shape.entitiesPerSlot, sharedEntity: sharedEntity))
        (raw + shape.orderOffset).bindMemory(to: UInt8.self, capacity: shape.capacity)
        switch shape.primaryKeyWidth {
        case .narrow: (raw + shape.primaryKeysOffset).bindMemory(to: UInt32.self, capacity: shape.capacity)
        case .wide: (raw + shape.primaryKeysOffset).bindMemory(to: Int64.self, capacity: shape.capacity)
        }
        if shape.entitiesPerSlot { (raw + shape.entitiesOffset).bindMemory(to: Int32.self, capacity: shape.capacity) }
        (raw + shape.wordsOffset).bindMemory(to: Int64.self, capacity: shape.capacity * shape.keyColumns)
        (raw + shape.nullBitmapsOffset).bindMemory(to: UInt64.self, capacity: 2 * shape.keyColumns)
            .initialize(repeating: 0, count: 2 * shape.keyColumns)
        return ResultsBlock(raw: raw)
    }

    /// Returns the block's memory to the arena.
    func deallocate() { SortedResults.BlockArena.shared.deallocate(raw, bytes: shape.byteCount) }

    // MARK: Header

    /// The header.
    @inline(__always)
    var header: UnsafeMutablePointer<Header> { raw.assumingMemoryBound(to: Header.self) }

    /// The block's shape, from its header.
    var shape: Shape {
        let h = header.pointee
        return Shape(capacity: Int(h.capacity), keys: Int(h.keyColumnCount), primaryKeyWidth: h.primaryKeyWidth, entitiesPerSlot: h.entitiesPerSlot)
    }

    /// Results in the block.
    var count: Int {
        @inline(__always) get { Int(header.pointee.rowCount) }
        nonmutating set {
            assert(newValue >= 0 && newValue <= capacity)
            header.pointee.rowCount = Int32(newValue)
        }
    }

    /// Slots in the block.
    var capacity: Int { @inline(__always) get { Int(header.pointee.capacity) } }

    /// Sort keys with a column in the block (boxed or not).
    var keyColumnCount: Int { @inline(__always) get { Int(header.pointee.keyColumnCount) } }

    /// Whether the block can store `id` without a wider layout.
    @inline(__always)
    func fits(_ id: ObjectID) -> Bool {
        let h = header.pointee
        return (h.primaryKeyWidth == .wide || PrimaryKeyWidth(fitting: id.primaryKey) == .narrow)
            && (h.entitiesPerSlot || h.sharedEntity == id.entityIndex)
    }

    // MARK: Rows and slots

    @inline(__always)
    private var order: UnsafeMutablePointer<UInt8> {
        (raw + Self.headerBytes).assumingMemoryBound(to: UInt8.self)
    }

    /// The slot of row `row`.
    @inline(__always)
    func slot(ofRow row: Int) -> BlockSlot {
        assert(row >= 0 && row < count, "row \(row) of \(count)")
        return BlockSlot(Int(order[row]))
    }

    /// The row whose slot is `slot` (``count`` when no row is).
    @inline(__always)
    func row(ofSlot slot: BlockSlot) -> Int {
        let n = count, order = order, target = UInt8(truncatingIfNeeded: slot.index)
        var row = 0
        while row < n && order[row] != target { row += 1 }
        return row
    }

    /// Makes rows `row...` one later (``count`` grows by one) and puts `slot` at `row`.
    @inline(__always)
    func insertRow(_ row: Int, slot: BlockSlot) {
        let n = count
        assert(row >= 0 && row <= n && n < capacity)
        (order + row + 1).update(from: order + row, count: n - row)
        order[row] = UInt8(slot.index)
        count = n + 1
    }

    /// Removes row `row` from the order (``count`` shrinks by one); returns its slot.
    @inline(__always)
    func removeRow(_ row: Int) -> BlockSlot {
        let n = count, slot = slot(ofRow: row)
        (order + row).update(from: order + row + 1, count: n - row - 1)
        count = n - 1
        return slot
    }

    /// Sets the order to slots `0..<n` (a block filled in order).
    func setIdentityOrder(_ n: Int) {
        assert(n <= capacity)
        for row in 0..<n { order[row] = UInt8(row) }
        count = n
    }

    // MARK: Occupancy

    /// Whether `slot` holds a result.
    @inline(__always)
    func isOccupied(_ slot: BlockSlot) -> Bool {
        assertInBlock(slot)
        return header.pointee.occupied[slot.index >> 6] & (1 << UInt64(slot.index & 63)) != 0
    }

    /// Marks `slot` as holding a result, or as free.
    @inline(__always)
    func setOccupied(_ slot: BlockSlot, _ occupied: Bool) {
        assertInBlock(slot)
        let bit: UInt64 = 1 << UInt64(slot.index & 63)
        if occupied { header.pointee.occupied[slot.index >> 6] |= bit } else { header.pointee.occupied[slot.index >> 6] &= ~bit }
    }

    /// The first free slot (the block must not be full).
    func freeSlot() -> BlockSlot {
        let occupied = header.pointee.occupied
        let low = (~occupied[0]).trailingZeroBitCount
        let index = low < 64 ? low : 64 + (~occupied[1]).trailingZeroBitCount
        precondition(index < capacity, "no free slot in a full block")
        return BlockSlot(index)
    }

    @inline(__always)
    private func assertInBlock(_ slot: BlockSlot) {
        assert(slot.index < capacity, "\(slot) of a block of \(capacity)")
    }

    // MARK: IDs

    /// The primary key in `slot`.
    @inline(__always)
    func primaryKey(_ slot: BlockSlot) -> Int64 {
        assertInBlock(slot)
        let base = raw + shape.primaryKeysOffset
        switch header.pointee.primaryKeyWidth {
        case .narrow: return Int64(base.assumingMemoryBound(to: UInt32.self)[slot.index])
        case .wide: return base.assumingMemoryBound(to: Int64.self)[slot.index]
        }
    }

    /// The entity index in `slot`.
    @inline(__always)
    func entityIndex(_ slot: BlockSlot) -> Int32 {
        assertInBlock(slot)
        let h = header.pointee
        guard h.entitiesPerSlot else { return h.sharedEntity }
        return (raw + shape.entitiesOffset).assumingMemoryBound(to: Int32.self)[slot.index]
    }

    /// The ID in `slot`.
    @inline(__always)
    func id(_ slot: BlockSlot) -> ObjectID { ObjectID(entityIndex: Int(entityIndex(slot)), primaryKey: primaryKey(slot)) }

    /// The ID of row `row`.
    @inline(__always)
    func id(row: Int) -> ObjectID { id(slot(ofRow: row)) }

    /// Whether `slot` holds `id`.
    @inline(__always)
    func holds(_ id: ObjectID, in slot: BlockSlot) -> Bool {
        isOccupied(slot) && primaryKey(slot) == id.primaryKey && entityIndex(slot) == id.entityIndex
    }

    /// Writes `id` into `slot` (the block must fit it).
    @inline(__always)
    func setID(_ id: ObjectID, in slot: BlockSlot) {
        assertInBlock(slot)
        assert(fits(id), "\(id) does not fit the block's layout")
        let shape = shape
        switch shape.primaryKeyWidth {
        case .narrow: (raw + shape.primaryKeysOffset).assumingMemoryBound(to: UInt32.self)[slot.index] = UInt32(truncatingIfNeeded: id.primaryKey)
        case .wide: (raw + shape.primaryKeysOffset).assumingMemoryBound(to: Int64.self)[slot.index] = id.primaryKey
        }
        if shape.entitiesPerSlot { (raw + shape.entitiesOffset).assumingMemoryBound(to: Int32.self)[slot.index] = id.entityIndex }
    }

    /// The row holding `id`, looking at slot `hint` first (its recorded slot) and then at
    /// every slot; `nil` when the block does not hold it.
    @inline(__always)
    func row(of id: ObjectID, hint: BlockSlot?) -> Int? {
        if let hint, hint.index < capacity, holds(id, in: hint) { return row(ofSlot: hint) }
        for s in 0..<capacity where holds(id, in: BlockSlot(s)) { return row(ofSlot: BlockSlot(s)) }
        return nil
    }

    // MARK: Key columns

    /// Column `k`'s mode (``ColumnMode/boxed`` past the block's columns).
    @inline(__always)
    func mode(_ k: Int) -> ColumnMode { k < keyColumnCount ? header.pointee.columnModes[k] : .boxed }

    /// Sets column `k`'s mode.
    func setMode(_ k: Int, _ mode: ColumnMode) {
        assert(k < keyColumnCount)
        header.pointee.columnModes[k] = mode
    }

    /// The word of column `k` in `slot` (integers and booleans, doubles' bit patterns, or
    /// ``StringWord``s).
    @inline(__always)
    func word(_ k: Int, _ slot: BlockSlot) -> Int64 { words(k)[slot.index] }

    /// Writes the word of column `k` in `slot`.
    @inline(__always)
    func setWord(_ k: Int, _ slot: BlockSlot, _ word: Int64) { words(k)[slot.index] = word }

    /// Column `k`'s words by slot.
    @inline(__always)
    func words(_ k: Int) -> UnsafeMutablePointer<Int64> {
        assert(k < keyColumnCount && mode(k) != .boxed, "column \(k) has no words")
        return (raw + shape.wordsOffset).assumingMemoryBound(to: Int64.self) + k * capacity
    }

    /// Whether column `k` may hold a nil (else every slot is non-nil, unread).
    @inline(__always)
    func mayHoldNulls(_ k: Int) -> Bool { header.pointee.columnsWithNulls & (1 << UInt16(k)) != 0 }

    /// Whether `slot` of column `k` is nil.
    @inline(__always)
    func isNull(_ k: Int, _ slot: BlockSlot) -> Bool {
        assertInBlock(slot)
        guard mayHoldNulls(k) else { return false }
        return nullBitmap(k)[slot.index >> 6] & (1 << UInt64(slot.index & 63)) != 0
    }

    /// Marks `slot` of column `k` nil or not.
    @inline(__always)
    func setNull(_ k: Int, _ slot: BlockSlot, _ isNull: Bool) {
        assertInBlock(slot)
        guard isNull || mayHoldNulls(k) else { return }
        header.pointee.columnsWithNulls |= 1 << UInt16(k)
        let bit: UInt64 = 1 << UInt64(slot.index & 63), bitmap = nullBitmap(k)
        if isNull { bitmap[slot.index >> 6] |= bit } else { bitmap[slot.index >> 6] &= ~bit }
    }

    @inline(__always)
    private func nullBitmap(_ k: Int) -> UnsafeMutablePointer<UInt64> {
        assert(k < keyColumnCount)
        return (raw + shape.nullBitmapsOffset).assumingMemoryBound(to: UInt64.self) + 2 * k
    }

    // MARK: Relayout

    /// A copy of the block in a new block of `shape` (slots, order and occupancy kept; the
    /// shape must hold every slot in use and every ID stored). The old block stays as it is.
    func relaid(as shape: Shape) -> ResultsBlock {
        let old = header.pointee
        assert(shape.capacity >= capacity && shape.keyColumns == keyColumnCount)
        let new = ResultsBlock.allocate(shape, sharedEntity: old.sharedEntity)
        new.header.pointee.occupied = old.occupied
        new.header.pointee.columnModes = old.columnModes
        new.header.pointee.columnsWithNulls = old.columnsWithNulls
        new.order.update(from: order, count: count)
        new.count = count
        for s in 0..<capacity where isOccupied(BlockSlot(s)) { new.setID(id(BlockSlot(s)), in: BlockSlot(s)) }
        for k in 0..<keyColumnCount where mode(k) != .boxed {
            new.words(k).update(from: words(k), count: capacity)
            new.nullBitmap(k).update(from: nullBitmap(k), count: 2)
        }
        return new
    }

    /// The shape after `shape` that also stores `id` (wider keys, entities per slot).
    func shape(fitting id: ObjectID) -> Shape {
        var shape = shape
        if PrimaryKeyWidth(fitting: id.primaryKey) == .wide { shape.primaryKeyWidth = .wide }
        if header.pointee.sharedEntity != id.entityIndex { shape.entitiesPerSlot = true }
        return shape
    }
}
