/// The only module that talks to ncurses; the browser issue fills it in.
public enum CursesBackend {}
