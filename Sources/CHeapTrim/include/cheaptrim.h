#ifndef LOGBOOK_CHEAPTRIM_H
#define LOGBOOK_CHEAPTRIM_H

/// Gives the allocator's free memory back to the system: glibc's `malloc_trim(0)`, which releases
/// the free pages of every arena, not only the top of the main heap. Returns 1 if any memory was
/// released, 0 if none was (or the C library has no such call). (Swift's Glibc module does not
/// declare `malloc.h`.)
int logbook_trim_heap(void);

#endif
