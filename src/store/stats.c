/* SPDX-License-Identifier: MIT */
/*
 * Statistics. Counters the writer maintains are read without the lock: a
 * torn view across counters is acceptable for monitoring, a torn word is not
 * possible (aligned 8-byte loads).
 */
#include "internal.h"
#include <string.h>

rs_status rs_pool_stats_get(rs_store *st, uint16_t pool, rs_pool_stats *out)
{
	if (pool >= RS_MAX_POOLS || !rs_pools(st)[pool].in_use) {
		return RS_BAD_POOL;
	}
	rs_stats_flush(st);
	rs_pool *p = &rs_pools(st)[pool];
	memset(out, 0, sizeof(*out));
	memcpy(out->name, p->name, sizeof(out->name));
	out->pinned = p->pinned;
	out->entries = p->entries;
	out->bytes = p->bytes;
	out->hits = atomic_load_explicit(&p->hits, memory_order_relaxed);
	out->misses = atomic_load_explicit(&p->misses, memory_order_relaxed);
	out->stores = p->stores;
	out->deletes = p->deletes;
	out->evictions = p->evictions;
	out->expirations = p->expirations;
	return RS_OK;
}

void rs_segment_stats_get(rs_store *st, rs_segment_stats *out)
{
	rs_header *h = st->hdr;
	rs_stats_flush(st);
	memset(out, 0, sizeof(*out));
	rs_lock(st);
	/* Report what is really held: free whatever no reader can see. */
	rs_reclaim(st);
	out->largest_free = rs_largest_free(st);
	uint64_t nfree = 0;
	for (uint32_t c = 0; c < RS_CLASSES; c++) {
		for (rs_off off = h->free_heads[c]; off; off = ((rs_free_block *)RS_PTR(st, off))->next_free) {
			nfree++;
		}
	}
	out->free_blocks = nfree;
	out->used_bytes = h->used_bytes;
	out->free_bytes = h->free_bytes;
	out->entries = h->entries;
	for (uint32_t p = 0; p < RS_MAX_POOLS; p++) {
		out->live_bytes += rs_pools(st)[p].bytes;
	}
	out->limbo_entries = h->limbo_entries;
	out->stores = h->stores;
	out->evictions = h->evictions;
	out->expirations = h->expirations;
	out->recoveries = h->recoveries;
	out->dead_slots = h->dead_slots;
	out->sweep_buckets = h->sweep_buckets;
	out->reader_waits = h->reader_waits;
	out->wipes = h->wipes;
	rs_unlock(st);
	out->store_failures = atomic_load(&h->store_failures);
	out->eviction = h->eviction;

	out->total_bytes = h->total_size;
	out->heap_bytes = h->heap_size;
	out->limbo_bytes = atomic_load(&h->limbo_bytes);
	out->lock_waits = atomic_load(&h->lock_waits);
	out->epoch = atomic_load(&h->epoch);
	out->slots_total = h->nslots;
	out->buckets = h->nbuckets;
	out->pools = h->npools;
	for (uint32_t i = 0; i < h->nslots; i++) {
		out->slots_used += atomic_load_explicit(&rs_slots(st)[i].pid, memory_order_relaxed) != 0;
	}
	for (uint32_t p = 0; p < RS_MAX_POOLS; p++) {
		out->hits += atomic_load_explicit(&rs_pools(st)[p].hits, memory_order_relaxed);
		out->misses += atomic_load_explicit(&rs_pools(st)[p].misses, memory_order_relaxed);
	}
}

rs_eviction rs_eviction_policy(const rs_store *st)
{
	return (rs_eviction)st->hdr->eviction;
}
