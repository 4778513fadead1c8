// The app's files on the simulated device: the path-taking C library calls, interposed as
// `clock_gettime` is (VirtualClock.c). On a thread that runs a simulated process (its virtual
// process is set), a path under /var/mobile (the app's container, its app groups and their
// parents) is handed to the Swift side, `lifeline_files_route`, which answers the private
// folder that holds the device's files, or refuses the call as iOS would (data protection,
// EPERM). Reading the system's own files (/usr, /etc, /proc, …: zoneinfo, locale) stays
// allowed; any other path (the real home folder, /tmp, a relative path) is refused with EACCES
// and reported as an escape. On every other thread every call goes to the C library's own.
//
// A file opened for writing in the container is remembered by its descriptor, so that its
// `close` (and each rename and removal) tells the Swift side the file changed
// (`lifeline_files_changed`): the world keeps what the files hold as the app's store rows.
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "CVirtualClock.h"
#include "VirtualFiles.h"

/// Reported by the escape detector when it is linked in (Escapes.c); NULL otherwise.
extern void lifeline_vc_report_escape(const char *call, const char *supported_form)
    __attribute__((weak));
/// The Swift side (LifelineKit), when linked in: see VirtualFiles.h.
extern int lifeline_files_route(const char *path, int access, char *out, size_t out_size)
    __attribute__((weak));
extern void lifeline_files_changed(int change, const char *path, const char *other)
    __attribute__((weak));

/// True while this thread runs Lifeline's own file code (the Swift side's hooks, the
/// container's setup and removal): calls then go to the C library untouched.
static __thread int in_lifeline __attribute__((tls_model("initial-exec")));
static __thread int64_t escapes __attribute__((tls_model("initial-exec")));
static int stop_on_escape = 1;
/// The real folder that holds every simulated device's files (the private side): a path in it
/// is one the C library made from a device path (`fts`'s), and passes.
static char *private_base;

void lifeline_vf_set_private_base(const char *path) {
    char *copy = strdup(path);
    char *previous = __atomic_exchange_n(&private_base, copy, __ATOMIC_ACQ_REL);
    (void)previous;  // kept: another thread may be reading it
}

void lifeline_vf_enter_own(void) { in_lifeline += 1; }
void lifeline_vf_leave_own(void) { in_lifeline -= 1; }
int64_t lifeline_vf_escape_count(void) { return escapes; }
void lifeline_vf_set_stop_on_escape(int stop) {
    __atomic_store_n(&stop_on_escape, stop, __ATOMIC_RELEASE);
}

#define REAL(name) real_##name()
#define DEFINE_REAL(ret, name, params)                                                         \
    typedef ret(*name##_fn) params;                                                            \
    static name##_fn real_##name##_ptr;                                                        \
    static name##_fn real_##name(void) {                                                       \
        name##_fn found = __atomic_load_n(&real_##name##_ptr, __ATOMIC_ACQUIRE);               \
        if (found == NULL) {                                                                   \
            found = (name##_fn)dlsym(RTLD_NEXT, #name);                                        \
            __atomic_store_n(&real_##name##_ptr, found, __ATOMIC_RELEASE);                     \
        }                                                                                      \
        return found;                                                                          \
    }

/// The system's own files, which Foundation reads on any thread (time zones, locales, the
/// toolchain's resources, /proc/self): readable from a simulated process, never writable.
static const char *const system_prefixes[] = {
    "/usr/", "/etc/", "/proc/", "/sys/", "/dev/", "/lib/", "/lib64/", "/opt/", "/run/", NULL};

static int has_prefix(const char *path, const char *prefix) {
    return strncmp(path, prefix, strlen(prefix)) == 0;
}

static int is_device_path(const char *path) {
    return strcmp(path, "/var") == 0 || strcmp(path, "/var/mobile") == 0
           || has_prefix(path, "/var/mobile/");
}

static int is_system_path(const char *path) {
    if (strcmp(path, "/") == 0) return 1;
    for (int index = 0; system_prefixes[index] != NULL; index++) {
        if (has_prefix(path, system_prefixes[index])) return 1;
    }
    return 0;
}

static __thread int reporting __attribute__((tls_model("initial-exec")));

static void report_escape(const char *call, const char *path) {
    escapes += 1;
    // A call made while reporting (the runtime's crash handler reading /proc) is not reported
    // again.
    if (reporting) return;
    reporting = 1;
    static const char *const supported =
        "the app's container: FileManager.default.urls(for:in:), NSHomeDirectory(), "
        "NSTemporaryDirectory() and containerURL(forSecurityApplicationGroupIdentifier:) "
        "(docs/files.md)";
    if (lifeline_vc_report_escape != NULL) {
        char described[512];
        snprintf(described, sizeof described, "%s(\"%s\")", call, path);
        lifeline_vc_report_escape(described, supported);
        reporting = 0;
        return;
    }
    fprintf(
        stderr,
        "lifeline: a simulated process called %s(\"%s\"), a file outside the simulated "
        "device; supported: %s\n",
        call, path, supported);
    if (__atomic_load_n(&stop_on_escape, __ATOMIC_ACQUIRE)) abort();
    reporting = 0;
}

/// Where a call on `path` goes: 1 and `mapped` set (the path to use, the same or the
/// container's private one), or 0 with errno set (refused).
static int route(const char *call, const char *path, int access, char *mapped, size_t size) {
    if (path == NULL || in_lifeline || lifeline_vc_current_process() == NULL) {
        if (path != NULL) snprintf(mapped, size, "%s", path);
        return 1;
    }
    const char *base = __atomic_load_n(&private_base, __ATOMIC_ACQUIRE);
    if (base != NULL && has_prefix(path, base)) {
        snprintf(mapped, size, "%s", path);
        return 1;
    }
    if (is_device_path(path) && lifeline_files_route != NULL) {
        in_lifeline += 1;
        int answer = lifeline_files_route(path, access, mapped, size);
        in_lifeline -= 1;
        if (answer == 0) return 1;
        if (answer > 0) {
            errno = answer;
            return 0;
        }
    } else if (path[0] == '/' && access <= LIFELINE_FILES_READ_CONTENTS && is_system_path(path)) {
        snprintf(mapped, size, "%s", path);
        return 1;
    } else if (access == LIFELINE_FILES_READ) {
        // A look at a path outside the device (`URL(fileURLWithPath:)` stats the path it is
        // given): nothing is there, as the sandbox shows an app, the same in every run.
        errno = ENOENT;
        return 0;
    }
    report_escape(call, path);
    errno = EACCES;
    return 0;
}

/// Like `route`, for a call relative to a directory descriptor: a relative path under a
/// descriptor other than the working directory's is the descriptor's business (it was opened
/// through `route`).
static int route_at(
    const char *call, int dirfd, const char *path, int access, char *mapped, size_t size) {
    if (path != NULL && path[0] != '/' && dirfd != AT_FDCWD) {
        snprintf(mapped, size, "%s", path);
        return 1;
    }
    return route(call, path, access, mapped, size);
}

static int open_access(int flags) {
    if ((flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC)) != 0) {
        return LIFELINE_FILES_WRITE;
    }
    return LIFELINE_FILES_READ_CONTENTS;
}

// MARK: - Descriptors open for writing in the container

#define TRACKED_FD_MAX 4096
static char *written_paths[TRACKED_FD_MAX];

static int is_container_write(const char *path, int flags) {
    return !in_lifeline && lifeline_files_changed != NULL && lifeline_vc_current_process() != NULL
           && open_access(flags) == LIFELINE_FILES_WRITE && has_prefix(path, "/var/mobile/");
}

static void track(int fd, const char *path) {
    if (fd < 0 || fd >= TRACKED_FD_MAX) return;
    char *copy = strdup(path);
    char *previous = __atomic_exchange_n(&written_paths[fd], copy, __ATOMIC_ACQ_REL);
    free(previous);
}

/// A path whose changes the Swift side follows: a device path, or a private one (`fts`'s).
static int is_followed(const char *path) {
    const char *base = __atomic_load_n(&private_base, __ATOMIC_ACQUIRE);
    return has_prefix(path, "/var/mobile/") || (base != NULL && has_prefix(path, base));
}

static void notify(int change, const char *path, const char *other) {
    if (lifeline_files_changed == NULL || lifeline_vc_current_process() == NULL) return;
    in_lifeline += 1;
    lifeline_files_changed(change, path, other);
    in_lifeline -= 1;
}

DEFINE_REAL(int, close, (int))
int close(int fd) {
    char *path = NULL;
    if (fd >= 0 && fd < TRACKED_FD_MAX
        && __atomic_load_n(&written_paths[fd], __ATOMIC_ACQUIRE) != NULL) {
        path = __atomic_exchange_n(&written_paths[fd], NULL, __ATOMIC_ACQ_REL);
    }
    int result = REAL(close)(fd);
    if (path != NULL) {
        notify(LIFELINE_FILES_WRITTEN, path, NULL);
        free(path);
    }
    return result;
}

// MARK: - Opening

#define PATH_BUFFER 4096

static mode_t mode_argument(int flags, va_list arguments) {
    if ((flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE) {
        return (mode_t)va_arg(arguments, int);
    }
    return 0;
}

#define DEFINE_OPEN(name)                                                                      \
    DEFINE_REAL(int, name, (const char *, int, ...))                                           \
    int name(const char *path, int flags, ...) {                                               \
        va_list arguments;                                                                     \
        va_start(arguments, flags);                                                            \
        mode_t mode = mode_argument(flags, arguments);                                         \
        va_end(arguments);                                                                     \
        char mapped[PATH_BUFFER];                                                              \
        if (!route(#name, path, open_access(flags), mapped, sizeof mapped)) return -1;         \
        int fd = REAL(name)(mapped, flags, mode);                                              \
        if (fd >= 0 && is_container_write(path, flags)) track(fd, path);                       \
        return fd;                                                                             \
    }
DEFINE_OPEN(open)
DEFINE_OPEN(open64)

#define DEFINE_OPENAT(name)                                                                    \
    DEFINE_REAL(int, name, (int, const char *, int, ...))                                      \
    int name(int dirfd, const char *path, int flags, ...) {                                    \
        va_list arguments;                                                                     \
        va_start(arguments, flags);                                                            \
        mode_t mode = mode_argument(flags, arguments);                                         \
        va_end(arguments);                                                                     \
        char mapped[PATH_BUFFER];                                                              \
        if (!route_at(#name, dirfd, path, open_access(flags), mapped, sizeof mapped)) {        \
            return -1;                                                                         \
        }                                                                                      \
        int fd = REAL(name)(dirfd, mapped, flags, mode);                                       \
        if (fd >= 0 && path[0] == '/' && is_container_write(path, flags)) track(fd, path);     \
        return fd;                                                                             \
    }
DEFINE_OPENAT(openat)
DEFINE_OPENAT(openat64)

#define DEFINE_OPEN_2(name)                                                                    \
    DEFINE_REAL(int, name, (const char *, int))                                                \
    int name(const char *path, int flags) {                                                    \
        char mapped[PATH_BUFFER];                                                              \
        if (!route(#name, path, open_access(flags), mapped, sizeof mapped)) return -1;         \
        int fd = REAL(name)(mapped, flags);                                                    \
        if (fd >= 0 && is_container_write(path, flags)) track(fd, path);                       \
        return fd;                                                                             \
    }
DEFINE_OPEN_2(__open_2)
DEFINE_OPEN_2(__open64_2)

#define DEFINE_CREAT(name)                                                                     \
    DEFINE_REAL(int, name, (const char *, mode_t))                                             \
    int name(const char *path, mode_t mode) {                                                  \
        char mapped[PATH_BUFFER];                                                              \
        if (!route(#name, path, LIFELINE_FILES_WRITE, mapped, sizeof mapped)) return -1;       \
        int fd = REAL(name)(mapped, mode);                                                     \
        if (fd >= 0 && is_container_write(path, O_WRONLY)) track(fd, path);                    \
        return fd;                                                                             \
    }
DEFINE_CREAT(creat)
DEFINE_CREAT(creat64)

static int fopen_access(const char *mode) {
    return (mode != NULL && mode[0] == 'r' && strchr(mode, '+') == NULL)
               ? LIFELINE_FILES_READ_CONTENTS
               : LIFELINE_FILES_WRITE;
}

#define DEFINE_FOPEN(name)                                                                     \
    DEFINE_REAL(FILE *, name, (const char *, const char *))                                    \
    FILE *name(const char *path, const char *mode) {                                           \
        char mapped[PATH_BUFFER];                                                              \
        if (!route(#name, path, fopen_access(mode), mapped, sizeof mapped)) return NULL;       \
        return REAL(name)(mapped, mode);                                                       \
    }
DEFINE_FOPEN(fopen)
DEFINE_FOPEN(fopen64)

DEFINE_REAL(DIR *, opendir, (const char *))
DIR *opendir(const char *path) {
    char mapped[PATH_BUFFER];
    if (!route("opendir", path, LIFELINE_FILES_READ, mapped, sizeof mapped)) return NULL;
    return REAL(opendir)(mapped);
}

// MARK: - Metadata

#define DEFINE_PATH_CALL(ret, name, access, params, args, ...)                                \
    DEFINE_REAL(ret, name, params)                                                             \
    ret name(const char *path, ##__VA_ARGS__) {                                                \
        char mapped[PATH_BUFFER];                                                              \
        if (!route(#name, path, access, mapped, sizeof mapped)) return -1;                     \
        return REAL(name) args;                                                                \
    }

DEFINE_PATH_CALL(int, stat, LIFELINE_FILES_READ, (const char *, struct stat *),
                 (mapped, buffer), struct stat *buffer)
DEFINE_PATH_CALL(int, lstat, LIFELINE_FILES_READ, (const char *, struct stat *),
                 (mapped, buffer), struct stat *buffer)
DEFINE_PATH_CALL(int, stat64, LIFELINE_FILES_READ, (const char *, struct stat64 *),
                 (mapped, buffer), struct stat64 *buffer)
DEFINE_PATH_CALL(int, lstat64, LIFELINE_FILES_READ, (const char *, struct stat64 *),
                 (mapped, buffer), struct stat64 *buffer)
DEFINE_PATH_CALL(int, access, LIFELINE_FILES_READ, (const char *, int), (mapped, mode),
                 int mode)
DEFINE_PATH_CALL(int, statvfs, LIFELINE_FILES_READ, (const char *, struct statvfs *),
                 (mapped, buffer), struct statvfs *buffer)
DEFINE_PATH_CALL(int, statvfs64, LIFELINE_FILES_READ, (const char *, struct statvfs64 *),
                 (mapped, buffer), struct statvfs64 *buffer)
DEFINE_PATH_CALL(int, statfs, LIFELINE_FILES_READ, (const char *, struct statfs *),
                 (mapped, buffer), struct statfs *buffer)
DEFINE_PATH_CALL(int, statfs64, LIFELINE_FILES_READ, (const char *, struct statfs64 *),
                 (mapped, buffer), struct statfs64 *buffer)
DEFINE_PATH_CALL(ssize_t, readlink, LIFELINE_FILES_READ, (const char *, char *, size_t),
                 (mapped, buffer, size), char *buffer, size_t size)
DEFINE_PATH_CALL(ssize_t, getxattr, LIFELINE_FILES_READ,
                 (const char *, const char *, void *, size_t), (mapped, name, value, size),
                 const char *name, void *value, size_t size)
DEFINE_PATH_CALL(ssize_t, lgetxattr, LIFELINE_FILES_READ,
                 (const char *, const char *, void *, size_t), (mapped, name, value, size),
                 const char *name, void *value, size_t size)
DEFINE_PATH_CALL(ssize_t, listxattr, LIFELINE_FILES_READ, (const char *, char *, size_t),
                 (mapped, list, size), char *list, size_t size)
DEFINE_PATH_CALL(ssize_t, llistxattr, LIFELINE_FILES_READ, (const char *, char *, size_t),
                 (mapped, list, size), char *list, size_t size)

#define DEFINE_AT_CALL(ret, name, access, params, args, ...)                                  \
    DEFINE_REAL(ret, name, params)                                                             \
    ret name(int dirfd, const char *path, ##__VA_ARGS__) {                                     \
        char mapped[PATH_BUFFER];                                                              \
        if (!route_at(#name, dirfd, path, access, mapped, sizeof mapped)) return -1;           \
        return REAL(name) args;                                                                \
    }

DEFINE_AT_CALL(int, fstatat, LIFELINE_FILES_READ, (int, const char *, struct stat *, int),
               (dirfd, mapped, buffer, flags), struct stat *buffer, int flags)
DEFINE_AT_CALL(int, fstatat64, LIFELINE_FILES_READ, (int, const char *, struct stat64 *, int),
               (dirfd, mapped, buffer, flags), struct stat64 *buffer, int flags)
DEFINE_AT_CALL(int, statx, LIFELINE_FILES_READ,
               (int, const char *, int, unsigned int, struct statx *),
               (dirfd, mapped, flags, mask, buffer), int flags, unsigned int mask,
               struct statx *buffer)
DEFINE_AT_CALL(int, faccessat, LIFELINE_FILES_READ, (int, const char *, int, int),
               (dirfd, mapped, mode, flags), int mode, int flags)
DEFINE_AT_CALL(ssize_t, readlinkat, LIFELINE_FILES_READ, (int, const char *, char *, size_t),
               (dirfd, mapped, buffer, size), char *buffer, size_t size)

// MARK: - Changes to the file system

DEFINE_PATH_CALL(int, mkdir, LIFELINE_FILES_CHANGE, (const char *, mode_t), (mapped, mode),
                 mode_t mode)
DEFINE_PATH_CALL(int, rmdir, LIFELINE_FILES_CHANGE, (const char *), (mapped))
DEFINE_PATH_CALL(int, chmod, LIFELINE_FILES_CHANGE, (const char *, mode_t), (mapped, mode),
                 mode_t mode)
DEFINE_PATH_CALL(int, chown, LIFELINE_FILES_CHANGE, (const char *, uid_t, gid_t),
                 (mapped, owner, group), uid_t owner, gid_t group)
DEFINE_PATH_CALL(int, lchown, LIFELINE_FILES_CHANGE, (const char *, uid_t, gid_t),
                 (mapped, owner, group), uid_t owner, gid_t group)
DEFINE_PATH_CALL(int, utimes, LIFELINE_FILES_CHANGE, (const char *, const struct timeval *),
                 (mapped, times), const struct timeval *times)
DEFINE_PATH_CALL(int, truncate, LIFELINE_FILES_WRITE, (const char *, off_t), (mapped, length),
                 off_t length)
DEFINE_PATH_CALL(int, truncate64, LIFELINE_FILES_WRITE, (const char *, off64_t),
                 (mapped, length), off64_t length)
DEFINE_PATH_CALL(int, setxattr, LIFELINE_FILES_CHANGE,
                 (const char *, const char *, const void *, size_t, int),
                 (mapped, name, value, size, flags), const char *name, const void *value,
                 size_t size, int flags)
DEFINE_PATH_CALL(int, lsetxattr, LIFELINE_FILES_CHANGE,
                 (const char *, const char *, const void *, size_t, int),
                 (mapped, name, value, size, flags), const char *name, const void *value,
                 size_t size, int flags)
DEFINE_PATH_CALL(int, removexattr, LIFELINE_FILES_CHANGE, (const char *, const char *),
                 (mapped, name), const char *name)
DEFINE_AT_CALL(int, mkdirat, LIFELINE_FILES_CHANGE, (int, const char *, mode_t),
               (dirfd, mapped, mode), mode_t mode)
DEFINE_AT_CALL(int, fchmodat, LIFELINE_FILES_CHANGE, (int, const char *, mode_t, int),
               (dirfd, mapped, mode, flags), mode_t mode, int flags)
DEFINE_AT_CALL(int, fchownat, LIFELINE_FILES_CHANGE, (int, const char *, uid_t, gid_t, int),
               (dirfd, mapped, owner, group, flags), uid_t owner, gid_t group, int flags)
DEFINE_AT_CALL(int, utimensat, LIFELINE_FILES_CHANGE,
               (int, const char *, const struct timespec *, int),
               (dirfd, mapped, times, flags), const struct timespec *times, int flags)

DEFINE_REAL(int, unlink, (const char *))
int unlink(const char *path) {
    char mapped[PATH_BUFFER];
    if (!route("unlink", path, LIFELINE_FILES_CHANGE, mapped, sizeof mapped)) return -1;
    int result = REAL(unlink)(mapped);
    if (result == 0 && is_followed(path)) notify(LIFELINE_FILES_REMOVED, path, NULL);
    return result;
}

DEFINE_REAL(int, unlinkat, (int, const char *, int))
int unlinkat(int dirfd, const char *path, int flags) {
    char mapped[PATH_BUFFER];
    if (!route_at("unlinkat", dirfd, path, LIFELINE_FILES_CHANGE, mapped, sizeof mapped)) {
        return -1;
    }
    int result = REAL(unlinkat)(dirfd, mapped, flags);
    if (result == 0 && is_followed(path)) notify(LIFELINE_FILES_REMOVED, path, NULL);
    return result;
}

static void notify_rename(int result, const char *from, const char *to) {
    if (result == 0 && (is_followed(from) || is_followed(to))) {
        notify(LIFELINE_FILES_RENAMED, from, to);
    }
}

DEFINE_REAL(int, rename, (const char *, const char *))
int rename(const char *from, const char *to) {
    char mapped_from[PATH_BUFFER], mapped_to[PATH_BUFFER];
    if (!route("rename", from, LIFELINE_FILES_CHANGE, mapped_from, sizeof mapped_from)
        || !route("rename", to, LIFELINE_FILES_CHANGE, mapped_to, sizeof mapped_to)) {
        return -1;
    }
    int result = REAL(rename)(mapped_from, mapped_to);
    notify_rename(result, from, to);
    return result;
}

DEFINE_REAL(int, renameat, (int, const char *, int, const char *))
int renameat(int from_dir, const char *from, int to_dir, const char *to) {
    char mapped_from[PATH_BUFFER], mapped_to[PATH_BUFFER];
    if (!route_at("renameat", from_dir, from, LIFELINE_FILES_CHANGE, mapped_from,
                  sizeof mapped_from)
        || !route_at("renameat", to_dir, to, LIFELINE_FILES_CHANGE, mapped_to, sizeof mapped_to)) {
        return -1;
    }
    int result = REAL(renameat)(from_dir, mapped_from, to_dir, mapped_to);
    notify_rename(result, from, to);
    return result;
}

DEFINE_REAL(int, renameat2, (int, const char *, int, const char *, unsigned int))
int renameat2(int from_dir, const char *from, int to_dir, const char *to, unsigned int flags) {
    char mapped_from[PATH_BUFFER], mapped_to[PATH_BUFFER];
    if (!route_at("renameat2", from_dir, from, LIFELINE_FILES_CHANGE, mapped_from,
                  sizeof mapped_from)
        || !route_at("renameat2", to_dir, to, LIFELINE_FILES_CHANGE, mapped_to,
                     sizeof mapped_to)) {
        return -1;
    }
    int result = REAL(renameat2)(from_dir, mapped_from, to_dir, mapped_to, flags);
    notify_rename(result, from, to);
    return result;
}

#define DEFINE_TWO_PATHS(name)                                                                 \
    DEFINE_REAL(int, name, (const char *, const char *))                                       \
    int name(const char *from, const char *to) {                                               \
        char mapped_from[PATH_BUFFER], mapped_to[PATH_BUFFER];                                 \
        if (!route(#name, from, LIFELINE_FILES_CHANGE, mapped_from, sizeof mapped_from)        \
            || !route(#name, to, LIFELINE_FILES_CHANGE, mapped_to, sizeof mapped_to)) {        \
            return -1;                                                                         \
        }                                                                                      \
        return REAL(name)(mapped_from, mapped_to);                                             \
    }
DEFINE_TWO_PATHS(link)
DEFINE_TWO_PATHS(symlink)

// MARK: - Walks

/// `fts_open`, which Foundation walks a folder with (removing, copying, enumerating): each
/// root's private path. The entries it returns carry private paths, which pass (`private_base`).
DEFINE_REAL(FTS *, fts_open, (char *const *, int, int (*)(const FTSENT **, const FTSENT **)))
FTS *fts_open(
    char *const *paths, int options, int (*compare)(const FTSENT **, const FTSENT **)) {
    if (paths == NULL || in_lifeline || lifeline_vc_current_process() == NULL) {
        return REAL(fts_open)(paths, options, compare);
    }
    size_t count = 0;
    while (paths[count] != NULL) count++;
    char **mapped = calloc(count + 1, sizeof(char *));
    if (mapped == NULL) return NULL;
    FTS *result = NULL;
    size_t made = 0;
    for (; made < count; made++) {
        char buffer[PATH_BUFFER];
        if (!route("fts_open", paths[made], LIFELINE_FILES_READ, buffer, sizeof buffer)) break;
        mapped[made] = strdup(buffer);
    }
    if (made == count) result = REAL(fts_open)(mapped, options, compare);
    int saved = errno;
    for (size_t index = 0; index < made; index++) free(mapped[index]);
    free(mapped);
    errno = saved;
    return result;
}

// MARK: - Paths the C library makes

/// `realpath`: the container's private path is never shown to the app; the answer for a path
/// of the device is the path asked, made absolute by the C library on the private side.
DEFINE_REAL(char *, realpath, (const char *, char *))
char *realpath(const char *path, char *resolved) {
    char mapped[PATH_BUFFER];
    if (!route("realpath", path, LIFELINE_FILES_READ, mapped, sizeof mapped)) return NULL;
    if (path == NULL || strcmp(mapped, path) == 0 || !is_device_path(path)) {
        return REAL(realpath)(mapped, resolved);
    }
    // Checked for existence on the private side, answered on the device's.
    char *checked = REAL(realpath)(mapped, NULL);
    if (checked == NULL) return NULL;
    free(checked);
    if (resolved == NULL) return strdup(path);
    snprintf(resolved, PATH_MAX, "%s", path);
    return resolved;
}

/// `mkstemp` and its kin fill in `template`'s trailing X's: made on the private side, the
/// name copied back into the device's path.
static int make_temporary(
    const char *call, char *template, int suffix_length, int flags,
    int (*make)(char *, int, int)) {
    char mapped[PATH_BUFFER];
    if (!route(call, template, LIFELINE_FILES_WRITE, mapped, sizeof mapped)) return -1;
    int fd = make(mapped, suffix_length, flags);
    if (fd < 0) return fd;
    size_t template_length = strlen(template), mapped_length = strlen(mapped);
    size_t name_length = 6 + (size_t)suffix_length;
    if (template_length >= name_length && mapped_length >= name_length) {
        memcpy(template + template_length - name_length, mapped + mapped_length - name_length,
               6);
    }
    if (is_container_write(template, O_WRONLY)) track(fd, template);
    return fd;
}

DEFINE_REAL(int, mkostemps, (char *, int, int))
static int make_mkostemps(char *path, int suffix_length, int flags) {
    return REAL(mkostemps)(path, suffix_length, flags);
}
int mkstemp(char *template) { return make_temporary("mkstemp", template, 0, 0, make_mkostemps); }
int mkstemp64(char *template) {
    return make_temporary("mkstemp64", template, 0, 0, make_mkostemps);
}
int mkostemp(char *template, int flags) {
    return make_temporary("mkostemp", template, 0, flags, make_mkostemps);
}
int mkostemp64(char *template, int flags) {
    return make_temporary("mkostemp64", template, 0, flags, make_mkostemps);
}
int mkstemps(char *template, int suffix_length) {
    return make_temporary("mkstemps", template, suffix_length, 0, make_mkostemps);
}
int mkostemps(char *template, int suffix_length, int flags) {
    return make_temporary("mkostemps", template, suffix_length, flags, make_mkostemps);
}

DEFINE_REAL(char *, mkdtemp, (char *))
char *mkdtemp(char *template) {
    char mapped[PATH_BUFFER];
    if (!route("mkdtemp", template, LIFELINE_FILES_CHANGE, mapped, sizeof mapped)) return NULL;
    if (REAL(mkdtemp)(mapped) == NULL) return NULL;
    size_t template_length = strlen(template), mapped_length = strlen(mapped);
    if (template_length >= 6 && mapped_length >= 6) {
        memcpy(template + template_length - 6, mapped + mapped_length - 6, 6);
    }
    return template;
}

DEFINE_REAL(int, chdir, (const char *))
int chdir(const char *path) {
    // A simulated process has no working directory of its own: changing the real process's
    // would move every other simulation's relative paths.
    if (!in_lifeline && lifeline_vc_current_process() != NULL) {
        report_escape("chdir", path);
        errno = EACCES;
        return -1;
    }
    return REAL(chdir)(path);
}
