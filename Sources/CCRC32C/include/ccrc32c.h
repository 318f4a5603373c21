#ifndef LOGBOOK_CCRC32C_H
#define LOGBOOK_CCRC32C_H

#include <stddef.h>
#include <stdint.h>

/// Non-zero when this CPU has a CRC-32C instruction the library can use (x86-64 SSE4.2).
int logbook_crc32c_hardware_available(void);

/// CRC-32C of `count` bytes at `bytes` with the CPU's instruction. Call only when
/// `logbook_crc32c_hardware_available()` is non-zero.
uint32_t logbook_crc32c_hardware(const void *bytes, size_t count);

#endif
