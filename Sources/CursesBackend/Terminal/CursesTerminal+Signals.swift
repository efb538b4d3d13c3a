import CNCurses
import Dispatch
import Foundation
import QuarryTUI

/// The signals the backend turns into events or handles itself.
///
/// - SIGINT, SIGTERM, SIGHUP, SIGQUIT: delivered as ``TerminalEvent/terminate(signal:)``; the
///   application calls ``CursesTerminal/stop()`` and exits. (Ctrl-C and Ctrl-\ reach the process as
///   signals because the terminal stays in cbreak mode, not raw mode.)
/// - SIGWINCH: the size is re-read and ``TerminalEvent/resize(_:)`` delivered; the next frame is
///   drawn in full.
/// - SIGTSTP (Ctrl-Z): the terminal is given back and the process stops itself.
/// - SIGCONT: the terminal is taken back, repainted, and a resize delivered (the window may have
///   changed while the process was stopped).
///
/// Each is ignored by disposition and received through a `DispatchSource` on the main queue, so
/// the work runs on the main actor between other events, never inside a signal handler.
extension CursesTerminal {
    static let terminationSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    static let handledSignals: [Int32] = terminationSignals + [SIGWINCH, SIGTSTP, SIGCONT]

    /// Ignores every handled signal, remembering the previous actions for ``restoreSignalActions()``.
    func ignoreHandledSignals() {
        for signalNumber in Self.handledSignals {
            var previous = sigaction()
            sigaction(signalNumber, nil, &previous)
            savedSignalActions[signalNumber] = previous
            signal(signalNumber, SIG_IGN)
        }
    }

    /// Puts back the signal actions found at start.
    func restoreSignalActions() {
        for (signalNumber, action) in savedSignalActions {
            var previous = action
            sigaction(signalNumber, &previous, nil)
        }
        savedSignalActions = [:]
    }

    func installSignalSources() {
        signalSources = Self.handledSignals.map { signalNumber in
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            source.setEventHandler { [weak self] in
                MainActor.assumeIsolated { self?.handleSignal(signalNumber) }
            }
            source.resume()
            return source
        }
    }

    private func handleSignal(_ signalNumber: Int32) {
        guard isRunning else { return }
        switch signalNumber {
        case SIGWINCH: handleResize()
        case SIGTSTP: suspendProcess()
        case SIGCONT: resumeAfterStop()
        default: handler?(.terminate(signal: signalNumber))
        }
    }

    /// Reads the window size from the terminal, resizes curses to it, forces a full repaint on
    /// the next frame and delivers the size.
    func handleResize() {
        var window = winsize()
        let status = withUnsafeMutablePointer(to: &window) { ioctl(ttyDescriptor, UInt(TIOCGWINSZ), $0) }
        if status == 0, window.ws_row > 0, window.ws_col > 0 {
            resize_term(Int32(window.ws_row), Int32(window.ws_col))
        }
        size = currentCursesSize()
        clearok(quarry_curscr(), true)
        needsFullRedraw = true
        handler?(.resize(size))
    }

    /// Ctrl-Z: hands the terminal back to the shell and stops. Resumption is SIGCONT's job.
    private func suspendProcess() {
        guard !isSuspended else { return }
        isSuspended = true
        curs_set(1)
        disableInputModes()
        endwin()  // restores the settings found at start and leaves the alternate screen
        // SIGSTOP cannot be ignored, blocked or caught: the process stops before kill returns.
        kill(getpid(), SIGSTOP)
    }

    /// SIGCONT: takes the terminal back (after Ctrl-Z, or after a stop the backend did not see),
    /// repaints and reports the size, which may have changed meanwhile.
    private func resumeAfterStop() {
        isSuspended = false
        // The shell may have changed the settings while the job was stopped.
        resumeProgramMode()
        enableInputModes()
        curs_set(0)
        handleResize()
        // Keys typed while stopped are waiting; the read source only fires on new input.
        drainInput()
    }
}
