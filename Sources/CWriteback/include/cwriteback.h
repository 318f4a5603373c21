#ifndef LOGBOOK_CWRITEBACK_H
#define LOGBOOK_CWRITEBACK_H

/// Starts the kernel writing the dirty pages of the file open at `fd` to its device, without
/// waiting for them and without flushing the device's cache: `sync_file_range` with
/// `SYNC_FILE_RANGE_WRITE` over the whole file. It makes nothing durable; a later `fsync` has
/// less left to write. Returns 0, or -1 with `errno` set. (Swift's Glibc module does not
/// declare this GNU call.)
int logbook_start_writeback(int fd);

#endif
