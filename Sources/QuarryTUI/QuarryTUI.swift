/// The pure terminal-UI kit: cell buffers, layout, themes and widgets.
///
/// It imports neither the engine nor curses; the browser issue fills it in.
public enum QuarryTUI {}
