/* SPDX-License-Identifier: MIT */
/*
 * UserCache\CacheStatus, UserCache\CachePoolStatus and
 * UserCache\CacheAvailability: what Cache::getStatus() and getPoolStatus()
 * report, taken when they are called (the objects are snapshots), in the
 * proposal's terms; docs/user-cache.md says which Resident figure each
 * getter gives.
 */
#include "php.h"
#include "php_resident.h"
#include "runtime/segment.h"
#include "usercache.h"
#include "zend_enum.h"

enum {
	ST_CONFIGURED, ST_SHM_SIZE, ST_USED, ST_FREE, ST_WASTED, ST_ENTRIES, ST_CAPACITY, ST_TOMBSTONES, ST_EXPUNGES,
	ST_EVICTIONS, ST_STORE_FAILURES, ST_PIN_SLOTS, ST_PINNED, ST_DEAD_OWNERS, ST_DEAD_PINS, ST_COMMITTED,
	ST_COMMIT_FAILURES, ST_COUNT
};

typedef struct status_obj {
	const char *availability;  /* a CacheAvailability case */
	zend_long figures[ST_COUNT];
	zend_object std;
} status_obj;

typedef struct pool_status_obj {
	zend_string *name;
	zend_long entries;
	zend_long used;
	zval keys;
	zend_object std;
} pool_status_obj;

static zend_class_entry *status_ce, *pool_status_ce, *availability_ce;
static zend_object_handlers status_handlers, pool_status_handlers;

static inline status_obj *status_of(zend_object *obj)
{
	return (status_obj *)((char *)obj - XtOffsetOf(status_obj, std));
}

static inline pool_status_obj *pool_status_of(zend_object *obj)
{
	return (pool_status_obj *)((char *)obj - XtOffsetOf(pool_status_obj, std));
}

static zend_object *status_create(zend_class_entry *ce)
{
	status_obj *s = zend_object_alloc(sizeof(status_obj), ce);
	zend_object_std_init(&s->std, ce);
	s->availability = "UnavailableByUnknownReason";
	s->std.handlers = &status_handlers;
	return &s->std;
}

static zend_object *pool_status_create(zend_class_entry *ce)
{
	pool_status_obj *p = zend_object_alloc(sizeof(pool_status_obj), ce);
	zend_object_std_init(&p->std, ce);
	ZVAL_EMPTY_ARRAY(&p->keys);
	p->std.handlers = &pool_status_handlers;
	return &p->std;
}

static void pool_status_free(zend_object *obj)
{
	pool_status_obj *p = pool_status_of(obj);
	if (p->name) {
		zend_string_release(p->name);
	}
	zval_ptr_dtor(&p->keys);
	zend_object_std_dtor(obj);
}

void uc_status_register(void)
{
	memcpy(&status_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	status_handlers.offset = XtOffsetOf(status_obj, std);
	status_handlers.clone_obj = NULL;
	status_handlers.compare = zend_objects_not_comparable;
	memcpy(&pool_status_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	pool_status_handlers.offset = XtOffsetOf(pool_status_obj, std);
	pool_status_handlers.free_obj = pool_status_free;
	pool_status_handlers.clone_obj = NULL;
	pool_status_handlers.compare = zend_objects_not_comparable;
}

void resident_user_cache_status_setup(zend_class_entry *status, zend_class_entry *pool_status, zend_class_entry *availability)
{
	status_ce = status;
	status_ce->create_object = status_create;
	pool_status_ce = pool_status;
	pool_status_ce->create_object = pool_status_create;
	availability_ce = availability;
}

static const char *availability(void)
{
	resident_cache_obj values;
	switch (resident_unavailable_cause()) {
		case RESIDENT_AVAILABLE:
			/* Resident's 64 pools all taken: UserCache has none of its own. */
			return uc_values(&values) ? "Available" : "UnavailableByUnknownReason";
		case RESIDENT_OFF_BY_INI:
			return "DisabledByIni";
		case RESIDENT_OFF_BY_SAPI:
			return "DisabledBySapi";
		case RESIDENT_SEGMENT_FAILED:
			return "UnavailableBySharedMemoryInitializationFailed";
		default:
			return "UnavailableByUnknownReason";
	}
}

void uc_return_status(zval *return_value)
{
	object_init_ex(return_value, status_ce);
	status_obj *s = status_of(Z_OBJ_P(return_value));
	zend_long *f = s->figures;
	s->availability = availability();
	f[ST_CONFIGURED] = resident_configured_memory();
	rs_store *st = resident_store();
	if (!st) {
		return;
	}
	rs_segment_stats ss;
	rs_segment_stats_get(st, &ss);
	f[ST_SHM_SIZE] = (zend_long)ss.total_bytes;
	f[ST_USED] = (zend_long)ss.used_bytes;
	f[ST_FREE] = (zend_long)ss.free_bytes;
	/* Replaced and deleted values some request may still be reading. */
	f[ST_WASTED] = (zend_long)ss.limbo_bytes;
	f[ST_ENTRIES] = (zend_long)ss.entries;
	/* The index's buckets: entries beyond them chain, nothing caps them. */
	f[ST_CAPACITY] = (zend_long)ss.buckets;
	f[ST_EXPUNGES] = (zend_long)ss.wipes;
	f[ST_EVICTIONS] = (zend_long)ss.evictions;
	f[ST_STORE_FAILURES] = (zend_long)ss.store_failures;
	/* Readers pin by epoch: a reader slot per process or thread, and what
	 * was retired while some of them read. */
	f[ST_PIN_SLOTS] = (zend_long)ss.slots_used;
	f[ST_PINNED] = (zend_long)ss.limbo_entries;
	f[ST_DEAD_OWNERS] = (zend_long)ss.dead_slots;
	/* The whole segment is mapped when it is made. */
	f[ST_COMMITTED] = (zend_long)ss.total_bytes;
}

#define FIGURE(method, index) \
	ZEND_METHOD(UserCache_CacheStatus, method) \
	{ \
		ZEND_PARSE_PARAMETERS_NONE(); \
		RETURN_LONG(status_of(Z_OBJ_P(ZEND_THIS))->figures[index]); \
	}

ZEND_METHOD(UserCache_CacheStatus, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
}

ZEND_METHOD(UserCache_CacheStatus, getAvailability)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_OBJ_COPY(zend_enum_get_case_cstr(availability_ce, status_of(Z_OBJ_P(ZEND_THIS))->availability));
}

FIGURE(getConfiguredMemory, ST_CONFIGURED)
FIGURE(getSharedMemorySize, ST_SHM_SIZE)
FIGURE(getUsedMemory, ST_USED)
FIGURE(getFreeMemory, ST_FREE)
FIGURE(getWastedMemory, ST_WASTED)
FIGURE(getEntryCount, ST_ENTRIES)
FIGURE(getEntryCapacity, ST_CAPACITY)
FIGURE(getTombstoneCount, ST_TOMBSTONES)
FIGURE(getExpungeCount, ST_EXPUNGES)
FIGURE(getEvictionCount, ST_EVICTIONS)
FIGURE(getStoreFailureCount, ST_STORE_FAILURES)
FIGURE(getGraphPinSlotsInUse, ST_PIN_SLOTS)
FIGURE(getGraphPinnedReferences, ST_PINNED)
FIGURE(getDeadPinOwnersReclaimed, ST_DEAD_OWNERS)
FIGURE(getDeadPinsStripped, ST_DEAD_PINS)
FIGURE(getCommittedMemory, ST_COMMITTED)
FIGURE(getCommitFailureCount, ST_COMMIT_FAILURES)

/* --- CachePoolStatus -------------------------------------------------------------- */

void uc_return_pool_status(user_cache_obj *u, zval *return_value)
{
	object_init_ex(return_value, pool_status_ce);
	pool_status_obj *p = pool_status_of(Z_OBJ_P(return_value));
	p->name = zend_string_copy(u->name);
	resident_cache_obj values;
	rs_store *st = resident_store();
	if (!st || !uc_values(&values)) {
		return;
	}
	array_init(&p->keys);
	rs_key_batch batch = {0};
	uint64_t bucket = 0, nbuckets = rs_bucket_count(st);
	size_t plen = ZSTR_LEN(u->prefix);
	/* The pool's keys are those of its prefix in the store pool every
	 * UserCache pool shares: read a range of buckets at a time inside a
	 * short section, and handed to PHP outside it. Expired entries not yet
	 * reclaimed are listed and counted, as getStatus()->getEntryCount()
	 * counts them and as the proposal's pool status does. */
	while (bucket < nbuckets) {
		rs_key_batch_clear(&batch);
		bool complete = rs_keys_collect_stored(st, values.pool, &bucket, 4096, &batch);
		size_t pos = 0;
		rs_key_ref ref;
		while (rs_key_batch_next(&batch, &pos, &ref)) {
			if (ref.len > plen && memcmp(ref.key, ZSTR_VAL(u->prefix), plen) == 0) {
				add_next_index_stringl(&p->keys, ref.key + plen, ref.len - plen);
				p->entries++;
				p->used += (zend_long)(ref.len + ref.value_size);
			}
		}
		if (!complete) {
			break;
		}
	}
	rs_key_batch_free(&batch);
}

ZEND_METHOD(UserCache_CachePoolStatus, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
}

ZEND_METHOD(UserCache_CachePoolStatus, getPoolName)
{
	ZEND_PARSE_PARAMETERS_NONE();
	pool_status_obj *p = pool_status_of(Z_OBJ_P(ZEND_THIS));
	if (!p->name) {
		RETURN_EMPTY_STRING();
	}
	RETURN_STR_COPY(p->name);
}

ZEND_METHOD(UserCache_CachePoolStatus, getEntryCount)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG(pool_status_of(Z_OBJ_P(ZEND_THIS))->entries);
}

ZEND_METHOD(UserCache_CachePoolStatus, getEntryKeys)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_COPY(&pool_status_of(Z_OBJ_P(ZEND_THIS))->keys);
}

ZEND_METHOD(UserCache_CachePoolStatus, getUsedMemory)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG(pool_status_of(Z_OBJ_P(ZEND_THIS))->used);
}
