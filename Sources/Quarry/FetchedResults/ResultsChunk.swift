import CPrefetch
import Foundation

extension SortedResults {
    /// A view of one chunk's memory block: a 64-byte header, the chunk's *order*, then the
    /// primary keys, the entity indexes and, for each of the first ``blockColumns`` sort keys,
    /// one 8-byte word and one null flag per *slot*.
    ///
    /// Rows live in slots that never move while the block lives: the order (one byte per row)
    /// lists the slots of the rows in sort order, so row `o` is slot `order[o]`. Inserting or
    /// removing a row writes one slot and shifts the order bytes after it (at most 128 bytes,
    /// two cache lines), not every array of the block; and an object's slot, recorded in the
    /// ``PositionIndex``, stays exact until the chunk is rebuilt. Free slots are marked in an
    /// occupancy bitmap.
    ///
    /// Integers, booleans, doubles and dates are stored in the words (doubles and dates by bit
    /// pattern); a column of any other kind, or one that received a value of another kind, is
    /// *boxed*: kept as a ``KeyColumn`` (by slot) on the ``Chunk`` and marked so in the
    /// header. A change event's lookups and edits thus read one block per chunk through plain
    /// pointers: no reference counting, no exclusivity checks, no array per column.
    ///
    /// Header: row count (`Int32`, offset 0), capacity (`Int32`, 4), number of block columns
    /// (`UInt8`, 8), each block column's mode (`UInt8`, 16 + k: the ``KeyColumn/Kind`` raw
    /// value, or ``boxed``), whether its null flags are kept (`UInt8`, 32 + k; while not, no
    /// row is nil and the flags are not maintained), and the occupied slots (two `UInt64`
    /// bitmap words, 48 and 56).
    ///
    /// Functions taking a *row* (`o`, `i`) count in sort order; those taking a *slot* (`s`)
    /// address storage.
    struct Block {
        let raw: UnsafeMutableRawPointer
        /// Slots in the block (a multiple of 8, at most 128); also in the header.
        let capacity: Int

        /// Sort keys past this many are always boxed.
        static let blockColumns = 16
        /// The mode of a boxed column.
        static let boxed: UInt8 = 0xFF
        /// The most slots a block has (the order stores slots in bytes, the bitmap has 128 bits).
        static let maxCapacity = 128
        private static let headerSize = 64

        /// Bytes for a block of `capacity` slots (a multiple of 8) and `keys` sort keys.
        static func byteCount(capacity: Int, keys: Int) -> Int {
            headerSize + capacity * 13 + capacity * 9 * min(keys, blockColumns)
        }

        /// A new block with room for `capacity` rows and no row yet.
        static func allocate(capacity: Int, keys: Int) -> Block {
            precondition(capacity > 0 && capacity <= maxCapacity && capacity % 8 == 0)
            let bytes = byteCount(capacity: capacity, keys: keys)
            let raw = BlockArena.shared.allocate(bytes: bytes)
            raw.initializeMemory(as: UInt8.self, repeating: 0, count: headerSize)
            raw.storeBytes(of: Int32(capacity), toByteOffset: 4, as: Int32.self)
            raw.storeBytes(of: UInt8(min(keys, blockColumns)), toByteOffset: 8, as: UInt8.self)
            (raw + headerSize).bindMemory(to: UInt8.self, capacity: capacity)
            (raw + headerSize + capacity).bindMemory(to: Int64.self, capacity: capacity)
            (raw + headerSize + 9 * capacity).bindMemory(to: Int32.self, capacity: capacity)
            let columns = min(keys, blockColumns)
            if columns > 0 {
                (raw + headerSize + 13 * capacity).bindMemory(to: Int64.self, capacity: capacity * columns)
                (raw + headerSize + 13 * capacity + 8 * capacity * columns).bindMemory(to: UInt8.self, capacity: capacity * columns)
            }
            return Block(raw: raw, capacity: capacity)
        }

        func deallocate() { BlockArena.shared.deallocate(raw, bytes: Self.byteCount(capacity: capacity, keys: columnCount)) }

        /// Rows in the block.
        var count: Int {
            @inline(__always) get { Int(raw.load(as: Int32.self)) }
            nonmutating set { raw.storeBytes(of: Int32(newValue), as: Int32.self) }
        }

        /// The slots of the rows, in sort order.
        var order: UnsafeMutablePointer<UInt8> {
            @inline(__always) get { (raw + Self.headerSize).assumingMemoryBound(to: UInt8.self) }
        }
        /// Primary keys, by slot.
        var pks: UnsafeMutablePointer<Int64> {
            @inline(__always) get { (raw + Self.headerSize + capacity).assumingMemoryBound(to: Int64.self) }
        }
        /// Entity indexes, by slot.
        var entities: UnsafeMutablePointer<Int32> {
            @inline(__always) get { (raw + Self.headerSize + 9 * capacity).assumingMemoryBound(to: Int32.self) }
        }

        /// The slot of row `o`.
        @inline(__always)
        func slot(_ o: Int) -> Int { Int(order[o]) }

        // MARK: Slots

        @inline(__always)
        private func bitmap(_ w: Int) -> UInt64 { raw.load(fromByteOffset: 48 + 8 * w, as: UInt64.self) }
        @inline(__always)
        private func setBitmap(_ w: Int, _ bits: UInt64) { raw.storeBytes(of: bits, toByteOffset: 48 + 8 * w, as: UInt64.self) }

        /// Whether slot `s` holds a row.
        @inline(__always)
        func isOccupied(_ s: Int) -> Bool { bitmap(s >> 6) & (1 << UInt64(s & 63)) != 0 }

        /// Marks slot `s` as holding a row, or as free.
        @inline(__always)
        func setOccupied(_ s: Int, _ occupied: Bool) {
            let w = s >> 6, bit: UInt64 = 1 << UInt64(s & 63)
            setBitmap(w, occupied ? bitmap(w) | bit : bitmap(w) & ~bit)
        }

        /// The first free slot (the block must not be full).
        func freeSlot() -> Int {
            let low = (~bitmap(0)).trailingZeroBitCount
            let s = low < 64 ? low : 64 + (~bitmap(1)).trailingZeroBitCount
            precondition(s < capacity, "no free slot in a full block")
            return s
        }

        /// The row whose slot is `s` (``count`` when no row is).
        @inline(__always)
        func row(ofSlot s: Int) -> Int {
            let n = count, order = order, target = UInt8(truncatingIfNeeded: s)
            var o = 0
            while o < n && order[o] != target { o += 1 }
            return o
        }

        /// The row holding `id`, looking at slot `hint` first (its recorded slot) and then at
        /// every slot; `nil` when the block does not hold it.
        @inline(__always)
        func row(of id: ObjectID, hint: Int) -> Int? {
            func holds(_ s: Int) -> Bool { isOccupied(s) && pks[s] == id.primaryKey && entities[s] == id.entityIndex }
            if hint >= 0 && hint < capacity && holds(hint) { return row(ofSlot: hint) }
            for s in 0..<capacity where holds(s) { return row(ofSlot: s) }
            return nil
        }

        // MARK: Columns

        /// Column `k`'s mode: a ``KeyColumn/Kind`` raw value (integer, bool, double, date) or ``boxed``.
        @inline(__always)
        func mode(_ k: Int) -> UInt8 { k < Self.blockColumns ? raw.load(fromByteOffset: 16 + k, as: UInt8.self) : Self.boxed }
        func setMode(_ k: Int, _ mode: UInt8) { raw.storeBytes(of: mode, toByteOffset: 16 + k, as: UInt8.self) }

        /// How many sort keys have a column in the block (boxed or not).
        var columnCount: Int { Int(raw.load(fromByteOffset: 8, as: UInt8.self)) }

        /// Whether column `k` keeps null flags (some row may be nil).
        @inline(__always)
        func keepsNulls(_ k: Int) -> Bool { raw.load(fromByteOffset: 32 + k, as: UInt8.self) != 0 }

        /// Starts keeping column `k`'s null flags (no slot nil so far).
        func keepNulls(_ k: Int) {
            guard !keepsNulls(k) else { return }
            nulls(k).update(repeating: 0, count: capacity)
            raw.storeBytes(of: UInt8(1), toByteOffset: 32 + k, as: UInt8.self)
        }

        /// The words of block column `k` by slot (integers, or doubles' bit patterns).
        @inline(__always)
        func words(_ k: Int) -> UnsafeMutablePointer<Int64> {
            (raw + Self.headerSize + 13 * capacity + 8 * capacity * k).assumingMemoryBound(to: Int64.self)
        }

        /// The null flags of block column `k` by slot (meaningful while ``keepsNulls(_:)``).
        @inline(__always)
        func nulls(_ k: Int) -> UnsafeMutablePointer<UInt8> {
            (raw + Self.headerSize + 13 * capacity + 8 * capacity * columnCount + capacity * k).assumingMemoryBound(to: UInt8.self)
        }

        /// Whether slot `s` of column `k` is nil.
        @inline(__always)
        func isNull(_ k: Int, slot s: Int) -> Bool { keepsNulls(k) && nulls(k)[s] != 0 }

        /// The ID of row `o`.
        @inline(__always)
        func id(_ o: Int) -> ObjectID { id(slot: slot(o)) }

        /// The ID in slot `s`.
        @inline(__always)
        func id(slot s: Int) -> ObjectID { ObjectID(entityIndex: Int(entities[s]), primaryKey: pks[s]) }

        /// The value in slot `s` of block column `k` (not boxed).
        func value(_ k: Int, slot s: Int) -> Value {
            if isNull(k, slot: s) { return .null }
            let w = words(k)[s]
            switch KeyColumn.Kind(rawValue: mode(k)) {
            case .integer: return .integer(w)
            case .bool: return .bool(w != 0)
            case .double: return .double(Double(bitPattern: UInt64(bitPattern: w)))
            case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: UInt64(bitPattern: w))))
            default: preconditionFailure("column \(k) is boxed")
            }
        }

        /// ``SortKey/compare(_:_:)`` of row `o` of block column `k` with `v` (direction not
        /// applied); the same answers as ``KeyColumn/compare(_:_:key:)``.
        @inline(__always)
        func compare(_ k: Int, _ o: Int, _ v: Value, key: SortKey) -> Int {
            let s = slot(o)
            if isNull(k, slot: s) {
                if case .null = v { return 0 }
                return -1
            }
            let w = words(k)[s]
            switch (mode(k), v) {
            case (KeyColumn.Kind.integer.rawValue, .integer(let y)):
                return w == y ? 0 : (w < y ? -1 : 1)
            case (KeyColumn.Kind.bool.rawValue, .bool(let b)):
                let y: Int64 = b ? 1 : 0
                return w == y ? 0 : (w < y ? -1 : 1)
            case (KeyColumn.Kind.double.rawValue, .double(let y)):
                let x = Double(bitPattern: UInt64(bitPattern: w))
                return x == y ? 0 : (x < y ? -1 : 1)
            case (KeyColumn.Kind.date.rawValue, .date(let d)):
                let x = Double(bitPattern: UInt64(bitPattern: w)), y = d.timeIntervalSinceReferenceDate
                return x == y ? 0 : (x < y ? -1 : 1)
            case (_, .null):
                return 1
            default:
                return key.compare(value(k, slot: s), v)
            }
        }

        /// Whether row `o` of block column `k` holds `v` (`==` on ``Value``).
        @inline(__always)
        func holds(_ k: Int, _ v: Value, at o: Int) -> Bool {
            let s = slot(o)
            if isNull(k, slot: s) { if case .null = v { return true } else { return false } }
            let w = words(k)[s]
            switch (mode(k), v) {
            case (KeyColumn.Kind.integer.rawValue, .integer(let y)): return w == y
            case (KeyColumn.Kind.bool.rawValue, .bool(let b)): return w == (b ? 1 : 0)
            case (KeyColumn.Kind.double.rawValue, .double(let y)): return Double(bitPattern: UInt64(bitPattern: w)) == y
            case (KeyColumn.Kind.date.rawValue, .date(let d)): return Double(bitPattern: UInt64(bitPattern: w)) == d.timeIntervalSinceReferenceDate
            default: return false
            }
        }

        /// Stores `v` in slot `s` of block column `k`; `false` (nothing stored) when `v` is of
        /// another kind than the column's.
        @inline(__always)
        func store(_ k: Int, _ v: Value, slot s: Int) -> Bool {
            let w: Int64
            switch (mode(k), v) {
            case (_, .null):
                keepNulls(k)
                nulls(k)[s] = 1
                words(k)[s] = 0
                return true
            case (KeyColumn.Kind.integer.rawValue, .integer(let y)): w = y
            case (KeyColumn.Kind.bool.rawValue, .bool(let b)): w = b ? 1 : 0
            case (KeyColumn.Kind.double.rawValue, .double(let y)): w = Int64(bitPattern: y.bitPattern)
            case (KeyColumn.Kind.date.rawValue, .date(let d)): w = Int64(bitPattern: d.timeIntervalSinceReferenceDate.bitPattern)
            default: return false
            }
            words(k)[s] = w
            if keepsNulls(k) { nulls(k)[s] = 0 }
            return true
        }

        /// For an integer block column without nils: the rows of `range` holding `y`, as the
        /// range between the last row that sorts before it and the first that sorts after it.
        @inline(__always)
        func equalRange(_ k: Int, of y: Int64, in range: Range<Int>, ascending: Bool) -> Range<Int>? {
            guard mode(k) == KeyColumn.Kind.integer.rawValue, !keepsNulls(k) else { return nil }
            let xs = words(k), order = order
            func bound(_ before: (Int64) -> Bool, _ low: Int) -> Int {
                var l = low, h = range.upperBound
                while l < h { let m = (l + h) / 2; if before(xs[Int(order[m])]) { l = m + 1 } else { h = m } }
                return l
            }
            let lower = ascending ? bound({ $0 < y }, range.lowerBound) : bound({ $0 > y }, range.lowerBound)
            // The equal keys are usually few: step over them from the lower bound first.
            var upper = lower
            while upper < range.upperBound && upper < lower + 2 && xs[Int(order[upper])] == y { upper += 1 }
            guard upper == lower + 2 else { return lower..<upper }
            upper = ascending ? bound({ $0 <= y }, upper) : bound({ $0 >= y }, upper)
            return lower..<upper
        }

        // MARK: Editing

        /// Removes row `o`: frees its slot and shifts the order after it.
        func remove(at o: Int) {
            let n = count, s = slot(o)
            (order + o).update(from: order + o + 1, count: n - o - 1)
            setOccupied(s, false)
            count = n - 1
        }

        /// Stores `entry` in a free slot and inserts it before row `o`, when the block has
        /// room and every key fits its block column; returns the slot. `nil` (no row
        /// changed) when the block is full or a key is boxed or of another kind: the
        /// ``Chunk`` then grows the block or boxes the column.
        @inline(__always)
        func insert(_ entry: Entry, at o: Int) -> Int? {
            let n = count
            guard n < capacity, entry.keys.count <= columnCount else { return nil }
            let s = freeSlot()
            for k in entry.keys.indices {
                guard mode(k) != Self.boxed, store(k, entry.keys[k], slot: s) else { return nil }
            }
            link(entry.id, slot: s, at: o)
            return s
        }

        /// Makes slot `s` (free, its keys stored) hold `id` as row `o`: writes the ID, shifts
        /// the order from `o` on and marks the slot occupied.
        @inline(__always)
        func link(_ id: ObjectID, slot s: Int, at o: Int) {
            let n = count
            pks[s] = id.primaryKey
            entities[s] = id.entityIndex
            (order + o + 1).update(from: order + o, count: n - o)
            order[o] = UInt8(s)
            setOccupied(s, true)
            count = n + 1
        }

        // MARK: Prefetching

        /// Starts loading the lines of `bytes` bytes from `start` (a hint; nothing waits).
        @inline(__always)
        static func prefetch(_ start: UnsafeRawPointer, bytes: Int) {
            var line = 0
            while line < bytes {
                quarry_prefetch(start + line)
                line += 64
            }
        }

        /// Starts loading the header and the order of the first `rows` rows.
        @inline(__always)
        func prefetchOrder(rows: Int) {
            Self.prefetch(UnsafeRawPointer(raw), bytes: Self.headerSize + rows)
        }

        /// Starts loading what a search of the first key reads first: the header, the order of
        /// `rows` rows and the middle row's word, as it lies while slots follow the order (the
        /// block must have a block column).
        @inline(__always)
        func prefetchSearch(rows: Int) {
            prefetchOrder(rows: rows)
            quarry_prefetch(raw + Self.headerSize + 13 * capacity + 8 * (rows / 2))
        }

        /// Starts loading what finding the row in slot `s` reads: the header, the order of
        /// `rows` rows, and the slot's primary key, entity and first word.
        @inline(__always)
        func prefetchSlot(_ s: Int, rows: Int) {
            prefetchOrder(rows: rows)
            quarry_prefetch(pks + s)
            quarry_prefetch(entities + s)
            if columnCount > 0 { quarry_prefetch(words(0) + s) }
        }

        /// Starts loading slot `s`'s primary key, entity and block-column words, for writing.
        @inline(__always)
        func prefetchSlotForWriting(_ s: Int) {
            quarry_prefetch_write(pks + s)
            quarry_prefetch_write(entities + s)
            for k in 0..<columnCount where mode(k) != Self.boxed { quarry_prefetch_write(words(k) + s) }
        }
    }

    /// A run of consecutive results: a ``Block`` plus the boxed key columns, if any.
    ///
    /// The block is owned here (freed on deinit) and may be replaced by a larger one when
    /// rows are inserted past its capacity (slots are kept).
    final class Chunk {
        /// Stable name of the chunk in ``PositionIndex`` entries.
        let handle: Int32
        private(set) var block: Block
        /// Columns kept as ``KeyColumn``s (by slot, one row per slot), by sort key (empty
        /// until one is).
        private var boxed: [KeyColumn] = []
        let keyCount: Int

        var count: Int { block.count }

        /// A chunk of the given rows, in order (row `o` in slot `o`).
        init(handle: Int32, pks: ArraySlice<Int64>, entities: ArraySlice<Int32>, columns: [KeyColumn], capacity: Int? = nil) {
            precondition(pks.count == entities.count && columns.allSatisfy { $0.count == pks.count })
            self.handle = handle
            keyCount = columns.count
            let n = pks.count
            block = Block.allocate(capacity: capacity ?? Self.capacity(for: n), keys: columns.count)
            precondition(n <= block.capacity)
            if n > 0 {
                pks.withUnsafeBufferPointer { block.pks.initialize(from: $0.baseAddress!, count: n) }
                entities.withUnsafeBufferPointer { block.entities.initialize(from: $0.baseAddress!, count: n) }
            }
            for o in 0..<n {
                block.order[o] = UInt8(o)
                block.setOccupied(o, true)
            }
            block.count = n
            for (k, column) in columns.enumerated() { put(column, at: k) }
        }

        deinit { block.deallocate() }

        /// Room for `n` rows and some growth, a multiple of 8, at most ``SortedResults/maxChunk``.
        static func capacity(for n: Int) -> Int {
            min(SortedResults.maxChunk, (n + n / 8 + 8 + 7) & ~7)
        }

        /// Stores a whole column `k` (row `o` in slot `o`).
        private func put(_ column: KeyColumn, at k: Int) {
            let n = count
            guard k < Block.blockColumns, column.kind != .string, column.kind != .value else {
                var padded = column
                for _ in n..<block.capacity { padded.appendNull() }
                box(padded, at: k)
                return
            }
            block.setMode(k, column.kind.rawValue)
            let words = block.words(k)
            if n == 0 {
                // Nothing to copy.
            } else if column.kind == .integer || column.kind == .bool {
                column.ints.withUnsafeBufferPointer { words.update(from: $0.baseAddress!, count: n) }
            } else {
                column.doubles.withUnsafeBufferPointer { d in
                    for i in 0..<n { words[i] = Int64(bitPattern: d[i].bitPattern) }
                }
            }
            if column.hasNulls {
                block.keepNulls(k)
                let flags = block.nulls(k)
                for i in 0..<n { flags[i] = column.nulls[i] ? 1 : 0 }
            }
        }

        /// Keeps column `k` as `column` (one row per slot).
        private func box(_ column: KeyColumn, at k: Int) {
            if k < Block.blockColumns { block.setMode(k, Block.boxed) }
            if boxed.isEmpty { boxed = [KeyColumn](repeating: KeyColumn(), count: keyCount) }
            boxed[k] = column
        }

        /// The ID of row `o`.
        func id(_ o: Int) -> ObjectID { block.id(o) }

        /// Whether column `k` is a boxed ``KeyColumn``.
        @inline(__always)
        func isBoxed(_ k: Int) -> Bool { block.mode(k) == Block.boxed }

        /// The value of row `o` of column `k`.
        func value(_ k: Int, at o: Int) -> Value {
            let s = block.slot(o)
            return isBoxed(k) ? boxed[k].value(at: s) : block.value(k, slot: s)
        }

        /// ``SortKey/compare(_:_:)`` of row `o` of column `k` with `v` (direction not applied).
        @inline(__always)
        func compare(_ k: Int, _ o: Int, _ v: Value, key: SortKey) -> Int {
            isBoxed(k) ? boxed[k].compare(block.slot(o), v, key: key) : block.compare(k, o, v, key: key)
        }

        /// Whether row `o` of column `k` holds `v`.
        @inline(__always)
        func holds(_ k: Int, _ v: Value, at o: Int) -> Bool {
            isBoxed(k) ? boxed[k].holds(v, at: block.slot(o)) : block.holds(k, v, at: o)
        }

        /// Whether row `i` of column `k` and row `j` of `other`'s hold the same value.
        func same(_ k: Int, _ i: Int, as other: Chunk, _ j: Int) -> Bool {
            if !isBoxed(k) && !other.isBoxed(k) {
                let s = block.slot(i), t = other.block.slot(j)
                let a = block.isNull(k, slot: s), b = other.block.isNull(k, slot: t)
                if a || b { return a == b }
                if block.mode(k) == other.block.mode(k) { return block.words(k)[s] == other.block.words(k)[t] }
            }
            return value(k, at: i) == other.value(k, at: j)
        }

        /// Column `k`'s rows `range` (all rows by default), in order, as a ``KeyColumn``.
        func column(_ k: Int, _ range: Range<Int>? = nil) -> KeyColumn {
            let range = range ?? 0..<count
            if isBoxed(k) {
                var column = KeyColumn(kind: boxed[k].kind)
                column.reserveCapacity(range.count)
                for o in range { column.appendRow(of: boxed[k], block.slot(o)) }
                return column
            }
            let kind = KeyColumn.Kind(rawValue: block.mode(k))!
            let words = block.words(k)
            let gathered = range.map { words[block.slot($0)] }
            let nulls = block.keepsNulls(k) ? range.map { block.nulls(k)[block.slot($0)] != 0 } : []
            let column: KeyColumn?
            switch kind {
            case .integer, .bool: column = KeyColumn(kind: kind, ints: gathered, nulls: nulls, count: range.count)
            default: column = KeyColumn(kind: kind, doubles: gathered.map { Double(bitPattern: UInt64(bitPattern: $0)) }, nulls: nulls, count: range.count)
            }
            return column!
        }

        /// Every column, all rows in order.
        var columns: [KeyColumn] { (0..<keyCount).map { column($0) } }

        /// Appends the rows' primary keys and entity indexes, in order.
        func appendIDs(to pks: inout [Int64], _ entities: inout [Int32]) {
            for o in 0..<count {
                let s = block.slot(o)
                pks.append(block.pks[s])
                entities.append(block.entities[s])
            }
        }

        /// Removes row `o`: frees its slot and shifts the order after it.
        func remove(at o: Int) { block.remove(at: o) }

        /// Inserts `entry` before row `o`, growing the block if it is full (so ``block`` may
        /// change; slots stay). A value of another kind than its column's boxes the column.
        /// Returns the slot the entry is stored in.
        @discardableResult
        func insert(_ entry: Entry, at o: Int) -> Int {
            if let s = block.insert(entry, at: o) { return s }
            let n = count
            if n == block.capacity { grow(to: max(n + 1, min(SortedResults.maxChunk, (n + n / 2 + 7) & ~7))) }
            let s = block.freeSlot()
            for k in 0..<keyCount {
                let v = entry.keys[k]
                if isBoxed(k) {
                    boxed[k].set(v, at: s)
                } else if !block.store(k, v, slot: s) {
                    // Another kind: box the column as it is (slot by slot), then store.
                    var column = KeyColumn()
                    column.reserveCapacity(block.capacity)
                    for t in 0..<block.capacity { column.append(block.isOccupied(t) ? block.value(k, slot: t) : .null) }
                    column.set(v, at: s)
                    box(column, at: k)
                }
            }
            block.link(entry.id, slot: s, at: o)
            return s
        }

        /// Moves the slots into a block with room for `capacity` rows (slot numbers kept).
        private func grow(to capacity: Int) {
            let old = block, n = count, slots = old.capacity
            let new = Block.allocate(capacity: capacity, keys: keyCount)
            UnsafeMutableRawPointer(new.raw + 48).copyMemory(from: old.raw + 48, byteCount: 16)
            new.order.update(from: old.order, count: n)
            new.pks.update(from: old.pks, count: slots)
            new.entities.update(from: old.entities, count: slots)
            for k in 0..<min(keyCount, Block.blockColumns) {
                new.setMode(k, old.mode(k))
                guard old.mode(k) != Block.boxed else { continue }
                new.words(k).update(from: old.words(k), count: slots)
                if old.keepsNulls(k) {
                    new.keepNulls(k)
                    new.nulls(k).update(from: old.nulls(k), count: slots)
                }
            }
            for k in boxed.indices where isBoxed(k) {
                for _ in slots..<capacity { boxed[k].appendNull() }
            }
            new.count = n
            block = new
            old.deallocate()
        }
    }
}
