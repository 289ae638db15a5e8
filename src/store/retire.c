/* SPDX-License-Identifier: MIT */
/*
 * Taking an entry out of the index, for whoever does it (a replacement, a
 * delete, a clear, eviction): the unlink readers may be walking past, the
 * counters, and limbo until no reader can still stand on it.
 */
#include "internal.h"

void rs_account_live(rs_store *st, rs_entry *e, int sign)
{
	rs_header *h = st->hdr;
	rs_pool *p = &rs_pools(st)[e->pool];
	uint64_t size = rs_block_size(&e->block);
	if (sign > 0) {
		p->entries++;
		p->bytes += size;
		h->entries++;
		if (e->expires_ms) {
			h->expiring_entries++;
			if (e->expires_ms < h->next_expiry_ms) {
				h->next_expiry_ms = e->expires_ms;
			}
		}
	} else {
		p->entries--;
		p->bytes -= size;
		h->entries--;
		if (e->expires_ms) {
			h->expiring_entries--;
		}
	}
}

/* Only the lock holder writes it. */
void rs_bump_mutation(rs_store *st)
{
	uint64_t m = atomic_load_explicit(&st->hdr->mutation_epoch, memory_order_relaxed);
	atomic_store_explicit(&st->hdr->mutation_epoch, m + 1, memory_order_release);
}

/* Unlinks the entry that `link` points at and moves it to limbo. */
void rs_retire_at(rs_store *st, _Atomic rs_off *link)
{
	rs_entry *e = rs_entry_at(st, atomic_load_explicit(link, memory_order_relaxed));
	atomic_store_explicit(link, atomic_load_explicit(&e->next, memory_order_relaxed), memory_order_release);
	rs_crash_point(st, RS_CRASH_AFTER_UNLINK);
	rs_account_live(st, e, -1);
	rs_limbo_push(st, e);
	rs_bump_mutation(st);
}
