/* SPDX-License-Identifier: MIT */
/*
 * The process's hold on the segment: the one place a segment is created or
 * attached (anonymous, named, a php-fpm pool's own), the handle each thread
 * uses, and why there is none when Resident is off.
 */
#ifndef RESIDENT_RUNTIME_SEGMENT_H
#define RESIDENT_RUNTIME_SEGMENT_H

#include "php.h"
#include "store/store.h"

/* The segment this process created or inherited; NULL hdr when there is none. */
extern rs_store resident_segment;

/* The calling thread's store handle, or NULL when Resident is unavailable. */
rs_store *resident_store(void);

/* MINIT: creates or attaches the segment as the ini settings say (before
 * php-fpm forks its workers, so every worker maps it at the same address),
 * or records why not. */
void resident_segment_startup(void);
/* RINIT: a php-fpm worker whose pool names a segment of its own (%pool%,
 * php_admin_value) swaps the inherited mapping for it before its first
 * request touches the cache; once per process. */
void resident_segment_request_start(void);
/* GSHUTDOWN: a thread going away gives its reader slot back. */
void resident_segment_thread_end(rs_store *thread_handle);
/* MSHUTDOWN. */
void resident_segment_shutdown(void);

/* Entries resident.restore_on_start loaded when this process created the
 * segment, or -1. */
long long resident_restored_entries(void);
/* The named segment's file, or NULL for an anonymous segment. */
const char *resident_segment_path(void);
/* Why resident_store() is NULL, for status() and phpinfo(). */
const char *resident_unavailable_reason(void);
/* NULL store because the configuration turned Resident off (not a failure). */
bool resident_disabled_by_config(void);

#endif
