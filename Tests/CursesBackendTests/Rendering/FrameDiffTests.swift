import QuarryTUI
import Testing
@testable import CursesBackend

@Suite("Frame diff")
struct FrameDiffTests {
    private let size = TerminalSize(width: 10, height: 3)
    private typealias Run = FrameDiff.Run

    private func frame(_ rows: [String]) -> ScreenBuffer {
        var buffer = ScreenBuffer(size: size)
        for (y, text) in rows.enumerated() { buffer.write(text, x: 0, y: y, style: .plain) }
        return buffer
    }

    @Test("identical frames need no runs")
    func identical() {
        let diff = FrameDiff(from: frame(["hello", "東京"]), to: frame(["hello", "東京"]))
        #expect(diff.runs.isEmpty)
        #expect(!diff.isFullRedraw)
    }

    @Test("one changed cell is one run of one cell")
    func oneCell() {
        let diff = FrameDiff(from: frame(["hello"]), to: frame(["hallo"]))
        #expect(diff.runs == [Run(row: 0, columns: 1..<2)])
    }

    @Test("a style change alone is a change")
    func styleOnly() {
        var next = frame(["hello"])
        next.restyle(Rect(x: 2, y: 1, width: 3, height: 1)) { $0.attributes = .bold }
        #expect(FrameDiff(from: frame(["hello"]), to: next).runs == [Run(row: 1, columns: 2..<5)])
    }

    @Test("separate changes in a row are separate runs, rows in order")
    func severalRuns() {
        let diff = FrameDiff(from: frame(["abcdefgh", "", "xyz"]), to: frame(["aXcdeYYh", "", "xyZ"]))
        #expect(diff.runs == [Run(row: 0, columns: 1..<2), Run(row: 0, columns: 5..<7), Run(row: 2, columns: 2..<3)])
    }

    @Test("a new wide character includes its continuation cell")
    func newWideCharacter() {
        let diff = FrameDiff(from: frame(["abcd"]), to: frame(["a東d"]))
        #expect(diff.runs == [Run(row: 0, columns: 1..<3)])
    }

    @Test("replacing a wide character by a narrow one redraws both of its cells")
    func wideReplacedByNarrow() {
        // Only the left half changes its text; the right half, blank before and after in text,
        // must still be redrawn or it would keep half of the old glyph.
        let diff = FrameDiff(from: frame(["a東d"]), to: frame(["ax d"]))
        #expect(diff.runs == [Run(row: 0, columns: 1..<3)])
    }

    @Test("changing only the right half of a wide character redraws its left half")
    func rightHalfChanged() {
        var next = frame(["a東d"])
        next[2, 0] = Cell("x")
        let diff = FrameDiff(from: frame(["a東d"]), to: next)
        #expect(diff.runs == [Run(row: 0, columns: 1..<3)])
    }

    @Test("a wide character replaced by another wide character is one two-cell run")
    func wideReplacedByWide() {
        let diff = FrameDiff(from: frame(["東京"]), to: frame(["東都"]))
        #expect(diff.runs == [Run(row: 0, columns: 2..<4)])
    }

    @Test("a wide character shifted by one cell redraws every cell it touched")
    func wideShifted() {
        let diff = FrameDiff(from: frame(["東"]), to: frame([" 東"]))
        #expect(diff.runs == [Run(row: 0, columns: 0..<3)])
    }

    @Test("no previous frame is a full redraw of every row")
    func firstFrame() {
        let diff = FrameDiff(from: nil, to: frame(["hello"]))
        #expect(diff.isFullRedraw)
        #expect(diff.runs == (0..<3).map { Run(row: $0, columns: 0..<10) })
    }

    @Test("a size change is a full redraw")
    func resize() {
        let bigger = ScreenBuffer(size: TerminalSize(width: 12, height: 2))
        let diff = FrameDiff(from: frame(["hello"]), to: bigger)
        #expect(diff.isFullRedraw)
        #expect(diff.runs == [Run(row: 0, columns: 0..<12), Run(row: 1, columns: 0..<12)])
    }

    @Test("an empty buffer has nothing to draw")
    func empty() {
        let diff = FrameDiff(from: nil, to: ScreenBuffer(size: TerminalSize(width: 0, height: 0)))
        #expect(diff.runs.isEmpty)
    }
}
