import CNCurses

/// The only module that talks to ncurses; the browser issue fills it in.
public enum CursesBackend {
    /// The ncurses version string, proving the system library links.
    public static var cursesVersion: String { String(cString: curses_version()) }
}
