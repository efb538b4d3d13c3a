/// Colour pairs allocated on demand: each (foreground, background) pair gets a curses pair
/// number the first time a cell uses it.
///
/// Pair 0 is curses' fixed pair of the terminal's own colours and is never allocated. When every
/// pair number is taken, ``pair(foreground:background:)`` reports ``Allocation/full``; the
/// backend then ``reset()``s the table and redraws the frame so numbers are handed out afresh
/// for the colours on screen now.
package struct ColorPairTable: Sendable {
    /// The result of asking for a pair.
    package enum Allocation: Hashable, Sendable {
        /// The pair was already defined under this number.
        case existing(Int32)
        /// A new number: the caller must define it (`init_extended_pair`) before use.
        case new(Int32)
        /// No number is left.
        case full
    }

    private struct Colors: Hashable {
        var foreground: Int32
        var background: Int32
    }

    /// The number of pairs curses has (`COLOR_PAIRS`), pair 0 included.
    package let pairCount: Int
    private var numbers: [Colors: Int32] = [:]
    private var nextNumber: Int32 = 1

    /// Creates an empty table for a terminal with `pairCount` colour pairs.
    package init(pairCount: Int) {
        self.pairCount = max(1, pairCount)
    }

    /// How many pairs are allocated.
    package var count: Int { numbers.count }

    /// The pair number for `foreground` on `background` (curses colour numbers, -1 = default).
    package mutating func pair(foreground: Int32, background: Int32) -> Allocation {
        if foreground == -1 && background == -1 { return .existing(0) }
        let colors = Colors(foreground: foreground, background: background)
        if let number = numbers[colors] { return .existing(number) }
        guard Int(nextNumber) < pairCount else { return .full }
        let number = nextNumber
        nextNumber += 1
        numbers[colors] = number
        return .new(number)
    }

    /// Forgets every allocation; numbers are handed out from 1 again.
    package mutating func reset() {
        numbers.removeAll(keepingCapacity: true)
        nextNumber = 1
    }
}
