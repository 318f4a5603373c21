#ifndef LOGBOOK_CLMDB_SHIM_H
#define LOGBOOK_CLMDB_SHIM_H
#include <lmdb.h>
#endif
