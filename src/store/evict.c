/* SPDX-License-Identifier: MIT */
/*
 * Making room for a new entry (rs_alloc_evicting, under the write lock).
 *
 * Eviction is CLOCK with the bucket array as the clock face: the hand
 * sweeps buckets in order; an entry whose `referenced` bits are set has
 * them lowered and survives (read: to new; new: to none), one without may
 * be evicted, and of the next few such entries the one stored first goes.
 * A reader marks it read on a hit (only if not marked yet, so hot entries
 * cost no write); a new entry starts marked new, so it gets one full sweep
 * before it can go, one read since gets two.
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

/* CLOCK's victim is not the first entry it may evict that the hand meets,
 * but the one stored longest ago among the next few: when a round found
 * every entry referenced (a cache that filled up at once, then more
 * stores), the next one would take them in bucket order, what was stored a
 * moment ago as soon as what was stored an hour ago. */
#define RS_CLOCK_SAMPLE 8

typedef struct sweep_ctx {
	int64_t now_ms;
	uint64_t want;       /* bytes to evict */
	uint64_t done;       /* bytes evicted */
	/* CLOCK: the block the store needs (0: bytes are enough), and whether
	 * what it retired, with the free blocks beside, makes one that big. */
	uint64_t size;
	bool fitted;
	int64_t next_expiry; /* expired sweep: the earliest expiry of what stays */
	uint32_t ncand;      /* CLOCK: entries it may evict, met since its last victim */
	rs_entry *cand[RS_CLOCK_SAMPLE];
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

/* The link that points at e in its bucket's chain, or NULL. */
static _Atomic rs_off *link_to(rs_store *st, const rs_entry *e)
{
	rs_off off = RS_OFF(st, e);
	_Atomic rs_off *link = rs_bucket_for(st, e->hash);
	rs_off cur;
	while ((cur = atomic_load_explicit(link, memory_order_relaxed)) != 0 && cur != off) {
		link = &rs_entry_at(st, cur)->next;
	}
	return cur == off ? link : NULL;
}

/* Retires an entry eviction takes by address (its link found again):
 * counted as expired if it has, else as evicted. Returns its bytes. */
static uint64_t retire_taken(rs_store *st, _Atomic rs_off *link, rs_entry *e, int64_t now_ms)
{
	uint64_t size = rs_block_size(&e->block);
	if (rs_entry_expired(e, now_ms)) {
		count_expired(st, e);
	} else {
		rs_pools(st)[e->pool].evictions++;
		st->hdr->evictions++;
	}
	rs_retire_at(st, link);
	return size;
}

static void evict_at(rs_store *st, sweep_ctx *c, _Atomic rs_off *link, rs_entry *e)
{
	rs_pools(st)[e->pool].evictions++;
	st->hdr->evictions++;
	c->done += rs_block_size(&e->block);
	rs_retire_at(st, link);
}

/*
 * Room that fits. A victim's block merges with the free blocks beside it
 * when it is freed, and with nothing else: a value a little larger than
 * the ones it replaces (a key or a value that grew by a few bytes) needs
 * two neighbours gone. CLOCK's victims are scattered, so the second would
 * be, on average, far from the first, and another and another would go
 * before two happened to be neighbours (or a window of neighbours is
 * evicted once enough bytes are free but scattered). So where the entry
 * CLOCK chose does not fit on its own, a neighbour of it goes with it, and
 * the free room that is left then is where the next store looks first: an
 * entry beside free room that fits goes instead of CLOCK's choice if it
 * was stored before it. Neither is ever an entry read since CLOCK last
 * passed it, nor one stored after every entry CLOCK is weighing: what goes
 * is as old as what CLOCK would take, only next to the room it needs.
 */

/* How many free blocks, largest first, the store looks beside: the room
 * left by the stores before (each next to the entry to go next, if it is
 * old enough) is among them, as long as there are not more than these
 * larger ones. */
#define RS_FIT_LOOKS 32

static inline rs_block *block_at(const rs_store *st, rs_off off) { return (rs_block *)(st->base + off); }

static inline bool block_free(const rs_store *st, rs_off off)
{
	return !(block_at(st, off)->size_flags & RS_BLOCK_USED);
}

/* The block before the one at `off`, or 0. */
static inline rs_off block_before(const rs_store *st, rs_off off)
{
	uint64_t prev = block_at(st, off)->prev_size;
	return prev ? off - prev : 0;
}

/* The block after the one at `off`, or 0. */
static inline rs_off block_after(const rs_store *st, rs_off off)
{
	rs_off next = off + rs_block_size(block_at(st, off));
	return next < st->hdr->heap_off + st->hdr->heap_size ? next : 0;
}

/* The bytes of the blocks [lo, hi) and of the free blocks on either side:
 * one block once those in between are freed. */
static uint64_t room_of(const rs_store *st, rs_off lo, rs_off hi)
{
	rs_off b;
	while ((b = block_before(st, lo)) && block_free(st, b)) {
		lo = b;
	}
	while (hi < st->hdr->heap_off + st->hdr->heap_size && block_free(st, hi)) {
		hi += rs_block_size(block_at(st, hi));
	}
	return hi - lo;
}

/* The entry in the block at `off` if it may go beside a victim: live, of
 * a pool that is not pinned, not kept by a guard, not read since CLOCK
 * last passed it, and stored before `before` (a commit epoch). */
static rs_entry *may_go_beside(rs_store *st, const sweep_ctx *c, rs_off off, uint64_t before)
{
	if (!off || block_free(st, off)) {
		return NULL;
	}
	rs_entry *e = (rs_entry *)block_at(st, off);
	if (e->state != RS_ENTRY_LIVE || e->pool >= RS_MAX_POOLS || e->limbo_tag >= before
	    || (atomic_load_explicit(&e->referenced, memory_order_relaxed) & RS_REF_READ)
	    || rs_pools(st)[e->pool].pinned || guarded(st, e, c->now_ms)) {
		return NULL;
	}
	return e;
}

/* The entry stored first, before `before`, that fits with the free block
 * beside it (among the largest free blocks), or NULL. */
static rs_entry *fits_beside_free(rs_store *st, const sweep_ctx *c, uint64_t before)
{
	rs_header *h = st->hdr;
	rs_entry *best = NULL;
	int looks = 0;
	for (int k = RS_CLASSES - 1; k >= 0 && looks < RS_FIT_LOOKS; k--) {
		if (!((h->bitmap[k / 64] >> (k % 64)) & 1)) {
			continue;
		}
		for (rs_off f = h->free_heads[k]; f && looks < RS_FIT_LOOKS; f = ((rs_free_block *)block_at(st, f))->next_free) {
			looks++;
			rs_off sides[2] = { block_before(st, f), block_after(st, f) };
			for (int i = 0; i < 2; i++) {
				rs_entry *e = may_go_beside(st, c, sides[i], best ? best->limbo_tag : before);
				if (!e) {
					continue;
				}
				rs_off at = RS_OFF(st, e);
				if (room_of(st, at, at + rs_block_size(&e->block)) >= c->size) {
					best = e;
				}
			}
		}
	}
	return best;
}

/* The neighbour of the victim at `at` (retired, still in its block) whose
 * going too makes room that fits, the one stored first, or NULL. */
static rs_entry *fits_with(rs_store *st, const sweep_ctx *c, rs_off at, uint64_t before)
{
	rs_off end = at + rs_block_size(block_at(st, at));
	rs_entry *prev = may_go_beside(st, c, block_before(st, at), before);
	rs_entry *next = may_go_beside(st, c, block_after(st, at), before);
	if (prev && room_of(st, RS_OFF(st, prev), end) < c->size) {
		prev = NULL;
	}
	if (next && room_of(st, at, RS_OFF(st, next) + rs_block_size(&next->block)) < c->size) {
		next = NULL;
	}
	if (prev && next) {
		return prev->limbo_tag < next->limbo_tag ? prev : next;
	}
	return prev ? prev : next;
}

/* Retires an entry found by address, with its link found again. */
static bool evict_found(rs_store *st, sweep_ctx *c, rs_entry *e)
{
	_Atomic rs_off *link = link_to(st, e);
	if (!link) {
		return false;
	}
	c->done += retire_taken(st, link, e, c->now_ms);
	return true;
}

/* Evicts the candidate stored first (the lowest commit epoch: limbo_tag of
 * a live entry); where the store needs a block (c->size) and that one does
 * not make one that fits, an entry stored before it beside free room that
 * fits instead, or it and a neighbour (see "Room that fits"). Entries of
 * one size replacing each other fit at once, without a look at the free
 * blocks. `cur`, at `cur_link`, is the entry the hand is on;
 * true if it was the one (the caller's link then points past it). The
 * others are behind the hand or found by address: their links are found
 * again, as the chains may have changed since. Having retired two, or one
 * not a candidate, it has room that fits: the sweep stops (visit_clock()
 * does nothing more), so a link into a chain it changed is not used to
 * write. */
static bool evict_oldest(rs_store *st, sweep_ctx *c, _Atomic rs_off *cur_link, rs_entry *cur)
{
	uint32_t at = 0;
	uint64_t youngest = 0;
	for (uint32_t i = 0; i < c->ncand; i++) {
		if (c->cand[i]->limbo_tag < c->cand[at]->limbo_tag) {
			at = i;
		}
		if (c->cand[i]->limbo_tag > youngest) {
			youngest = c->cand[i]->limbo_tag;
		}
	}
	rs_entry *victim = c->cand[at];
	rs_off off = RS_OFF(st, victim);
	bool fits = c->size && room_of(st, off, off + rs_block_size(&victim->block)) >= c->size;
	if (c->size && !fits) {
		rs_entry *beside = fits_beside_free(st, c, victim->limbo_tag);
		if (beside && evict_found(st, c, beside)) {
			c->fitted = true;
			return false;
		}
	}
	c->cand[at] = c->cand[--c->ncand];
	bool retired_cur = victim == cur;
	if (retired_cur) {
		evict_at(st, c, cur_link, cur);
	} else {
		_Atomic rs_off *link = link_to(st, victim);
		if (!link) {
			return false;
		}
		evict_at(st, c, link, victim);
	}
	rs_entry *with;
	if (fits) {
		c->fitted = true;
	} else if (c->size && (with = fits_with(st, c, off, youngest + 1)) && evict_found(st, c, with)) {
		c->fitted = true;
	}
	return retired_cur;
}

/* What a CLOCK sweep left of its candidates, until it has what it wanted. */
static void evict_candidates(rs_store *st, sweep_ctx *c)
{
	while (c->ncand && c->done < c->want && !c->fitted) {
		evict_oldest(st, c, NULL, NULL);
	}
	c->ncand = 0;
}

static bool visit_clock(rs_store *st, _Atomic rs_off *link, rs_entry *e, void *ctx, bool *stop)
{
	sweep_ctx *c = ctx;
	uint8_t ref;
	if (c->fitted || rs_pools(st)[e->pool].pinned) {
		return false;
	}
	if (rs_entry_expired(e, c->now_ms)) {
		count_expired(st, e);
		c->done += rs_block_size(&e->block);
		rs_retire_at(st, link);
		*stop = c->done >= c->want;
		return true;
	}
	if (guarded(st, e, c->now_ms)) {
		return false;
	}
	if ((ref = atomic_load_explicit(&e->referenced, memory_order_relaxed))) {
		/* A second chance; two for an entry read since the hand last
		 * passed it: a read is more recent than the stores the hand
		 * clears in the same round, and one round would leave the two
		 * alike (the entries a request read just before the cache
		 * filled up went as soon as those stored before them). */
		atomic_store_explicit(&e->referenced, ref & RS_REF_READ ? RS_REF_NEW : 0, memory_order_relaxed);
		return false;
	}
	/* Met again: the sweep went round, and there are no more to choose
	 * from (a cache of few entries). */
	bool again = false;
	for (uint32_t i = 0; i < c->ncand; i++) {
		again |= c->cand[i] == e;
	}
	if (!again) {
		c->cand[c->ncand++] = e;
	}
	if (c->ncand < RS_CLOCK_SAMPLE && !again) {
		return false;
	}
	bool retired = evict_oldest(st, c, link, e);
	*stop = c->done >= c->want || c->fitted;
	return retired;
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

/* Which entries a window may evict. */
typedef struct window_rule {
	int64_t now_ms;
	/* Spared: entries with one of these bits (RS_REF_READ, read since
	 * CLOCK last passed them; RS_REF_NEW, stored since). */
	uint8_t spare;
	/* Spared: entries CLOCK would not reach within this many buckets of
	 * its hand (those it passed last are the ones it gave a second
	 * chance last). nbuckets: none. */
	uint64_t front;
} window_rule;

/* The eviction cost of the block at `off`, or UINT64_MAX if it cannot go
 * (nor if the rule spares it). Entries stored or read since CLOCK last
 * passed them count double. */
static uint64_t window_block_cost(rs_store *st, rs_off off, const window_rule *rule)
{
	int64_t now_ms = rule->now_ms;
	rs_block *b = (rs_block *)(st->base + off);
	uint64_t size = rs_block_size(b);
	if (!(b->size_flags & RS_BLOCK_USED)) {
		return 0;
	}
	rs_entry *e = (rs_entry *)b;
	if (e->state != RS_ENTRY_LIVE || e->pool >= RS_MAX_POOLS || rs_pools(st)[e->pool].pinned || guarded(st, e, now_ms)) {
		return UINT64_MAX;
	}
	uint64_t mask = st->hdr->nbuckets - 1;
	if (rule->front <= mask && (((e->hash & mask) - st->hdr->clock_hand) & mask) >= rule->front) {
		return UINT64_MAX;
	}
	uint8_t ref = atomic_load_explicit(&e->referenced, memory_order_relaxed);
	if (!ref) {
		return size;
	}
	return ref & rule->spare ? UINT64_MAX : 2 * size;
}

/* Grows a window from the free block at `off` until it holds `size` bytes;
 * false if it cannot, or not for less than `limit`. */
static bool window_from(rs_store *st, rs_off off, uint64_t size, uint64_t limit, const window_rule *rule, rs_off *lo_out, rs_off *hi_out, uint64_t *cost_out)
{
	rs_header *h = st->hdr;
	rs_off end = h->heap_off + h->heap_size;
	rs_off lo = off, hi = off + rs_block_size((rs_block *)(st->base + off));
	uint64_t cost = 0;
	while (hi - lo < size) {
		uint64_t fwd = hi < end ? window_block_cost(st, hi, rule) : UINT64_MAX;
		uint64_t prev_size = ((rs_block *)(st->base + lo))->prev_size;
		rs_off back_off = prev_size ? lo - prev_size : 0;
		uint64_t back = prev_size ? window_block_cost(st, back_off, rule) : UINT64_MAX;
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

/* Evicts the cheapest window of `size` bytes, one without entries the
 * rule spares (window_block_cost). Returns the bytes retired. */
static uint64_t evict_window(rs_store *st, uint64_t size, const window_rule *rule)
{
	int64_t now_ms = rule->now_ms;
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
			if (window_from(st, off, size, best, rule, &lo, &hi, &cost)) {
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
		_Atomic rs_off *link;
		if ((e->block.size_flags & RS_BLOCK_USED) && (link = link_to(st, e))) {
			done += retire_taken(st, link, e, now_ms);
		}
		off += bsize;
	}
	return done;
}

/* A window of what CLOCK would take first, as far as one exists: entries
 * it would evict when it reaches them (neither stored nor read since it
 * last passed), among those it reaches within half a round (the ones it
 * passed last just had their second chance: they are the recent ones);
 * then entries not read since, wherever they are; then any. */
static uint64_t evict_window_as_clock(rs_store *st, uint64_t size, int64_t now_ms)
{
	uint64_t half = st->hdr->nbuckets / 2;
	const window_rule rules[] = {
		{ .now_ms = now_ms, .spare = RS_REF_READ | RS_REF_NEW, .front = half },
		{ .now_ms = now_ms, .spare = RS_REF_READ, .front = half },
		{ .now_ms = now_ms, .spare = RS_REF_READ, .front = st->hdr->nbuckets },
		{ .now_ms = now_ms, .spare = 0, .front = st->hdr->nbuckets },
	};
	uint64_t done = 0;
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]) && !done; i++) {
		done = evict_window(st, size, &rules[i]);
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
		window_rule cold = { .now_ms = (int64_t)rs_now_ms(), .spare = RS_REF_READ, .front = h->nbuckets };
		if (!evict_window(st, ahead, &cold)) {
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
	/* Three rounds of CLOCK at most: the first two may only lower
	 * reference bits (an entry read has two chances). */
	uint64_t budget = 3 * h->nbuckets;
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
			 * it goes on until something fits. (Free bytes do not count:
			 * completing scattered free room by evicting its neighbours
			 * first took fewer entries for values a little larger than
			 * the ones they replace, but it evicted by address, not by
			 * age, and entries far from free room outlived churns many
			 * times the cache's size.) */
			sweep_ctx c = { .now_ms = now, .want = coming < size ? size - coming : size, .size = size };
			budget -= sweep(st, budget < 4096 ? budget : 4096, visit_clock, &c);
			evict_candidates(st, &c);
			coming += c.done;
			if (c.fitted && coming < size) {
				/* What it retired makes room that fits, with the free
				 * blocks beside: it is on its way, whatever its bytes. */
				coming = size;
			}
			if (!c.done) {
				continue;
			}
		} else if (h->eviction == RS_EVICT_CLOCK && !windowed && h->free_bytes >= size) {
			/* Enough bytes are free, but scattered: evict neighbours,
			 * sparing recently read ones if a window without them
			 * exists. */
			windowed = true;
			uint64_t done = evict_window_as_clock(st, size, now);
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
