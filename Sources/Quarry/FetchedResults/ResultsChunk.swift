import CPrefetch
import Foundation

extension SortedResults {
    /// A view of one chunk's memory block: a 64-byte header, then the primary keys, the entity
    /// indexes and, for each of the first ``blockColumns`` sort keys, one 8-byte word and one
    /// null flag per row.
    ///
    /// Integers, booleans, doubles and dates are stored in the words (doubles and dates by bit
    /// pattern); a column of any other kind, or one that received a value of another kind, is
    /// *boxed*: kept as a ``KeyColumn`` on the ``Chunk`` and marked so in the header. A change
    /// event's lookups and edits thus read and move one block per chunk, through plain
    /// pointers: no reference counting, no exclusivity checks, no array per column.
    ///
    /// Header: row count (`Int32`, offset 0), capacity (`Int32`, 4), number of block columns
    /// (`UInt8`, 8), each block column's mode (`UInt8`, 16 + k: the ``KeyColumn/Kind`` raw
    /// value, or ``boxed``), and whether its null flags are kept (`UInt8`, 32 + k; while not,
    /// no row is nil and the flags are not maintained).
    struct Block {
        let raw: UnsafeMutableRawPointer

        /// Sort keys past this many are always boxed.
        static let blockColumns = 16
        /// The mode of a boxed column.
        static let boxed: UInt8 = 0xFF
        private static let headerSize = 64

        /// Bytes for a block of `capacity` rows (a multiple of 8) and `keys` sort keys.
        static func byteCount(capacity: Int, keys: Int) -> Int {
            headerSize + capacity * 12 + capacity * 9 * min(keys, blockColumns)
        }

        /// A new block with room for `capacity` rows and no row yet.
        static func allocate(capacity: Int, keys: Int) -> Block {
            let bytes = byteCount(capacity: capacity, keys: keys)
            let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
            raw.initializeMemory(as: UInt8.self, repeating: 0, count: headerSize)
            raw.storeBytes(of: Int32(capacity), toByteOffset: 4, as: Int32.self)
            raw.storeBytes(of: UInt8(min(keys, blockColumns)), toByteOffset: 8, as: UInt8.self)
            let b = Block(raw: raw)
            (raw + headerSize).bindMemory(to: Int64.self, capacity: capacity)
            (raw + headerSize + 8 * capacity).bindMemory(to: Int32.self, capacity: capacity)
            let columns = min(keys, blockColumns)
            if columns > 0 {
                (raw + headerSize + 12 * capacity).bindMemory(to: Int64.self, capacity: capacity * columns)
                (raw + headerSize + 12 * capacity + 8 * capacity * columns).bindMemory(to: UInt8.self, capacity: capacity * columns)
            }
            return b
        }

        func deallocate() { raw.deallocate() }

        var count: Int {
            @inline(__always) get { Int(raw.load(as: Int32.self)) }
            nonmutating set { raw.storeBytes(of: Int32(newValue), as: Int32.self) }
        }
        var capacity: Int { @inline(__always) get { Int(raw.load(fromByteOffset: 4, as: Int32.self)) } }

        var pks: UnsafeMutablePointer<Int64> {
            @inline(__always) get { (raw + Self.headerSize).assumingMemoryBound(to: Int64.self) }
        }
        var entities: UnsafeMutablePointer<Int32> {
            @inline(__always) get { (raw + Self.headerSize + 8 * capacity).assumingMemoryBound(to: Int32.self) }
        }

        /// Column `k`'s mode: a ``KeyColumn/Kind`` raw value (integer, bool, double, date) or ``boxed``.
        @inline(__always)
        func mode(_ k: Int) -> UInt8 { k < Self.blockColumns ? raw.load(fromByteOffset: 16 + k, as: UInt8.self) : Self.boxed }
        func setMode(_ k: Int, _ mode: UInt8) { raw.storeBytes(of: mode, toByteOffset: 16 + k, as: UInt8.self) }

        /// Whether column `k` keeps null flags (some row may be nil).
        @inline(__always)
        func keepsNulls(_ k: Int) -> Bool { raw.load(fromByteOffset: 32 + k, as: UInt8.self) != 0 }

        /// Starts keeping column `k`'s null flags (all rows so far not nil).
        func keepNulls(_ k: Int) {
            guard !keepsNulls(k) else { return }
            nulls(k).update(repeating: 0, count: count)
            raw.storeBytes(of: UInt8(1), toByteOffset: 32 + k, as: UInt8.self)
        }

        /// The words of block column `k` (integers, or doubles' bit patterns).
        @inline(__always)
        func words(_ k: Int) -> UnsafeMutablePointer<Int64> {
            (raw + Self.headerSize + 12 * capacity + 8 * capacity * k).assumingMemoryBound(to: Int64.self)
        }

        /// The null flags of block column `k` (meaningful while ``keepsNulls(_:)``).
        @inline(__always)
        func nulls(_ k: Int) -> UnsafeMutablePointer<UInt8> {
            let columns = Int(raw.load(fromByteOffset: 8, as: UInt8.self))
            return (raw + Self.headerSize + 12 * capacity + 8 * capacity * columns + capacity * k).assumingMemoryBound(to: UInt8.self)
        }

        @inline(__always)
        func isNull(_ k: Int, _ i: Int) -> Bool { keepsNulls(k) && nulls(k)[i] != 0 }

        @inline(__always)
        func id(_ i: Int) -> ObjectID { ObjectID(entityIndex: Int(entities[i]), primaryKey: pks[i]) }

        /// The value of row `i` of block column `k` (not boxed).
        func value(_ k: Int, at i: Int) -> Value {
            if isNull(k, i) { return .null }
            let w = words(k)[i]
            switch KeyColumn.Kind(rawValue: mode(k)) {
            case .integer: return .integer(w)
            case .bool: return .bool(w != 0)
            case .double: return .double(Double(bitPattern: UInt64(bitPattern: w)))
            case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: UInt64(bitPattern: w))))
            default: preconditionFailure("column \(k) is boxed")
            }
        }

        /// ``SortKey/compare(_:_:)`` of row `i` of block column `k` with `v` (direction not
        /// applied); the same answers as ``KeyColumn/compare(_:_:key:)``.
        @inline(__always)
        func compare(_ k: Int, _ i: Int, _ v: Value, key: SortKey) -> Int {
            if isNull(k, i) {
                if case .null = v { return 0 }
                return -1
            }
            let w = words(k)[i]
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
                return key.compare(value(k, at: i), v)
            }
        }

        /// Whether row `i` of block column `k` holds `v` (`==` on ``Value``).
        @inline(__always)
        func holds(_ k: Int, _ v: Value, at i: Int) -> Bool {
            if isNull(k, i) { if case .null = v { return true } else { return false } }
            let w = words(k)[i]
            switch (mode(k), v) {
            case (KeyColumn.Kind.integer.rawValue, .integer(let y)): return w == y
            case (KeyColumn.Kind.bool.rawValue, .bool(let b)): return w == (b ? 1 : 0)
            case (KeyColumn.Kind.double.rawValue, .double(let y)): return Double(bitPattern: UInt64(bitPattern: w)) == y
            case (KeyColumn.Kind.date.rawValue, .date(let d)): return Double(bitPattern: UInt64(bitPattern: w)) == d.timeIntervalSinceReferenceDate
            default: return false
            }
        }

        /// Stores `v` in row `i` of block column `k`; `false` (nothing stored) when `v` is of
        /// another kind than the column's.
        @inline(__always)
        func store(_ k: Int, _ v: Value, at i: Int) -> Bool {
            let w: Int64
            switch (mode(k), v) {
            case (_, .null):
                keepNulls(k)
                nulls(k)[i] = 1
                words(k)[i] = 0
                return true
            case (KeyColumn.Kind.integer.rawValue, .integer(let y)): w = y
            case (KeyColumn.Kind.bool.rawValue, .bool(let b)): w = b ? 1 : 0
            case (KeyColumn.Kind.double.rawValue, .double(let y)): w = Int64(bitPattern: y.bitPattern)
            case (KeyColumn.Kind.date.rawValue, .date(let d)): w = Int64(bitPattern: d.timeIntervalSinceReferenceDate.bitPattern)
            default: return false
            }
            words(k)[i] = w
            if keepsNulls(k) { nulls(k)[i] = 0 }
            return true
        }

        /// For an integer block column without nils: the rows of `range` holding `y`, as the
        /// range between the last row that sorts before it and the first that sorts after it.
        @inline(__always)
        func equalRange(_ k: Int, of y: Int64, in range: Range<Int>, ascending: Bool) -> Range<Int>? {
            guard mode(k) == KeyColumn.Kind.integer.rawValue, !keepsNulls(k) else { return nil }
            let xs = words(k)
            func bound(_ before: (Int64) -> Bool, _ low: Int) -> Int {
                var l = low, h = range.upperBound
                while l < h { let m = (l + h) / 2; if before(xs[m]) { l = m + 1 } else { h = m } }
                return l
            }
            let lower = ascending ? bound({ $0 < y }, range.lowerBound) : bound({ $0 > y }, range.lowerBound)
            let upper = ascending ? bound({ $0 <= y }, lower) : bound({ $0 >= y }, lower)
            return lower..<upper
        }

        /// Starts loading the lines of `bytes` bytes from `start` (a hint; nothing waits).
        @inline(__always)
        static func prefetch(_ start: UnsafeRawPointer, bytes: Int) {
            var line = 0
            while line < bytes {
                quarry_prefetch(start + line)
                line += 64
            }
        }

        /// Starts loading the header and the primary keys of the first `rows` rows.
        @inline(__always)
        func prefetchHeaderAndKeys(rows: Int) {
            quarry_prefetch(raw)
            Self.prefetch(UnsafeRawPointer(pks), bytes: rows * 8)
        }

        /// Starts loading the words of column `k` for the first `rows` rows.
        @inline(__always)
        func prefetchWords(_ k: Int, rows: Int) {
            Self.prefetch(UnsafeRawPointer(words(k)), bytes: rows * 8)
        }

        /// The offset of primary key `key` among the rows (``count`` when absent).
        @inline(__always)
        func offset(ofPrimaryKey key: Int64) -> Int {
            let n = count, p = pks
            var o = 0
            while o < n && p[o] != key { o += 1 }
            return o
        }
    }

    /// A run of consecutive results: a ``Block`` plus the boxed key columns, if any.
    ///
    /// The block is owned here (freed on deinit) and may be replaced by a larger one when
    /// rows are inserted past its capacity.
    final class Chunk {
        /// Stable name of the chunk in ``PositionIndex`` entries.
        let handle: Int32
        private(set) var block: Block
        /// Columns kept as ``KeyColumn``s, by sort key (empty until one is).
        private var boxed: [KeyColumn] = []
        let keyCount: Int

        var count: Int { block.count }

        /// A chunk of rows `range` of the given columns.
        init(handle: Int32, pks: ArraySlice<Int64>, entities: ArraySlice<Int32>, columns: [KeyColumn], capacity: Int? = nil) {
            precondition(pks.count == entities.count && columns.allSatisfy { $0.count == pks.count })
            self.handle = handle
            keyCount = columns.count
            let n = pks.count
            block = Block.allocate(capacity: capacity ?? Self.capacity(for: n), keys: columns.count)
            if n > 0 {
                pks.withUnsafeBufferPointer { block.pks.initialize(from: $0.baseAddress!, count: n) }
                entities.withUnsafeBufferPointer { block.entities.initialize(from: $0.baseAddress!, count: n) }
            }
            block.count = n
            for (k, column) in columns.enumerated() { put(column, at: k) }
        }

        deinit { block.deallocate() }

        /// Room for `n` rows and some growth, a multiple of 8, at most ``SortedResults/maxChunk``.
        static func capacity(for n: Int) -> Int {
            min(SortedResults.maxChunk, (n + n / 8 + 8 + 7) & ~7)
        }

        /// Stores a whole column `k` (as many rows as the chunk holds).
        private func put(_ column: KeyColumn, at k: Int) {
            let n = count
            guard k < Block.blockColumns, column.kind != .string, column.kind != .value else {
                box(column, at: k)
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

        private func box(_ column: KeyColumn, at k: Int) {
            if k < Block.blockColumns { block.setMode(k, Block.boxed) }
            if boxed.isEmpty { boxed = [KeyColumn](repeating: KeyColumn(), count: keyCount) }
            boxed[k] = column
        }

        func id(_ i: Int) -> ObjectID { block.id(i) }

        /// Whether column `k` is a boxed ``KeyColumn``.
        @inline(__always)
        func isBoxed(_ k: Int) -> Bool { block.mode(k) == Block.boxed }

        /// The value of row `i` of column `k`.
        func value(_ k: Int, at i: Int) -> Value {
            isBoxed(k) ? boxed[k].value(at: i) : block.value(k, at: i)
        }

        /// ``SortKey/compare(_:_:)`` of row `i` of column `k` with `v` (direction not applied).
        @inline(__always)
        func compare(_ k: Int, _ i: Int, _ v: Value, key: SortKey) -> Int {
            isBoxed(k) ? boxed[k].compare(i, v, key: key) : block.compare(k, i, v, key: key)
        }

        /// Whether row `i` of column `k` holds `v`.
        @inline(__always)
        func holds(_ k: Int, _ v: Value, at i: Int) -> Bool {
            isBoxed(k) ? boxed[k].holds(v, at: i) : block.holds(k, v, at: i)
        }

        /// Whether row `i` of column `k` and row `j` of `other`'s hold the same value.
        func same(_ k: Int, _ i: Int, as other: Chunk, _ j: Int) -> Bool {
            if !isBoxed(k) && !other.isBoxed(k) {
                let a = block.isNull(k, i), b = other.block.isNull(k, j)
                if a || b { return a == b }
                if block.mode(k) == other.block.mode(k) { return block.words(k)[i] == other.block.words(k)[j] }
            }
            return value(k, at: i) == other.value(k, at: j)
        }

        /// The rows of `range` of an integer column `k` without nils that hold `y` (see
        /// ``Block/equalRange(_:of:in:ascending:)``); `nil` for any other column.
        @inline(__always)
        func equalRange(_ k: Int, of y: Int64, in range: Range<Int>, ascending: Bool) -> Range<Int>? {
            block.equalRange(k, of: y, in: range, ascending: ascending)
        }

        /// Column `k`'s rows `range` (all rows by default) as a ``KeyColumn``.
        func column(_ k: Int, _ range: Range<Int>? = nil) -> KeyColumn {
            let range = range ?? 0..<count
            if isBoxed(k) { return range == 0..<count ? boxed[k] : boxed[k].slice(range) }
            let kind = KeyColumn.Kind(rawValue: block.mode(k))!
            let words = UnsafeBufferPointer(rebasing: UnsafeBufferPointer(start: block.words(k), count: count)[range])
            let nulls = block.keepsNulls(k) ? UnsafeBufferPointer(start: block.nulls(k), count: count)[range].map { $0 != 0 } : []
            let column: KeyColumn?
            switch kind {
            case .integer, .bool: column = KeyColumn(kind: kind, ints: Array(words), nulls: nulls, count: range.count)
            default: column = KeyColumn(kind: kind, doubles: words.map { Double(bitPattern: UInt64(bitPattern: $0)) }, nulls: nulls, count: range.count)
            }
            return column!
        }

        /// Every column, all rows.
        var columns: [KeyColumn] { (0..<keyCount).map { column($0) } }

        /// Removes row `i` (one move of the rows after it, per column).
        func remove(at i: Int) {
            let n = count, tail = n - i - 1
            (block.pks + i).update(from: block.pks + i + 1, count: tail)
            (block.entities + i).update(from: block.entities + i + 1, count: tail)
            for k in 0..<keyCount {
                if isBoxed(k) {
                    boxed[k].remove(at: i)
                    continue
                }
                (block.words(k) + i).update(from: block.words(k) + i + 1, count: tail)
                if block.keepsNulls(k) { (block.nulls(k) + i).update(from: block.nulls(k) + i + 1, count: tail) }
            }
            block.count = n - 1
        }

        /// Inserts `entry` before row `i`, growing the block if it is full (so ``block`` may
        /// change). A value of another kind than its column's boxes the column.
        func insert(_ entry: Entry, at i: Int) {
            let n = count
            if n == block.capacity { grow(to: max(n + 1, min(SortedResults.maxChunk, (n + n / 2 + 7) & ~7))) }
            let tail = n - i
            (block.pks + i + 1).update(from: block.pks + i, count: tail)
            (block.entities + i + 1).update(from: block.entities + i, count: tail)
            block.pks[i] = entry.id.primaryKey
            block.entities[i] = entry.id.entityIndex
            for k in 0..<keyCount where !isBoxed(k) {
                (block.words(k) + i + 1).update(from: block.words(k) + i, count: tail)
                if block.keepsNulls(k) { (block.nulls(k) + i + 1).update(from: block.nulls(k) + i, count: tail) }
            }
            block.count = n + 1
            for k in 0..<keyCount {
                let v = entry.keys[k]
                if isBoxed(k) {
                    boxed[k].insert(v, at: i)
                } else if !block.store(k, v, at: i) {
                    // Another kind: box the column as it was, then insert as a KeyColumn does.
                    block.count = n
                    (block.words(k) + i).update(from: block.words(k) + i + 1, count: tail)
                    if block.keepsNulls(k) { (block.nulls(k) + i).update(from: block.nulls(k) + i + 1, count: tail) }
                    var column = self.column(k)
                    block.count = n + 1
                    column.insert(v, at: i)
                    box(column, at: k)
                }
            }
        }

        /// Moves the rows into a block with room for `capacity` rows.
        private func grow(to capacity: Int) {
            let old = block, n = count
            let new = Block.allocate(capacity: capacity, keys: keyCount)
            new.pks.initialize(from: old.pks, count: n)
            new.entities.initialize(from: old.entities, count: n)
            for k in 0..<min(keyCount, Block.blockColumns) {
                new.setMode(k, old.mode(k))
                guard old.mode(k) != Block.boxed else { continue }
                new.words(k).initialize(from: old.words(k), count: n)
                if old.keepsNulls(k) {
                    new.count = n
                    new.keepNulls(k)
                    new.nulls(k).update(from: old.nulls(k), count: n)
                }
            }
            new.count = n
            block = new
            old.deallocate()
        }
    }
}
