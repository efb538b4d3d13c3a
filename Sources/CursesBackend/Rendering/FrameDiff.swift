import QuarryTUI

/// The runs of cells that must be sent to the terminal to turn one frame into the next.
///
/// A pure value computed from two ``ScreenBuffer``s, so what the backend redraws is tested
/// without a terminal:
/// - identical frames give no runs;
/// - no previous frame, or a different size, gives a full redraw (one run per row);
/// - wide characters are kept whole: when either half of a wide character (in the old or the
///   new frame) changes, the other half is part of the run too, because a terminal cannot draw
///   half of one and redrawing one half blanks the other.
package struct FrameDiff: Hashable, Sendable {
    /// A horizontal run of changed cells.
    package struct Run: Hashable, Sendable {
        /// The row.
        package var row: Int
        /// The columns, left to right.
        package var columns: Range<Int>

        /// Creates a run.
        package init(row: Int, columns: Range<Int>) {
            self.row = row
            self.columns = columns
        }
    }

    /// The runs, top to bottom and left to right within a row.
    package private(set) var runs: [Run]
    /// Whether every cell is redrawn (first frame, resize, forced repaint).
    package let isFullRedraw: Bool

    /// The difference from `previous` (nil: nothing known on screen) to `next`.
    package init(from previous: ScreenBuffer?, to next: ScreenBuffer) {
        let width = next.size.width
        guard let previous, previous.size == next.size else {
            isFullRedraw = true
            runs = width == 0 ? [] : (0..<next.size.height).map { Run(row: $0, columns: 0..<width) }
            return
        }
        isFullRedraw = false
        runs = []
        var changed = [Bool](repeating: false, count: width)
        for y in 0..<next.size.height {
            var any = false
            for x in 0..<width where previous[x, y] != next[x, y] {
                changed[x] = true
                any = true
            }
            guard any else { continue }
            Self.keepWideCharactersWhole(&changed, previous: previous, next: next, row: y)
            appendRuns(of: &changed, row: y)
        }
    }

    /// Marks the other half of every wide character touched by a change. One pass is enough:
    /// a cell whose continuation status differs between the frames is itself changed.
    private static func keepWideCharactersWhole(_ changed: inout [Bool], previous: ScreenBuffer, next: ScreenBuffer, row y: Int) {
        let width = changed.count
        let seeds = changed
        for x in 0..<width where seeds[x] {
            if x > 0, previous[x, y].isContinuation || next[x, y].isContinuation {
                changed[x - 1] = true
            }
            if x + 1 < width, previous[x + 1, y].isContinuation || next[x + 1, y].isContinuation {
                changed[x + 1] = true
            }
        }
    }

    /// Appends the maximal runs of `changed` and clears it for the next row.
    private mutating func appendRuns(of changed: inout [Bool], row: Int) {
        var start: Int?
        for x in 0...changed.count {
            let isChanged = x < changed.count && changed[x]
            if isChanged, start == nil { start = x }
            if !isChanged, let first = start {
                runs.append(Run(row: row, columns: first..<x))
                start = nil
            }
            if x < changed.count { changed[x] = false }
        }
    }
}
