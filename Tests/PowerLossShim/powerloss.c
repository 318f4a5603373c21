// An LD_PRELOAD shim for the power-loss tests (Tests/EventLogTests/PowerLossTests.swift).
//
// It models what a power failure leaves of each file of POWERLOSS_FILES (paths separated by ':',
// e.g. the log's data.mdb, and the write-ahead mode's wal and checkpoint): beside each, <file>.durable holds only what was made durable, that is every write followed by an
// fsync or fdatasync of the file, and every write through a descriptor opened with O_SYNC or
// O_DSYNC (LMDB writes its meta page so). Other writes are held in memory until the next sync
// and are lost with the process, as the page cache is lost with the power. The process itself
// sees every write, as it would before the failure.
//
// Those unsynced writes are also listed, in order, in <file>.pending (offset and length as two
// little-endian 64-bit integers, then the bytes), so the test can let any subset of them survive
// too, as a disk may have written some of its cache before the power went.
//
// Built by the test with the toolchain's clang; not part of the product.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define TRACKED_DESCRIPTORS_MAX 4096
#define TARGETS_MAX 4

struct pending_write {
    off_t offset;
    size_t length;
    unsigned char *bytes;
};

// One modelled file: its durable copy, its journal of unsynced writes, and those writes.
struct target {
    char path[PATH_MAX];
    int durable_fd;
    int journal_fd;
    off_t journal_end;
    struct pending_write *pending;
    size_t pending_count, pending_capacity;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct target targets[TARGETS_MAX];
static int target_count;
// Per descriptor: 0 when not a target; else the target's index + 1, plus SYNC_FLAG when opened
// with O_SYNC or O_DSYNC.
#define SYNC_FLAG 0x80
static unsigned char tracked[TRACKED_DESCRIPTORS_MAX];

static int (*real_open)(const char *, int, ...);
static int (*real_open64)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off_t);
static ssize_t (*real_pwritev)(int, const struct iovec *, int, off_t);
static ssize_t (*real_pwritev64)(int, const struct iovec *, int, off_t);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_writev)(int, const struct iovec *, int);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_close)(int);
static int (*real_ftruncate)(int, off_t);
static int (*real_ftruncate64)(int, off_t);

__attribute__((constructor)) static void setup(void) {
    real_open = dlsym(RTLD_NEXT, "open");
    real_open64 = dlsym(RTLD_NEXT, "open64");
    real_openat = dlsym(RTLD_NEXT, "openat");
    real_pwrite = dlsym(RTLD_NEXT, "pwrite");
    real_pwrite64 = dlsym(RTLD_NEXT, "pwrite64");
    real_pwritev = dlsym(RTLD_NEXT, "pwritev");
    real_pwritev64 = dlsym(RTLD_NEXT, "pwritev64");
    real_write = dlsym(RTLD_NEXT, "write");
    real_writev = dlsym(RTLD_NEXT, "writev");
    real_fsync = dlsym(RTLD_NEXT, "fsync");
    real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
    real_close = dlsym(RTLD_NEXT, "close");
    real_ftruncate = dlsym(RTLD_NEXT, "ftruncate");
    real_ftruncate64 = dlsym(RTLD_NEXT, "ftruncate64");
    const char *files = getenv("POWERLOSS_FILES");
    while (files && *files && target_count < TARGETS_MAX) {
        const char *end = strchr(files, ':');
        size_t length = end ? (size_t)(end - files) : strlen(files);
        if (length > 0 && length < PATH_MAX - 16) {
            struct target *t = &targets[target_count++];
            memcpy(t->path, files, length);
            t->path[length] = 0;
            t->durable_fd = t->journal_fd = -1;
        }
        files = end ? end + 1 : NULL;
    }
}

static void write_all(int fd, const void *bytes, size_t length, off_t offset) {
    size_t done = 0;
    while (done < length) {
        ssize_t written = real_pwrite(fd, (const unsigned char *)bytes + done, length - done, offset + (off_t)done);
        if (written <= 0) abort();  // the model is broken: fail loudly, never silently
        done += (size_t)written;
    }
}

// The journal of unsynced writes, rewritten from `pending` (called with the lock held).
static void journal_append(struct target *t, const struct pending_write *entry) {
    unsigned long long header[2] = {(unsigned long long)entry->offset, (unsigned long long)entry->length};
    write_all(t->journal_fd, header, sizeof header, t->journal_end);
    write_all(t->journal_fd, entry->bytes, entry->length, t->journal_end + (off_t)sizeof header);
    t->journal_end += (off_t)(sizeof header + entry->length);
}

static void journal_rewrite(struct target *t) {
    if (real_ftruncate(t->journal_fd, 0) != 0) abort();
    t->journal_end = 0;
    for (size_t i = 0; i < t->pending_count; i++) journal_append(t, &t->pending[i]);
}

// Starts tracking `fd` if it names the target; the first time, the durable copy starts as the
// file is now (the test puts the previous round's durable image in place before each run).
static void track(int fd, int flags) {
    if (fd < 0 || fd >= TRACKED_DESCRIPTORS_MAX || target_count == 0) return;
    char link[64], path[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, path, sizeof path - 1);
    if (length <= 0) return;
    path[length] = 0;
    int index = -1;
    for (int i = 0; i < target_count; i++) {
        if (strcmp(path, targets[i].path) == 0) index = i;
    }
    if (index < 0) return;
    struct target *t = &targets[index];
    pthread_mutex_lock(&lock);
    if (t->durable_fd < 0) {
        char durable[PATH_MAX + 16];
        snprintf(durable, sizeof durable, "%s.durable", t->path);
        t->durable_fd = real_open(durable, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (t->durable_fd < 0) abort();
        char journal[PATH_MAX + 16];
        snprintf(journal, sizeof journal, "%s.pending", t->path);
        t->journal_fd = real_open(journal, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (t->journal_fd < 0) abort();
        unsigned char buffer[1 << 16];
        off_t offset = 0;
        ssize_t got;
        while ((got = pread(fd, buffer, sizeof buffer, offset)) > 0) {
            write_all(t->durable_fd, buffer, (size_t)got, offset);
            offset += got;
        }
    }
    tracked[fd] = (unsigned char)(index + 1) | ((flags & (O_SYNC | O_DSYNC)) ? SYNC_FLAG : 0);
    pthread_mutex_unlock(&lock);
}

static int is_tracked(int fd) { return fd >= 0 && fd < TRACKED_DESCRIPTORS_MAX && tracked[fd]; }
static struct target *target_of(int fd) { return &targets[(tracked[fd] & ~SYNC_FLAG) - 1]; }

// Records a write that reached the file: durable at once through a synchronous descriptor,
// else held until the next sync.
static void record(int fd, const struct iovec *parts, int count, off_t offset, ssize_t written) {
    if (written <= 0) return;
    pthread_mutex_lock(&lock);
    struct target *t = target_of(fd);
    size_t left = (size_t)written;
    for (int i = 0; i < count && left > 0; i++) {
        size_t length = parts[i].iov_len < left ? parts[i].iov_len : left;
        if (tracked[fd] & SYNC_FLAG) {
            write_all(t->durable_fd, parts[i].iov_base, length, offset);
        } else {
            if (t->pending_count == t->pending_capacity) {
                t->pending_capacity = t->pending_capacity ? t->pending_capacity * 2 : 256;
                t->pending = realloc(t->pending, t->pending_capacity * sizeof *t->pending);
                if (!t->pending) abort();
            }
            unsigned char *copy = malloc(length ? length : 1);
            if (!copy) abort();
            memcpy(copy, parts[i].iov_base, length);
            t->pending[t->pending_count] = (struct pending_write){offset, length, copy};
            journal_append(t, &t->pending[t->pending_count]);
            t->pending_count++;
        }
        offset += (off_t)length;
        left -= length;
    }
    pthread_mutex_unlock(&lock);
}

// After a successful sync of a descriptor of `t`: its writes recorded before the sync began are durable.
static void make_durable(struct target *t, size_t count) {
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < count; i++) {
        write_all(t->durable_fd, t->pending[i].bytes, t->pending[i].length, t->pending[i].offset);
        free(t->pending[i].bytes);
    }
    memmove(t->pending, t->pending + count, (t->pending_count - count) * sizeof *t->pending);
    t->pending_count -= count;
    journal_rewrite(t);
    pthread_mutex_unlock(&lock);
}

static size_t pending_now(int fd) {
    if (!is_tracked(fd)) return 0;
    pthread_mutex_lock(&lock);
    size_t count = target_of(fd)->pending_count;
    pthread_mutex_unlock(&lock);
    return count;
}

static mode_t mode_argument(int flags, va_list arguments) {
    return (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(arguments, int) : 0;
}

int open(const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = mode_argument(flags, arguments);
    va_end(arguments);
    int fd = real_open(path, flags, mode);
    track(fd, flags);
    return fd;
}

int open64(const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = mode_argument(flags, arguments);
    va_end(arguments);
    int fd = real_open64(path, flags, mode);
    track(fd, flags);
    return fd;
}

int openat(int directory, const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = mode_argument(flags, arguments);
    va_end(arguments);
    int fd = real_openat(directory, path, flags, mode);
    track(fd, flags);
    return fd;
}

ssize_t pwrite(int fd, const void *bytes, size_t length, off_t offset) {
    ssize_t written = real_pwrite(fd, bytes, length, offset);
    if (is_tracked(fd)) record(fd, &(struct iovec){(void *)bytes, length}, 1, offset, written);
    return written;
}

ssize_t pwrite64(int fd, const void *bytes, size_t length, off_t offset) {
    ssize_t written = real_pwrite64(fd, bytes, length, offset);
    if (is_tracked(fd)) record(fd, &(struct iovec){(void *)bytes, length}, 1, offset, written);
    return written;
}

ssize_t pwritev(int fd, const struct iovec *parts, int count, off_t offset) {
    ssize_t written = real_pwritev(fd, parts, count, offset);
    if (is_tracked(fd)) record(fd, parts, count, offset, written);
    return written;
}

ssize_t pwritev64(int fd, const struct iovec *parts, int count, off_t offset) {
    ssize_t written = real_pwritev64(fd, parts, count, offset);
    if (is_tracked(fd)) record(fd, parts, count, offset, written);
    return written;
}

ssize_t write(int fd, const void *bytes, size_t length) {
    if (!is_tracked(fd)) return real_write(fd, bytes, length);
    off_t offset = lseek(fd, 0, SEEK_CUR);
    ssize_t written = real_write(fd, bytes, length);
    record(fd, &(struct iovec){(void *)bytes, length}, 1, offset, written);
    return written;
}

ssize_t writev(int fd, const struct iovec *parts, int count) {
    if (!is_tracked(fd)) return real_writev(fd, parts, count);
    off_t offset = lseek(fd, 0, SEEK_CUR);
    ssize_t written = real_writev(fd, parts, count);
    record(fd, parts, count, offset, written);
    return written;
}

int fsync(int fd) {
    size_t before = pending_now(fd);
    int result = real_fsync(fd);
    if (result == 0 && before > 0) make_durable(target_of(fd), before);
    return result;
}

int fdatasync(int fd) {
    size_t before = pending_now(fd);
    int result = real_fdatasync(fd);
    if (result == 0 && before > 0) make_durable(target_of(fd), before);
    return result;
}

// A size change is metadata: durable only with the next sync, which the model approximates by
// applying it to the durable copy when it happens only if it grows the file (zeros, harmless).
static void resize(int fd, off_t length) {
    if (!is_tracked(fd)) return;
    pthread_mutex_lock(&lock);
    struct target *t = target_of(fd);
    struct stat status;
    if (fstat(t->durable_fd, &status) == 0 && status.st_size < length) {
        if (real_ftruncate(t->durable_fd, length) != 0) abort();
    }
    pthread_mutex_unlock(&lock);
}

int ftruncate(int fd, off_t length) {
    int result = real_ftruncate(fd, length);
    if (result == 0) resize(fd, length);
    return result;
}

int ftruncate64(int fd, off_t length) {
    int result = real_ftruncate64(fd, length);
    if (result == 0) resize(fd, length);
    return result;
}

int close(int fd) {
    if (is_tracked(fd)) {
        pthread_mutex_lock(&lock);
        tracked[fd] = 0;
        pthread_mutex_unlock(&lock);
    }
    return real_close(fd);
}
