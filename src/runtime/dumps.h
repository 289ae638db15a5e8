/* SPDX-License-Identifier: MIT */
/*
 * Cache::dump() and Cache::restore(): the segment's live entries to and from
 * a file (the store does the work; this names the files and says why not).
 */
#ifndef RESIDENT_RUNTIME_DUMPS_H
#define RESIDENT_RUNTIME_DUMPS_H

#include "store/store.h"

/* False with err set on failure. */
bool resident_dump(const char *file, rs_dump_stats *ds, char *err, size_t errlen);
bool resident_restore(const char *file, rs_dump_stats *ds, char *err, size_t errlen);

#endif
