import Testing
@testable import CursesBackend

@Suite("Synchronized output support")
struct SynchronizedOutputTests {
    @Test("QUARRY_SYNC_OUTPUT forces it on or off")
    func override() {
        #expect(SynchronizedOutput.isSupported(environment: ["QUARRY_SYNC_OUTPUT": "1", "TERM": "vt100"]))
        #expect(!SynchronizedOutput.isSupported(environment: ["QUARRY_SYNC_OUTPUT": "0", "TERM_PROGRAM": "WezTerm"]))
    }

    @Test("unknown terminals are left alone")
    func unknown() {
        #expect(!SynchronizedOutput.isSupported(environment: [:]))
        #expect(!SynchronizedOutput.isSupported(environment: ["TERM": "xterm-256color"]))
        #expect(!SynchronizedOutput.isSupported(environment: ["TERM": "screen-256color", "TERM_PROGRAM": "WezTerm"]))
    }

    @Test("known terminals get it")
    func known() {
        #expect(SynchronizedOutput.isSupported(environment: ["TERM_PROGRAM": "WezTerm", "TERM": "xterm-256color"]))
        #expect(SynchronizedOutput.isSupported(environment: ["TERM": "xterm-kitty"]))
        #expect(SynchronizedOutput.isSupported(environment: ["TERM": "foot"]))
        #expect(SynchronizedOutput.isSupported(environment: ["TERM_PROGRAM": "ghostty"]))
    }

    @Test("tmux from 3.4 on, and the outer terminal does not count inside tmux")
    func tmux() {
        #expect(!SynchronizedOutput.isSupported(environment: ["TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.3a"]))
        #expect(SynchronizedOutput.isSupported(environment: ["TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.4"]))
        #expect(SynchronizedOutput.isSupported(environment: ["TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "next-3.6"]))
        #expect(SynchronizedOutput.isSupported(environment: ["TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "4.0"]))
        #expect(!SynchronizedOutput.isSupported(environment: ["TMUX": "/tmp/tmux-1/default,1,0", "KITTY_WINDOW_ID": "1"]))
    }
}
