import CursesBackend
import Foundation
import Quarry
import QuarryBrowser
import QuarryTUI

/// Opens the browser in the real terminal and runs the main-queue UI loop until the user quits.
///
/// The terminal is restored on `q`, on SIGINT/SIGTERM (delivered as events by the backend), and on
/// any error: the error is printed after the screen is restored.
@MainActor
enum BrowserLauncher {
    /// The theme named by `--theme` or `QUARRY_THEME`, and a message when a theme file was
    /// malformed (the default theme is used then). The app adapts it to the terminal's colours.
    /// - Parameter searchDirectories: where to look (``themeSearchDirectories(environment:)``).
    static func theme(named name: String?, environment: [String: String], searchDirectories: [URL]) -> (Theme, String?) {
        let resolution = ThemeLoader.resolve(name: name, environment: environment, searchDirectories: searchDirectories)
        return (resolution.theme, resolution.problem.map { "theme: \($0) (using the default theme)" })
    }

    /// Where `--theme` and `:theme` look for themes: the user's, then the shipped `Themes/`.
    static func themeSearchDirectories(environment: [String: String]) -> [URL] {
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return ThemeLoader.defaultSearchDirectories(environment: environment, executableURL: executable)
    }

    /// Exits with status 2 and a message unless standard input and output are a terminal.
    nonisolated static func requireTerminal() {
        guard CursesTerminal.isInteractive() else {
            FileHandle.standardError.write(Data("quarry: the browser needs a terminal (stdin and stdout must be a tty)\n".utf8))
            exit(2)
        }
    }

    /// Runs the browser on `stack` until the user quits; the terminal is restored when this returns.
    ///
    /// The caller awaits on the main actor, so the main queue keeps running the UI loop, the
    /// smart merge and the controllers' updates in between keystrokes.
    ///
    /// `liveStatus` is the importer's rate for the right of the status line; `liveAlert` is text
    /// the status line must always show (the importer paused on a busy store, or stopped by an
    /// error), before anything else. `observeLiveAlert` is given a function to call, from any
    /// thread, whenever that text changes, so the screen shows it without waiting for a key.
    /// `afterFirstFrame` runs once the first screen is drawn (the demo starts its importer then,
    /// so that the first screen does not share the cores with it).
    static func run(stack: PersistentStack, configuration: BrowserConfiguration, themeName: String?,
                    liveStatus: (@MainActor () -> String?)? = nil, liveAlert: (@MainActor () -> String?)? = nil,
                    observeLiveAlert: ((@escaping @Sendable () -> Void) -> Void)? = nil,
                    afterFirstFrame: (@MainActor () -> Void)? = nil) async {
        requireTerminal()
        let terminal = CursesTerminal(mouse: configuration.usesMouse)
        var configuration = configuration
        // Read once: the environment's dictionary was made four times and the theme folders
        // (the executable's ancestors) searched three times before the first screen.
        let environment = ProcessInfo.processInfo.environment
        if configuration.historyFile == nil { configuration.historyFile = BrowserConfiguration.defaultHistoryFile(environment: environment) }
        let searchDirectories = themeSearchDirectories(environment: environment)
        let (theme, problem) = theme(named: themeName, environment: environment, searchDirectories: searchDirectories)
        configuration.theme = theme
        // `:theme NAME` switches among the same themes `--theme` chooses from.
        configuration.themeSearchDirectories = searchDirectories
        if let problem { configuration.startMessage = problem }
        if let path = environment[FullIndexHold.environmentKey] {
            configuration.fullIndexCancellation = FullIndexHold(fifo: path).cancellation
        }
        do {
            let browser = try Browser(stack: stack, configuration: configuration)
            browser.liveStatus = liveStatus
            browser.liveAlert = liveAlert
            observeLiveAlert? { browser.liveStateDidChange() }
            let app = BrowserApp(browser: browser, backend: terminal)
            browser.copyToClipboard = { [weak terminal] text in terminal?.copyToClipboard(text) }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                app.onQuit = { done.resume() }
                do {
                    try app.start()
                    afterFirstFrame?()
                } catch {
                    app.stop()
                    FileHandle.standardError.write(Data("quarry: \(ConsoleText.escapedLines("\(error)"))\n".utf8))
                    exit(1)
                }
            }
            // Quit by a signal: the terminal is restored; exit as a shell expects (130 for
            // SIGINT, 143 for SIGTERM, 129 for SIGHUP) so scripts can tell.
            if let signal = browser.quitSignal { exit(128 + signal) }
        } catch {
            terminal.stop()
            FileHandle.standardError.write(Data("quarry: \(ConsoleText.escapedLines("\(error)"))\n".utf8))
            exit(1)
        }
    }
}
