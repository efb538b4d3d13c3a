import CNCurses
import Foundation
import QuarryTUI

extension CursesTerminal {
    /// Shows `buffer`, sending only the runs of cells that differ from the previous frame.
    ///
    /// Cells are written into curses' standard screen (`wadd_wch`, colour pairs allocated on
    /// demand), then `wnoutrefresh` + `doupdate` send the changes. After a resize, a resume or
    /// when the pair table ran out, the whole frame is redrawn. Cells beyond the terminal's
    /// current size are clipped. A grapheme cluster curses cannot hold in a cell (a ZWJ emoji
    /// sequence, a flag) is written whole over a placeholder after the update
    /// (``CursesGlyph``, ``ClusterOverlay``).
    ///
    /// With synchronized output, the begin and end markers are written straight to the terminal
    /// descriptor around `doupdate`. The order is guaranteed because curses holds its own output
    /// until `doupdate` flushes it, and the stdio buffer is flushed before the end marker.
    public func present(_ buffer: ScreenBuffer) {
        guard isRunning, !isSuspended else { return }
        if needsFullRedraw {
            clearok(quarry_curscr(), true)
            previousFrame = nil
            needsFullRedraw = false
        }
        let diff = FrameDiff(from: previousFrame, to: buffer)
        if diff.isFullRedraw { werase(quarry_stdscr()) }
        if !draw(diff, of: buffer, fallBackWhenFull: false) {
            // The pair table is full: reallocate for the colours on screen now.
            pairs.reset()
            werase(quarry_stdscr())
            _ = draw(FrameDiff(from: nil, to: buffer), of: buffer, fallBackWhenFull: true)
        }
        previousFrame = buffer

        wnoutrefresh(quarry_stdscr())
        if usesSynchronizedOutput { writeToTerminal(SynchronizedOutput.begin) }
        doupdate()
        let overlays = overlayBytes(onRowsOf: diff, of: buffer)
        if !overlays.isEmpty || usesSynchronizedOutput, let file = ttyFile { fflush(file) }
        if !overlays.isEmpty { writeToTerminal(overlays) }
        if usesSynchronizedOutput { writeToTerminal(SynchronizedOutput.end) }
    }

    /// The bytes that write every grapheme cluster curses cannot hold in a cell
    /// (``CursesGlyph/overlay``) over its placeholder, on each row the update touched (curses
    /// may have reprinted any placeholder of such a row to move the cursor), then put the
    /// cursor back where curses left it. Empty when there is none.
    private func overlayBytes(onRowsOf diff: FrameDiff, of buffer: ScreenBuffer) -> [UInt8] {
        guard !usesAsciiGlyphs, let overlay = clusterOverlay else { return [] }
        let limit = currentCursesSize()
        var bytes: [UInt8] = []
        var lastRow = -1
        for run in diff.runs where run.row != lastRow && run.row < limit.height {
            lastRow = run.row
            for x in 0..<min(buffer.size.width, limit.width) {
                let cell = buffer[x, run.row]
                guard !cell.isContinuation, CursesGlyph.mayNeedOverlay(cell.text) else { continue }
                let isWide = x + 1 < buffer.size.width && buffer[x + 1, run.row].isContinuation
                guard !isWide || x + 1 < limit.width,
                      case .overlay(_, _, let text) = CursesGlyph.plan(cell.text, expectedWidth: isWide ? 2 : 1, wcwidth: quarry_wcwidth)
                else { continue }
                bytes += overlay.draw(text, x: x, y: run.row, attributes: cell.style.attributes,
                                      foreground: colors.number(for: cell.style.foreground, isForeground: true),
                                      background: colors.number(for: cell.style.background, isForeground: false))
            }
        }
        guard !bytes.isEmpty else { return [] }
        let window = quarry_stdscr()
        return bytes + overlay.cursorMove(x: Int(getcurx(window)), y: Int(getcury(window)))
    }

    /// Writes the cells of every run. Returns false when a colour pair could not be allocated
    /// (unless `fallBackWhenFull`, which draws such cells in the default pair instead).
    private func draw(_ diff: FrameDiff, of buffer: ScreenBuffer, fallBackWhenFull: Bool) -> Bool {
        let window = quarry_stdscr()
        let limit = currentCursesSize()
        for run in diff.runs where run.row < limit.height {
            for x in run.columns where x < limit.width {
                let cell = buffer[x, run.row]
                // The lead cell draws both halves; FrameDiff puts leads in every run they touch.
                if cell.isContinuation { continue }
                let isWide = x + 1 < buffer.size.width && buffer[x + 1, run.row].isContinuation
                guard let pair = pairNumber(for: cell.style, fallBackWhenFull: fallBackWhenFull) else { return false }
                let attributes = Self.cursesAttributes(cell.style.attributes)
                let text = usesAsciiGlyphs ? AsciiFallback.glyph(for: cell.text) : cell.text
                let drawnWidth = put(text, isWide: isWide && x + 1 < limit.width, at: x, row: run.row, window: window, attributes: attributes, pair: pair)
                if isWide, drawnWidth < 2, x + 1 < limit.width {
                    // Drawn narrower than the buffer expects: blank the right half so nothing stale shows.
                    _ = put(" ", isWide: false, at: x + 1, row: run.row, window: window, attributes: attributes, pair: pair)
                }
            }
        }
        return true
    }

    /// Draws one grapheme and returns the cells curses used for it.
    ///
    /// curses measures characters with the C library's `wcwidth`; when that disagrees with the
    /// width the buffer gave the grapheme, or the character is unprintable in this locale, `?`
    /// is drawn instead so curses' idea of the screen and the buffer stay aligned. A cluster
    /// curses cannot hold in one cell gets a placeholder here (``CursesGlyph``).
    private func put(_ text: String, isWide: Bool, at x: Int, row y: Int, window: UnsafeMutablePointer<WINDOW>?, attributes: attr_t, pair: Int32) -> Int {
        glyphScratch.removeAll(keepingCapacity: true)
        let width: Int
        switch CursesGlyph.plan(text, expectedWidth: isWide ? 2 : 1, wcwidth: quarry_wcwidth) {
        case .cell(let characters, let cellWidth):
            glyphScratch.append(contentsOf: characters)
            width = cellWidth
        case .overlay(let placeholder, let cellWidth, _):
            // The whole cluster is written over it after the update (drawOverlays).
            glyphScratch.append(contentsOf: placeholder)
            width = cellWidth
        }
        glyphScratch.append(0)
        var character = cchar_t()
        glyphScratch.withUnsafeBufferPointer { text in
            _ = quarry_setcchar(&character, text.baseAddress, attributes, pair)
        }
        wmove(window, Int32(y), Int32(x))
        // At the bottom-right corner curses reports ERR (it cannot move the cursor past it) but
        // still draws the character.
        wadd_wch(window, &character)
        return width
    }

    /// The colour pair for `style`, defining it on first use; nil when the table is full and
    /// `fallBackWhenFull` is false.
    private func pairNumber(for style: CellStyle, fallBackWhenFull: Bool) -> Int32? {
        guard colors.usesColor else { return 0 }
        let foreground = colors.number(for: style.foreground, isForeground: true)
        let background = colors.number(for: style.background, isForeground: false)
        switch pairs.pair(foreground: foreground, background: background) {
        case .existing(let number):
            return number
        case .new(let number):
            init_extended_pair(number, foreground, background)
            return number
        case .full:
            return fallBackWhenFull ? 0 : nil
        }
    }

    private static func cursesAttributes(_ attributes: TextAttributes) -> attr_t {
        var result = quarry_attr_normal()
        if attributes.contains(.bold) { result |= quarry_attr_bold() }
        if attributes.contains(.dim) { result |= quarry_attr_dim() }
        if attributes.contains(.italic) { result |= quarry_attr_italic() }
        if attributes.contains(.underline) { result |= quarry_attr_underline() }
        if attributes.contains(.reverse) { result |= quarry_attr_reverse() }
        return result
    }

    private func writeToTerminal(_ bytes: [UInt8]) {
        guard ttyDescriptor >= 0 else { return }
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(ttyDescriptor, raw.baseAddress! + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
