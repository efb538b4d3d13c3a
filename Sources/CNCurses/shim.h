// ncursesw with the wide-character API (get_wch, setcchar, wadd_wch).
//
// Swift cannot import function-like macros (COLOR_PAIR, A_BOLD, getmaxyx) and flags ncurses'
// mutable globals (stdscr, COLORS) as concurrency-unsafe, so the few the backend needs are
// wrapped here as small inline functions. Only CursesBackend calls them, on the main queue.
#ifndef QUARRY_CNCURSES_SHIM_H
#define QUARRY_CNCURSES_SHIM_H
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <stddef.h>
#include <wchar.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>

// glibc declares wcwidth only under _XOPEN_SOURCE, which the Swift Glibc module does not set.
extern int wcwidth(wchar_t c);

/// The standard screen of the current terminal.
static inline WINDOW *quarry_stdscr(void) { return stdscr; }
/// The current screen's "current screen" window (for clearok).
static inline WINDOW *quarry_curscr(void) { return curscr; }
/// Rows of a window.
static inline int quarry_getmaxy(WINDOW *window) { return getmaxy(window); }
/// Columns of a window.
static inline int quarry_getmaxx(WINDOW *window) { return getmaxx(window); }
/// Colours the terminal supports (valid after start_color).
static inline int quarry_colors(void) { return COLORS; }
/// Colour pairs the terminal supports (valid after start_color).
static inline int quarry_color_pairs(void) { return COLOR_PAIRS; }

static inline attr_t quarry_attr_normal(void) { return A_NORMAL; }
static inline attr_t quarry_attr_bold(void) { return A_BOLD; }
static inline attr_t quarry_attr_dim(void) { return A_DIM; }
static inline attr_t quarry_attr_italic(void) { return A_ITALIC; }
static inline attr_t quarry_attr_underline(void) { return A_UNDERLINE; }
static inline attr_t quarry_attr_reverse(void) { return A_REVERSE; }

/// Fills `cell` with the null-terminated `text` in `attributes` and colour pair `pair`,
/// passing the pair through setcchar's `opts` so pairs above 32767 work (extended colours).
static inline int quarry_setcchar(cchar_t *cell, const wchar_t *text, attr_t attributes, int pair) {
    return setcchar(cell, text, attributes, 0, &pair);
}

/// A terminfo string capability with one numeric parameter (`setaf`), expanded; tiparm is
/// variadic, which Swift cannot call.
static inline const char *quarry_tiparm1(const char *capability, int first) {
    const char *result = tiparm(capability, first);
    return result ? result : "";
}

/// A terminfo string capability with two numeric parameters (`cup`), expanded.
static inline const char *quarry_tiparm2(const char *capability, int first, int second) {
    const char *result = tiparm(capability, first, second);
    return result ? result : "";
}

/// Display width the C library (and so ncurses) gives `c`: -1 unprintable, 0 combining, 1 or 2.
static inline int quarry_wcwidth(wchar_t c) { return wcwidth(c); }

#endif
