/* SPDX-License-Identifier: MIT */
/*
 * Storing a PHP value into a pool: planned (sized first) or in one pass into
 * a reservation of a guessed size, never running PHP code or allocating
 * request memory while the segment's lock is held.
 */
#include "php.h"
#include "php_resident.h"
#include "cache.h"
#include "runtime/segment.h"
#include "value/value.h"

/* Why a store failed, unless the caller's API answers false without a word. */
static void store_failed(const char *fmt, ...) ZEND_ATTRIBUTE_FORMAT(printf, 1, 2);
static void store_failed(const char *fmt, ...)
{
	if (RESIDENT_G(quiet_stores)) {
		return;
	}
	va_list args;
	va_start(args, fmt);
	zend_string *msg = zend_vstrpprintf(0, fmt, args);
	va_end(args);
	php_error_docref(NULL, E_WARNING, "%s", ZSTR_VAL(msg));
	zend_string_release(msg);
}

/* Stores a planned value. Returns false, with a warning, when it cannot fit
 * (or with an exception pending). */
bool resident_store_planned(resident_cache_obj *c, zend_string *key, rv_plan *plan, int64_t expires, int64_t stale_until, bool only_if_absent)
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
	if (plan->estimated && (rc == RS_TOO_BIG || rc == RS_NO_MEMORY)) {
		/* The estimate may be larger than the value: refuse it for its
		 * exact size only. */
		if (rv_plan_exact(plan) == FAILURE) {
			return false;
		}
		goto again;
	}
	switch (rc) {
		case RS_OK:
			break;
		case RS_NO_SLOT:
			store_failed("Every reader slot is in use: key \"%s\" holds objects, which this process cannot store now",
				ZSTR_VAL(key));
			return false;
		case RS_TOO_BIG:
			store_failed("Value for key \"%s\" needs %zu bytes; the whole cache can hold %zu bytes for a value of this key",
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
				store_failed("No room for Resident's own entry \"%s\" in pool %s (%zu bytes): what is left is pinned or still read by requests in flight",
					ZSTR_VAL(key), pool, plan->size);
			} else if (ps.pinned) {
				store_failed("Pinned pool \"%s\" is full: no room for key \"%s\" (%zu bytes), and pinned entries are never evicted",
					ZSTR_VAL(c->name), ZSTR_VAL(key), plan->size);
			} else if (rs_eviction_policy(st) == RS_EVICT_NONE) {
				store_failed("No room for key \"%s\" (%zu bytes): the cache is full, and its eviction policy is none",
					ZSTR_VAL(key), plan->size);
			} else {
				store_failed("No room for key \"%s\" (%zu bytes): what is left is pinned or still read by requests in flight",
					ZSTR_VAL(key), plan->size);
			}
			return false;
		}
		default:
			store_failed("Cannot store key \"%s\"", ZSTR_VAL(key));
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
		if (plan->out_of_stack) {
			rv_refuse_out_of_stack(plan);
			return false;
		}
		if (EG(exception)) {
			return false;
		}
		if (plan->estimated) {
			/* Its hooks changed what was sized before they ran. Sized
			 * again (without running them), it is written as it is now. */
			if (rv_plan_exact(plan) == FAILURE) {
				return false;
			}
			goto again;
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
	if (plan->used < plan->size) {
		rs_reservation_shrink(&r, plan->used);
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

static int store_value(resident_cache_obj *c, zend_string *key, zval *value, int64_t expires,
                       int64_t stale_until, bool only_if_absent, uint32_t value_arg, rv_path *root)
{
	if (!resident_store()) {
		return 0;
	}
	if (only_if_absent && resident_exists(c, key)) {
		return 0;
	}
	size_t guess = Z_TYPE_P(value) == IS_OBJECT ? rv_size_guess(RV_CTX, value) : 0;
	if (guess) {
		int rc = store_unplanned(c, key, value, guess, root, expires, stale_until, only_if_absent, value_arg);
		if (rc != 2) {
			return rc;
		}
	}
	rv_plan plan;
	if (rv_plan_store(RV_CTX, &plan, value, root, value_arg) == FAILURE) {
		return -1;
	}
	bool ok = resident_store_planned(c, key, &plan, expires, stale_until, only_if_absent);
	rv_plan_release(&plan);
	/* Thrown: planning an estimated size again refused the value. */
	return ok ? 1 : EG(exception) ? -1 : 0;
}

int resident_store_value(resident_cache_obj *c, zend_string *key, zval *value, int64_t expires,
                         int64_t stale_until, bool only_if_absent, uint32_t value_arg)
{
	/* Hooks run while planning (__serialize(), __sleep()) read the value,
	 * which may hold borrowed parts. A bailout leaves the count to the
	 * request's end. */
	rv_path root = { .kind = RV_PATH_ROOT, .name = "value" };
	RESIDENT_G(cache_calls)++;
	int rc = store_value(c, key, value, expires, stale_until, only_if_absent, value_arg, &root);
	RESIDENT_G(cache_calls)--;
	return rc;
}

int resident_store_result(resident_cache_obj *c, zend_string *key, zval *value, int64_t expires,
                          int64_t stale_until, uint32_t callable_arg, bool wrapped)
{
	/* "$compute()['a']": what the user wrote is the call, not a $value. */
	const char *arg = get_active_function_arg_name(callable_arg);
	char name[64];
	snprintf(name, sizeof(name), "%s()", arg ? arg : "value");
	rv_path root = { .kind = RV_PATH_ROOT, .name = name, .wrapped = wrapped };
	RESIDENT_G(cache_calls)++;
	int rc = store_value(c, key, value, expires, stale_until, false, callable_arg, &root);
	RESIDENT_G(cache_calls)--;
	return rc;
}

resident_counter resident_counter_add(resident_cache_obj *c, zend_string *key, zend_long step, bool up, int64_t expires,
                                      zend_long *value, const char **type)
{
	rs_store *st = resident_store();
	zend_long next;
	/* A store() or delete() of the same key racing with it may overwrite
	 * the update, as if it came first; a new counter racing with another
	 * is retried on the one that won. */
	for (int attempt = 0; st && attempt < 100; attempt++) {
		bool borrow = resident_read_enter(st, false);
		const rs_entry *e = rs_lookup(st, c->pool, ZSTR_VAL(key), ZSTR_LEN(key), 0);
		if (e) {
			zend_long *slot = rv_long_slot(rs_entry_kind(e), rs_entry_value(e));
			if (!slot) {
				*type = rv_type_name(rs_entry_kind(e), rs_entry_value(e));
				resident_read_leave(st, borrow);
				return RESIDENT_COUNTER_NOT_INTEGER;
			}
			zend_long cur = __atomic_load_n(slot, __ATOMIC_RELAXED);
			do {
				if (up ? __builtin_add_overflow(cur, step, &next) : __builtin_sub_overflow(cur, step, &next)) {
					resident_read_leave(st, borrow);
					*value = cur;
					return RESIDENT_COUNTER_OVERFLOW;
				}
			} while (!__atomic_compare_exchange_n(slot, &cur, next, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
			resident_read_leave(st, borrow);
			*value = next;
			return RESIDENT_COUNTER_DONE;
		}
		resident_read_leave(st, borrow);
		if (up ? __builtin_add_overflow((zend_long)0, step, &next) : __builtin_sub_overflow((zend_long)0, step, &next)) {
			*value = 0;
			return RESIDENT_COUNTER_OVERFLOW;
		}
		zval first;
		ZVAL_LONG(&first, next);
		int rc = resident_store_value(c, key, &first, expires, 0, true, 2);
		if (rc == 1) {
			*value = next;
			return RESIDENT_COUNTER_DONE;
		}
		if (rc < 0 || EG(exception)) {
			return RESIDENT_COUNTER_THREW;
		}
		if (!resident_exists(c, key)) {
			return RESIDENT_COUNTER_NOT_STORED;
		}
	}
	return RESIDENT_COUNTER_NOT_STORED;
}
