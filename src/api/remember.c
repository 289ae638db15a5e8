/* SPDX-License-Identifier: MIT */
/*
 * Resident\Cache::remember(): single-flight computation across every worker
 * of the host.
 *
 * The first caller that misses takes a compute lock (an entry added to a
 * hidden, pinned pool, with the lease as its TTL), computes, stores, and
 * drops the lock. Everyone else either gets the stale value at once (when
 * the entry is past its TTL but within its stale period) or waits, polling,
 * until the value appears. A lock whose holder died is taken over as soon as
 * that is noticed (its reader slot released or its owner gone, which also
 * holds across PID namespaces), and at the latest when its lease ends.
 * Only callers of the same key ever wait; nothing holds the segment lock
 * while user code runs (APCu's apcu_entry() does).
 */
#include <unistd.h>
#include "php.h"
#include "php_resident.h"
#include "runtime/segment.h"
#include "api.h"
#include "value/value.h"
#include "ext/standard/md5.h"

#define LEASE_MS 30000
#define LOCK_POOL "\x01remember"

/* A lock's token says who holds it: the holder's reader slot, by its owner
 * id (rs_owner_id, 40 bits), which unlike a pid means the same in every PID
 * namespace that shares the segment, and a sequence number. Without a
 * slot (none free) the owner is 0: nobody can tell whether the holder
 * lives, so waiters wait for its lease. */
#define TOKEN_SEQ_BITS 23

static zend_long next_token(rs_store *st)
{
	static uint32_t seq = 0;
	return (zend_long)(rs_owner_id(st) << TOKEN_SEQ_BITS | (++seq & ((1u << TOKEN_SEQ_BITS) - 1)));
}

/* "<pool>:<key>", or, for a key too long to carry a prefix (any legal key
 * must get its lock), "<pool>#<md5 of the key>": two long keys that shared
 * a lock would only compute one after the other. */
static zend_string *lock_key(const resident_cache_obj *c, const zend_string *key)
{
	zend_string *plain = zend_strpprintf(0, "%u:%s", (unsigned)c->pool, ZSTR_VAL(key));
	if (ZSTR_LEN(plain) <= RS_KEY_MAX) {
		return plain;
	}
	zend_string_release(plain);
	PHP_MD5_CTX ctx;
	unsigned char digest[16];
	char hex[33];
	PHP_MD5Init(&ctx);
	PHP_MD5Update(&ctx, ZSTR_VAL(key), ZSTR_LEN(key));
	PHP_MD5Final(digest, &ctx);
	make_digest_ex(hex, digest, 16);
	return zend_strpprintf(0, "%u#%s", (unsigned)c->pool, hex);
}

typedef struct compute_lock {
	resident_cache_obj pool;  /* the hidden lock pool, as a cache handle */
	zend_string *key;
	zend_long token;
} compute_lock;

static bool lock_init(compute_lock *l, rs_store *st, const resident_cache_obj *c, const zend_string *key)
{
	memset(l, 0, sizeof(*l));
	if (rs_pool_open(st, LOCK_POOL, true, &l->pool.pool) != RS_OK) {
		return false;
	}
	l->pool.name = zend_string_init(LOCK_POOL, sizeof(LOCK_POOL) - 1, 0);
	l->key = lock_key(c, key);
	l->token = next_token(st);
	return true;
}

static void lock_destroy(compute_lock *l)
{
	if (l->key) {
		zend_string_release(l->key);
	}
	if (l->pool.name) {
		zend_string_release(l->pool.name);
	}
}

static bool lock_present(rs_store *st, compute_lock *l)
{
	rs_read_begin(st);
	bool present = rs_peek(st, l->pool.pool, ZSTR_VAL(l->key), ZSTR_LEN(l->key), 0) != NULL;
	rs_read_end(st);
	return present;
}

/* 1 taken, 0 held by someone else, -1 exception, 2 no room for the lock
 * itself (the cache is full of what requests in flight still read; the
 * warning says so). */
static int lock_take(rs_store *st, compute_lock *l)
{
	zval token;
	ZVAL_LONG(&token, l->token);
	int rc = resident_store_value(&l->pool, l->key, &token, resident_now_ms() + LEASE_MS, 0, true, 2);
	if (rc == 0 && !EG(exception) && !lock_present(st, l)) {
		return 2;
	}
	return rc;
}

static void lock_release(rs_store *st, compute_lock *l)
{
	/* Only if it is still ours: after its lease it may belong to another. */
	rs_delete_if(st, l->pool.pool, ZSTR_VAL(l->key), ZSTR_LEN(l->key), &l->token, sizeof(l->token));
}

/* The lock is free, or its holder is gone (then the lock is dropped). */
static bool lock_abandoned(rs_store *st, compute_lock *l)
{
	rs_read_begin(st);
	const rs_entry *e = rs_peek(st, l->pool.pool, ZSTR_VAL(l->key), ZSTR_LEN(l->key), 0);
	zend_long holder = 0;
	const zend_long *slot = e ? rv_long_slot(rs_entry_kind(e), rs_entry_value(e)) : NULL;
	if (slot) {
		holder = *slot;
	}
	rs_read_end(st);
	if (!e) {
		return true;
	}
	uint64_t owner = (uint64_t)holder >> TOKEN_SEQ_BITS;
	if (owner && !rs_owner_alive(st, owner)) {
		rs_delete_if(st, l->pool.pool, ZSTR_VAL(l->key), ZSTR_LEN(l->key), &holder, sizeof(holder));
		return true;
	}
	return false;
}

/* The computes this request is inside of, so that a $compute that asks for
 * its own key fails at once instead of waiting a whole lease for itself. */
struct remember_frame {
	const zend_string *lock_key;
	struct remember_frame *outer;
};

static bool computing(const compute_lock *l)
{
	for (const struct remember_frame *f = RESIDENT_G(remember_frames); f; f = f->outer) {
		if (zend_string_equals(f->lock_key, l->key)) {
			return true;
		}
	}
	return false;
}

/* Calls $compute and caches its result; the result is the return value. */
static void compute_and_store(resident_cache_obj *c, zend_string *key, zend_fcall_info *fci, zend_fcall_info_cache *fcc,
                              int64_t expires, int64_t stale_until, zval *return_value)
{
	zval result;
	ZVAL_UNDEF(&result);
	fci->retval = &result;
	fci->param_count = 0;
	fci->params = NULL;
	fci->named_params = NULL;
	if (zend_call_function(fci, fcc) == FAILURE || EG(exception)) {
		zval_ptr_dtor(&result);
		return;
	}
	if (resident_store_result(c, key, &result, expires, stale_until, 2, false) < 0) {
		zval_ptr_dtor(&result);
		return;
	}
	ZVAL_COPY_VALUE(return_value, &result);
}

void resident_remember(resident_cache_obj *c, zend_string *key, zend_fcall_info *fci, zend_fcall_info_cache *fcc,
                       int64_t expires, int64_t stale_until, zval *return_value)
{
	rs_store *st = resident_store();
	zval found;
	bool stale = false;

	if (!st) {
		compute_and_store(c, key, fci, fcc, expires, stale_until, return_value);
		return;
	}
	if (resident_fetch_stale(c, key, &found, &stale)) {
		if (!stale) {
			RETURN_COPY_VALUE(&found);
		}
	} else if (EG(exception)) {
		return;
	} else {
		ZVAL_UNDEF(&found);
	}

	compute_lock lock;
	if (!lock_init(&lock, st, c, key)) {
		/* No pool left for locks: compute without single flight. */
		zval_ptr_dtor(&found);
		compute_and_store(c, key, fci, fcc, expires, stale_until, return_value);
		return;
	}
	int64_t deadline = resident_now_ms() + LEASE_MS;
	useconds_t pause = 100;
	for (;;) {
		int taken = lock_take(st, &lock);
		if (taken < 0) {
			break;
		}
		if (taken == 2) {
			/* Waiting would spin until memory comes back, which may be
			 * as long as the longest request in flight: compute without
			 * single flight, as when there is no pool left for locks. */
			zval_ptr_dtor(&found);
			ZVAL_UNDEF(&found);
			compute_and_store(c, key, fci, fcc, expires, stale_until, return_value);
			break;
		}
		if (taken) {
			zval_ptr_dtor(&found);
			ZVAL_UNDEF(&found);
			struct remember_frame frame = { lock.key, RESIDENT_G(remember_frames) };
			RESIDENT_G(remember_frames) = &frame;
			volatile bool bailed_out = false;
			/* A fatal error in $compute (max_execution_time, memory_limit,
			 * E_USER_ERROR) jumps out of it. The process lives on (php-fpm's
			 * next request), so the lock must not stay behind with our pid:
			 * every caller of the key would wait the whole lease. */
			zend_try {
				compute_and_store(c, key, fci, fcc, expires, stale_until, return_value);
			} zend_catch {
				bailed_out = true;
			} zend_end_try();
			RESIDENT_G(remember_frames) = frame.outer;
			lock_release(st, &lock);
			if (bailed_out) {
				lock_destroy(&lock);
				zend_bailout();
			}
			break;
		}
		if (Z_TYPE(found) != IS_UNDEF) {
			/* Someone is refreshing it: the stale value will do, now. */
			ZVAL_COPY_VALUE(return_value, &found);
			ZVAL_UNDEF(&found);
			break;
		}
		if (computing(&lock)) {
			zend_throw_error(NULL, "Resident\\Cache::remember(): the $compute of key \"%s\" asked for that key itself, and would wait for its own result",
				ZSTR_VAL(key));
			break;
		}
		do {
			usleep(pause);
			pause = pause < 5000 ? pause * 2 : 5000;
			if (resident_fetch(c, key, return_value)) {
				goto done;
			}
			if (EG(exception)) {
				goto done;
			}
		} while (!lock_abandoned(st, &lock) && resident_now_ms() < deadline);
		if (resident_now_ms() >= deadline) {
			/* The holder is alive but slow past its lease: compute too. */
			compute_and_store(c, key, fci, fcc, expires, stale_until, return_value);
			break;
		}
	}
done:
	zval_ptr_dtor(&found);
	lock_destroy(&lock);
}
