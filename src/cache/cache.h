/* SPDX-License-Identifier: MIT */
/*
 * A pool's values, read and written: what Resident\Cache, the compatibility
 * layers, remember() and RequestOverStatic share (read.c, write.c). Sits
 * between the PHP classes above and the value encoding and the store below.
 */
#ifndef RESIDENT_CACHE_H
#define RESIDENT_CACHE_H

#include "php.h"
#include "php_resident.h"

/* A Resident\Cache object: a pool of the segment, by id and by name. */
typedef struct resident_cache_obj {
	uint16_t pool;
	zend_string *name;
	zend_object std;
} resident_cache_obj;

static inline resident_cache_obj *resident_cache_of(zend_object *obj)
{
	return (resident_cache_obj *)((char *)obj - XtOffsetOf(resident_cache_obj, std));
}

/* Enters a read section; returns whether values may be borrowed, in which
 * case the section lasts until the request ends. Callers that hand out no
 * pointers into the segment pass borrow = false and get a short section,
 * which they end with resident_read_leave(). */
bool resident_read_enter(rs_store *st, bool borrow);
void resident_read_leave(rs_store *st, bool borrow);

/* Looks the key up and decodes it into `out` (borrowed when the request
 * borrows). False on a miss or a failed decode (then maybe an exception). */
bool resident_fetch(resident_cache_obj *c, zend_string *key, zval *out);
/* The same, telling which entry it read (seen->entry NULL on a miss), for
 * a caller that drops the entry afterwards only if it is still that one. */
bool resident_fetch_seen(resident_cache_obj *c, zend_string *key, zval *out, rs_entry_id *seen);
/* The same for a key the caller builds on each call from another string
 * (memo_as: UserCache's key, which its prefix goes before): the request
 * remembers where the entry is by that string's address (read.c). */
bool resident_fetch_seen_as(resident_cache_obj *c, zend_string *key, const zend_string *memo_as, zval *out, rs_entry_id *seen);
/* The same for a value a request fetches once (Cache::keep()'s app):
 * objects come back as shells, as with resident.lazy_objects=1, whatever
 * that setting says. What makes that setting off by default does not
 * apply: each lazy fetch keeps what it made until the request ends, which
 * grows a request that fetches in a loop, not one that fetches once. */
bool resident_fetch_once(resident_cache_obj *c, zend_string *key, zval *out);
/* The same, but a graph fetched while the request borrows comes back
 * lazily (*graph set, see value/graph_lazy.c); else *graph is NULL. */
bool resident_fetch_lazy(resident_cache_obj *c, zend_string *key, zval *out, struct rv_lazy_graph **graph);
/* Stale-while-revalidate read: a fresh value, or one past its TTL but
 * within its stale period (*stale = true). */
bool resident_fetch_stale(resident_cache_obj *c, zend_string *key, zval *out, bool *stale);
/* A live entry exists for the key (no statistics). */
bool resident_exists(resident_cache_obj *c, zend_string *key);
/* RSHUTDOWN: forget where this request found its keys. */
void resident_cache_request_end(void);

/* Resident\Cache::endOfRequest() (quiescent.c): a long-running worker's
 * request ends here for what it borrowed. False, with a warning, when
 * nothing could be released. */
bool resident_end_of_request(void);

/* resident.check_borrowed (borrowed.c): values of the segment that PHP
 * still references, replaced by copies where they are (copied), or found
 * where no copy can replace them (stuck). */
typedef struct resident_borrowed_report {
	uint32_t copied;
	uint32_t stuck;
	char first[192];   /* where the first was found, for the warning */
} resident_borrowed_report;
void resident_borrowed_rescue(rs_store *st, resident_borrowed_report *r);

struct rv_plan;
/* Stores a value: 1 stored, 0 not (full, or present for only_if_absent;
 * a warning says which), -1 an exception was thrown. value_arg names the
 * argument in error messages. */
int resident_store_value(resident_cache_obj *c, zend_string *key, zval *value, int64_t expires_ms,
                         int64_t stale_until_ms, bool only_if_absent, uint32_t value_arg);
/* The same for what a callable argument returned (remember()'s $compute,
 * keep()'s $build): messages name it as that call ("$compute()['a'] is a
 * resource"); wrapped: it is the first member of the array Resident
 * stores it in, whose key they leave out. */
int resident_store_result(resident_cache_obj *c, zend_string *key, zval *value, int64_t expires_ms,
                          int64_t stale_until, uint32_t callable_arg, bool wrapped);
/* Stores a value planned already (storeMultiple() plans them all first).
 * False, with a warning or an exception, when it is not stored. */
bool resident_store_planned(resident_cache_obj *c, zend_string *key, struct rv_plan *plan, int64_t expires_ms,
                            int64_t stale_until_ms, bool only_if_absent);

/* A store that fails for lack of room says so with a warning, unless the
 * caller's API answers false without one (UserCache\Cache): it raises
 * RESIDENT_G(quiet_stores) around the call. */

/* Adds step (up) or subtracts it from the integer at key in place, with a
 * compare-and-swap; a missing key starts at 0 and gets expires_ms. Each API
 * phrases the outcome its own way. */
typedef enum resident_counter {
	RESIDENT_COUNTER_DONE,         /* *value: the new value */
	RESIDENT_COUNTER_NOT_INTEGER,  /* *type: the type the key holds */
	RESIDENT_COUNTER_OVERFLOW,     /* *value: the value it holds */
	RESIDENT_COUNTER_NOT_STORED,   /* no room for a new counter, or Resident is off */
	RESIDENT_COUNTER_THREW
} resident_counter;
resident_counter resident_counter_add(resident_cache_obj *c, zend_string *key, zend_long step, bool up, int64_t expires_ms,
                                      zend_long *value, const char **type);

#endif
