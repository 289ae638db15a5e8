/* SPDX-License-Identifier: MIT */
/*
 * Reading a pool's entry into a PHP value: the read section a request holds
 * (for the whole request when it borrows), the request-local memory of where
 * keys were found, and the decoding that may run PHP code (which must not
 * leave a section open whatever it does).
 */
#include "php.h"
#include "php_resident.h"
#include "cache.h"
#include "runtime/sapi.h"
#include "runtime/segment.h"
#include "value/value.h"
#include "zend_fibers.h"

/* Enters a read section; returns whether values may be borrowed, in which
 * case the section lasts until the request ends. Callers that hand out no
 * pointers into the segment pass borrow = false and get a short section. */
bool resident_read_enter(rs_store *st, bool borrow)
{
	if (RESIDENT_G(borrowing)) {
		return true;
	}
	if (borrow && RESIDENT_G(borrow_mode) && !rs_limbo_over_cap(st)) {
		if (rs_read_begin(st) == RS_OK) {
			RESIDENT_G(borrowing) = true;
			return true;
		}
		/* No reader slot: we read under the lock, so copy and leave. */
		return false;
	}
	rs_read_begin(st);
	return false;
}

void resident_read_leave(rs_store *st, bool borrow)
{
	if (!borrow) {
		rs_read_end(st);
	}
}

/* How a graph fetched while the request borrows comes back. */
typedef enum {
	FETCH_EAGER,
	FETCH_LAZY,            /* RequestOverStatic, Resident\Testing::fetchLazily() */
	FETCH_LAZY_IF_SILENT   /* Cache::fetch(), resident.lazy_objects: lazily if that runs no code later than an eager fetch would */
} fetch_mode;

static bool decode_entry(rs_store *st, const rs_entry *e, bool borrow, zval *out, rv_lazy_graph **lazy, fetch_mode mode);

/* Request-local lookup cache. While a request borrows, every entry it found
 * stays allocated, so it can remember where a key's entry is and skip the
 * shared index the next time, as long as nothing was stored, deleted or
 * cleared since (any such change, by any worker, bumps the mutation epoch
 * and empties the memo).
 *
 * Keys are remembered by the address of a string, never by their content:
 * PHP's string hash would let keys crafted to collide make the table
 * quadratic, and no input chooses an address. An interned key (a string
 * literal of the code, the common case) is remembered by its own address,
 * which names its content for the whole request. Another string (a key
 * built at run time, fetched again and again) is remembered by the address
 * the caller names (the key itself, or the string the key was built from,
 * memo_as), and what is found there counts only if the entry's own key is
 * the key asked for: an address freed and used again, or shared by keys
 * built in turn, finds nothing wrong. Such a key is remembered only while
 * its pool's memo holds fewer than MEMO_MAX_BUILT keys; past that it goes
 * to the shared index, hashed with SipHash. */
#define MEMO_MAX_BUILT 4096

static zend_always_inline zend_ulong memo_slot(const zend_string *key)
{
	/* Addresses share their low bits (alignment, allocation strides): mix
	 * them into all 64 (a bijection, so distinct addresses stay distinct). */
	uint64_t x = (uint64_t)(uintptr_t)key;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (zend_ulong)x;
}

static zend_always_inline bool entry_key_is(const rs_entry *e, const zend_string *key)
{
	size_t len;
	const char *k = rs_entry_key(e, &len);
	return len == ZSTR_LEN(key) && memcmp(k, ZSTR_VAL(key), len) == 0;
}

static const rs_entry *lookup_memoized(rs_store *st, uint16_t pool, zend_string *key, const zend_string *memo_as)
{
	bool by_address = ZSTR_IS_INTERNED(key) && memo_as == key;
	uint64_t epoch = rs_mutation_epoch(st);
	HashTable **memo = RESIDENT_G(lookups);
	if (epoch != RESIDENT_G(lookups_epoch)) {
		for (uint64_t left = RESIDENT_G(lookups_pools); left; left &= left - 1) {
			zend_hash_clean(memo[__builtin_ctzll(left)]);
		}
		RESIDENT_G(lookups_epoch) = epoch;
	}
	zend_ulong slot = memo_slot(memo_as);
	if (memo[pool]) {
		zval *known = zend_hash_index_find(memo[pool], slot);
		if (known) {
			const rs_entry *e = Z_PTR_P(known);
			int64_t expires;
			if ((by_address || entry_key_is(e, key)) && (!(expires = rs_entry_expires(e)) || expires > resident_now_ms())) {
				rs_note_hit(st, e);
				return e;
			}
		}
	}
	const rs_entry *e = rs_lookup(st, pool, ZSTR_VAL(key), ZSTR_LEN(key), 0);
	if (e && (by_address || !memo[pool] || zend_hash_num_elements(memo[pool]) < MEMO_MAX_BUILT)) {
		if (!memo[pool]) {
			ALLOC_HASHTABLE(memo[pool]);
			zend_hash_init(memo[pool], 8, NULL, NULL, 0);
			RESIDENT_G(lookups_pools) |= (uint64_t)1 << pool;
		}
		zval ptr;
		ZVAL_PTR(&ptr, (void *)e);
		zend_hash_index_update(memo[pool], slot, &ptr);
	}
	return e;
}

/* lazy: where a graph fetched lazily is handed back (mode not FETCH_EAGER). */
static bool fetch(resident_cache_obj *c, zend_string *key, const zend_string *memo_as, zval *out, rv_lazy_graph **lazy, fetch_mode mode,
                  rs_entry_id *seen)
{
	rs_store *st = resident_store();
	if (!st) {
		return false;
	}
	bool borrow;
	if (mode == FETCH_LAZY && resident_sapi_has_quiescent_points()) {
		/* Statics restored here outlive every endOfRequest() of a worker:
		 * they must own what they hold. A nested short section, also
		 * inside the borrowing one. */
		rs_read_begin(st);
		borrow = false;
	} else {
		borrow = resident_read_enter(st, true);
	}
	const rs_entry *e = borrow ? lookup_memoized(st, c->pool, key, memo_as) : rs_lookup(st, c->pool, ZSTR_VAL(key), ZSTR_LEN(key), 0);
	if (!e) {
		resident_read_leave(st, borrow);
		return false;
	}
	rs_entry_id identity = rs_entry_identity(e);
	if (seen) {
		*seen = identity;
	}
	uint64_t stale = RV_CTX->stale_code;
	bool hit = decode_entry(st, e, borrow, out, lazy, borrow ? mode : FETCH_EAGER);
	if (!hit && RV_CTX->stale_code != stale && !EG(exception)) {
		/* It holds a closure of code that changed since (value/closure.c):
		 * a miss now and for every process after, so it goes, unless
		 * what decoding ran (an autoloader) stored the key again. */
		rs_delete_if_same(st, c->pool, ZSTR_VAL(key), ZSTR_LEN(key), identity);
	}
	return hit;
}

/* Whether OPcache's JIT may compile this request's code. Where a trace
 * knows an object's class, and the class has no __set() (nor readonly
 * properties), its compiled property writes store into a declared slot
 * even while it is unset, without asking the object's handlers: a shell
 * written that way would lose its record (found by tests/phpt/134). So
 * fetch() builds objects at once wherever the JIT may run. Conservative:
 * OPcache off for this SAPI, or the JIT turned off at startup, reads as
 * on. */
static bool jit_may_run(void)
{
	/* PHP_INI_SYSTEM: read once per process (0: not read yet, 1: no
	 * buffer, 2: a buffer). */
	static int buffer;
	if (!buffer) {
		buffer = zend_ini_long("opcache.jit_buffer_size", sizeof("opcache.jit_buffer_size") - 1, 0) > 0 ? 2 : 1;
	}
	if (buffer == 1) {
		return false;
	}
	const char *mode = zend_ini_string("opcache.jit", sizeof("opcache.jit") - 1, 0);
	return mode && *mode && strcmp(mode, "0") != 0 && strcasecmp(mode, "off") != 0 && strcasecmp(mode, "disable") != 0;
}

bool resident_fetch(resident_cache_obj *c, zend_string *key, zval *out)
{
	return resident_fetch_seen(c, key, out, NULL);
}

/* Objects come back as shells only where the values they are filled from
 * stay mapped until the request ends: a request that borrows (fetch()
 * hands a borrowing fetch the lazy decoder only), in a process that has
 * not said where its requests end (Cache::endOfRequest() fills and lets go
 * of the graphs made before its first call, see quiescent.c; after it,
 * shells would outlive the next boundary). */
static bool fetch_shells_if(resident_cache_obj *c, zend_string *key, const zend_string *memo_as, zval *out, rs_entry_id *seen, bool lazily)
{
	if (lazily && !resident_sapi_has_quiescent_points() && !jit_may_run()) {
		rv_lazy_graph *graph = NULL;
		return fetch(c, key, memo_as, out, &graph, FETCH_LAZY_IF_SILENT, seen);
	}
	return fetch(c, key, memo_as, out, NULL, FETCH_EAGER, seen);
}

bool resident_fetch_seen(resident_cache_obj *c, zend_string *key, zval *out, rs_entry_id *seen)
{
	return fetch_shells_if(c, key, key, out, seen, RESIDENT_G(lazy_objects));
}

bool resident_fetch_seen_as(resident_cache_obj *c, zend_string *key, const zend_string *memo_as, zval *out, rs_entry_id *seen)
{
	return fetch_shells_if(c, key, memo_as, out, seen, RESIDENT_G(lazy_objects));
}

bool resident_fetch_once(resident_cache_obj *c, zend_string *key, zval *out)
{
	return fetch_shells_if(c, key, key, out, NULL, true);
}

bool resident_fetch_lazy(resident_cache_obj *c, zend_string *key, zval *out, rv_lazy_graph **graph)
{
	*graph = NULL;
	return fetch(c, key, key, out, graph, FETCH_LAZY, NULL);
}

bool resident_fetch_stale(resident_cache_obj *c, zend_string *key, zval *out, bool *stale)
{
	rs_store *st = resident_store();
	if (!st) {
		return false;
	}
	bool borrow = resident_read_enter(st, true);
	const rs_entry *e = rs_lookup_stale(st, c->pool, ZSTR_VAL(key), ZSTR_LEN(key), stale);
	if (!e) {
		resident_read_leave(st, borrow);
		return false;
	}
	return decode_entry(st, e, borrow, out, NULL, FETCH_EAGER);
}

/* A value whose type needs no memory to copy (null, bool, int, float). */
static bool scalar_entry(uint32_t kind, const void *area)
{
	return kind == RV_KIND_ZVAL && Z_TYPE_P((const zval *)area) < IS_STRING;
}

/* Decodes the entry found inside the read section, and leaves it; a
 * borrowing fetch hands a lazy mode, and a graph then comes back lazily. */
static bool decode_entry(rs_store *st, const rs_entry *e, bool borrow, zval *out, rv_lazy_graph **lazy, fetch_mode mode)
{
	uint32_t kind = rs_entry_kind(e);
	const void *area = rs_entry_value(e);
	size_t size = rs_entry_value_size(e);
	if (kind == RV_KIND_SERIALIZED && !borrow) {
		/* Unserializing may run userland code (which may use the cache):
		 * never inside a short read section. */
		zend_string *copy = zend_string_init(area, size, 0);
		resident_read_leave(st, borrow);
		zend_result rc = rv_materialize(RV_CTX, out, kind, ZSTR_VAL(copy), ZSTR_LEN(copy), false);
		zend_string_release(copy);
		return rc == SUCCESS;
	}
	if (rs_read_locked(st) && !scalar_entry(kind, area)) {
		/* No reader slot was free, so this read holds the write lock:
		 * copying allocates, and objects may run PHP code, neither of
		 * which may happen while the lock is held. */
		resident_read_leave(st, borrow);
		php_error_docref(NULL, E_WARNING, "Every reader slot is in use: cached values other than numbers, booleans and null cannot be read by this process now");
		return false;
	}
	zend_result rc;
	if (borrow && kind == RV_KIND_ZVAL) {
		/* Hands out the segment's own zval: no allocation, no PHP code. */
		rc = rv_materialize(RV_CTX, out, kind, area, size, true);
		resident_read_leave(st, borrow);
		return rc == SUCCESS;
	}
	/* Copying allocates (memory_limit), and objects may autoload or run
	 * __wakeup()/__unserialize(), which can end in a fatal error: a short
	 * section must not outlive the fetch that way (its epoch would pin
	 * every replaced value for as long as the process lives). Those hooks
	 * must not suspend a Fiber mid-fetch either. */
	uint32_t outer = borrow ? st->read_depth : st->read_depth - 1;
	zend_fiber_switch_block();
	RESIDENT_G(cache_calls)++;
	/* What a decoder of this value resolved in an earlier request it may
	 * use again (value/shape_cache.h); a fetch run by a hook of this one
	 * sets its own. */
	uint64_t outer_stamp = RV_CTX->value_stamp;
	RV_CTX->value_stamp = kind == RV_KIND_GRAPH ? rs_entry_stamp(st, e) : 0;
	zend_try {
		rc = kind == RV_KIND_GRAPH && (mode == FETCH_LAZY || (mode == FETCH_LAZY_IF_SILENT && rv_graph_fetchable_lazily(area)))
			? rv_graph_materialize_lazy(RV_CTX, out, area, mode == FETCH_LAZY_IF_SILENT, lazy)
			: rv_materialize(RV_CTX, out, kind, area, size, borrow);
	} zend_catch {
		RV_CTX->value_stamp = outer_stamp;
		RESIDENT_G(cache_calls)--;
		zend_fiber_switch_unblock();
		rs_unwind(st, outer);
		zend_bailout();
	} zend_end_try();
	RV_CTX->value_stamp = outer_stamp;
	RESIDENT_G(cache_calls)--;
	zend_fiber_switch_unblock();
	resident_read_leave(st, borrow);
	return rc == SUCCESS;
}

bool resident_exists(resident_cache_obj *c, zend_string *key)
{
	rs_store *st = resident_store();
	if (!st) {
		return false;
	}
	bool borrow = resident_read_enter(st, false);
	bool found = rs_peek(st, c->pool, ZSTR_VAL(key), ZSTR_LEN(key), 0) != NULL;
	resident_read_leave(st, borrow);
	return found;
}

void resident_cache_request_end(void)
{
	/* Most requests looked nothing up: no walk of every pool for them. */
	if (EXPECTED(!RESIDENT_G(lookups_pools))) {
		return;
	}
	for (uint64_t left = RESIDENT_G(lookups_pools); left; left &= left - 1) {
		uint32_t i = (uint32_t)__builtin_ctzll(left);
		zend_hash_destroy(RESIDENT_G(lookups)[i]);
		FREE_HASHTABLE(RESIDENT_G(lookups)[i]);
		RESIDENT_G(lookups)[i] = NULL;
	}
	RESIDENT_G(lookups_pools) = 0;
}
