/*
 * The index: a fixed array of bucket heads with singly linked chains of
 * entries, read without locks. Each change a writer makes to a chain is one
 * release store of a link, so a reader walking a chain always sees a valid
 * chain, before or after the change. An unlinked entry keeps its `next`, so
 * a reader standing on it can walk on; reclamation (reclaim.c) keeps it
 * allocated until no reader can stand on it.
 *
 * Eviction is CLOCK with the bucket array as the clock face: the hand
 * sweeps buckets in order; an entry whose `referenced` bits are set gets
 * them cleared and survives, one without is evicted. A reader marks it read
 * on a hit (only if not marked yet, so hot entries cost no write); a new
 * entry starts marked new, so it gets one full sweep before it can go.
 * Eviction by address (windows) tells the two apart: what was read is what
 * it spares. Keeping no separate ring means inserts and deletes touch
 * nothing but the chain. TTLs are checked lazily by readers and swept
 * first when memory is needed. Nothing ever wipes the whole cache.
 */
#include "internal.h"
#include <string.h>
#include <unistd.h>

#define RS_FLUSH_EVERY 4096
#define RS_RECLAIM_BATCH 32
/* Values up to this size are written while holding the lock (one lock
 * round trip instead of two); larger ones are written outside it. */
#define RS_INLINE_WRITE_MAX (16 * 1024)

static inline _Atomic rs_off *bucket_for(const rs_store *st, uint64_t hash)
{
	return &rs_buckets(st)[hash & (st->hdr->nbuckets - 1)];
}

static inline bool entry_matches(const rs_entry *e, uint64_t hash, uint16_t pool, const char *key, size_t len)
{
	return e->hash == hash && e->pool == pool && e->key_len == len && memcmp(e->key, key, len) == 0;
}

/* now_ms == 0: read the clock only if the entry has a TTL. */
static inline bool entry_expired(const rs_entry *e, int64_t now_ms)
{
	return e->expires_ms && e->expires_ms <= (now_ms ? now_ms : (int64_t)rs_now_ms());
}

/* --- readers ----------------------------------------------------------------- */

static const rs_entry *find_live(rs_store *st, uint16_t pool, const char *key, size_t len, int64_t now_ms, bool touch)
{
	uint64_t hash = rs_hash(st->hdr->seed, pool, key, len);
	rs_off off = atomic_load_explicit(bucket_for(st, hash), memory_order_acquire);
	while (off) {
		const rs_entry *e = rs_entry_at(st, off);
		if (entry_matches(e, hash, pool, key, len)) {
			if (entry_expired(e, now_ms)) {
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
	rs_off off = atomic_load_explicit(bucket_for(st, hash), memory_order_acquire);
	while (off) {
		const rs_entry *e = rs_entry_at(st, off);
		if (entry_matches(e, hash, pool, key, len)) {
			int64_t now = (int64_t)rs_now_ms();
			*stale = entry_expired(e, now);
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
		if (e->pool == pool && !entry_expired(e, now)) {
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
	for (uint32_t i = 0; i < RS_MAX_POOLS; i++) {
		if (st->pending_hits[i]) {
			atomic_fetch_add_explicit(&pools[i].hits, st->pending_hits[i], memory_order_relaxed);
			st->pending_hits[i] = 0;
		}
		if (st->pending_misses[i]) {
			atomic_fetch_add_explicit(&pools[i].misses, st->pending_misses[i], memory_order_relaxed);
			st->pending_misses[i] = 0;
		}
	}
	st->pending_ops = 0;
}

/* --- writer helpers (segment lock held) ---------------------------------- */

/* Returns the link that points at the live entry for the key, or NULL. */
static _Atomic rs_off *find_link(rs_store *st, uint64_t hash, uint16_t pool, const char *key, size_t len, _Atomic rs_off *from)
{
	_Atomic rs_off *link = from ? from : bucket_for(st, hash);
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

static void account_live(rs_store *st, rs_entry *e, int sign)
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
static inline void bump_mutation(rs_store *st)
{
	uint64_t m = atomic_load_explicit(&st->hdr->mutation_epoch, memory_order_relaxed);
	atomic_store_explicit(&st->hdr->mutation_epoch, m + 1, memory_order_release);
}

/* Unlinks the entry that `link` points at and moves it to limbo. */
static void retire_at(rs_store *st, _Atomic rs_off *link)
{
	rs_entry *e = rs_entry_at(st, atomic_load_explicit(link, memory_order_relaxed));
	atomic_store_explicit(link, atomic_load_explicit(&e->next, memory_order_relaxed), memory_order_release);
	rs_crash_point(st, RS_CRASH_AFTER_UNLINK);
	account_live(st, e, -1);
	rs_limbo_push(st, e);
	bump_mutation(st);
}


/* Visits the entries of up to `budget` buckets from the hand, advancing it;
 * returns how many buckets it visited. visit() returns true when it retired
 * the entry (the link then already points at the next one); stop is set
 * when enough was done. */
typedef bool (*visit_fn)(rs_store *st, _Atomic rs_off *link, rs_entry *e, void *ctx, bool *stop);

static uint64_t sweep(rs_store *st, uint64_t budget, visit_fn visit, void *ctx)
{
	rs_header *h = st->hdr;
	_Atomic rs_off *buckets = rs_buckets(st);
	bool stop = false;
	uint64_t visited = 0;
	for (; visited < budget && !stop; visited++) {
		h->sweep_buckets++;
		_Atomic rs_off *link = &buckets[h->clock_hand];
		h->clock_hand = (h->clock_hand + 1) & (h->nbuckets - 1);
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
	if (!entry_expired(e, c->now_ms)) {
		if (e->expires_ms && e->expires_ms < c->next_expiry) {
			c->next_expiry = e->expires_ms;
		}
		return false;
	}
	c->done += rs_block_size(&e->block);
	count_expired(st, e);
	retire_at(st, link);
	*stop = !st->hdr->expiring_entries;
	return true;
}

static bool visit_clock(rs_store *st, _Atomic rs_off *link, rs_entry *e, void *ctx, bool *stop)
{
	sweep_ctx *c = ctx;
	if (rs_pools(st)[e->pool].pinned) {
		return false;
	}
	if (entry_expired(e, c->now_ms)) {
		count_expired(st, e);
	} else if (atomic_load_explicit(&e->referenced, memory_order_relaxed)) {
		atomic_store_explicit(&e->referenced, 0, memory_order_relaxed);
		return false;
	} else {
		rs_pools(st)[e->pool].evictions++;
		st->hdr->evictions++;
	}
	c->done += rs_block_size(&e->block);
	retire_at(st, link);
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
static uint64_t window_block_cost(rs_store *st, rs_off off, bool spare_read)
{
	rs_block *b = (rs_block *)(st->base + off);
	uint64_t size = rs_block_size(b);
	if (!(b->size_flags & RS_BLOCK_USED)) {
		return 0;
	}
	rs_entry *e = (rs_entry *)b;
	if (e->state != RS_ENTRY_LIVE || e->pool >= RS_MAX_POOLS || rs_pools(st)[e->pool].pinned) {
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
static bool window_from(rs_store *st, rs_off off, uint64_t size, uint64_t limit, bool spare_read, rs_off *lo_out, rs_off *hi_out, uint64_t *cost_out)
{
	rs_header *h = st->hdr;
	rs_off end = h->heap_off + h->heap_size;
	rs_off lo = off, hi = off + rs_block_size((rs_block *)(st->base + off));
	uint64_t cost = 0;
	while (hi - lo < size) {
		uint64_t fwd = hi < end ? window_block_cost(st, hi, spare_read) : UINT64_MAX;
		uint64_t prev_size = ((rs_block *)(st->base + lo))->prev_size;
		rs_off back_off = prev_size ? lo - prev_size : 0;
		uint64_t back = prev_size ? window_block_cost(st, back_off, spare_read) : UINT64_MAX;
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
			if (window_from(st, off, size, best, spare_read, &lo, &hi, &cost)) {
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
			_Atomic rs_off *link = bucket_for(st, e->hash);
			rs_off cur;
			while ((cur = atomic_load_explicit(link, memory_order_relaxed)) != 0 && cur != off) {
				link = &rs_entry_at(st, cur)->next;
			}
			if (cur == off) {
				if (entry_expired(e, now_ms)) {
					count_expired(st, e);
				} else {
					rs_pools(st)[e->pool].evictions++;
					h->evictions++;
				}
				retire_at(st, link);
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

/* Stores wait this many times 1 ms, the lock released, for readers in
 * flight to release what they hold. */
#define RS_READER_WAITS 50
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
static void keep_room_ahead(rs_store *st, int64_t now)
{
	rs_header *h = st->hdr;
	uint64_t ahead = h->heap_size >> RS_AHEAD_SHIFT;
	/* A writer inside its own read section would pin what it retires. */
	bool reading = st->read_depth > 0 && st->slot >= 0;
	if (h->readers_quick && !reading && h->free_bytes + atomic_load_explicit(&h->limbo_bytes, memory_order_relaxed) < ahead) {
		/* Ahead of need, nothing recently read is worth it. Finding no
		 * such run, it does not look again (under the lock, at every
		 * store) until another wait pays off. */
		if (!evict_window(st, ahead, now, true)) {
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
static rs_off alloc_evicting(rs_store *st, uint64_t size)
{
	rs_header *h = st->hdr;
	int64_t now = (int64_t)rs_now_ms();
	rs_off off;

	/* Reclaiming scans every reader slot: do it in batches, or when
	 * memory runs short. */
	if (h->limbo_entries >= RS_RECLAIM_BATCH || atomic_load_explicit(&h->limbo_bytes, memory_order_relaxed) > h->heap_size / 64) {
		rs_reclaim(st);
	}
	keep_room_ahead(st, now);
	if ((off = rs_alloc(st, size))) {
		return off;
	}
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
	bool windowed = false;
	int waits = 0;
	for (;;) {
		uint64_t held = atomic_load_explicit(&h->limbo_bytes, memory_order_relaxed);
		uint64_t evictable = evictable_bytes(st);
		if (h->free_bytes + held + evictable < size) {
			return 0;
		}
		if (budget && evictable && (coming < size || (windowed && !held))) {
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
		} else if (!windowed && h->free_bytes >= size) {
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

/* The block an entry needs: its header and key (value_offset), then its value. */
static uint64_t entry_block_size(uint64_t value_offset, uint64_t value_size)
{
	return rs_alloc_round(value_offset + value_size - sizeof(rs_block));
}

static uint64_t value_offset_for(size_t key_len)
{
	return RS_ALIGN_UP(offsetof(rs_entry, key) + key_len + 1, RS_ALIGN);
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
	rs_off off = alloc_evicting(st, size);
	if (!off) {
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
	_Atomic rs_off *bucket = bucket_for(st, e->hash);
	_Atomic rs_off *old = find_link(st, e->hash, e->pool, e->key, len, NULL);
	if (old && only_if_absent && !entry_expired(rs_entry_at(st, atomic_load(old)), now_ms)) {
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
	e->state = RS_ENTRY_LIVE;
	/* A full sweep of grace before it can be evicted. */
	atomic_store_explicit(&e->referenced, RS_REF_NEW, memory_order_relaxed);
	atomic_store_explicit(&e->next, atomic_load_explicit(bucket, memory_order_relaxed), memory_order_relaxed);
	/* Publication: readers that see the link see a complete entry. */
	atomic_store_explicit(bucket, RS_OFF(st, e), memory_order_release);
	rs_crash_point(st, RS_CRASH_AFTER_LINK);
	account_live(st, e, +1);

	if (old) {
		/* The old entry is now behind ours in the chain. */
		_Atomic rs_off *link = find_link(st, e->hash, e->pool, e->key, len, &e->next);
		if (link) {
			retire_at(st, link);
		}
	}
	rs_pools(st)[e->pool].stores++;
	h->stores++;
	bump_mutation(st);
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
		rc = entry_expired(e, (int64_t)rs_now_ms()) ? RS_NOT_FOUND : RS_OK;
		rs_pools(st)[pool].deletes += rc == RS_OK;
		retire_at(st, link);
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
			retire_at(st, link);
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
				retire_at(st, link);
			} else {
				link = &e->next;
			}
		}
	}
	bump_mutation(st);
	rs_reclaim(st);
	rs_unlock(st);
}
