/* SPDX-License-Identifier: MIT */
/*
 * UserCache\Cache::lock() and unlock(), and what a held lock means to the
 * other requests: their writes of the key wait for it (10 s at most, then
 * fail), clear() and deletePool() of its pool are refused.
 *
 * A lock is an entry of the pinned pool "(user_cache_locks)" under the
 * key's store key, holding its owner's token: the owner's reader slot and
 * that slot's claim count (rs_owner_id, the same in every PID namespace
 * sharing the segment), and a sequence number of the request. A lock taken
 * with a lease has that TTL. It is held while it is there and either its
 * lease runs or its owner lives: a request that ends releases its locks,
 * except leased ones, which it disowns (token 0) and which stay until their
 * lease ends; a process that dies leaves its unleased locks to be taken
 * over by the next one that looks. Nothing here holds the segment's lock
 * while PHP code runs.
 */
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>
#include "php.h"
#include "php_resident.h"
#include "runtime/segment.h"
#include "value/value.h"
#include "usercache.h"

#define TOKEN_SEQ_BITS 23
/* How long a write waits for another request's lock: the proposal's 10 s,
 * on a precise clock (the coarse one the store reads for TTLs may lag a
 * tick, which cut waits a few ms short), plus one microsecond, the clock's
 * unit: a wait that starts late in one still lasts the full 10 s. */
#define WAIT_US 10000001

static int64_t wait_clock_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

typedef struct lock_seen {
	bool present;
	zend_long token;
	int64_t expires_ms;
} lock_seen;

/* This request's token, 0 when no reader slot is free (who holds a lock
 * must be known). */
static zend_long request_token(user_cache_request *r, rs_store *st)
{
	static _Atomic uint32_t seq;
	if (!r->token) {
		uint64_t owner = rs_owner_id(st);
		if (!owner) {
			return 0;
		}
		uint32_t n = (atomic_fetch_add(&seq, 1) + 1) & ((1u << TOKEN_SEQ_BITS) - 1);
		r->token = (zend_long)(owner << TOKEN_SEQ_BITS | n);
	}
	return r->token;
}

static void peek(rs_store *st, const resident_cache_obj *locks, const char *key, size_t len, lock_seen *out)
{
	memset(out, 0, sizeof(*out));
	rs_read_begin(st);
	const rs_entry *e = rs_peek(st, locks->pool, key, len, 0);
	const zend_long *slot = e ? rv_long_slot(rs_entry_kind(e), rs_entry_value(e)) : NULL;
	if (slot) {
		out->present = true;
		out->token = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
		out->expires_ms = rs_entry_expires(e);
	}
	rs_read_end(st);
}

/* A lock whose owner is gone (token 0: its request ended) holds only for
 * its lease; an expired one is not found at all. */
static bool active(rs_store *st, const lock_seen *l)
{
	uint64_t owner = (uint64_t)l->token >> TOKEN_SEQ_BITS;
	if (!owner || !rs_owner_alive(st, owner)) {
		return l->expires_ms != 0;
	}
	return true;
}

static void drop(rs_store *st, const resident_cache_obj *locks, const char *key, size_t len, zend_long token)
{
	rs_delete_if(st, locks->pool, key, len, &token, sizeof(token));
}

static int put(resident_cache_obj *locks, zend_string *skey, zend_long token, int64_t expires, bool only_if_absent)
{
	zval z;
	ZVAL_LONG(&z, token);
	RESIDENT_G(quiet_stores)++;
	int rc = resident_store_value(locks, skey, &z, expires, 0, only_if_absent, 1);
	RESIDENT_G(quiet_stores)--;
	return rc;
}

/* 1 taken, 0 held by another (or no room for the lock itself), -1 thrown. */
static int take(rs_store *st, resident_cache_obj *locks, zend_string *skey, zend_long token, int64_t expires)
{
	for (int attempt = 0; attempt < 3; attempt++) {
		int rc = put(locks, skey, token, expires, true);
		if (rc != 0) {
			return rc;
		}
		lock_seen seen;
		peek(st, locks, ZSTR_VAL(skey), ZSTR_LEN(skey), &seen);
		if (seen.present) {
			if (active(st, &seen)) {
				return 0;
			}
			drop(st, locks, ZSTR_VAL(skey), ZSTR_LEN(skey), seen.token);
		}
		/* Gone meanwhile, or dropped: try again. */
	}
	return 0;
}

static int64_t lease_end(zend_long lease)
{
	if (lease <= 0) {
		return 0;
	}
	int64_t now = resident_now_ms();
	return lease > (INT64_MAX - now) / 1000 ? INT64_MAX : now + (int64_t)lease * 1000;
}

bool uc_lock(zend_string *skey, zend_long lease, bool wait, bool by_caller)
{
	rs_store *st = resident_store();
	resident_cache_obj locks;
	if (!st || !uc_locks(&locks)) {
		return false;
	}
	user_cache_request *r = uc_request();
	zend_long token = request_token(r, st);
	if (!token) {
		return false;
	}
	int64_t expires = lease_end(lease);
	uc_node *held = uc_find(r, &r->locks, skey);
	if (held) {
		lock_seen seen;
		peek(st, &locks, ZSTR_VAL(skey), ZSTR_LEN(skey), &seen);
		if (seen.present && seen.token == token) {
			/* Taken again: a longer lease extends a leased lock (an
			 * unleased one gets none, as in the proposal); lock() in
			 * remember()'s callback makes remember()'s lock the caller's. */
			held->claimed |= by_caller;
			if (expires > seen.expires_ms && seen.expires_ms) {
				put(&locks, skey, token, expires, false);
			}
			return true;
		}
		/* Its lease ran out, and maybe another took it. */
		uc_remove(r, &r->locks, skey);
	}
	int64_t deadline = wait_clock_us() + WAIT_US;
	useconds_t pause = 100;
	for (;;) {
		int rc = take(st, &locks, skey, token, expires);
		if (rc == 1) {
			uc_node *n = uc_add(r, &r->locks, skey);
			n->leased = expires != 0;
			n->claimed = by_caller;
			return true;
		}
		if (rc < 0 || !wait || wait_clock_us() >= deadline) {
			return false;
		}
		usleep(pause);
		pause = pause < 5000 ? pause * 2 : 5000;
	}
}

bool uc_unlock(zend_string *skey)
{
	rs_store *st = resident_store();
	resident_cache_obj locks;
	if (!st || !uc_locks(&locks)) {
		return false;
	}
	user_cache_request *r = uc_request();
	if (!uc_find(r, &r->locks, skey)) {
		return false;
	}
	zend_long token = r->token;
	uc_remove(r, &r->locks, skey);
	/* Only if it is still ours: after its lease it may be another's. */
	return rs_delete_if(st, locks.pool, ZSTR_VAL(skey), ZSTR_LEN(skey), &token, sizeof(token)) == RS_OK;
}

void uc_unlock_unclaimed(zend_string *skey)
{
	user_cache_request *r = uc_request();
	uc_node *n = r ? uc_find(r, &r->locks, skey) : NULL;
	if (n && !n->claimed) {
		uc_unlock(skey);
	}
}

bool uc_lock_held(zend_string *skey)
{
	rs_store *st = resident_store();
	resident_cache_obj locks;
	if (!st || !uc_locks(&locks)) {
		return false;
	}
	user_cache_request *r = uc_request();
	if (!uc_find(r, &r->locks, skey)) {
		return false;
	}
	lock_seen seen;
	peek(st, &locks, ZSTR_VAL(skey), ZSTR_LEN(skey), &seen);
	return seen.present && seen.token == r->token;
}

bool uc_wait_unlocked(zend_string *skey)
{
	rs_store *st = resident_store();
	resident_cache_obj locks;
	if (!st || !uc_locks(&locks)) {
		return true;
	}
	zend_long mine = uc_request()->token;
	int64_t deadline = 0;
	useconds_t pause = 100;
	for (;;) {
		lock_seen seen;
		peek(st, &locks, ZSTR_VAL(skey), ZSTR_LEN(skey), &seen);
		if (!seen.present || (mine && seen.token == mine)) {
			return true;
		}
		if (!active(st, &seen)) {
			drop(st, &locks, ZSTR_VAL(skey), ZSTR_LEN(skey), seen.token);
			return true;
		}
		int64_t now = wait_clock_us();
		if (!deadline) {
			deadline = now + WAIT_US;
		} else if (now >= deadline) {
			return false;
		}
		usleep(pause);
		pause = pause < 5000 ? pause * 2 : 5000;
	}
}

bool uc_locks_allow_clear(const zend_string *prefix)
{
	rs_store *st = resident_store();
	resident_cache_obj locks;
	if (!st || !uc_locks(&locks)) {
		return true;
	}
	zend_long mine = uc_request()->token;
	bool allowed = true;
	rs_key_batch batch = {0};
	uint64_t bucket = 0, nbuckets = rs_bucket_count(st);
	/* The locks pool holds few entries; its keys are copied out a range of
	 * buckets at a time and looked at outside any read section. */
	while (allowed && bucket < nbuckets) {
		rs_key_batch_clear(&batch);
		if (!rs_keys_collect(st, locks.pool, &bucket, 4096, &batch)) {
			allowed = false;
			break;
		}
		size_t pos = 0;
		rs_key_ref ref;
		while (allowed && rs_key_batch_next(&batch, &pos, &ref)) {
			if (ref.len < ZSTR_LEN(prefix) || memcmp(ref.key, ZSTR_VAL(prefix), ZSTR_LEN(prefix)) != 0) {
				continue;
			}
			lock_seen seen;
			peek(st, &locks, ref.key, ref.len, &seen);
			if (!seen.present || (mine && seen.token == mine)) {
				continue;
			}
			/* Only a request still running holds a clear back: a lock its
			 * owner left, leased or not, goes with the pool's entries. */
			uint64_t owner = (uint64_t)seen.token >> TOKEN_SEQ_BITS;
			if (owner && rs_owner_alive(st, owner)) {
				allowed = false;
			} else {
				drop(st, &locks, ref.key, ref.len, seen.token);
			}
		}
	}
	rs_key_batch_free(&batch);
	return allowed;
}

static void forget_nodes(user_cache_request *r, bool release)
{
	rs_store *st = release ? resident_store() : NULL;
	resident_cache_obj locks;
	if (st && !uc_locks(&locks)) {
		st = NULL;
	}
	zval *head;
	ZEND_HASH_FOREACH_VAL(&r->locks, head) {
		for (uc_node *n = Z_PTR_P(head), *next; n; n = next) {
			next = n->next;
			if (st && !n->leased) {
				drop(st, &locks, ZSTR_VAL(n->name), ZSTR_LEN(n->name), r->token);
			} else if (st) {
				/* Disowned, it holds until its lease ends. */
				rs_read_begin(st);
				const rs_entry *e = rs_peek(st, locks.pool, ZSTR_VAL(n->name), ZSTR_LEN(n->name), 0);
				zend_long *slot = e ? rv_long_slot(rs_entry_kind(e), rs_entry_value(e)) : NULL;
				zend_long expected = r->token;
				if (slot) {
					__atomic_compare_exchange_n(slot, &expected, 0, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
				}
				rs_read_end(st);
			}
			zend_string_release(n->name);
			efree(n);
		}
	} ZEND_HASH_FOREACH_END();
	zend_hash_clean(&r->locks);
	r->token = 0;
}

void uc_locks_request_end(user_cache_request *r)
{
	forget_nodes(r, true);
}

void uc_locks_forget(user_cache_request *r)
{
	forget_nodes(r, false);
}
