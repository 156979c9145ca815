// GNU readline and its history library, for the terminal front end.
// readline.h uses FILE without including stdio.h, so stdio.h comes first.
//
// Readline is configured through C global variables, which Swift 6 treats as unsafe shared
// state. The functions below read and write them; the caller keeps every readline call on one
// thread.
#ifndef PLAYERFORM_CREADLINE_SHIM_H
#define PLAYERFORM_CREADLINE_SHIM_H

#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <readline/readline.h>
#include <readline/history.h>

/// The version of the readline library the program runs with, such as "8.2".
static inline const char *playerform_rl_library_version(void) {
    return rl_library_version;
}

/// Names the program for ~/.inputrc, turns off readline's own signal handlers (SIGWINCH
/// included) and its changes to LINES and COLUMNS, and sets the completion function.
static inline void playerform_rl_configure(const char *name, rl_completion_func_t *completer) {
    rl_readline_name = name;
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_change_environment = 0;
    rl_attempted_completion_function = completer;
}

/// Reads ~/.inputrc, then turns bracketed paste off whatever it says: pasted text then arrives as
/// if typed, so each pasted line is entered on its own, and a line break never becomes part of a
/// line.
static inline void playerform_rl_initialize(void) {
    rl_initialize();
    rl_variable_bind("enable-bracketed-paste", "off");
}

/// The line being edited.
static inline const char *playerform_rl_line_buffer(void) {
    return rl_line_buffer;
}

/// The line being edited: its length, and where the cursor and the mark are in it.
static inline int playerform_rl_end(void) { return rl_end; }
static inline int playerform_rl_point(void) { return rl_point; }
static inline int playerform_rl_mark(void) { return rl_mark; }

/// Makes `redisplay` draw the line being edited instead of readline's own redisplay.
static inline void playerform_rl_set_redisplay(rl_voidfunc_t *redisplay) {
    rl_redisplay_function = redisplay;
}

/// Draws `shown` (NUL-terminated, `length` bytes) as the line being edited, the cursor at byte
/// `point` and the mark at `mark`, with readline's own redisplay; the line being edited is left
/// as it was. For lines whose characters are shown escaped: readline keeps what it drew, so
/// the next drawing compares with the escaped line.
///
/// With `resizing`, the terminal is measured again first (`rl_resize_terminal`). Readline resizes
/// differently when a redisplay function of the program's own is set (it draws the prompt again,
/// on a new line), so its own is set meanwhile.
static inline void playerform_rl_redisplay_shown(char *shown, int length, int point, int mark, int resizing) {
    rl_voidfunc_t *custom = rl_redisplay_function;
    char *line = rl_line_buffer;
    int end = rl_end, cursor = rl_point, marked = rl_mark;
    rl_line_buffer = shown;
    rl_end = length;
    rl_point = point;
    rl_mark = mark;
    if (resizing) {
        rl_redisplay_function = rl_redisplay;
        rl_resize_terminal();
        rl_redisplay_function = custom;
    } else {
        rl_redisplay();
    }
    rl_line_buffer = line;
    rl_end = end;
    rl_point = cursor;
    rl_mark = marked;
}

/// Tells readline not to fall back to completing file names.
static inline void playerform_rl_completion_over(void) {
    rl_attempted_completion_over = 1;
}

/// Whether `line` equals the newest history entry.
static inline int playerform_history_last_equals(const char *line) {
    if (history_length <= 0) return 0;
    HIST_ENTRY *last = history_get(history_base + history_length - 1);
    return last != NULL && last->line != NULL && strcmp(last->line, line) == 0;
}

/// Flushes readline's output stream, so that what readline drew comes before what follows.
static inline void playerform_rl_flush(void) {
    fflush(rl_outstream != NULL ? rl_outstream : stdout);
}

static inline void playerform_rl_keep_prepared(void) {}

/// Keeps the terminal in readline's mode between lines. Otherwise, while a command runs, the
/// terminal is back in canonical mode, and a Ctrl-D typed ahead is taken by the terminal as
/// end-of-file instead of reaching readline as a key.
static inline void playerform_rl_hold_terminal(void) {
    rl_deprep_term_function = playerform_rl_keep_prepared;
}

/// Prepares the terminal again when someone else has put it back in canonical mode, as a shell
/// does when the program is stopped with Ctrl-Z and continued. Returns 1 when it did.
static inline int playerform_rl_reprepare_if_needed(void) {
    struct termios settings;
    int input = fileno(rl_instream != NULL ? rl_instream : stdin);
    if (tcgetattr(input, &settings) != 0 || (settings.c_lflag & ICANON) == 0) return 0;
    rl_deprep_terminal();
    rl_prep_terminal(1);
    return 1;
}

/// Gives the terminal back in the state it had before readline prepared it.
static inline void playerform_rl_release_terminal(void) {
    rl_deprep_term_function = rl_deprep_terminal;
    rl_deprep_terminal();
}

/// Writes `text` (whole lines) above the line being edited: clears the prompt and what is typed,
/// writes the text, then draws the prompt and the typed text again, with the cursor where it was.
static inline void playerform_rl_print_above(const char *text) {
    FILE *out = rl_outstream != NULL ? rl_outstream : stdout;
    rl_clear_visible_line();
    fputs(text, out);
    fflush(out);
    rl_on_new_line();
    rl_forced_update_display();
    fflush(out);
}

#endif
