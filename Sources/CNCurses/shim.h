// ncursesw with the wide-character API (get_wch, setcchar, wadd_wch).
#ifndef QUARRY_CNCURSES_SHIM_H
#define QUARRY_CNCURSES_SHIM_H
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <ncursesw/curses.h>
#endif
