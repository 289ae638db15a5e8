/*
 * Shared between the files that implement Resident's PHP classes (api.c,
 * key_iterator.c, remember.c).
 */
#ifndef RESIDENT_API_H
#define RESIDENT_API_H

#include "php.h"
#include "php_resident.h"

typedef struct resident_cache_obj {
	uint16_t pool;
	zend_string *name;
	zend_object std;
} resident_cache_obj;

/* Looks the key up and decodes it into `out` (borrowed when the request
 * borrows). False on a miss or a failed decode (then maybe an exception). */
bool resident_fetch(resident_cache_obj *c, zend_string *key, zval *out);
/* The same, but a graph fetched while the request borrows comes back
 * lazily (*graph set, see value/graph_lazy.c); else *graph is NULL. */
bool resident_fetch_lazy(resident_cache_obj *c, zend_string *key, zval *out, struct rv_lazy_graph **graph);
/* Stale-while-revalidate read: a fresh value, or one past its TTL but
 * within its stale period (*stale = true). */
bool resident_fetch_stale(resident_cache_obj *c, zend_string *key, zval *out, bool *stale);
/* Stores a value: 1 stored, 0 not (full, or present for only_if_absent;
 * a warning says which), -1 an exception was thrown. value_arg names the
 * argument in error messages. */
int resident_store_value(resident_cache_obj *c, zend_string *key, zval *value, int64_t expires_ms,
                         int64_t stale_until_ms, bool only_if_absent, uint32_t value_arg);
/* ttl in seconds -> absolute expiry in ms (0 = none); throws on a bad ttl. */
zend_result resident_expiry(zend_long ttl, uint32_t arg, int64_t *expires_ms);

extern zend_class_entry *resident_cache_ce;

static inline resident_cache_obj *resident_cache_of(zend_object *obj)
{
	return (resident_cache_obj *)((char *)obj - XtOffsetOf(resident_cache_obj, std));
}
extern zend_class_entry *resident_request_over_static_ce;

/* A new Resident\Cache object for the named pool (as Cache::pool()). */
zend_result resident_cache_for_pool(zval *dst, zend_string *name);

void resident_key_iterator_register(zend_class_entry *ce);

void resident_compat_register(void);
void resident_key_iterator_create(zval *dst, uint16_t pool, zend_string *prefix);

void resident_remember(resident_cache_obj *c, zend_string *key, zend_fcall_info *fci, zend_fcall_info_cache *fcc,
                       int64_t expires_ms, int64_t stale_until_ms, zval *return_value);

#endif
