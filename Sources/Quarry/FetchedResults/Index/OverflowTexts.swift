/// The whole text of one string column's long strings in a chunk (those longer than
/// ``StringWord/inlineCapacity``, whose block word holds only their first bytes), by block slot.
///
/// *Sparse* while few: a chunk that gains a long string or two from live changes keeps one
/// buffer of records (slot, length, text), found by a short walk. That costs one small
/// allocation and the text, where a span for every slot (a kilobyte for a full block, written
/// in full) would be paid by each chunk a change reaches. Past ``sparseLimit`` records the
/// texts turn *dense*: a ``UTF8Column`` indexed by slot, read in constant time (a column of
/// names, most of them long).
///
/// A record can outlive its string: the block frees a slot without telling the chunk. Such
/// records are never read (only a slot whose word says "overflow" is looked up), and they are
/// pruned before a sparse buffer would turn dense.
struct OverflowTexts {
    /// Records a sparse buffer holds before the texts turn dense. Debug builds turn dense
    /// sooner, so that the index's model-based tests (with their tiny chunks) reach it.
    #if DEBUG
    static let sparseLimit = 3
    #else
    static let sparseLimit = 16
    #endif

    private var sparse = SparseTextRecords()
    /// The texts by slot, once more than ``sparseLimit`` (``sparse`` is then empty).
    private var dense: UTF8Column?

    /// Whether the texts are kept dense (by slot) rather than as sparse records.
    var isDense: Bool { dense != nil }

    /// Texts kept dense from the start: for a chunk built with more long strings than
    /// ``sparseLimit`` (it skips the sparse records' walks and the move).
    static func dense() -> OverflowTexts {
        var texts = OverflowTexts()
        texts.dense = UTF8Column()
        return texts
    }

    /// Makes `slot` hold the text `utf8` (replacing its text, if any). `isLive` tells which
    /// other slots still hold a long string, for pruning before the texts turn dense.
    mutating func set(_ utf8: UnsafeBufferPointer<UInt8>, in slot: BlockSlot, isLive: (BlockSlot) -> Bool) {
        if dense != nil {
            if slot.index >= dense!.count { dense!.appendEmptyRows(slot.index + 1 - dense!.count) }
            dense!.set(utf8: utf8, at: slot.index)
            return
        }
        if sparse.count >= Self.sparseLimit && sparse.offset(of: slot) == nil {
            sparse.prune { $0 != slot && isLive($0) }
            if sparse.count >= Self.sparseLimit { turnDense() }
            return set(utf8, in: slot, isLive: isLive)
        }
        sparse.set(utf8, in: slot)
    }

    /// Where the sparse records start (the first line a short walk reads), `nil` when there
    /// are none or the texts are dense (not worth a prefetch). Valid until the texts change:
    /// for a prefetch only, which a stale address cannot harm.
    var firstLine: UnsafeRawPointer? { dense == nil ? sparse.firstLine : nil }

    /// Calls `body` with the text of `slot` (which must have one; valid during the call).
    @inline(__always)
    func withUTF8<R>(in slot: BlockSlot, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let dense { return try dense.withUTF8(at: slot.index, body) }
        return try sparse.withUTF8(in: slot, body)
    }

    /// Whether `slot` has a text (for the index's debug checks; long strings are never empty).
    func hasText(in slot: BlockSlot) -> Bool {
        if let dense { return slot.index < dense.count && dense.withUTF8(at: slot.index) { !$0.isEmpty } }
        return sparse.offset(of: slot) != nil
    }

    /// The text of `slot`.
    func string(in slot: BlockSlot) -> String { withUTF8(in: slot) { String(decoding: $0, as: UTF8.self) } }

    /// ``StringMatching/compareBinary(_:_:)`` of the text of `slot` with `y`.
    @inline(__always)
    func compareBinary(in slot: BlockSlot, _ y: String) -> Int { withUTF8(in: slot) { UTF8Column.compareBinary($0, y) } }

    /// Whether the text of `slot` is `y` (`==` on `String`, as ``UTF8Column/holds(_:at:)``).
    @inline(__always)
    func holds(_ y: String, in slot: BlockSlot) -> Bool { withUTF8(in: slot) { UTF8Column.holds($0, y) } }

    /// Moves the sparse records into a dense column.
    private mutating func turnDense() {
        var column = UTF8Column()
        sparse.forEach { slot, utf8 in
            if slot.index >= column.count { column.appendEmptyRows(slot.index + 1 - column.count) }
            column.set(utf8: utf8, at: slot.index)
        }
        sparse = SparseTextRecords()
        dense = column
    }
}

/// Texts by slot in one byte buffer: records of a slot byte, a 4-byte little-endian length and
/// the text, one after another. A replaced or pruned record's slot byte becomes ``dead``; the
/// buffer is rewritten once most of it is dead.
private struct SparseTextRecords {
    /// The slot byte of a record no slot uses (slots are below ``ResultsBlock/maxCapacity``).
    static let dead: UInt8 = 0xFF
    /// Bytes before a record's text.
    static let headerSize = 5

    private var bytes: [UInt8] = []
    /// Live records.
    private(set) var count = 0
    /// Bytes of dead records.
    private var deadBytes = 0

    /// Where the buffer starts (`nil` when empty); valid until it changes.
    var firstLine: UnsafeRawPointer? {
        bytes.isEmpty ? nil : bytes.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    /// Where the live record of `slot` starts in the buffer, if it has one.
    func offset(of slot: BlockSlot) -> Int? {
        assert(slot.index < Int(Self.dead))
        let tag = UInt8(truncatingIfNeeded: slot.index)
        return bytes.withUnsafeBufferPointer { b in
            var at = 0
            while at < b.count {
                if b[at] == tag { return at }
                at += Self.headerSize + Self.length(b, at)
            }
            return nil
        }
    }

    /// Calls `body` with the text of `slot` (which must have one).
    @inline(__always)
    func withUTF8<R>(in slot: BlockSlot, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard let at = offset(of: slot) else { preconditionFailure("no text for the long string in \(slot)") }
        return try bytes.withUnsafeBufferPointer { b in
            try body(UnsafeBufferPointer(rebasing: b[(at + Self.headerSize)..<(at + Self.headerSize + Self.length(b, at))]))
        }
    }

    /// Makes `slot` hold `utf8`: the old record, if any, dies and a new one is appended.
    mutating func set(_ utf8: UnsafeBufferPointer<UInt8>, in slot: BlockSlot) {
        precondition(utf8.count <= Int(UInt32.max), "a long string holds at most 4 GiB")
        if let at = offset(of: slot) { kill(at) }
        let needed = bytes.count + Self.headerSize + utf8.count
        if needed > bytes.capacity { bytes.reserveCapacity(max(needed, 2 * bytes.capacity, 48)) }
        var length = UInt32(utf8.count).littleEndian
        bytes.append(UInt8(truncatingIfNeeded: slot.index))
        withUnsafeBytes(of: &length) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: utf8)
        count += 1
        compactIfWasteful()
    }

    /// Kills the records of slots `keep` says no.
    mutating func prune(keep: (BlockSlot) -> Bool) {
        var dying: [Int] = []
        forEachRecord { at, slot in if !keep(slot) { dying.append(at) } }
        for at in dying { kill(at) }
        compactIfWasteful()
    }

    /// Calls `body` with each live record's slot and text.
    func forEach(_ body: (BlockSlot, UnsafeBufferPointer<UInt8>) -> Void) {
        bytes.withUnsafeBufferPointer { b in
            forEachRecord { at, slot in
                body(slot, UnsafeBufferPointer(rebasing: b[(at + Self.headerSize)..<(at + Self.headerSize + Self.length(b, at))]))
            }
        }
    }

    /// Calls `body` with each live record's offset and slot.
    private func forEachRecord(_ body: (Int, BlockSlot) -> Void) {
        bytes.withUnsafeBufferPointer { b in
            var at = 0
            while at < b.count {
                if b[at] != Self.dead { body(at, BlockSlot(Int(b[at]))) }
                at += Self.headerSize + Self.length(b, at)
            }
        }
    }

    /// Marks the live record at `at` dead.
    private mutating func kill(_ at: Int) {
        assert(bytes[at] != Self.dead)
        bytes[at] = Self.dead
        deadBytes += Self.headerSize + bytes.withUnsafeBufferPointer { Self.length($0, at) }
        count -= 1
    }

    /// Rewrites the buffer with only the live records once most of it is dead.
    private mutating func compactIfWasteful() {
        guard deadBytes > 64 && deadBytes * 2 > bytes.count else { return }
        var compact = SparseTextRecords()
        compact.bytes.reserveCapacity(bytes.count - deadBytes)
        forEach { slot, utf8 in compact.set(utf8, in: slot) }
        self = compact
    }

    /// The text length of the record at `at` in `b`.
    @inline(__always)
    private static func length(_ b: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int {
        Int(UInt32(littleEndian: UnsafeRawBufferPointer(b).loadUnaligned(fromByteOffset: at + 1, as: UInt32.self)))
    }
}
