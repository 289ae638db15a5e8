/* SPDX-License-Identifier: MIT */
/*
 * Resident\Cache::increment(), decrement() and cas(): integers changed in
 * place with compare-and-swap, no lock, correct across processes and
 * threads.
 */
#include "php.h"
#include "php_resident.h"
#include "api.h"
#include "arguments.h"
#include "cache/cache.h"
#include "runtime/segment.h"
#include "value/value.h"
#include "zend_exceptions.h"

#define THIS_CACHE() resident_cache_of(Z_OBJ_P(ZEND_THIS))

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

	if (resident_check_key(key, 1) == FAILURE || resident_expiry(ttl, 3, &expires) == FAILURE) {
		RETURN_THROWS();
	}
	resident_cache_obj *c = THIS_CACHE();
	rs_store *st = resident_store();
	zend_long next;
	for (int attempt = 0; st && attempt < 100; attempt++) {
		bool borrow = resident_read_enter(st, false);
		const rs_entry *e = rs_lookup(st, c->pool, ZSTR_VAL(key), ZSTR_LEN(key), 0);
		if (e) {
			zend_long *slot = rv_long_slot(rs_entry_kind(e), rs_entry_value(e));
			if (!slot) {
				const char *type = rv_type_name(rs_entry_kind(e), rs_entry_value(e));
				resident_read_leave(st, borrow);
				zend_type_error("Resident\\Cache::%s(): key \"%s\" holds %s %s, not an integer",
					up ? "increment" : "decrement", ZSTR_VAL(key), strchr("aeiou", *type) ? "an" : "a", type);
				RETURN_THROWS();
			}
			zend_long cur = __atomic_load_n(slot, __ATOMIC_RELAXED);
			do {
				if (!counter_apply(cur, step, up, &next)) {
					resident_read_leave(st, borrow);
					counter_overflow(key, cur, step, up);
					RETURN_THROWS();
				}
			} while (!__atomic_compare_exchange_n(slot, &cur, next, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
			resident_read_leave(st, borrow);
			RETURN_LONG(next);
		}
		resident_read_leave(st, borrow);
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
		if (!resident_exists(c, key)) {
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

	if (resident_check_key(key, 1) == FAILURE) {
		RETURN_THROWS();
	}
	rs_store *st = resident_store();
	if (!st) {
		RETURN_FALSE;
	}
	resident_cache_obj *c = THIS_CACHE();
	bool borrow = resident_read_enter(st, false);
	const rs_entry *e = rs_lookup(st, c->pool, ZSTR_VAL(key), ZSTR_LEN(key), 0);
	if (!e) {
		resident_read_leave(st, borrow);
		RETURN_FALSE;
	}
	zend_long *slot = rv_long_slot(rs_entry_kind(e), rs_entry_value(e));
	if (!slot) {
		const char *type = rv_type_name(rs_entry_kind(e), rs_entry_value(e));
		resident_read_leave(st, borrow);
		zend_type_error("Resident\\Cache::cas(): key \"%s\" holds %s %s, not an integer",
			ZSTR_VAL(key), strchr("aeiou", *type) ? "an" : "a", type);
		RETURN_THROWS();
	}
	bool swapped = __atomic_compare_exchange_n(slot, &old, new, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
	resident_read_leave(st, borrow);
	RETURN_BOOL(swapped);
}
