// The C half of the simulated device's files (VirtualFiles.c): the path-taking C library calls
// interposed on simulation threads, and the Swift side they ask. Not for direct use: see
// LifelineKit's `FileManager` and docs/files.md.
#ifndef LIFELINE_VIRTUALFILES_H
#define LIFELINE_VIRTUALFILES_H
#include <stddef.h>
#include <stdint.h>

/// What a call does with a path, for `lifeline_files_route`: looks at its metadata (stat, a
/// directory listing), reads its contents, writes its contents (or creates it), or changes
/// the file system's names (mkdir, rename, unlink).
enum {
    LIFELINE_FILES_READ = 0,
    LIFELINE_FILES_READ_CONTENTS = 1,
    LIFELINE_FILES_WRITE = 2,
    LIFELINE_FILES_CHANGE = 3,
};

/// What `lifeline_files_changed` is told: a file opened for writing was closed, a file was
/// removed, a file was renamed (`other` is the new path).
enum {
    LIFELINE_FILES_WRITTEN = 1,
    LIFELINE_FILES_REMOVED = 2,
    LIFELINE_FILES_RENAMED = 3,
};

/// This thread runs Lifeline's own file code from here to `lifeline_vf_leave_own`: its calls
/// go to the C library untouched (nests).
void lifeline_vf_enter_own(void);
void lifeline_vf_leave_own(void);
/// The real folder under which every device's private folder is made: paths in it pass.
void lifeline_vf_set_private_base(const char *path);
/// Escapes refused on this thread (for tests).
int64_t lifeline_vf_escape_count(void);
/// 0: an escape is refused and reported without stopping the process (tests); 1 (the default)
/// stops it when no escape detector is linked in.
void lifeline_vf_set_stop_on_escape(int stop);

#endif
