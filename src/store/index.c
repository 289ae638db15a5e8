/* SPDX-License-Identifier: MIT */
/*
 * The index: a fixed array of bucket heads with singly linked chains of
 * entries, read without locks. Each change a writer makes to a chain is one
 * release store of a link, so a reader walking a chain always sees a valid
 * chain, before or after the change. An unlinked entry keeps its `next`, so
 * a reader standing on it can walk on; reclamation (reclaim.c) keeps it
 * allocated until no reader can stand on it.
 *
 * Making room for a new entry is evict.c's job.
 */
#include "internal.h"
#include <string.h>
#include <unistd.h>

#define RS_FLUSH_EVERY 4096
/* Values up to this size are written while holding the lock (one lock
 * round trip instead of two); larger ones are written outside it. */
#define RS_INLINE_WRITE_MAX (16 * 1024)

static inline bool entry_matches(const rs_entry *e, uint64_t hash, uint16_t pool, const char *key, size_t len)
{
	return e->hash == hash && e->pool == pool && e->key_len == len && memcmp(e->key, key, len) == 0;
}

/* --- readers ----------------------------------------------------------------- */

static const rs_entry *find_live(rs_store *st, uint16_t pool, const char *key, size_t len, int64_t now_ms, bool touch)
{
	uint64_t hash = rs_hash(st->hdr->seed, pool, key, len);
	rs_off off = atomic_load_explicit(rs_bucket_for(st, hash), memory_order_acquire);
	while (off) {
		const rs_entry *e = rs_entry_at(st, off);
		if (entry_matches(e, hash, pool, key, len)) {
			if (rs_entry_expired(e, now_ms)) {
				st->saw_expired = true;
				return NULL;
			}
			uint8_t ref = atomic_load_explicit(&e->referenced, memory_order_relaxed);
			if (touch && !(ref & RS_REF_READ)) {
				atomic_store_explicit(&((rs_entry *)e)->referenced, ref | RS_REF_READ, memory_order_relaxed);
			}
			return e;
		}
		off = atomic_load_explicit(&e->next, memory_order_acquire);
	}
	return NULL;
}

const rs_entry *rs_lookup(rs_store *st, uint16_t pool, const char *key, size_t len, int64_t now_ms)
{
	const rs_entry *e = find_live(st, pool, key, len, now_ms, true);
	if (pool < RS_MAX_POOLS) {
		st->pending_pools |= (uint64_t)1 << pool;
		if (e) {
			st->pending_hits[pool]++;
			if (st->hit_sample-- == 0) {
				st->hit_sample = RS_HOT_SAMPLE - 1;
				rs_hot_note(st, e);
			}
		} else {
			st->pending_misses[pool]++;
		}
		if (++st->pending_ops >= RS_FLUSH_EVERY) {
			rs_stats_flush(st);
		}
	}
	return e;
}

void rs_note_hit(rs_store *st, const rs_entry *e)
{
	uint16_t pool = e->pool;
	if (pool < RS_MAX_POOLS) {
		st->pending_pools |= (uint64_t)1 << pool;
		st->pending_hits[pool]++;
		if (st->hit_sample-- == 0) {
			st->hit_sample = RS_HOT_SAMPLE - 1;
			rs_hot_note(st, e);
		}
		if (++st->pending_ops >= RS_FLUSH_EVERY) {
			rs_stats_flush(st);
		}
	}
}

const rs_entry *rs_peek(rs_store *st, uint16_t pool, const char *key, size_t len, int64_t now_ms)
{
	return find_live(st, pool, key, len, now_ms, false);
}

const rs_entry *rs_lookup_stale(rs_store *st, uint16_t pool, const char *key, size_t len, bool *stale)
{
	uint64_t hash = rs_hash(st->hdr->seed, pool, key, len);
	rs_off off = atomic_load_explicit(rs_bucket_for(st, hash), memory_order_acquire);
	while (off) {
		const rs_entry *e = rs_entry_at(st, off);
		if (entry_matches(e, hash, pool, key, len)) {
			int64_t now = (int64_t)rs_now_ms();
			*stale = rs_entry_expired(e, now);
			return !*stale || (e->stale_ms && e->stale_ms > now) ? e : NULL;
		}
		off = atomic_load_explicit(&e->next, memory_order_acquire);
	}
	return NULL;
}

uint64_t rs_bucket_count(const rs_store *st)
{
	return st->hdr->nbuckets;
}

void rs_scan_bucket(rs_store *st, uint64_t bucket, uint16_t pool, rs_key_fn fn, void *ctx)
{
	if (bucket >= st->hdr->nbuckets) {
		return;
	}
	int64_t now = (int64_t)rs_now_ms();
	rs_off off = atomic_load_explicit(&rs_buckets(st)[bucket], memory_order_acquire);
	while (off) {
		const rs_entry *e = rs_entry_at(st, off);
		if (e->pool == pool && !rs_entry_expired(e, now)) {
			fn(ctx, e->key, e->key_len);
		}
		off = atomic_load_explicit(&e->next, memory_order_acquire);
	}
}

const void *rs_entry_value(const rs_entry *e) { return (const char *)e + e->value_offset; }
size_t rs_entry_value_size(const rs_entry *e) { return (size_t)e->value_size; }
uint32_t rs_entry_kind(const rs_entry *e) { return e->kind; }
int64_t rs_entry_expires(const rs_entry *e) { return e->expires_ms; }
uint16_t rs_entry_pool(const rs_entry *e) { return e->pool; }
const char *rs_entry_key(const rs_entry *e, size_t *len)
{
	*len = e->key_len;
	return e->key;
}

void rs_stats_flush(rs_store *st)
{
	rs_pool *pools = rs_pools(st);
	for (uint64_t left = st->pending_pools; left; left &= left - 1) {
		uint32_t i = (uint32_t)__builtin_ctzll(left);
		if (st->pending_hits[i]) {
			atomic_fetch_add_explicit(&pools[i].hits, st->pending_hits[i], memory_order_relaxed);
			st->pending_hits[i] = 0;
		}
		if (st->pending_misses[i]) {
			atomic_fetch_add_explicit(&pools[i].misses, st->pending_misses[i], memory_order_relaxed);
			st->pending_misses[i] = 0;
		}
	}
	st->pending_pools = 0;
	st->pending_ops = 0;
}

/* --- writer helpers (segment lock held) ---------------------------------- */

/* Returns the link that points at the live entry for the key, or NULL. */
static _Atomic rs_off *find_link(rs_store *st, uint64_t hash, uint16_t pool, const char *key, size_t len, _Atomic rs_off *from)
{
	_Atomic rs_off *link = from ? from : rs_bucket_for(st, hash);
	rs_off off;
	while ((off = atomic_load_explicit(link, memory_order_relaxed)) != 0) {
		rs_entry *e = rs_entry_at(st, off);
		if (entry_matches(e, hash, pool, key, len)) {
			return link;
		}
		link = &e->next;
	}
	return NULL;
}

/* --- writers ----------------------------------------------------------------- */

rs_status rs_pool_open(rs_store *st, const char *name, bool pinned, uint16_t *id)
{
	size_t len = strlen(name);
	if (len == 0 || len > RS_POOL_NAME_MAX) {
		return RS_BAD_POOL;
	}
	rs_pool *pools = rs_pools(st);
	/* Pools are never removed, so a lock-free scan finds existing ones. */
	for (uint32_t i = 0; i < RS_MAX_POOLS; i++) {
		if (pools[i].in_use && strcmp(pools[i].name, name) == 0) {
			*id = (uint16_t)i;
			return RS_OK;
		}
	}
	rs_status rc = RS_BAD_POOL;
	rs_lock(st);
	for (uint32_t i = 0; i < RS_MAX_POOLS; i++) {
		if (pools[i].in_use && strcmp(pools[i].name, name) == 0) {
			*id = (uint16_t)i;
			rc = RS_OK;
			break;
		}
		if (!pools[i].in_use) {
			memcpy(pools[i].name, name, len + 1);
			pools[i].pinned = pinned;
			pools[i].id = (uint16_t)i;
			atomic_thread_fence(memory_order_release);
			pools[i].in_use = 1;
			st->hdr->npools++;
			*id = (uint16_t)i;
			rc = RS_OK;
			break;
		}
	}
	rs_unlock(st);
	return rc;
}

bool rs_pool_is(const rs_store *st, uint16_t id, const char *name)
{
	if (id >= RS_MAX_POOLS) {
		return false;
	}
	const rs_pool *p = &rs_pools(st)[id];
	return p->in_use && strcmp(p->name, name) == 0;
}

rs_status rs_pool_guard(rs_store *st, uint16_t pool, uint16_t guard)
{
	if (pool >= RS_MAX_POOLS || guard >= RS_MAX_POOLS || pool == guard) {
		return RS_BAD_POOL;
	}
	rs_pool *p = &rs_pools(st)[pool];
	if (p->guard != guard + 1) {
		rs_lock(st);
		p->guard = (uint16_t)(guard + 1);
		rs_unlock(st);
	}
	return RS_OK;
}

/* The block an entry needs: its header and key (value_offset), then its value. */
static uint64_t entry_block_size(uint64_t value_offset, uint64_t value_size)
{
	return rs_alloc_round(value_offset + value_size - sizeof(rs_block));
}

static uint64_t value_offset_for(size_t key_len)
{
	return RS_ALIGN_UP(offsetof(rs_entry, key) + key_len + 1, RS_ALIGN);
}

uint64_t rs_entry_need(size_t key_len, size_t value_size)
{
	return entry_block_size(value_offset_for(key_len), value_size);
}

size_t rs_max_value_size(const rs_store *st, size_t key_len)
{
	return (size_t)(st->hdr->heap_size - value_offset_for(key_len));
}

static rs_status reserve(rs_store *st, uint16_t pool, const char *key, size_t key_len,
                         size_t value_size, uint32_t kind, int64_t expires_ms, bool unlocked, rs_reservation *r)
{
	rs_header *h = st->hdr;
	memset(r, 0, sizeof(*r));
	if (key_len == 0 || key_len > RS_KEY_MAX || pool >= RS_MAX_POOLS) {
		return RS_ERROR;
	}
	uint64_t value_offset = value_offset_for(key_len);
	uint64_t size = entry_block_size(value_offset, value_size);
	if (value_size > h->heap_size || size > h->heap_size) {
		atomic_fetch_add_explicit(&h->store_failures, 1, memory_order_relaxed);
		return RS_TOO_BIG;
	}

	if (st->slot_pid != rs_pid()) {
		rs_after_fork(st);
	}
	bool have_slot = st->slot >= 0;
	if (!have_slot) {
		/* A slot records the reservation so it is freed if we die. */
		if (rs_read_begin(st) == RS_OK) {
			rs_read_end(st);
			have_slot = true;
		} else {
			rs_read_end(st);
		}
	}
	if (unlocked && !have_slot) {
		return RS_NO_SLOT;
	}

	rs_lock(st);
	rs_off off = rs_alloc_evicting(st, size);
	if (!off) {
		atomic_fetch_add_explicit(&h->store_failures, 1, memory_order_relaxed);
		rs_unlock(st);
		return RS_NO_MEMORY;
	}
	rs_entry *e = rs_entry_at(st, off);
	/* Only the block header is meaningful so far; the rest may hold an old
	 * entry's bytes. */
	memset((char *)e + sizeof(rs_block), 0, offsetof(rs_entry, key) - sizeof(rs_block));
	e->hash = rs_hash(h->seed, pool, key, key_len);
	e->expires_ms = expires_ms;
	e->value_size = value_size;
	e->key_len = (uint32_t)key_len;
	e->kind = kind;
	e->pool = pool;
	e->state = RS_ENTRY_RESERVED;
	e->value_offset = (uint32_t)value_offset;
	memcpy(e->key, key, key_len);
	e->key[key_len] = '\0';
	rs_crash_point(st, RS_CRASH_AFTER_ALLOC);

	r->entry = e;
	r->value = (char *)e + value_offset;
	r->value_size = value_size;
	st->open_reservation = off;
	if (have_slot && (unlocked || value_size > RS_INLINE_WRITE_MAX)) {
		atomic_store(&rs_slots(st)[st->slot].reservation, off);
		rs_unlock(st);
		r->holds_lock = false;
	} else {
		r->holds_lock = true;
	}
	return RS_OK;
}

rs_status rs_reserve(rs_store *st, uint16_t pool, const char *key, size_t key_len,
                     size_t value_size, uint32_t kind, int64_t expires_ms, rs_reservation *r)
{
	return reserve(st, pool, key, key_len, value_size, kind, expires_ms, false, r);
}

rs_status rs_reserve_unlocked(rs_store *st, uint16_t pool, const char *key, size_t key_len,
                              size_t value_size, uint32_t kind, int64_t expires_ms, rs_reservation *r)
{
	return reserve(st, pool, key, key_len, value_size, kind, expires_ms, true, r);
}

static void forget_reservation(rs_store *st)
{
	if (st->slot >= 0 && st->slot_pid == rs_pid()) {
		atomic_store(&rs_slots(st)[st->slot].reservation, 0);
	}
	st->open_reservation = 0;
}

static void end_reservation(rs_store *st, rs_reservation *r)
{
	forget_reservation(st);
	r->entry = NULL;
	r->value = NULL;
}

void rs_unwind(rs_store *st, uint32_t depth)
{
	/* An outer read section without a slot is held under the lock: it
	 * keeps the lock until it ends itself. */
	bool read_holds_lock = rs_read_locked(st);
	if (st->open_reservation) {
		rs_off off = st->open_reservation;
		if (!st->locked) {
			rs_lock(st);
		}
		forget_reservation(st);
		rs_free(st, off);
		if (!read_holds_lock) {
			rs_unlock(st);
		}
	} else if (st->locked && !read_holds_lock) {
		rs_unlock(st);
	}
	while (st->read_depth > depth) {
		rs_read_end(st);
	}
}

rs_status rs_commit(rs_store *st, rs_reservation *r, bool only_if_absent, int64_t now_ms)
{
	rs_header *h = st->hdr;
	rs_entry *e = r->entry;
	if (!r->holds_lock) {
		rs_lock(st);
	}
	size_t len = e->key_len;
	_Atomic rs_off *bucket = rs_bucket_for(st, e->hash);
	_Atomic rs_off *old = find_link(st, e->hash, e->pool, e->key, len, NULL);
	if (old && only_if_absent && !rs_entry_expired(rs_entry_at(st, atomic_load(old)), now_ms)) {
		end_reservation(st, r);
		rs_free(st, RS_OFF(st, e));
		rs_unlock(st);
		return RS_EXISTS;
	}

	/* A value that took less than its reservation (rs_reservation_shrink)
	 * gives the rest back before the entry is counted. */
	if (r->shrunk) {
		rs_alloc_shrink(st, RS_OFF(st, e), entry_block_size(e->value_offset, e->value_size));
	}

	/* Before publication: once linked, the entry belongs to the index, and
	 * a slot still recording it as a reservation would have it freed when
	 * our slot is found dead. Dying from here to the link leaves an
	 * unreachable block, which recovery (we hold the lock) collects. */
	end_reservation(st, r);
	e->created_ms = now_ms;
	e->limbo_tag = atomic_load_explicit(&h->mutation_epoch, memory_order_relaxed);
	e->state = RS_ENTRY_LIVE;
	/* A full sweep of grace before it can be evicted. */
	atomic_store_explicit(&e->referenced, RS_REF_NEW, memory_order_relaxed);
	atomic_store_explicit(&e->next, atomic_load_explicit(bucket, memory_order_relaxed), memory_order_relaxed);
	/* Publication: readers that see the link see a complete entry. */
	atomic_store_explicit(bucket, RS_OFF(st, e), memory_order_release);
	rs_crash_point(st, RS_CRASH_AFTER_LINK);
	rs_account_live(st, e, +1);

	if (old) {
		/* The old entry is now behind ours in the chain. */
		_Atomic rs_off *link = find_link(st, e->hash, e->pool, e->key, len, &e->next);
		if (link) {
			rs_retire_at(st, link);
		}
	}
	rs_pools(st)[e->pool].stores++;
	h->stores++;
	rs_bump_mutation(st);
	rs_unlock(st);
	return RS_OK;
}

void rs_reservation_shrink(rs_reservation *r, size_t value_size)
{
	if (value_size < r->value_size) {
		r->value_size = value_size;
		r->entry->value_size = value_size;
		r->shrunk = true;
	}
}

void rs_reservation_keep_stale(rs_reservation *r, int64_t stale_until_ms)
{
	r->entry->stale_ms = stale_until_ms;
}

void rs_abort(rs_store *st, rs_reservation *r)
{
	if (!r->entry) {
		return;
	}
	if (!r->holds_lock) {
		rs_lock(st);
	}
	rs_off off = RS_OFF(st, r->entry);
	end_reservation(st, r);
	rs_free(st, off);
	rs_unlock(st);
}

rs_status rs_delete(rs_store *st, uint16_t pool, const char *key, size_t key_len)
{
	if (key_len == 0 || key_len > RS_KEY_MAX || pool >= RS_MAX_POOLS) {
		return RS_NOT_FOUND;
	}
	uint64_t hash = rs_hash(st->hdr->seed, pool, key, key_len);
	rs_lock(st);
	_Atomic rs_off *link = find_link(st, hash, pool, key, key_len, NULL);
	rs_status rc = RS_NOT_FOUND;
	if (link) {
		rs_entry *e = rs_entry_at(st, atomic_load(link));
		rc = rs_entry_expired(e, (int64_t)rs_now_ms()) ? RS_NOT_FOUND : RS_OK;
		rs_pools(st)[pool].deletes += rc == RS_OK;
		rs_retire_at(st, link);
	}
	rs_unlock(st);
	return rc;
}

rs_status rs_delete_if(rs_store *st, uint16_t pool, const char *key, size_t key_len, const void *expect, size_t n)
{
	if (key_len == 0 || key_len > RS_KEY_MAX || pool >= RS_MAX_POOLS) {
		return RS_NOT_FOUND;
	}
	uint64_t hash = rs_hash(st->hdr->seed, pool, key, key_len);
	rs_lock(st);
	_Atomic rs_off *link = find_link(st, hash, pool, key, key_len, NULL);
	rs_status rc = RS_NOT_FOUND;
	if (link) {
		rs_entry *e = rs_entry_at(st, atomic_load(link));
		if (e->value_size >= n && memcmp((char *)e + e->value_offset, expect, n) == 0) {
			rs_pools(st)[pool].deletes++;
			rs_retire_at(st, link);
			rc = RS_OK;
		} else {
			rc = RS_EXISTS;
		}
	}
	rs_unlock(st);
	return rc;
}

rs_entry_id rs_entry_identity(const rs_entry *e)
{
	return (rs_entry_id){ .entry = e, .commit = e->limbo_tag };
}

uint64_t rs_entry_stamp(rs_store *st, const rs_entry *e)
{
	/* Commits are unique within a segment; a key drawn from its seed
	 * (which it never tells) once per process sets segments apart. What
	 * follows is a bijection of the commit: no two entries of a segment
	 * share a stamp but the one mapped to 0, made 1. */
	const rs_header *h = st->hdr;
	if (st->stamp_seed != h->seed[0] || !st->stamp_key) {
		static const char what[] = "entry stamp";
		st->stamp_key = rs_hash(h->seed, 0, what, sizeof what - 1);
		st->stamp_seed = h->seed[0];
	}
	uint64_t x = (e->limbo_tag + st->stamp_key) * 0x9e3779b97f4a7c15ULL;
	x ^= x >> 29;
	return x ? x : 1;
}

rs_status rs_delete_if_same(rs_store *st, uint16_t pool, const char *key, size_t key_len, rs_entry_id seen)
{
	if (key_len == 0 || key_len > RS_KEY_MAX || pool >= RS_MAX_POOLS || !seen.entry) {
		return RS_NOT_FOUND;
	}
	uint64_t hash = rs_hash(st->hdr->seed, pool, key, key_len);
	rs_lock(st);
	_Atomic rs_off *link = find_link(st, hash, pool, key, key_len, NULL);
	rs_status rc = RS_NOT_FOUND;
	if (link) {
		rs_entry *e = rs_entry_at(st, atomic_load(link));
		/* Only the lock holder commits, so the tag is stable here. */
		if (e == seen.entry && e->limbo_tag == seen.commit) {
			rs_pools(st)[pool].deletes++;
			rs_retire_at(st, link);
			rc = RS_OK;
		} else {
			rc = RS_EXISTS;
		}
	}
	rs_unlock(st);
	return rc;
}

void rs_clear(rs_store *st, int pool)
{
	rs_header *h = st->hdr;
	_Atomic rs_off *buckets = rs_buckets(st);
	rs_lock(st);
	for (uint64_t b = 0; b < h->nbuckets; b++) {
		_Atomic rs_off *link = &buckets[b];
		rs_off off;
		while ((off = atomic_load_explicit(link, memory_order_relaxed)) != 0) {
			rs_entry *e = rs_entry_at(st, off);
			if (pool < 0 || e->pool == pool) {
				rs_retire_at(st, link);
			} else {
				link = &e->next;
			}
		}
	}
	rs_bump_mutation(st);
	rs_reclaim(st);
	rs_unlock(st);
}

uint64_t rs_clear_prefix(rs_store *st, uint16_t pool, const char *prefix, size_t prefix_len)
{
	rs_header *h = st->hdr;
	_Atomic rs_off *buckets = rs_buckets(st);
	uint64_t dropped = 0;
	if (pool >= RS_MAX_POOLS) {
		return 0;
	}
	rs_lock(st);
	for (uint64_t b = 0; b < h->nbuckets; b++) {
		_Atomic rs_off *link = &buckets[b];
		rs_off off;
		while ((off = atomic_load_explicit(link, memory_order_relaxed)) != 0) {
			rs_entry *e = rs_entry_at(st, off);
			if (e->pool == pool && e->key_len >= prefix_len && memcmp(e->key, prefix, prefix_len) == 0) {
				rs_retire_at(st, link);
				dropped++;
			} else {
				link = &e->next;
			}
		}
	}
	if (dropped) {
		rs_reclaim(st);
	}
	rs_unlock(st);
	return dropped;
}
