import CNCurses
import Dispatch
import Foundation
import QuarryTUI

extension CursesTerminal {
    /// Watches the terminal for input on the main queue.
    func installInputSource() {
        let source = DispatchSource.makeReadSource(fileDescriptor: ttyDescriptor, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.drainInput() }
        }
        readSource = source
        source.resume()
    }

    /// Reads every key curses has (non-blocking `wget_wch` until `ERR`) and delivers each.
    ///
    /// Stops early when the handler stopped the terminal. A readable descriptor that yields
    /// nothing is checked for hang-up: a closed terminal is delivered as a SIGHUP termination
    /// once, instead of waking this source forever.
    func drainInput() {
        var readAny = false
        while isRunning, !isSuspended {
            if pasteCollector != nil {
                // Inside a bracketed paste: read it straight from the terminal, in large reads.
                let paste = readPasteDirectly()
                readAny = readAny || paste.readAny
                guard paste.ended else {
                    if !readAny { checkForHangUp() }
                    return
                }
                continue
            }
            var value: wint_t = 0
            let status = wget_wch(quarry_stdscr(), &value)
            let input: KeyDecoder.Input
            switch status {
            case OK: input = .character(UInt32(value))
            case KEY_CODE_YES: input = .keyCode(Int32(bitPattern: UInt32(value)))
            default:
                if !readAny { checkForHangUp() }
                return
            }
            readAny = true
            if receivePaste(input) || receiveMouse(input) { continue }
            switch KeyDecoder.decode(input) {
            case .key(let key): handler?(.key(key))
            case .resize: handleResize()
            case .ignored: break
            }
        }
    }

    /// Collects a bracketed paste: from the start marker to the end marker every character is
    /// text, delivered once as ``TerminalEvent/paste(_:)``. Returns whether `input` was taken.
    ///
    /// Key codes curses decodes inside a paste (a pasted `ESC[A` reads as KEY_UP) are dropped:
    /// pasted text never runs as a command.
    private func receivePaste(_ input: KeyDecoder.Input) -> Bool {
        switch input {
        case .keyCode(BracketedPaste.startKeyCode):
            pasteBuffer = ""
            pasteCollector = PasteCollector()
            return true
        case .keyCode(BracketedPaste.endKeyCode):
            guard let text = pasteBuffer else { return true }
            pasteBuffer = nil
            handler?(.paste(text))
            return true
        case .keyCode:
            return pasteBuffer != nil
        case .character(let value):
            guard pasteBuffer != nil else { return false }
            if let scalar = Unicode.Scalar(value) { pasteBuffer?.unicodeScalars.append(scalar) }
            return true
        }
    }

    /// Reads what the terminal has of the paste being received, in large reads (curses reads a
    /// byte per system call), up to its end marker: then the paste is delivered and the bytes
    /// that followed the marker are given back to curses, in order. `ended` is `false` when the
    /// terminal has nothing more for now (the paste goes on at the next input); `readAny` says
    /// whether anything was read.
    ///
    /// Only what the terminal says is waiting (`FIONREAD`) is read, so the read never blocks.
    /// curses holds no byte of the paste: it read the start marker a byte at a time and stopped
    /// at its end.
    private func readPasteDirectly() -> (ended: Bool, readAny: Bool) {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var readAny = false
        while true {
            var waiting: Int32 = 0
            guard ioctl(ttyDescriptor, UInt(FIONREAD), &waiting) == 0, waiting > 0 else { return (false, readAny) }
            let count = chunk.withUnsafeMutableBytes { read(ttyDescriptor, $0.baseAddress, min(Int(waiting), $0.count)) }
            guard count > 0 else { return (false, readAny) }
            readAny = true
            guard let (text, rest) = pasteCollector?.append(chunk[..<count]) else { continue }
            let pasted = (pasteBuffer ?? "") + text
            pasteCollector = nil
            pasteBuffer = nil
            // Pushed back last first: curses returns them first in, first out.
            for byte in rest.reversed() { _ = ungetch(Int32(byte)) }
            handler?(.paste(pasted))
            return (true, true)
        }
    }

    /// Collects a mouse report after its `ESC[<` prefix up to the final `M` or `m` and delivers
    /// it as ``TerminalEvent/mouse(_:)``. Returns whether `input` was taken. A report that does
    /// not parse, or grows past ``MouseReporting/maximumBodyLength``, is dropped whole.
    private func receiveMouse(_ input: KeyDecoder.Input) -> Bool {
        if case .keyCode(MouseReporting.prefixKeyCode) = input {
            mouseBuffer = ""
            return true
        }
        guard mouseBuffer != nil else { return false }
        guard case .character(let value) = input, let scalar = Unicode.Scalar(value) else {
            mouseBuffer = nil  // a key code cannot be part of a report: the report was cut
            return false
        }
        mouseBuffer?.unicodeScalars.append(scalar)
        let body = mouseBuffer ?? ""
        if scalar == "M" || scalar == "m" {
            mouseBuffer = nil
            if reportsMouse, let event = SGRMouse.parse(body) { handler?(.mouse(event)) }
        } else if body.unicodeScalars.count > MouseReporting.maximumBodyLength || !(scalar == ";" || ("0"..."9").contains(scalar)) {
            mouseBuffer = nil
        }
        return true
    }

    private func checkForHangUp() {
        var descriptor = pollfd(fd: ttyDescriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) == 1 else { return }
        let hungUp = Int32(descriptor.revents) & (POLLHUP | POLLERR | POLLNVAL) != 0
        guard hungUp else { return }
        readSource?.cancel()
        readSource = nil
        handler?(.terminate(signal: SIGHUP))
    }
}
