/*
 * Resident\Cache: argument checks and the glue between the store (store/)
 * and the value encoding (value/). Nothing else lives here.
 */
#include "php.h"
#include "php_resident.h"
#include "api.h"
#include "ros/ros.h"
#include "metrics.h"
#include "inspect.h"
#include "value/value.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"
#include "zend_fibers.h"
#include "resident_arginfo.h"

zend_class_entry *resident_cache_ce;
zend_class_entry *resident_request_over_static_ce;
static zend_object_handlers resident_cache_handlers;
static zend_string *default_pool_name;

#define THIS_CACHE() resident_cache_of(Z_OBJ_P(ZEND_THIS))

static zend_object *cache_create(zend_class_entry *ce)
{
	resident_cache_obj *c = zend_object_alloc(sizeof(resident_cache_obj), ce);
	zend_object_std_init(&c->std, ce);
	c->std.handlers = &resident_cache_handlers;
	return &c->std;
}

static void cache_free(zend_object *obj)
{
	resident_cache_obj *c = resident_cache_of(obj);
	if (c->name) {
		zend_string_release(c->name);
	}
	zend_object_std_dtor(obj);
}

/* --- argument checks ---------------------------------------------------------- */

static zend_result check_key(const zend_string *key, uint32_t arg)
{
	if (ZSTR_LEN(key) == 0) {
		zend_argument_value_error(arg, "must not be empty");
		return FAILURE;
	}
	if (ZSTR_LEN(key) > RS_KEY_MAX) {
		zend_argument_value_error(arg, "must not be longer than %d bytes", RS_KEY_MAX);
		return FAILURE;
	}
	if (memchr(ZSTR_VAL(key), '\0', ZSTR_LEN(key))) {
		zend_argument_value_error(arg, "must not contain NUL bytes");
		return FAILURE;
	}
	return SUCCESS;
}

/* Keys of array arguments: strings, or integers (as PHP's own array keys). */
static zend_string *key_from_zval(zval *zv, uint32_t arg)
{
	ZVAL_DEREF(zv);
	if (Z_TYPE_P(zv) == IS_LONG) {
		return zend_long_to_str(Z_LVAL_P(zv));
	}
	if (Z_TYPE_P(zv) != IS_STRING) {
		zend_argument_type_error(arg, "must contain only string keys, %s given", zend_zval_type_name(zv));
		return NULL;
	}
	if (check_key(Z_STR_P(zv), arg) == FAILURE) {
		return NULL;
	}
	return zend_string_copy(Z_STR_P(zv));
}

/* An integer key is the key PHP prints for it: -1 is "-1", as in fetch('-1'). */
static zend_string *key_from_array_key(zend_string *key, zend_ulong idx, uint32_t arg)
{
	if (!key) {
		return zend_long_to_str((zend_long)idx);
	}
	if (check_key(key, arg) == FAILURE) {
		return NULL;
	}
	return zend_string_copy(key);
}

zend_result resident_expiry(zend_long ttl, uint32_t arg, int64_t *expires)
{
	if (ttl < 0) {
		zend_argument_value_error(arg, "must be greater than or equal to 0");
		return FAILURE;
	}
	if (ttl == 0) {
		*expires = 0;
		return SUCCESS;
	}
	int64_t now = resident_now_ms();
	if (ttl > (INT64_MAX - now) / 1000) {
		zend_argument_value_error(arg, "is too large");
		return FAILURE;
	}
	*expires = now + (int64_t)ttl * 1000;
	return SUCCESS;
}

/* --- reading ------------------------------------------------------------------ */

/* Enters a read section; returns whether values may be borrowed, in which
 * case the section lasts until the request ends. Callers that hand out no
 * pointers into the segment pass borrow = false and get a short section. */
static bool read_enter(rs_store *st, bool borrow)
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

static inline void read_leave(rs_store *st, bool borrow)
{
	if (!borrow) {
		rs_read_end(st);
	}
}

static bool decode_entry(rs_store *st, const rs_entry *e, bool borrow, zval *out, rv_lazy_graph **lazy);

/* Request-local lookup cache. While a request borrows, every entry it found
 * stays allocated, so it can remember where a key's entry is and skip the
 * shared index the next time, as long as nothing was stored, deleted or
 * cleared since (any such change, by any worker, bumps the mutation epoch
 * and empties the memo).
 *
 * Only interned keys (the string literals of the code, the common case)
 * are remembered, by the string's address: PHP's string hash would let
 * keys crafted to collide make the table quadratic, and no input chooses
 * an address. Other keys go to the shared index, hashed with SipHash. */
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

static const rs_entry *lookup_memoized(rs_store *st, uint16_t pool, zend_string *key)
{
	if (!ZSTR_IS_INTERNED(key)) {
		return rs_lookup(st, pool, ZSTR_VAL(key), ZSTR_LEN(key), 0);
	}
	uint64_t epoch = rs_mutation_epoch(st);
	HashTable **memo = RESIDENT_G(lookups);
	if (epoch != RESIDENT_G(lookups_epoch)) {
		for (uint32_t i = 0; i < RS_MAX_POOLS; i++) {
			if (memo[i]) {
				zend_hash_clean(memo[i]);
			}
		}
		RESIDENT_G(lookups_epoch) = epoch;
	}
	zend_ulong slot = memo_slot(key);
	if (memo[pool]) {
		zval *known = zend_hash_index_find(memo[pool], slot);
		if (known) {
			const rs_entry *e = Z_PTR_P(known);
			int64_t expires = rs_entry_expires(e);
			if (!expires || expires > resident_now_ms()) {
				rs_note_hit(st, e);
				return e;
			}
		}
	}
	const rs_entry *e = rs_lookup(st, pool, ZSTR_VAL(key), ZSTR_LEN(key), 0);
	if (e) {
		if (!memo[pool]) {
			ALLOC_HASHTABLE(memo[pool]);
			zend_hash_init(memo[pool], 8, NULL, NULL, 0);
		}
		zval ptr;
		ZVAL_PTR(&ptr, (void *)e);
		zend_hash_index_update(memo[pool], slot, &ptr);
	}
	return e;
}

bool resident_fetch(resident_cache_obj *c, zend_string *key, zval *out)
{
	rs_store *st = resident_store();
	if (!st) {
		return false;
	}
	bool borrow = read_enter(st, true);
	const rs_entry *e = borrow ? lookup_memoized(st, c->pool, key) : rs_lookup(st, c->pool, ZSTR_VAL(key), ZSTR_LEN(key), 0);
	if (!e) {
		read_leave(st, borrow);
		return false;
	}
	return decode_entry(st, e, borrow, out, NULL);
}

bool resident_fetch_lazy(resident_cache_obj *c, zend_string *key, zval *out, rv_lazy_graph **graph)
{
	*graph = NULL;
	rs_store *st = resident_store();
	if (!st) {
		return false;
	}
	bool borrow = read_enter(st, true);
	const rs_entry *e = borrow ? lookup_memoized(st, c->pool, key) : rs_lookup(st, c->pool, ZSTR_VAL(key), ZSTR_LEN(key), 0);
	if (!e) {
		read_leave(st, borrow);
		return false;
	}
	return decode_entry(st, e, borrow, out, borrow ? graph : NULL);
}

bool resident_fetch_stale(resident_cache_obj *c, zend_string *key, zval *out, bool *stale)
{
	rs_store *st = resident_store();
	if (!st) {
		return false;
	}
	bool borrow = read_enter(st, true);
	const rs_entry *e = rs_lookup_stale(st, c->pool, ZSTR_VAL(key), ZSTR_LEN(key), stale);
	if (!e) {
		read_leave(st, borrow);
		return false;
	}
	return decode_entry(st, e, borrow, out, NULL);
}

/* A value whose type needs no memory to copy (null, bool, int, float). */
static bool scalar_entry(uint32_t kind, const void *area)
{
	return kind == RV_KIND_ZVAL && Z_TYPE_P((const zval *)area) < IS_STRING;
}

/* Decodes the entry found inside the read section, and leaves it; with
 * lazy (borrowing only), a graph comes back lazily. */
static bool decode_entry(rs_store *st, const rs_entry *e, bool borrow, zval *out, rv_lazy_graph **lazy)
{
	uint32_t kind = rs_entry_kind(e);
	const void *area = rs_entry_value(e);
	size_t size = rs_entry_value_size(e);
	if (kind == RV_KIND_SERIALIZED && !borrow) {
		/* Unserializing may run userland code (which may use the cache):
		 * never inside a short read section. */
		zend_string *copy = zend_string_init(area, size, 0);
		read_leave(st, borrow);
		zend_result rc = rv_materialize(RV_CTX, out, kind, ZSTR_VAL(copy), ZSTR_LEN(copy), false);
		zend_string_release(copy);
		return rc == SUCCESS;
	}
	if (rs_read_locked(st) && !scalar_entry(kind, area)) {
		/* No reader slot was free, so this read holds the write lock:
		 * copying allocates, and objects may run PHP code, neither of
		 * which may happen while the lock is held. */
		read_leave(st, borrow);
		php_error_docref(NULL, E_WARNING, "Every reader slot is in use: cached values other than numbers, booleans and null cannot be read by this process now");
		return false;
	}
	zend_result rc;
	if (borrow && kind == RV_KIND_ZVAL) {
		/* Hands out the segment's own zval: no allocation, no PHP code. */
		rc = rv_materialize(RV_CTX, out, kind, area, size, true);
		read_leave(st, borrow);
		return rc == SUCCESS;
	}
	/* Copying allocates (memory_limit), and objects may autoload or run
	 * __wakeup()/__unserialize(), which can end in a fatal error: a short
	 * section must not outlive the fetch that way (its epoch would pin
	 * every replaced value for as long as the process lives). Those hooks
	 * must not suspend a Fiber mid-fetch either. */
	uint32_t outer = borrow ? st->read_depth : st->read_depth - 1;
	zend_fiber_switch_block();
	zend_try {
		rc = lazy && kind == RV_KIND_GRAPH ? rv_graph_materialize_lazy(RV_CTX, out, area, lazy)
			: rv_materialize(RV_CTX, out, kind, area, size, borrow);
	} zend_catch {
		zend_fiber_switch_unblock();
		rs_unwind(st, outer);
		zend_bailout();
	} zend_end_try();
	zend_fiber_switch_unblock();
	read_leave(st, borrow);
	return rc == SUCCESS;
}

static bool exists_one(resident_cache_obj *c, zend_string *key)
{
	rs_store *st = resident_store();
	if (!st) {
		return false;
	}
	bool borrow = read_enter(st, false);
	bool found = rs_peek(st, c->pool, ZSTR_VAL(key), ZSTR_LEN(key), 0) != NULL;
	read_leave(st, borrow);
	return found;
}

/* --- writing ------------------------------------------------------------------ */

/* Stores a planned value. Returns false, with a warning, when it cannot fit
 * (or with an exception pending). */
static bool store_planned(resident_cache_obj *c, zend_string *key, rv_plan *plan, int64_t expires, int64_t stale_until, bool only_if_absent)
{
	rs_store *st = resident_store();
	rs_reservation r;
	bool planned_again = false;
again:;
	/* Encoding objects allocates (memory_limit can end it anywhere): never
	 * while holding the lock. Arrays and strings are written without. */
	bool allocates = plan->kind == RV_KIND_GRAPH;
	rs_status rc = allocates ? rs_reserve_unlocked(st, c->pool, ZSTR_VAL(key), ZSTR_LEN(key), plan->size, plan->kind, expires, &r)
		: rs_reserve(st, c->pool, ZSTR_VAL(key), ZSTR_LEN(key), plan->size, plan->kind, expires, &r);
	switch (rc) {
		case RS_OK:
			break;
		case RS_NO_SLOT:
			php_error_docref(NULL, E_WARNING, "Every reader slot is in use: key \"%s\" holds objects, which this process cannot store now",
				ZSTR_VAL(key));
			return false;
		case RS_TOO_BIG:
			php_error_docref(NULL, E_WARNING, "Value for key \"%s\" needs %zu bytes; the whole cache can hold %zu bytes for a value of this key",
				ZSTR_VAL(key), plan->size, rs_max_value_size(st, ZSTR_LEN(key)));
			return false;
		case RS_NO_MEMORY: {
			rs_pool_stats ps = {0};
			rs_pool_stats_get(st, c->pool, &ps);
			if ((unsigned char)ps.name[0] < 0x20) {
				/* Resident's own pools: (remember)'s compute locks, (statics).
				 * Their handles may carry no name: the store's is the one. */
				char pool[RS_POOL_NAME_MAX + 3];
				resident_pool_display_name(ps.name, pool, sizeof(pool));
				php_error_docref(NULL, E_WARNING, "No room for Resident's own entry \"%s\" in pool %s (%zu bytes): what is left is pinned or still read by requests in flight",
					ZSTR_VAL(key), pool, plan->size);
			} else if (ps.pinned) {
				php_error_docref(NULL, E_WARNING, "Pinned pool \"%s\" is full: no room for key \"%s\" (%zu bytes), and pinned entries are never evicted",
					ZSTR_VAL(c->name), ZSTR_VAL(key), plan->size);
			} else {
				php_error_docref(NULL, E_WARNING, "No room for key \"%s\" (%zu bytes): what is left is pinned or still read by requests in flight",
					ZSTR_VAL(key), plan->size);
			}
			return false;
		}
		default:
			php_error_docref(NULL, E_WARNING, "Cannot store key \"%s\"", ZSTR_VAL(key));
			return false;
	}
	zend_result written;
	if (allocates) {
		zend_try {
			written = rv_write(plan, r.value);
		} zend_catch {
			rs_unwind(st, st->read_depth);
			zend_bailout();
		} zend_end_try();
	} else {
		written = rv_write(plan, r.value);
	}
	if (written == FAILURE) {
		rs_abort(st, &r);
		if (EG(exception)) {
			return false;
		}
		if (!planned_again) {
			/* It changed since it was planned: storeMultiple() plans every
			 * value first, and the hooks of the later ones may change an
			 * earlier one. Planned again, it is stored as it is now. */
			zval *value = plan->value;
			const rv_path *path = plan->path;
			uint32_t arg_num = plan->arg_num;
			rv_plan_release(plan);
			if (rv_plan_value(RV_CTX, plan, value, path, arg_num) == FAILURE) {
				return false;
			}
			planned_again = true;
			goto again;
		}
		zend_throw_error(NULL, "Value for key \"%s\" did not encode to the %zu bytes planned for it: not stored",
			ZSTR_VAL(key), plan->size);
		return false;
	}
	if (stale_until) {
		rs_reservation_keep_stale(&r, stale_until);
	}
	return rs_commit(st, &r, only_if_absent, resident_now_ms()) == RS_OK;
}

/* Stores a value like the last one of its root class without planning it
 * (see rv_write_unplanned): 1 stored, 0 not (exists, lost a race), -1
 * thrown, 2 plan it instead (did not fit, a hook must run, no room for the
 * guess: the planned way says why). */
static int store_unplanned(resident_cache_obj *c, zend_string *key, zval *value, size_t guess, const rv_path *path,
                           int64_t expires, int64_t stale_until, bool only_if_absent, uint32_t value_arg)
{
	rs_store *st = resident_store();
	rs_reservation r;
	/* A value that takes less gives the rest back at commit; one that
	 * takes more is planned. */
	if (rs_reserve_unlocked(st, c->pool, ZSTR_VAL(key), ZSTR_LEN(key), guess, RV_KIND_GRAPH, expires, &r) != RS_OK) {
		return 2;
	}
	size_t used;
	rv_unplanned written;
	/* Encoding allocates: memory_limit may end it anywhere. */
	zend_try {
		written = rv_write_unplanned(RV_CTX, value, path, value_arg, r.value, guess, &used);
	} zend_catch {
		rs_unwind(st, st->read_depth);
		zend_bailout();
	} zend_end_try();
	switch (written) {
		case RV_WRITTEN:
			break;
		case RV_REPLAN:
			rs_abort(st, &r);
			return 2;
		default:
			rs_abort(st, &r);
			return -1;
	}
	rs_reservation_shrink(&r, used);
	if (stale_until) {
		rs_reservation_keep_stale(&r, stale_until);
	}
	return rs_commit(st, &r, only_if_absent, resident_now_ms()) == RS_OK;
}

int resident_store_value(resident_cache_obj *c, zend_string *key, zval *value, int64_t expires,
                         int64_t stale_until, bool only_if_absent, uint32_t value_arg)
{
	if (!resident_store()) {
		return 0;
	}
	if (only_if_absent && exists_one(c, key)) {
		return 0;
	}
	rv_path root = { .kind = RV_PATH_ROOT, .name = "value" };
	size_t guess = Z_TYPE_P(value) == IS_OBJECT ? rv_size_guess(RV_CTX, value) : 0;
	if (guess) {
		int rc = store_unplanned(c, key, value, guess, &root, expires, stale_until, only_if_absent, value_arg);
		if (rc != 2) {
			return rc;
		}
	}
	rv_plan plan;
	if (rv_plan_value(RV_CTX, &plan, value, &root, value_arg) == FAILURE) {
		return -1;
	}
	bool ok = store_planned(c, key, &plan, expires, stale_until, only_if_absent);
	rv_plan_release(&plan);
	return ok;
}

/* --- methods -------------------------------------------------------------------- */

ZEND_METHOD(Resident_Cache, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
}

/* Control characters are kept for Resident's own pools. */
static bool pool_name_valid(const zend_string *name)
{
	if (ZSTR_LEN(name) == 0 || ZSTR_LEN(name) > RS_POOL_NAME_MAX) {
		return false;
	}
	for (size_t i = 0; i < ZSTR_LEN(name); i++) {
		if ((unsigned char)ZSTR_VAL(name)[i] < 0x20 || ZSTR_VAL(name)[i] == 0x7f) {
			return false;
		}
	}
	return true;
}

/* Opens (creating if needed) a pool and returns its Cache object. */
static zend_result resident_open_pool(zval *dst, zend_string *name, bool pinned, uint32_t name_arg)
{
	if (!pool_name_valid(name)) {
		zend_argument_value_error(name_arg, "must be between 1 and %d bytes without control characters", RS_POOL_NAME_MAX);
		return FAILURE;
	}
	/* metrics() and inspect() show Resident's own pools as "(remember)" and
	 * "(statics)"; a user pool of that form would be a second series with
	 * the same labels. */
	if (ZSTR_LEN(name) >= 2 && ZSTR_VAL(name)[0] == '(' && ZSTR_VAL(name)[ZSTR_LEN(name) - 1] == ')') {
		zend_argument_value_error(name_arg, "must not be enclosed in parentheses, which name Resident's own pools");
		return FAILURE;
	}
	uint16_t id = 0;
	rs_store *st = resident_store();
	if (st) {
		if (rs_pool_open(st, ZSTR_VAL(name), pinned, &id) != RS_OK) {
			zend_throw_error(NULL, "Cannot create pool \"%s\": all %d pools are in use", ZSTR_VAL(name), RS_MAX_POOLS);
			return FAILURE;
		}
		rs_pool_stats ps;
		rs_pool_stats_get(st, id, &ps);
		if (pinned && !ps.pinned) {
			zend_argument_value_error(name_arg + 1, "cannot pin pool \"%s\": it already exists unpinned", ZSTR_VAL(name));
			return FAILURE;
		}
	}
	object_init_ex(dst, resident_cache_ce);
	resident_cache_obj *c = resident_cache_of(Z_OBJ_P(dst));
	c->pool = id;
	c->name = zend_string_copy(name);
	return SUCCESS;
}

zend_result resident_cache_for_pool(zval *dst, zend_string *name)
{
	return resident_open_pool(dst, name, false, 1);
}

ZEND_METHOD(Resident_Cache, pool)
{
	zend_string *name = NULL;
	bool pinned = false;

	ZEND_PARSE_PARAMETERS_START(0, 2)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR(name)
		Z_PARAM_BOOL(pinned)
	ZEND_PARSE_PARAMETERS_END();

	if (resident_open_pool(return_value, name ? name : default_pool_name, pinned, 1) == FAILURE) {
		RETURN_THROWS();
	}
}

ZEND_METHOD(Resident_Cache, name)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_STR_COPY(THIS_CACHE()->name);
}

static void store_method(INTERNAL_FUNCTION_PARAMETERS, bool only_if_absent)
{
	zend_string *key;
	zval *value;
	zend_long ttl = 0;
	int64_t expires;

	ZEND_PARSE_PARAMETERS_START(2, 3)
		Z_PARAM_STR(key)
		Z_PARAM_ZVAL(value)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	if (check_key(key, 1) == FAILURE || resident_expiry(ttl, 3, &expires) == FAILURE) {
		RETURN_THROWS();
	}
	int rc = resident_store_value(THIS_CACHE(), key, value, expires, 0, only_if_absent, 2);
	if (rc < 0) {
		RETURN_THROWS();
	}
	RETURN_BOOL(rc);
}

ZEND_METHOD(Resident_Cache, store)
{
	store_method(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

ZEND_METHOD(Resident_Cache, add)
{
	store_method(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

ZEND_METHOD(Resident_Cache, fetch)
{
	zend_string *key;
	zval *def = NULL;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_STR(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_ZVAL(def)
	ZEND_PARSE_PARAMETERS_END();

	if (check_key(key, 1) == FAILURE) {
		RETURN_THROWS();
	}
	if (resident_fetch(THIS_CACHE(), key, return_value)) {
		return;
	}
	if (EG(exception)) {
		RETURN_THROWS();
	}
	if (def) {
		RETURN_COPY(def);
	}
	RETURN_NULL();
}

ZEND_METHOD(Resident_Cache, storeMultiple)
{
	HashTable *values;
	zend_long ttl = 0;
	int64_t expires;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ARRAY_HT(values)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	if (resident_expiry(ttl, 2, &expires) == FAILURE) {
		RETURN_THROWS();
	}
	uint32_t n = zend_hash_num_elements(values);
	zend_string **keys = safe_emalloc(n, sizeof(zend_string *), 0);
	rv_plan *plans = safe_emalloc(n, sizeof(rv_plan), 0);
	/* Where each value is, for messages: a plan keeps its path until it is
	 * written. */
	rv_path root = { .kind = RV_PATH_ROOT, .name = "values" };
	rv_path *paths = safe_emalloc(n, sizeof(rv_path), 0);
	uint32_t planned = 0;
	bool failed = false;
	zend_string *skey;
	zend_ulong idx;
	zval *val;

	/* Every key and value is checked before anything is stored: bad input
	 * leaves the cache unchanged. */
	ZEND_HASH_FOREACH_KEY_VAL(values, idx, skey, val) {
		zend_string *key = key_from_array_key(skey, idx, 1);
		if (!key) {
			failed = true;
			break;
		}
		rv_path *here = &paths[planned];
		*here = (rv_path){ .up = &root, .kind = skey ? RV_PATH_KEY : RV_PATH_INDEX, .index = idx, .key = skey };
		if (rv_plan_value(RV_CTX, &plans[planned], val, here, 1) == FAILURE) {
			zend_string_release(key);
			failed = true;
			break;
		}
		keys[planned++] = key;
	} ZEND_HASH_FOREACH_END();

	if (!failed) {
		array_init(return_value);
		resident_cache_obj *c = THIS_CACHE();
		for (uint32_t i = 0; i < planned && !EG(exception); i++) {
			if (!resident_store() || !store_planned(c, keys[i], &plans[i], expires, 0, false)) {
				add_next_index_str(return_value, zend_string_copy(keys[i]));
			}
		}
		if (EG(exception)) {
			/* A value changed since it was planned, into one that cannot be cached. */
			zval_ptr_dtor(return_value);
			ZVAL_NULL(return_value);
			failed = true;
		}
	}
	for (uint32_t i = 0; i < planned; i++) {
		rv_plan_release(&plans[i]);
		zend_string_release(keys[i]);
	}
	efree(plans);
	efree(paths);
	efree(keys);
	if (failed) {
		RETURN_THROWS();
	}
}

ZEND_METHOD(Resident_Cache, fetchMultiple)
{
	HashTable *keys;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ARRAY_HT(keys)
	ZEND_PARSE_PARAMETERS_END();

	array_init(return_value);
	resident_cache_obj *c = THIS_CACHE();
	zval *kz;
	ZEND_HASH_FOREACH_VAL(keys, kz) {
		zend_string *key = key_from_zval(kz, 1);
		if (!key) {
			zval_ptr_dtor(return_value);
			ZVAL_NULL(return_value);
			RETURN_THROWS();
		}
		zval v;
		if (resident_fetch(c, key, &v)) {
			zend_symtable_update(Z_ARRVAL_P(return_value), key, &v);
		}
		zend_string_release(key);
		if (EG(exception)) {
			zval_ptr_dtor(return_value);
			ZVAL_NULL(return_value);
			RETURN_THROWS();
		}
	} ZEND_HASH_FOREACH_END();
}

ZEND_METHOD(Resident_Cache, exists)
{
	zend_string *key;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(key)
	ZEND_PARSE_PARAMETERS_END();

	if (check_key(key, 1) == FAILURE) {
		RETURN_THROWS();
	}
	RETURN_BOOL(exists_one(THIS_CACHE(), key));
}

ZEND_METHOD(Resident_Cache, delete)
{
	zend_string *key;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(key)
	ZEND_PARSE_PARAMETERS_END();

	if (check_key(key, 1) == FAILURE) {
		RETURN_THROWS();
	}
	rs_store *st = resident_store();
	RETURN_BOOL(st && rs_delete(st, THIS_CACHE()->pool, ZSTR_VAL(key), ZSTR_LEN(key)) == RS_OK);
}

ZEND_METHOD(Resident_Cache, deleteMultiple)
{
	HashTable *keys;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ARRAY_HT(keys)
	ZEND_PARSE_PARAMETERS_END();

	uint32_t n = zend_hash_num_elements(keys), count = 0, deleted = 0;
	zend_string **list = safe_emalloc(n, sizeof(zend_string *), 0);
	zval *kz;
	ZEND_HASH_FOREACH_VAL(keys, kz) {
		zend_string *key = key_from_zval(kz, 1);
		if (!key) {
			break;
		}
		list[count++] = key;
	} ZEND_HASH_FOREACH_END();

	rs_store *st = resident_store();
	uint16_t pool = THIS_CACHE()->pool;
	for (uint32_t i = 0; i < count; i++) {
		if (!EG(exception) && st) {
			deleted += rs_delete(st, pool, ZSTR_VAL(list[i]), ZSTR_LEN(list[i])) == RS_OK;
		}
		zend_string_release(list[i]);
	}
	efree(list);
	if (EG(exception)) {
		RETURN_THROWS();
	}
	RETURN_LONG(deleted);
}

ZEND_METHOD(Resident_Cache, clear)
{
	ZEND_PARSE_PARAMETERS_NONE();
	rs_store *st = resident_store();
	if (!st) {
		RETURN_FALSE;
	}
	rs_clear(st, THIS_CACHE()->pool);
	RETURN_TRUE;
}

/* next = cur + step (up) or cur - step; false on overflow. */
static bool counter_apply(zend_long cur, zend_long step, bool up, zend_long *next)
{
	return up ? !__builtin_add_overflow(cur, step, next) : !__builtin_sub_overflow(cur, step, next);
}

static void counter_overflow(zend_string *key, zend_long cur, zend_long step, bool up)
{
	zend_throw_error(zend_ce_arithmetic_error, "%s of key \"%s\" by " ZEND_LONG_FMT " would overflow its value " ZEND_LONG_FMT,
		up ? "Increment" : "Decrement", ZSTR_VAL(key), step, cur);
}

/* Adds to the integer in place with a CAS loop: no lock, correct across
 * processes and threads. An increment that races with a store() or
 * delete() of the same key may be overwritten by it, as if it came first. */
static void counter_method(INTERNAL_FUNCTION_PARAMETERS, bool up)
{
	zend_string *key;
	zend_long step = 1, ttl = 0;
	int64_t expires;

	ZEND_PARSE_PARAMETERS_START(1, 3)
		Z_PARAM_STR(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(step)
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	if (check_key(key, 1) == FAILURE || resident_expiry(ttl, 3, &expires) == FAILURE) {
		RETURN_THROWS();
	}
	resident_cache_obj *c = THIS_CACHE();
	rs_store *st = resident_store();
	zend_long next;
	for (int attempt = 0; st && attempt < 100; attempt++) {
		bool borrow = read_enter(st, false);
		const rs_entry *e = rs_lookup(st, c->pool, ZSTR_VAL(key), ZSTR_LEN(key), 0);
		if (e) {
			zend_long *slot = rv_long_slot(rs_entry_kind(e), rs_entry_value(e));
			if (!slot) {
				const char *type = rv_type_name(rs_entry_kind(e), rs_entry_value(e));
				read_leave(st, borrow);
				zend_type_error("Resident\\Cache::%s(): key \"%s\" holds %s %s, not an integer",
					up ? "increment" : "decrement", ZSTR_VAL(key), strchr("aeiou", *type) ? "an" : "a", type);
				RETURN_THROWS();
			}
			zend_long cur = __atomic_load_n(slot, __ATOMIC_RELAXED);
			do {
				if (!counter_apply(cur, step, up, &next)) {
					read_leave(st, borrow);
					counter_overflow(key, cur, step, up);
					RETURN_THROWS();
				}
			} while (!__atomic_compare_exchange_n(slot, &cur, next, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
			read_leave(st, borrow);
			RETURN_LONG(next);
		}
		read_leave(st, borrow);
		/* A missing key starts at 0; the TTL applies from its creation. */
		if (!counter_apply(0, step, up, &next)) {
			counter_overflow(key, 0, step, up);
			RETURN_THROWS();
		}
		zval first;
		ZVAL_LONG(&first, next);
		int rc = resident_store_value(c, key, &first, expires, 0, true, 2);
		if (rc == 1) {
			RETURN_LONG(next);
		}
		if (rc < 0 || EG(exception)) {
			RETURN_THROWS();
		}
		if (!exists_one(c, key)) {
			/* Not stored, and nobody else created it: no room (warned). */
			RETURN_FALSE;
		}
		/* Created by someone else meanwhile: add to theirs. */
	}
	RETURN_FALSE;
}

ZEND_METHOD(Resident_Cache, increment)
{
	counter_method(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

ZEND_METHOD(Resident_Cache, decrement)
{
	counter_method(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

ZEND_METHOD(Resident_Cache, cas)
{
	zend_string *key;
	zend_long old, new;

	ZEND_PARSE_PARAMETERS_START(3, 3)
		Z_PARAM_STR(key)
		Z_PARAM_LONG(old)
		Z_PARAM_LONG(new)
	ZEND_PARSE_PARAMETERS_END();

	if (check_key(key, 1) == FAILURE) {
		RETURN_THROWS();
	}
	rs_store *st = resident_store();
	if (!st) {
		RETURN_FALSE;
	}
	resident_cache_obj *c = THIS_CACHE();
	bool borrow = read_enter(st, false);
	const rs_entry *e = rs_lookup(st, c->pool, ZSTR_VAL(key), ZSTR_LEN(key), 0);
	if (!e) {
		read_leave(st, borrow);
		RETURN_FALSE;
	}
	zend_long *slot = rv_long_slot(rs_entry_kind(e), rs_entry_value(e));
	if (!slot) {
		const char *type = rv_type_name(rs_entry_kind(e), rs_entry_value(e));
		read_leave(st, borrow);
		zend_type_error("Resident\\Cache::cas(): key \"%s\" holds %s %s, not an integer",
			ZSTR_VAL(key), strchr("aeiou", *type) ? "an" : "a", type);
		RETURN_THROWS();
	}
	bool swapped = __atomic_compare_exchange_n(slot, &old, new, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
	read_leave(st, borrow);
	RETURN_BOOL(swapped);
}

ZEND_METHOD(Resident_Cache, remember)
{
	zend_string *key;
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	zend_long ttl = 0, stale_ttl = 0;
	int64_t expires, stale_until = 0;

	ZEND_PARSE_PARAMETERS_START(2, 4)
		Z_PARAM_STR(key)
		Z_PARAM_FUNC(fci, fcc)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(ttl)
		Z_PARAM_LONG(stale_ttl)
	ZEND_PARSE_PARAMETERS_END();

	if (check_key(key, 1) == FAILURE || resident_expiry(ttl, 3, &expires) == FAILURE) {
		RETURN_THROWS();
	}
	if (stale_ttl < 0) {
		zend_argument_value_error(4, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	if (stale_ttl > 0) {
		if (ttl == 0) {
			zend_argument_value_error(4, "needs a TTL: a value that never expires is never stale");
			RETURN_THROWS();
		}
		if (stale_ttl > (INT64_MAX - expires) / 1000) {
			zend_argument_value_error(4, "is too large");
			RETURN_THROWS();
		}
		stale_until = expires + (int64_t)stale_ttl * 1000;
	}
	resident_remember(THIS_CACHE(), key, &fci, &fcc, expires, stale_until, return_value);
}

ZEND_METHOD(Resident_Cache, keys)
{
	zend_string *prefix = NULL;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR(prefix)
	ZEND_PARSE_PARAMETERS_END();

	resident_key_iterator_create(return_value, THIS_CACHE()->pool, prefix ? prefix : ZSTR_EMPTY_ALLOC());
}

ZEND_METHOD(Resident_Cache, info)
{
	ZEND_PARSE_PARAMETERS_NONE();
	resident_cache_obj *c = THIS_CACHE();
	rs_pool_stats ps = {0};
	rs_store *st = resident_store();
	if (st) {
		rs_pool_stats_get(st, c->pool, &ps);
	}
	array_init(return_value);
	add_assoc_str(return_value, "name", zend_string_copy(c->name));
	add_assoc_bool(return_value, "pinned", ps.pinned);
	add_assoc_long(return_value, "entries", (zend_long)ps.entries);
	add_assoc_long(return_value, "memory", (zend_long)ps.bytes);
	add_assoc_long(return_value, "hits", (zend_long)ps.hits);
	add_assoc_long(return_value, "misses", (zend_long)ps.misses);
	add_assoc_long(return_value, "stores", (zend_long)ps.stores);
	add_assoc_long(return_value, "deletes", (zend_long)ps.deletes);
	add_assoc_long(return_value, "evictions", (zend_long)ps.evictions);
	add_assoc_long(return_value, "expirations", (zend_long)ps.expirations);
}

ZEND_METHOD(Resident_Cache, inspect)
{
	zend_long top = 20, cells = 256;
	ZEND_PARSE_PARAMETERS_START(0, 2)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(top)
		Z_PARAM_LONG(cells)
	ZEND_PARSE_PARAMETERS_END();
	if (top < 1 || top > 1000) {
		zend_argument_value_error(1, "must be between 1 and 1000");
		RETURN_THROWS();
	}
	if (cells < 1 || cells > 65536) {
		zend_argument_value_error(2, "must be between 1 and 65536");
		RETURN_THROWS();
	}
	rs_store *st = resident_store();
	if (!st) {
		array_init(return_value);
		return;
	}
	resident_inspect(st, top, cells, return_value);
}

ZEND_METHOD(Resident_Cache, dump)
{
	zend_string *file;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_PATH_STR(file)
	ZEND_PARSE_PARAMETERS_END();
	char err[512];
	rs_dump_stats ds;
	if (!resident_dump(ZSTR_VAL(file), &ds, err, sizeof(err))) {
		php_error_docref(NULL, E_WARNING, "%s", err);
		RETURN_FALSE;
	}
	RETURN_LONG((zend_long)ds.entries);
}

ZEND_METHOD(Resident_Cache, restore)
{
	zend_string *file;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_PATH_STR(file)
	ZEND_PARSE_PARAMETERS_END();
	char err[512];
	rs_dump_stats ds;
	if (!resident_restore(ZSTR_VAL(file), &ds, err, sizeof(err))) {
		php_error_docref(NULL, E_WARNING, "%s is refused: %s", ZSTR_VAL(file), err);
		RETURN_FALSE;
	}
	RETURN_LONG((zend_long)ds.entries);
}

ZEND_METHOD(Resident_Cache, metrics)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_STR(resident_metrics(resident_store()));
}

ZEND_METHOD(Resident_Cache, forgetStatics)
{
	zend_string *class_name = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(class_name)
	ZEND_PARSE_PARAMETERS_END();
	if (class_name && (ZSTR_LEN(class_name) == 0 || (ZSTR_LEN(class_name) == 1 && ZSTR_VAL(class_name)[0] == '\\'))) {
		zend_argument_value_error(1, "must be a class name or null");
		RETURN_THROWS();
	}
	RETURN_LONG(ros_forget(class_name));
}

ZEND_METHOD(Resident_Cache, status)
{
	ZEND_PARSE_PARAMETERS_NONE();
	array_init(return_value);
	rs_store *st = resident_store();
	add_assoc_bool(return_value, "available", st != NULL);
	add_assoc_string(return_value, "version", PHP_RESIDENT_VERSION);
	if (!st) {
		add_assoc_string(return_value, "reason", (char *)resident_unavailable_reason());
		return;
	}
	rs_segment_stats s;
	rs_segment_stats_get(st, &s);
	add_assoc_string(return_value, "zero_copy", RESIDENT_G(borrow_mode) ? "borrow" : "copy");
	if (resident_segment_path()) {
		add_assoc_string(return_value, "segment", (char *)resident_segment_path());
	} else {
		add_assoc_null(return_value, "segment");
	}
	add_assoc_long(return_value, "memory_size", (zend_long)s.total_bytes);
	add_assoc_long(return_value, "memory_heap", (zend_long)s.heap_bytes);
	add_assoc_long(return_value, "memory_used", (zend_long)s.used_bytes);
	add_assoc_long(return_value, "memory_free", (zend_long)s.free_bytes);
	add_assoc_long(return_value, "largest_free_block", (zend_long)s.largest_free);
	add_assoc_long(return_value, "free_blocks", (zend_long)s.free_blocks);
	add_assoc_double(return_value, "fragmentation", s.free_bytes ? 1.0 - (double)s.largest_free / (double)s.free_bytes : 0.0);
	add_assoc_long(return_value, "limbo_bytes", (zend_long)s.limbo_bytes);
	add_assoc_long(return_value, "limbo_entries", (zend_long)s.limbo_entries);
	add_assoc_long(return_value, "entries", (zend_long)s.entries);
	add_assoc_long(return_value, "hits", (zend_long)s.hits);
	add_assoc_long(return_value, "misses", (zend_long)s.misses);
	add_assoc_long(return_value, "stores", (zend_long)s.stores);
	add_assoc_long(return_value, "evictions", (zend_long)s.evictions);
	add_assoc_long(return_value, "expirations", (zend_long)s.expirations);
	add_assoc_long(return_value, "lock_waits", (zend_long)s.lock_waits);
	add_assoc_long(return_value, "reader_waits", (zend_long)s.reader_waits);
	add_assoc_long(return_value, "recoveries", (zend_long)s.recoveries);
	add_assoc_long(return_value, "dead_slots_cleared", (zend_long)s.dead_slots);
	add_assoc_long(return_value, "slots_used", (zend_long)s.slots_used);
	add_assoc_long(return_value, "slots_total", (zend_long)s.slots_total);
	add_assoc_long(return_value, "pools", (zend_long)s.pools);
	add_assoc_long(return_value, "buckets", (zend_long)s.buckets);
	zval ros;
	ros_status(&ros);
	add_assoc_zval(return_value, "request_over_static", &ros);
	if (resident_restored_entries() >= 0) {
		add_assoc_long(return_value, "restored_at_start", (zend_long)resident_restored_entries());
	} else {
		add_assoc_null(return_value, "restored_at_start");
	}
}

void resident_api_register(int module_number, bool testing)
{
	default_pool_name = zend_string_init_interned("default", sizeof("default") - 1, 1);
	register_resident_symbols(module_number);
	resident_cache_ce = register_class_Resident_Cache();
	resident_cache_ce->create_object = cache_create;
	memcpy(&resident_cache_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	resident_cache_handlers.offset = XtOffsetOf(resident_cache_obj, std);
	resident_cache_handlers.free_obj = cache_free;
	resident_cache_handlers.clone_obj = NULL;
	resident_key_iterator_register(register_class_Resident_KeyIterator(zend_ce_iterator));
	resident_request_over_static_ce = register_class_Resident_RequestOverStatic();
	if (testing) {
		register_class_Resident_Testing();
	}
}
