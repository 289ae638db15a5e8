/* SPDX-License-Identifier: MIT */
/*
 * Making room for a new entry (rs_alloc_evicting, under the write lock).
 *
 * Eviction is CLOCK with the bucket array as the clock face: the hand
 * sweeps buckets in order; an entry whose `referenced` bits are set gets
 * them cleared and survives, one without is evicted. A reader marks it read
 * on a hit (only if not marked yet, so hot entries cost no write); a new
 * entry starts marked new, so it gets one full sweep before it can go.
 * Eviction by address (windows) tells the two apart: what was read is what
 * it spares. Keeping no separate ring means inserts and deletes touch
 * nothing but the chain. TTLs are checked lazily by readers, swept first
 * when memory is needed, and looked for by writes a few buckets at a time
 * (rs_expire_step). Nothing ever wipes the whole cache, unless
 * the segment was made to (RS_EVICT_WIPE); with RS_EVICT_NONE nothing
 * live is evicted at all and the store fails.
 */
#include "internal.h"
#include <string.h>
#include <unistd.h>

#define RS_RECLAIM_BATCH 32

/* Visits the entries of up to `budget` buckets from the hand, advancing it;
 * returns how many buckets it visited. visit() returns true when it retired
 * the entry (the link then already points at the next one); stop is set
 * when enough was done. */
typedef bool (*visit_fn)(rs_store *st, _Atomic rs_off *link, rs_entry *e, void *ctx, bool *stop);

static uint64_t sweep_from(rs_store *st, uint64_t *hand, uint64_t budget, visit_fn visit, void *ctx)
{
	rs_header *h = st->hdr;
	_Atomic rs_off *buckets = rs_buckets(st);
	bool stop = false;
	uint64_t visited = 0;
	for (; visited < budget && !stop; visited++) {
		h->sweep_buckets++;
		_Atomic rs_off *link = &buckets[*hand];
		*hand = (*hand + 1) & (h->nbuckets - 1);
		rs_off off;
		while ((off = atomic_load_explicit(link, memory_order_relaxed)) != 0) {
			rs_entry *e = rs_entry_at(st, off);
			if (!visit(st, link, e, ctx, &stop)) {
				link = &e->next;
			}
		}
	}
	return visited;
}

static uint64_t sweep(rs_store *st, uint64_t budget, visit_fn visit, void *ctx)
{
	return sweep_from(st, &st->hdr->clock_hand, budget, visit, ctx);
}

typedef struct sweep_ctx {
	int64_t now_ms;
	uint64_t want;       /* bytes to evict */
	uint64_t done;       /* bytes evicted */
	int64_t next_expiry; /* expired sweep: the earliest expiry of what stays */
} sweep_ctx;

static void count_expired(rs_store *st, rs_entry *e)
{
	rs_pools(st)[e->pool].expirations++;
	st->hdr->expirations++;
}

static bool visit_expired(rs_store *st, _Atomic rs_off *link, rs_entry *e, void *ctx, bool *stop)
{
	sweep_ctx *c = ctx;
	if (!rs_entry_expired(e, c->now_ms)) {
		if (e->expires_ms && e->expires_ms < c->next_expiry) {
			c->next_expiry = e->expires_ms;
		}
		return false;
	}
	c->done += rs_block_size(&e->block);
	count_expired(st, e);
	rs_retire_at(st, link);
	*stop = !st->hdr->expiring_entries;
	return true;
}

/*
 * Expired entries are found by readers (a miss) but stay until something
 * retires them. Memory pressure sweeps them all (rs_alloc_evicting); so do
 * writes, a few buckets each, while an entry may have expired: a pass over
 * every bucket then learns the earliest expiry of what stays, and the scan
 * rests until that time. A new entry with a TTL lowers both bounds
 * (rs_account_live), so one stored behind the hand is not missed.
 */
void rs_expire_step(rs_store *st, uint64_t budget)
{
	rs_header *h = st->hdr;
	if (!h->expiring_entries) {
		return;
	}
	if (!budget && st->saw_expired) {
		/* This process found keys expired: its next write retires them
		 * (as far as one bounded scan goes). */
		budget = RS_EXPIRY_SEEN_BUCKETS;
		st->saw_expired = false;
	} else if (!budget) {
		/* A write's share: a pass takes some 64 writes, at most 2048
		 * buckets a write (then more writes) in a big index. */
		budget = h->nbuckets / RS_EXPIRY_WRITE_PASS;
		budget = budget < RS_EXPIRY_WRITE_MIN ? RS_EXPIRY_WRITE_MIN : budget > RS_EXPIRY_WRITE_MAX ? RS_EXPIRY_WRITE_MAX : budget;
	}
	int64_t now = (int64_t)rs_now_ms();
	if (now < h->next_expiry_ms) {
		return;
	}
	uint64_t left = h->nbuckets - h->expiry_pass_buckets;
	sweep_ctx c = { .now_ms = now, .want = UINT64_MAX, .next_expiry = INT64_MAX };
	uint64_t visited = sweep_from(st, &h->expiry_hand, budget < left ? budget : left, visit_expired, &c);
	if (c.next_expiry < h->expiry_pass_min) {
		h->expiry_pass_min = c.next_expiry;
	}
	h->expiry_pass_buckets += visited;
	if (!h->expiring_entries || h->expiry_pass_buckets >= h->nbuckets) {
		h->next_expiry_ms = h->expiring_entries ? h->expiry_pass_min : INT64_MAX;
		h->expiry_pass_min = INT64_MAX;
		h->expiry_pass_buckets = 0;
	}
	if (c.done) {
		rs_reclaim(st);
	}
}

void rs_expire_seen(rs_store *st)
{
	if (!st->saw_expired) {
		return;
	}
	st->saw_expired = false;
	rs_lock(st);
	rs_expire_step(st, RS_EXPIRY_SEEN_BUCKETS);
	rs_unlock(st);
}

/* A live entry of its pool's guard pool under the same key keeps it
 * (rs_pool_guard). Under the writer's lock: nothing it finds can go. */
static bool guarded(rs_store *st, const rs_entry *e, int64_t now_ms)
{
	uint16_t guard = rs_pools(st)[e->pool].guard;
	if (!guard) {
		return false;
	}
	size_t len;
	const char *key = rs_entry_key(e, &len);
	return rs_peek(st, (uint16_t)(guard - 1), key, len, now_ms) != NULL;
}

static bool visit_clock(rs_store *st, _Atomic rs_off *link, rs_entry *e, void *ctx, bool *stop)
{
	sweep_ctx *c = ctx;
	if (rs_pools(st)[e->pool].pinned) {
		return false;
	}
	if (rs_entry_expired(e, c->now_ms)) {
		count_expired(st, e);
	} else if (guarded(st, e, c->now_ms)) {
		return false;
	} else if (atomic_load_explicit(&e->referenced, memory_order_relaxed)) {
		atomic_store_explicit(&e->referenced, 0, memory_order_relaxed);
		return false;
	} else {
		rs_pools(st)[e->pool].evictions++;
		st->hdr->evictions++;
	}
	c->done += rs_block_size(&e->block);
	rs_retire_at(st, link);
	*stop = c->done >= c->want;
	return true;
}

/* Only our own read section blocks reclamation: waiting cannot help. */
static bool limbo_blocked_by_self(rs_store *st)
{
	if (st->slot < 0 || st->read_depth == 0) {
		return false;
	}
	uint64_t mine = atomic_load(&rs_slots(st)[st->slot].epoch);
	return mine && mine <= rs_entry_at(st, st->hdr->limbo_head)->limbo_tag;
}

/*
 * Eviction by address. CLOCK picks victims all over the heap; when it has
 * freed as many bytes as a value needs and still no free block fits (the
 * freed blocks are scattered among live ones), going on would evict most of
 * the cache before a run of neighbours happened to be freed together: the
 * fragmentation wipe. Instead, find a window of adjacent blocks, grown from
 * a free block over its neighbours (free blocks and unpinned live entries,
 * nothing in limbo or reserved), that is large enough and costs the fewest
 * live bytes (recently stored or read entries count double), and evict what
 * it holds.
 */
#define RS_WINDOW_CANDIDATES 64

/* The eviction cost of the block at `off`, or UINT64_MAX if it cannot go
 * (nor, when sparing them, if it was read since CLOCK last passed it).
 * Entries stored or read since then count double. */
static uint64_t window_block_cost(rs_store *st, rs_off off, bool spare_read, int64_t now_ms)
{
	rs_block *b = (rs_block *)(st->base + off);
	uint64_t size = rs_block_size(b);
	if (!(b->size_flags & RS_BLOCK_USED)) {
		return 0;
	}
	rs_entry *e = (rs_entry *)b;
	if (e->state != RS_ENTRY_LIVE || e->pool >= RS_MAX_POOLS || rs_pools(st)[e->pool].pinned || guarded(st, e, now_ms)) {
		return UINT64_MAX;
	}
	uint8_t ref = atomic_load_explicit(&e->referenced, memory_order_relaxed);
	if (!ref) {
		return size;
	}
	return spare_read && (ref & RS_REF_READ) ? UINT64_MAX : 2 * size;
}

/* Grows a window from the free block at `off` until it holds `size` bytes;
 * false if it cannot, or not for less than `limit`. */
static bool window_from(rs_store *st, rs_off off, uint64_t size, uint64_t limit, bool spare_read, int64_t now_ms, rs_off *lo_out, rs_off *hi_out, uint64_t *cost_out)
{
	rs_header *h = st->hdr;
	rs_off end = h->heap_off + h->heap_size;
	rs_off lo = off, hi = off + rs_block_size((rs_block *)(st->base + off));
	uint64_t cost = 0;
	while (hi - lo < size) {
		uint64_t fwd = hi < end ? window_block_cost(st, hi, spare_read, now_ms) : UINT64_MAX;
		uint64_t prev_size = ((rs_block *)(st->base + lo))->prev_size;
		rs_off back_off = prev_size ? lo - prev_size : 0;
		uint64_t back = prev_size ? window_block_cost(st, back_off, spare_read, now_ms) : UINT64_MAX;
		if (fwd == UINT64_MAX && back == UINT64_MAX) {
			return false;
		}
		if (fwd <= back) {
			hi += rs_block_size((rs_block *)(st->base + hi));
			cost += fwd;
		} else {
			lo = back_off;
			cost += back;
		}
		if (cost >= limit) {
			return false;
		}
	}
	*lo_out = lo;
	*hi_out = hi;
	*cost_out = cost;
	return true;
}

/* Evicts the cheapest window of `size` bytes; if spare_read, one without
 * entries read since CLOCK last passed them. Returns the bytes retired. */
static uint64_t evict_window(rs_store *st, uint64_t size, int64_t now_ms, bool spare_read)
{
	rs_header *h = st->hdr;
	rs_off best_lo = 0, best_hi = 0;
	uint64_t best = UINT64_MAX;
	int candidates = 0;
	/* Largest free blocks first: they need the fewest neighbours. */
	for (int c = RS_CLASSES - 1; c >= 0 && candidates < RS_WINDOW_CANDIDATES; c--) {
		if (!((h->bitmap[c / 64] >> (c % 64)) & 1)) {
			continue;
		}
		for (rs_off off = h->free_heads[c]; off && candidates < RS_WINDOW_CANDIDATES;
		     off = ((rs_free_block *)(st->base + off))->next_free) {
			candidates++;
			rs_off lo, hi;
			uint64_t cost;
			if (window_from(st, off, size, best, spare_read, now_ms, &lo, &hi, &cost)) {
				best = cost;
				best_lo = lo;
				best_hi = hi;
			}
		}
	}
	if (best == UINT64_MAX) {
		return 0;
	}
	/* Retiring only moves entries to limbo: the blocks stay where they are
	 * until reclaimed, so the walk is stable. */
	uint64_t done = 0;
	for (rs_off off = best_lo; off < best_hi;) {
		rs_entry *e = rs_entry_at(st, off);
		uint64_t bsize = rs_block_size(&e->block);
		if (e->block.size_flags & RS_BLOCK_USED) {
			_Atomic rs_off *link = rs_bucket_for(st, e->hash);
			rs_off cur;
			while ((cur = atomic_load_explicit(link, memory_order_relaxed)) != 0 && cur != off) {
				link = &rs_entry_at(st, cur)->next;
			}
			if (cur == off) {
				if (rs_entry_expired(e, now_ms)) {
					count_expired(st, e);
				} else {
					rs_pools(st)[e->pool].evictions++;
					h->evictions++;
				}
				rs_retire_at(st, link);
				done += bsize;
			}
		}
		off += bsize;
	}
	return done;
}

/* Bytes CLOCK could evict: the live entries of pools that are not pinned.
 * The writer keeps each pool's bytes, and a pool's pinned flag is set when
 * it is created, so this is exact under the lock, at the cost of a look at
 * each pool. */
static uint64_t evictable_bytes(const rs_store *st)
{
	const rs_pool *pools = rs_pools(st);
	uint64_t bytes = 0;
	for (uint32_t i = 0; i < RS_MAX_POOLS; i++) {
		if (!pools[i].pinned) {
			bytes += pools[i].bytes;
		}
	}
	return bytes;
}

/* RS_EVICT_WIPE: every live entry of the pools that are not pinned goes,
 * at once. Returns the bytes retired. */
static uint64_t wipe(rs_store *st, int64_t now_ms)
{
	rs_header *h = st->hdr;
	_Atomic rs_off *buckets = rs_buckets(st);
	uint64_t done = 0;
	for (uint64_t b = 0; b < h->nbuckets; b++) {
		_Atomic rs_off *link = &buckets[b];
		rs_off off;
		while ((off = atomic_load_explicit(link, memory_order_relaxed)) != 0) {
			rs_entry *e = rs_entry_at(st, off);
			bool expired = rs_entry_expired(e, now_ms);
			if (rs_pools(st)[e->pool].pinned || (!expired && guarded(st, e, now_ms))) {
				link = &e->next;
				continue;
			}
			if (expired) {
				count_expired(st, e);
			}
			done += rs_block_size(&e->block);
			rs_retire_at(st, link);
		}
	}
	h->wipes++;
	return done;
}

/* The room eviction keeps ahead of the stores: 1/16 of the heap. */
#define RS_AHEAD_SHIFT 4

/* Whether waiting for readers can help: something is held, not by our own
 * read section, and not by a reader a store already waited for in vain. */
static bool worth_waiting(rs_store *st)
{
	rs_header *h = st->hdr;
	return h->limbo_head && !limbo_blocked_by_self(st)
		&& rs_entry_at(st, h->limbo_head)->limbo_tag != h->waited_out_tag;
}

/*
 * Under php-fpm, what is evicted now comes back only when the requests in
 * flight end, so a store that has to evict also has to wait for them. Once
 * they have been seen to end quickly (a store's wait for them paid off),
 * eviction runs ahead: it keeps 1/16 of the heap free or on its way back,
 * retiring a run of neighbours (none read since CLOCK last passed it) while
 * the requests are still in flight, so that the stores that follow find
 * room instead of each waiting. When a wait runs out (a long request), it
 * stops: what it would retire would stay pinned like the rest.
 */
static void keep_room_ahead(rs_store *st)
{
	rs_header *h = st->hdr;
	uint64_t ahead = h->heap_size >> RS_AHEAD_SHIFT;
	/* A writer inside its own read section would pin what it retires. */
	bool reading = st->read_depth > 0 && st->slot >= 0;
	if (h->readers_quick && !reading && h->eviction == RS_EVICT_CLOCK && h->free_bytes + atomic_load_explicit(&h->limbo_bytes, memory_order_relaxed) < ahead) {
		/* Ahead of need, nothing recently read is worth it. Finding no
		 * such run, it does not look again (under the lock, at every
		 * store) until another wait pays off. */
		if (!evict_window(st, ahead, (int64_t)rs_now_ms(), true)) {
			h->readers_quick = 0;
		}
	}
}

/*
 * Allocates a block, making room first if needed: free what limbo can give
 * back, then expired entries, then CLOCK victims, then (when what CLOCK
 * freed is scattered) a window of neighbours.
 *
 * What readers in flight hold in limbo counts toward the size: it comes
 * back when they move on, and so would anything evicted now (every reader
 * in flight holds all that is retired after it started). So eviction stops
 * at the size, and the store waits briefly for the readers, then fails,
 * rather than retiring the whole cache into limbo. A store that nothing
 * could make room for (all of limbo, free memory and evictable entries
 * fall short) fails before sweeping at all.
 */
rs_off rs_alloc_evicting(rs_store *st, uint64_t size)
{
	rs_header *h = st->hdr;
	rs_off off;

	/* Reclaiming scans every reader slot: do it in batches, or when
	 * memory runs short. */
	if (h->limbo_entries >= RS_RECLAIM_BATCH || atomic_load_explicit(&h->limbo_bytes, memory_order_relaxed) > h->heap_size / 64) {
		rs_reclaim(st);
	}
	keep_room_ahead(st);
	if ((off = rs_alloc(st, size))) {
		return off;
	}
	/* Read only once room must be made: most stores do not get here. */
	int64_t now = (int64_t)rs_now_ms();
	if (h->limbo_head) {
		rs_reclaim(st);
		if ((off = rs_alloc(st, size))) {
			return off;
		}
	}
	rs_clear_dead_slots(st);
	/* Bytes on their way to this store: held in limbo, or retired by it. */
	uint64_t coming = atomic_load_explicit(&h->limbo_bytes, memory_order_relaxed);
	if (h->expiring_entries && now >= h->next_expiry_ms) {
		sweep_ctx c = { .now_ms = now, .want = UINT64_MAX, .next_expiry = INT64_MAX };
		sweep(st, h->nbuckets, visit_expired, &c);
		/* It saw every entry with a TTL, or stopped when none was left. */
		h->next_expiry_ms = c.next_expiry;
		coming += c.done;
		if (c.done) {
			rs_reclaim(st);
			if ((off = rs_alloc(st, size))) {
				return off;
			}
		}
	}
	/* Two rounds of CLOCK at most: the first may only clear reference bits. */
	uint64_t budget = 2 * h->nbuckets;
	bool windowed = false, wiped = false;
	int waits = 0;
	for (;;) {
		uint64_t held = atomic_load_explicit(&h->limbo_bytes, memory_order_relaxed);
		/* Without eviction, only what readers hold can still come back. */
		uint64_t evictable = h->eviction == RS_EVICT_NONE ? 0 : evictable_bytes(st);
		if (h->free_bytes + held + evictable < size) {
			return 0;
		}
		if (h->eviction == RS_EVICT_WIPE && !wiped && coming < size) {
			/* Once per store: what readers hold then comes back as they end. */
			wiped = true;
			coming += wipe(st, now);
		} else if (h->eviction == RS_EVICT_CLOCK && budget && evictable && (coming < size || (windowed && !held))) {
			/* CLOCK takes what is still missing, over all the steps of
			 * its round. Once a window did not help, and only when no
			 * reader holds what it retires (then it is freed at once),
			 * it goes on until something fits. */
			sweep_ctx c = { .now_ms = now, .want = coming < size ? size - coming : size };
			budget -= sweep(st, budget < 4096 ? budget : 4096, visit_clock, &c);
			coming += c.done;
			if (!c.done) {
				continue;
			}
		} else if (h->eviction == RS_EVICT_CLOCK && !windowed && h->free_bytes >= size) {
			/* Enough bytes are free, but scattered: evict neighbours,
			 * sparing recently read ones if a window without them
			 * exists. */
			windowed = true;
			uint64_t done = evict_window(st, size, now, true);
			if (!done) {
				done = evict_window(st, size, now, false);
			}
			coming += done;
			if (!done) {
				continue;
			}
		} else if (held && waits < RS_READER_WAITS && worth_waiting(st)) {
			/* Requests are short: give the readers a moment, without
			 * holding the lock, so other writers may go on. */
			waits++;
			h->reader_waits++;
			rs_unlock(st);
			usleep(1000);
			rs_lock(st);
		} else {
			if (waits == RS_READER_WAITS) {
				h->readers_quick = 0;
				if (h->limbo_head) {
					h->waited_out_tag = rs_entry_at(st, h->limbo_head)->limbo_tag;
				}
			}
			return 0;
		}
		rs_reclaim(st);
		if ((off = rs_alloc(st, size))) {
			h->readers_quick |= waits > 0;
			return off;
		}
	}
}
