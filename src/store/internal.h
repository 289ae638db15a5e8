/* SPDX-License-Identifier: MIT */
/*
 * Layout of a Resident segment, shared by the store's source files only.
 *
 *   [rs_header][pools][reader slots][bucket heads][heap ..........]
 *
 * Everything inside the segment refers to everything else by offset from
 * the segment base, so the store itself does not care where it is mapped
 * (the value layer above does: it stores engine pointers). docs/internals.md
 * describes the whole.
 */
#ifndef RESIDENT_STORE_INTERNAL_H
#define RESIDENT_STORE_INTERNAL_H

/* Robust mutexes, memfd_create, getrandom. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "store.h"
#include <pthread.h>
#include <stdatomic.h>
#include <sys/types.h>

#define RS_MAGIC 0x544e454449534552ULL /* "RESIDENT" */
#define RS_MAGIC_FORMATTING 0x3f4e454449534552ULL /* "RESIDEN?": a named segment being formatted */
/* A named segment's file: the byte-range locks that say who is attached
 * and whether its creator is still setting it up (segment.c). */
#define RS_ATTACH_BYTE ((off_t)1 << 40)
#define RS_SETUP_BYTE (RS_ATTACH_BYTE + 1)
/* Where segments go (segment.c): slots of RS_SEGMENT_STRIDE bytes far from
 * where Linux puts heaps, libraries and anonymous mappings, so that
 * another process most likely has the same address free (a named segment
 * attached by a process that did not create it, a dump restored into a
 * segment another process makes). */
#define RS_SEGMENT_BASE 0x600000000000ULL
#define RS_SEGMENT_STRIDE ((uint64_t)1 << 30)
#define RS_SEGMENT_SPREAD 1024
#define RS_ALIGN 16
#define RS_CACHELINE 64
#define RS_DEFAULT_SLOTS 1024
#define RS_DEFAULT_LIMBO_CAP_PERCENT 25

typedef uint64_t rs_off; /* offset from the segment base; 0 means none */

/* --- allocator -------------------------------------------------------------
 * Every block starts with this header. The heap can be walked block by
 * block from its first to its last byte using size alone; every change to a
 * size is one aligned 8-byte store, so the walk is valid at any instant,
 * even after a writer died half-way through a split or a merge. */
typedef struct rs_block {
	uint64_t size_flags;    /* block size (multiple of RS_ALIGN) | flags */
	uint64_t prev_size;     /* size of the preceding block, 0 for the first */
} rs_block;

#define RS_BLOCK_USED   ((uint64_t)1)
#define RS_BLOCK_MARK   ((uint64_t)2)   /* reachable, during recovery only */
#define RS_BLOCK_FLAGS  ((uint64_t)(RS_ALIGN - 1))
#define RS_BLOCK_MIN    ((uint64_t)sizeof(rs_free_block))

typedef struct rs_free_block {
	rs_block b;
	rs_off next_free;
	rs_off prev_free;
} rs_free_block;

/* Segregated free lists: 64 exact classes of 16 bytes up to 1 KiB, then 8
 * classes per power of two. */
#define RS_SMALL_LIMIT   1024
#define RS_SMALL_CLASSES (RS_SMALL_LIMIT / RS_ALIGN)
#define RS_SUB_BITS      3
#define RS_CLASSES       (RS_SMALL_CLASSES + (64 - 10) * (1 << RS_SUB_BITS))
#define RS_BITMAP_WORDS  ((RS_CLASSES + 63) / 64)

/* --- entries ----------------------------------------------------------------
 * One allocated block per entry: header, key, then the value area (aligned).
 * Readers use hash, key, expires, kind, value fields and `next`; they write
 * only `referenced`, and only when it lacks RS_REF_READ. Everything else
 * belongs to the writer holding the lock. */
struct rs_entry {
	rs_block block;
	_Atomic rs_off next;        /* bucket chain */
	uint64_t limbo_tag;         /* in limbo: the epoch it was retired at; live: the mutation epoch of its
	                             * commit, unique to it (rs_delete_if_same tells it from a later entry
	                             * at the same offset) */
	rs_off limbo_next;          /* in limbo: the next (newer) entry */
	uint64_t hash;
	int64_t expires_ms;         /* 0 = no expiry; a miss for lookups after it */
	int64_t stale_ms;           /* 0, or until when rs_lookup_stale still finds it */
	int64_t created_ms;
	uint64_t value_size;
	uint32_t key_len;
	uint32_t kind;
	uint16_t pool;
	_Atomic uint8_t referenced; /* CLOCK second chance: RS_REF_* bits */
	uint8_t state;              /* RS_ENTRY_* */
	uint32_t value_offset;      /* from the entry start */
	char key[];
};

enum { RS_ENTRY_RESERVED = 1, RS_ENTRY_LIVE = 2, RS_ENTRY_LIMBO = 3 };
/* Stored, or read, since CLOCK last passed the entry (which clears both). */
enum { RS_REF_NEW = 1, RS_REF_READ = 2 };

/* --- pools ----------------------------------------------------------------- */
typedef struct rs_pool {
	char name[RS_POOL_NAME_MAX + 1];
	uint8_t in_use;
	uint8_t pinned;
	uint16_t id;
	uint16_t guard;             /* 1 + the pool whose live entries keep this one's of the same key
	                             * from eviction (rs_pool_guard); 0: none */
	uint16_t _pad;
	uint64_t entries;           /* writer-maintained */
	uint64_t bytes;
	uint64_t stores;
	uint64_t deletes;
	uint64_t evictions;
	uint64_t expirations;
	_Atomic uint64_t hits;      /* added in batches by rs_stats_flush */
	_Atomic uint64_t misses;
} rs_pool;

/* --- reader slots ------------------------------------------------------------
 * One per process (NTS) or thread (ZTS), each on its own cache line. */
typedef struct rs_slot {
	_Atomic int32_t pid;        /* 0 = free */
	_Atomic int32_t handover;   /* claimed by a forking parent for its child */
	_Atomic uint64_t epoch;     /* global epoch at entry, 0 = quiescent */
	_Atomic rs_off reservation; /* block reserved but not committed */
	_Atomic uint32_t claims;    /* bumped by every new owner: (slot, claims) names one owner */
	char _fill[RS_CACHELINE - 28];
} rs_slot;

/* --- hottest keys --------------------------------------------------------------
 * A Space-Saving table of sampled hits: a slot's count over-estimates its
 * key's hits by at most the count it inherited. Written with relaxed
 * atomics by readers on one hit in RS_HOT_SAMPLE; races only blur counts. */
#define RS_HOT_SLOTS 64
#define RS_HOT_SAMPLE 64
typedef struct rs_hot {
	_Atomic uint64_t id;        /* entry hash ^ pool, 0 = empty */
	_Atomic rs_off entry;       /* the entry last seen with this id */
	_Atomic uint64_t count;     /* estimated hits */
} rs_hot;

void rs_hot_note(rs_store *st, const rs_entry *e);

/* --- header ------------------------------------------------------------------ */
struct rs_header {
	/* What the segment is and what made it, written once by its creator
	 * and checked by every process that attaches. magic and layout_version
	 * keep these offsets in every layout version, so that any build can say
	 * what it found. */
	uint64_t magic;
	uint32_t layout_version;
	uint32_t header_size;
	uint32_t encoding_version;  /* of the values (rs_config) */
	uint32_t _stamp_pad;
	char build_id[RS_BUILD_ID_MAX];
	uint64_t total_size;
	uint64_t base_address;      /* where the creator mapped it */
	uint64_t seed[2];           /* SipHash key, random per segment */
	uint64_t header_sum;        /* rs_fnv1a from layout_version up to here */

	pthread_mutex_t lock;       /* robust, process-shared */
	char _lock_pad[RS_CACHELINE];

	_Atomic uint64_t epoch;         /* reclamation epoch, starts at 1 */
	char _epoch_pad[RS_CACHELINE - 8];
	_Atomic uint64_t mutation_epoch;
	char _mutation_pad[RS_CACHELINE - 8];

	/* layout */
	rs_off pools_off;
	rs_off slots_off;
	uint32_t nslots;
	_Atomic uint32_t slots_hw;  /* 1 + highest slot ever claimed */
	uint32_t limbo_cap_percent;
	rs_off buckets_off;
	uint64_t nbuckets;          /* power of two */
	rs_off heap_off;
	uint64_t heap_size;

	/* allocator (writer-only, rebuilt by recovery) */
	uint64_t bitmap[RS_BITMAP_WORDS];
	rs_off free_heads[RS_CLASSES];
	uint64_t used_bytes;
	uint64_t free_bytes;

	/* CLOCK hand: the bucket the eviction sweep continues from */
	uint64_t clock_hand;
	uint64_t entries;
	uint64_t expiring_entries;  /* entries with a TTL */
	/* No live entry expires before this (0: not known). Lowered by every
	 * entry stored with a TTL, set by a whole sweep for expired entries:
	 * until then, such a sweep cannot find anything. */
	int64_t next_expiry_ms;
	/* The expiry scan that writes drive (evict.c, rs_expire_step): the
	 * bucket it continues from, the buckets its pass has visited, and no
	 * entry with a TTL that it passed or that was stored since the pass
	 * began expires before expiry_pass_min (0: not known yet). */
	uint64_t expiry_hand;
	uint64_t expiry_pass_buckets;
	int64_t expiry_pass_min;

	/* limbo FIFO, ordered by epoch tag */
	rs_off limbo_head;
	rs_off limbo_tail;
	_Atomic uint64_t limbo_bytes;
	uint64_t limbo_entries;
	/* The limbo head a store waited for in vain: while it is still the
	 * head, the reader that holds it is still reading, and stores fail
	 * without waiting for it again. */
	uint64_t waited_out_tag;
	/* A store's last wait for readers paid off: they move on quickly, and
	 * eviction runs ahead of the stores (index.c, keep_room_ahead). */
	uint64_t readers_quick;

	/* statistics */
	uint64_t stores;
	uint64_t evictions;
	uint64_t expirations;
	_Atomic uint64_t lock_waits;
	uint64_t recoveries;
	uint64_t dead_slots;
	uint64_t sweep_buckets;     /* buckets visited by eviction sweeps */
	uint64_t reader_waits;      /* stores' 1 ms waits for readers to move on */
	_Atomic uint64_t store_failures; /* reservations refused (some without the lock) */
	uint64_t wipes;             /* RS_EVICT_WIPE rounds */
	uint32_t npools;
	uint32_t eviction;          /* rs_eviction, set by the creator */

	/* hottest keys, approximated from sampled hits (inspect.c) */
	rs_hot hot[RS_HOT_SLOTS];
};

/* --- helpers shared by the store's files ----------------------------------- */

/* segment.c: whether what a header says made it (store layout, value
 * encoding, PHP build) differs from this build (cfg); if so, err says which
 * and what each side has. `made` is how the file came to be ("made",
 * "written"). */
bool rs_stamp_differs(uint32_t layout_version, uint32_t encoding_version, const char *build_id,
                      const rs_config *cfg, const char *made, char *err, size_t errlen);

#define RS_PTR(st, off) ((void *)((st)->base + (off)))
#define RS_OFF(st, ptr) ((rs_off)((const char *)(ptr) - (st)->base))
#define RS_ALIGN_UP(n, a) (((n) + ((a) - 1)) & ~((uint64_t)(a) - 1))

static inline rs_pool *rs_pools(const rs_store *st) { return (rs_pool *)(st->base + st->hdr->pools_off); }
static inline rs_slot *rs_slots(const rs_store *st) { return (rs_slot *)(st->base + st->hdr->slots_off); }
static inline _Atomic rs_off *rs_buckets(const rs_store *st) { return (_Atomic rs_off *)(st->base + st->hdr->buckets_off); }
static inline uint64_t rs_block_size(const rs_block *b) { return b->size_flags & ~RS_BLOCK_FLAGS; }
static inline rs_entry *rs_entry_at(const rs_store *st, rs_off off) { return (rs_entry *)(st->base + off); }

/* hash.c */
uint64_t rs_hash(const uint64_t seed[2], uint16_t pool, const char *key, size_t len);
#define RS_FNV_INIT 0xcbf29ce484222325ULL
uint64_t rs_fnv1a(uint64_t h, const void *p, size_t n);

/* alloc.c */
void rs_alloc_init(rs_store *st);
rs_off rs_alloc(rs_store *st, uint64_t size);   /* 0 if no block fits */
void rs_free(rs_store *st, rs_off block);
/* Gives the tail of a used block beyond `size` (rounded) back, if it is
 * large enough to be a block of its own. */
void rs_alloc_shrink(rs_store *st, rs_off block, uint64_t size);
uint64_t rs_alloc_round(uint64_t payload);     /* block size needed for a payload */
uint64_t rs_entry_need(size_t key_len, size_t value_size); /* block size a store asks for */
uint64_t rs_largest_free(const rs_store *st);
void rs_alloc_rebuild(rs_store *st);            /* recovery: free lists from a heap walk */
const char *rs_alloc_check(rs_store *st, uint64_t *free_blocks);

/* lock.c */
void rs_lock_init(rs_header *hdr);
void rs_lock(rs_store *st);
void rs_unlock(rs_store *st);
void rs_crash_point_hit(rs_store *st, int point);
static inline void rs_crash_point(rs_store *st, int point)
{
	if (__builtin_expect(st->crash_point != 0, 0)) {
		rs_crash_point_hit(st, point);
	}
}

/* recover.c */
void rs_recover(rs_store *st);

/* index.c */
static inline _Atomic rs_off *rs_bucket_for(const rs_store *st, uint64_t hash)
{
	return &rs_buckets(st)[hash & (st->hdr->nbuckets - 1)];
}
/* now_ms == 0: read the clock only if the entry has a TTL. */
static inline bool rs_entry_expired(const rs_entry *e, int64_t now_ms)
{
	return e->expires_ms && e->expires_ms <= (now_ms ? now_ms : (int64_t)rs_now_ms());
}

/* retire.c, under the write lock: unlinks the entry that `link` points at
 * and moves it to limbo; the epoch request-local memos compare. */
void rs_retire_at(rs_store *st, _Atomic rs_off *link);
void rs_bump_mutation(rs_store *st);

/* Under the write lock, the counters of live entries: sign +1 when one is
 * linked, -1 when unlinked. Inline: every store and retire passes here. */
static inline void rs_account_live(rs_store *st, rs_entry *e, int sign)
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
			if (e->expires_ms < h->expiry_pass_min) {
				h->expiry_pass_min = e->expires_ms;
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

/* Stores wait this many times 1 ms, the lock released, for readers in
 * flight to release what they hold (evict.c). */
#define RS_READER_WAITS 50
/* evict.c: under the write lock, a block of `size` bytes, making room
 * first if needed (free limbo, expired entries, CLOCK victims, a window of
 * neighbours); 0 when no room can be made now. */
rs_off rs_alloc_evicting(rs_store *st, uint64_t size);
/* evict.c: under the write lock, once an entry may have expired, retires
 * the expired entries of up to `budget` buckets (0: a write's share, or
 * RS_EXPIRY_SEEN_BUCKETS once this process found a key expired),
 * continuing the scan where the last step left it. */
void rs_expire_step(rs_store *st, uint64_t budget);
/* A write's share of that scan: 1/RS_EXPIRY_WRITE_PASS of the buckets,
 * within [MIN, MAX]; and what a reading process that found an expired key
 * scans once (rs_expire_seen). */
#define RS_EXPIRY_WRITE_PASS 64
#define RS_EXPIRY_WRITE_MIN 256
#define RS_EXPIRY_WRITE_MAX 2048
#define RS_EXPIRY_SEEN_BUCKETS 4096

/* reclaim.c */
/* getpid() is a system call; the pid is cached and refreshed after fork. */
extern int32_t rs_cached_pid;
static inline int32_t rs_pid(void) { return rs_cached_pid; }
void rs_pid_init(void);
void rs_limbo_push(rs_store *st, rs_entry *e);
void rs_slots_init(rs_store *st);
bool rs_slot_dead(rs_store *st, uint32_t i);
void rs_clear_dead_slots(rs_store *st);

#endif
