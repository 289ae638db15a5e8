/* SPDX-License-Identifier: MIT */
/*
 * Recovery after a writer died holding the lock, and the consistency check
 * that tests use to prove it worked.
 *
 * What readers see (bucket chains) is the source of truth: every change to
 * it is a single store, so it is valid whatever instant the writer died at.
 * The heap can always be walked (see alloc.c). Everything else is derived
 * and rebuilt here: free lists, counters, limbo. A used block
 * that no chain reaches (an old limbo entry, a half-made entry of the dead
 * writer) goes to limbo with the current epoch, which is safe: any reader
 * that could still hold it is older.
 */
#include "internal.h"
#include <string.h>

static bool entry_plausible(const rs_store *st, rs_off off)
{
	const rs_header *h = st->hdr;
	if (off < h->heap_off || off >= h->heap_off + h->heap_size || (off % RS_ALIGN)) {
		return false;
	}
	const rs_entry *e = rs_entry_at(st, off);
	uint64_t size = rs_block_size(&e->block);
	return (e->block.size_flags & RS_BLOCK_USED) && e->state == RS_ENTRY_LIVE
		&& off + size <= h->heap_off + h->heap_size
		&& e->value_offset + e->value_size <= size && e->pool < RS_MAX_POOLS;
}

static bool same_key(const rs_entry *a, const rs_entry *b)
{
	return a->hash == b->hash && a->pool == b->pool && a->key_len == b->key_len
		&& memcmp(a->key, b->key, a->key_len) == 0;
}

void rs_recover(rs_store *st)
{
	rs_header *h = st->hdr;
	rs_pool *pools = rs_pools(st);
	_Atomic rs_off *buckets = rs_buckets(st);

	/* Slots of dead processes: their reservations become unreachable used
	 * blocks and are collected below with the rest. */
	for (uint32_t i = 0; i < h->nslots; i++) {
		if (rs_slot_dead(st, i)) {
			rs_slot *s = &rs_slots(st)[i];
			atomic_store(&s->reservation, 0);
			atomic_store(&s->epoch, 0);
			atomic_store(&s->pid, 0);
			h->dead_slots++;
		}
	}

	for (uint32_t p = 0; p < RS_MAX_POOLS; p++) {
		pools[p].entries = 0;
		pools[p].bytes = 0;
	}
	h->entries = 0;
	h->expiring_entries = 0;
	/* Not known until the next sweep for expired entries. */
	h->next_expiry_ms = 0;
	h->expiry_pass_min = 0;
	h->expiry_pass_buckets = 0;

	/* 1. Mark what the chains reach; drop duplicates (a replace that died
	 *    between linking the new entry and unlinking the old one: the first
	 *    in the chain is the newer). */
	for (uint64_t b = 0; b < h->nbuckets; b++) {
		_Atomic rs_off *link = &buckets[b];
		rs_off off;
		while ((off = atomic_load(link)) != 0) {
			if (!entry_plausible(st, off)) {
				atomic_store(link, 0);
				break;
			}
			rs_entry *e = rs_entry_at(st, off);
			bool dup = false;
			for (rs_off o = atomic_load(&buckets[b]); o != off; o = atomic_load(&rs_entry_at(st, o)->next)) {
				if (same_key(rs_entry_at(st, o), e)) {
					dup = true;
					break;
				}
			}
			if (dup) {
				atomic_store(link, atomic_load(&e->next));
				continue;
			}
			e->block.size_flags |= RS_BLOCK_MARK;
			link = &e->next;
		}
	}
	/* Reservations of live processes are theirs to commit. */
	for (uint32_t i = 0; i < h->nslots; i++) {
		rs_off res = atomic_load(&rs_slots(st)[i].reservation);
		if (res) {
			rs_entry_at(st, res)->block.size_flags |= RS_BLOCK_MARK;
		}
	}

	/* 2. Allocator state from the heap walk. */
	rs_alloc_rebuild(st);

	/* 3. Live entries back in the counters; unreached used blocks into a
	 *    fresh limbo. */
	h->limbo_head = h->limbo_tail = 0;
	atomic_store(&h->limbo_bytes, 0);
	h->limbo_entries = 0;
	h->waited_out_tag = 0;
	h->readers_quick = 0;
	rs_off end = h->heap_off + h->heap_size;
	for (rs_off off = h->heap_off; off < end;) {
		rs_entry *e = rs_entry_at(st, off);
		uint64_t size = rs_block_size(&e->block);
		if (e->block.size_flags & RS_BLOCK_USED) {
			if (e->block.size_flags & RS_BLOCK_MARK) {
				e->block.size_flags &= ~RS_BLOCK_MARK;
				if (e->state == RS_ENTRY_LIVE) {
					rs_pool *p = &pools[e->pool];
					p->entries++;
					p->bytes += size;
					h->entries++;
					h->expiring_entries += e->expires_ms != 0;
				}
			} else {
				rs_limbo_push(st, e);
			}
		}
		off += size;
	}
	atomic_fetch_add(&h->mutation_epoch, 1);
}

const char *rs_check(rs_store *st)
{
	rs_header *h = st->hdr;
	_Atomic rs_off *buckets = rs_buckets(st);
	const char *problem;
	uint64_t free_blocks;

	rs_lock(st);
	if ((problem = rs_alloc_check(st, &free_blocks))) {
		goto out;
	}
	uint64_t live = 0, live_bytes = 0;
	for (uint64_t b = 0; b < h->nbuckets; b++) {
		for (rs_off off = atomic_load(&buckets[b]); off; off = atomic_load(&rs_entry_at(st, off)->next)) {
			if (!entry_plausible(st, off)) {
				problem = "index: chain reaches a block that is not a live entry";
				goto out;
			}
			rs_entry *e = rs_entry_at(st, off);
			if ((e->hash & (h->nbuckets - 1)) != b) {
				problem = "index: entry in the wrong bucket";
				goto out;
			}
			if (rs_hash(h->seed, e->pool, e->key, e->key_len) != e->hash) {
				problem = "index: stored hash does not match the key";
				goto out;
			}
			for (rs_off o = atomic_load(&rs_entry_at(st, off)->next); o; o = atomic_load(&rs_entry_at(st, o)->next)) {
				if (same_key(rs_entry_at(st, o), e)) {
					problem = "index: key present twice";
					goto out;
				}
			}
			if (e->expires_ms && e->expires_ms < h->next_expiry_ms) {
				problem = "index: an entry expires before the earliest expiry recorded";
				goto out;
			}
			live++;
			live_bytes += rs_block_size(&e->block);
		}
	}
	if (live != h->entries) {
		problem = "index: entry count does not match the chains";
		goto out;
	}
	uint64_t limbo = 0, limbo_bytes = 0, last_tag = 0;
	for (rs_off off = h->limbo_head; off; off = rs_entry_at(st, off)->limbo_next) {
		rs_entry *e = rs_entry_at(st, off);
		if (!(e->block.size_flags & RS_BLOCK_USED) || e->state != RS_ENTRY_LIMBO || e->limbo_tag < last_tag) {
			problem = "limbo list broken";
			goto out;
		}
		last_tag = e->limbo_tag;
		limbo++;
		limbo_bytes += rs_block_size(&e->block);
		if (limbo > h->limbo_entries) {
			break;
		}
	}
	if (limbo != h->limbo_entries || limbo_bytes != atomic_load(&h->limbo_bytes)) {
		problem = "limbo counters do not match the list";
		goto out;
	}
	uint64_t reserved = 0;
	for (uint32_t i = 0; i < h->nslots; i++) {
		rs_off res = atomic_load(&rs_slots(st)[i].reservation);
		if (res) {
			reserved += rs_block_size(&rs_entry_at(st, res)->block);
		}
	}
	if (live_bytes + limbo_bytes + reserved != h->used_bytes) {
		problem = "used bytes are not all live, in limbo or reserved (leak)";
		goto out;
	}
	uint64_t pool_entries = 0, pool_bytes = 0;
	for (uint32_t p = 0; p < RS_MAX_POOLS; p++) {
		pool_entries += rs_pools(st)[p].entries;
		pool_bytes += rs_pools(st)[p].bytes;
	}
	if (pool_entries != live || pool_bytes != live_bytes) {
		problem = "pool counters do not match the index";
	}
out:
	rs_unlock(st);
	return problem;
}
