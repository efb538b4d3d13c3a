// A tiny full-screen program for the backend's end-to-end test (run inside tmux by
// CursesBackendTests): it draws a wide-character line, a coloured line and a family emoji (a
// ZWJ sequence), shows the last key
// pressed, the size and its process id, and quits on `q` or a termination signal (`e` exits
// without stopping the terminal, to exercise the atexit restoration).
import CursesBackend
import Dispatch
import Foundation
import QuarryTUI

guard CursesTerminal.isInteractive() else {
    FileHandle.standardError.write(Data("curses-smoke: needs an interactive terminal\n".utf8))
    exit(2)
}

let terminal = CursesTerminal()
var lastKey = "none"
var resizes = 0

func name(of key: Key) -> String {
    switch key {
    case .character(let character): return "char(\(character))"
    case .control(let letter): return "control(\(letter))"
    case .function(let number): return "F\(number)"
    default: return "\(key)"
    }
}

@MainActor func render() {
    var buffer = ScreenBuffer(size: terminal.size)
    buffer.write("hello 東京 world", x: 0, y: 0, style: .plain)
    buffer.write("coloured line", x: 0, y: 1, style: CellStyle(foreground: .ansi(1), background: .indexed(22), attributes: [.bold]))
    buffer.write("key: \(lastKey)", x: 0, y: 2, style: .plain)
    buffer.write("size: \(terminal.size.width)x\(terminal.size.height) resizes: \(resizes)", x: 0, y: 3, style: .plain)
    buffer.write("pid: \(getpid()) colors: \(terminal.colorCapability)", x: 0, y: 4, style: .plain)
    // A ZWJ sequence more than a curses cell holds, in colour: drawn whole over curses' cells.
    buffer.write("family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466} end", x: 0, y: 5,
                 style: CellStyle(foreground: .ansi(3), background: .indexed(22)))
    terminal.present(buffer)
}

do {
    try terminal.start { event in
        switch event {
        case .key(.character("q")):
            terminal.stop()
            exit(0)
        case .key(.character("e")):
            exit(3)  // without stop(): the atexit hook must give the terminal back
        case .key(let key):
            lastKey = name(of: key)
        case .paste(let text):
            lastKey = "paste \(text.count) characters"
        case .mouse(let event):
            lastKey = "mouse \(event.action) \(event.x),\(event.y)"
        case .resize:
            resizes += 1
        case .terminate(let signal):
            terminal.stop()
            exit(128 + signal)
        }
        render()
    }
} catch {
    FileHandle.standardError.write(Data("curses-smoke: \(error)\n".utf8))
    exit(1)
}
render()
dispatchMain()
