#include "cheaptrim.h"
// <features.h> (through <stdlib.h>) says whether this is glibc, which has `malloc_trim`.
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int logbook_trim_heap(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}
