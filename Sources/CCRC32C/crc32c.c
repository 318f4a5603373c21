// CRC-32C with the CPU's own instruction. Record checksums are the largest single cost of a
// log scan in software (docs/benchmarks.md); SSE4.2's crc32 does a 64-bit word per instruction.
// Swift cannot emit it, hence this file. The table-driven Swift code stays as the fallback.
#include "ccrc32c.h"
#include <string.h>

#if defined(__x86_64__)
#include <nmmintrin.h>

int logbook_crc32c_hardware_available(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2");
}

__attribute__((target("sse4.2")))
uint32_t logbook_crc32c_hardware(const void *bytes, size_t count) {
    const unsigned char *cursor = bytes;
    uint64_t crc = 0xFFFFFFFFu;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, cursor, sizeof word);  // unaligned-safe load
        crc = _mm_crc32_u64(crc, word);
        cursor += 8;
        count -= 8;
    }
    uint32_t crc32 = (uint32_t)crc;
    while (count > 0) {
        crc32 = _mm_crc32_u8(crc32, *cursor);
        cursor += 1;
        count -= 1;
    }
    return ~crc32;
}

#else

int logbook_crc32c_hardware_available(void) { return 0; }

uint32_t logbook_crc32c_hardware(const void *bytes, size_t count) {
    (void)bytes;
    (void)count;
    return 0;
}

#endif
