import CNCurses
import Foundation
import QuarryTUI

extension CursesTerminal {
    /// Shows `buffer`, sending only the runs of cells that differ from the previous frame.
    ///
    /// Cells are written into curses' standard screen (`wadd_wch`, colour pairs allocated on
    /// demand), then `wnoutrefresh` + `doupdate` send the changes. After a resize, a resume or
    /// when the pair table ran out, the whole frame is redrawn. Cells beyond the terminal's
    /// current size are clipped.
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
        if usesSynchronizedOutput {
            if let file = ttyFile { fflush(file) }
            writeToTerminal(SynchronizedOutput.end)
        }
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
    /// is drawn instead so curses' idea of the screen and the buffer stay aligned.
    private func put(_ text: String, isWide: Bool, at x: Int, row y: Int, window: UnsafeMutablePointer<WINDOW>?, attributes: attr_t, pair: Int32) -> Int {
        let expectedWidth = isWide ? 2 : 1
        glyphScratch.removeAll(keepingCapacity: true)
        var width = 1
        var scalars = text.unicodeScalars.makeIterator()
        if let first = scalars.next() {
            let value = wchar_t(bitPattern: first.value)
            width = first.isASCII && first.value >= 0x20 && first.value < 0x7F ? 1 : Int(quarry_wcwidth(value))
            if width == expectedWidth || (width == 1 && expectedWidth == 2) {
                glyphScratch.append(value)
                // Combining marks and variation selectors ride along, up to curses' limit.
                while glyphScratch.count < Int(CCHARW_MAX), let next = scalars.next() {
                    let nextValue = wchar_t(bitPattern: next.value)
                    guard quarry_wcwidth(nextValue) == 0 else { break }
                    glyphScratch.append(nextValue)
                }
            }
        }
        if glyphScratch.isEmpty {
            glyphScratch.append(wchar_t(UInt8(ascii: "?")))
            width = 1
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
