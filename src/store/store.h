/* SPDX-License-Identifier: MIT */
/*
 * Resident store: a shared-memory key/value store for opaque byte values.
 *
 * Plain C11 + POSIX; knows nothing of PHP. One writer at a time (a robust,
 * process-shared mutex), lock-free readers protected by epoch-based
 * reclamation: a value a reader found stays valid until that reader leaves
 * its read section (rs_read_end), even if the key is replaced or deleted.
 */
#ifndef RESIDENT_STORE_H
#define RESIDENT_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define RS_LAYOUT_VERSION 9
#define RS_MAX_POOLS 64
/* Sets of pools are 64-bit masks (rs_store.pending_pools, the module's lookup memos). */
_Static_assert(RS_MAX_POOLS <= 64, "a set of pools is a 64-bit mask");
#define RS_POOL_NAME_MAX 63
#define RS_KEY_MAX 4096
#define RS_BUILD_ID_MAX 96
#define RS_MIN_SEGMENT_SIZE ((size_t)1 << 20)

typedef enum rs_status {
	RS_OK = 0,
	RS_NOT_FOUND,      /* no such key (or it expired) */
	RS_EXISTS,         /* add(): key already present */
	RS_TOO_BIG,        /* value larger than the whole heap */
	RS_NO_MEMORY,      /* nothing left to evict: pinned pool full or memory held by readers */
	RS_NO_SLOT,        /* every reader slot is taken by a live process or thread */
	RS_BAD_POOL,       /* pool table full or name invalid */
	RS_WRONG_KIND,     /* the entry is not an integer counter */
	RS_OVERFLOW,       /* counter would overflow */
	RS_ERROR           /* system error, see errno */
} rs_status;

typedef struct rs_header rs_header;
typedef struct rs_entry rs_entry;

/* Process-local (thread-local under ZTS) handle on a segment. */
typedef struct rs_store {
	rs_header *hdr;
	char *base;             /* == (char *)hdr */
	int lock_fd;            /* memfd carrying per-slot fcntl liveness locks */
	int32_t slot;           /* reader slot of this process/thread, -1 if none */
	int32_t slot_pid;       /* pid that acquired the slot (detects fork) */
	int32_t fork_slot;      /* slot prepared for a child being forked */
	bool forked_in_read;    /* a handover slot may be left unclaimed */
	uint32_t read_depth;    /* nested rs_read_begin calls */
	bool locked;            /* this handle holds the write lock */
	uint64_t open_reservation; /* offset of a reservation not yet committed or aborted, 0 if none */
	/* Statistics gathered without touching shared cache lines; added to the
	 * segment by rs_stats_flush(). */
	uint64_t pending_hits[RS_MAX_POOLS];
	uint64_t pending_misses[RS_MAX_POOLS];
	uint64_t pending_pools; /* a bit per pool with counts pending: a flush visits only those */
	uint32_t pending_ops;
	uint32_t hit_sample;    /* counts hits down to the next sampled one */
	bool saw_expired;       /* a lookup found its key expired since rs_expire_seen() */
	int crash_point;        /* test hook, process-local */
	/* rs_entry_stamp()'s key, drawn from the segment's seed, and the seed
	 * it was drawn from (a segment made again at the same address has
	 * another). */
	uint64_t stamp_key;
	uint64_t stamp_seed;
} rs_store;

/* What a store does when the heap has no free block left for it, once
 * limbo and expired entries gave back what they could (rs_config.eviction,
 * fixed when the segment is made). */
typedef enum rs_eviction {
	RS_EVICT_CLOCK = 0,  /* evict entries not used recently (CLOCK, see evict.c) */
	RS_EVICT_WIPE,       /* drop every entry of the pools that are not pinned, then store */
	RS_EVICT_NONE        /* evict nothing: the store fails */
} rs_eviction;

typedef struct rs_config {
	size_t size;                 /* total bytes of the segment */
	const char *build_id;        /* stamped in the header; attach refuses a mismatch */
	uint32_t encoding_version;   /* of what the caller stores in values; stamped and checked the same way */
	uint32_t slots;              /* reader slots (processes or threads); 0 = default */
	uint32_t limbo_cap_percent;  /* limbo bytes above which readers should copy; 0 = default */
	uint64_t address;            /* where to map a new segment, if free (a dump's); 0 = anywhere */
	uint32_t eviction;           /* rs_eviction; the creator's applies to every process */
	uint64_t buckets;            /* index buckets wanted (rounded up to a power of 2, at most
	                              * rs_max_buckets()); 0 = one per 512 bytes */
} rs_config;

/* The most index buckets a segment of this size may have: their array takes
 * at most a quarter of it. */
uint64_t rs_max_buckets(size_t size);

/* A reserved, not yet visible entry: the caller fills the value area outside
 * the lock, then commits or aborts. */
typedef struct rs_reservation {
	rs_entry *entry;
	void *value;
	size_t value_size;
	bool holds_lock;    /* no reader slot: the lock is kept until commit/abort */
	bool shrunk;        /* rs_reservation_shrink(): commit gives the rest back */
} rs_reservation;

typedef struct rs_pool_stats {
	char name[RS_POOL_NAME_MAX + 1];
	bool pinned;
	uint64_t entries;
	uint64_t bytes;          /* block bytes held by live entries */
	uint64_t hits;
	uint64_t misses;
	uint64_t stores;
	uint64_t deletes;
	uint64_t evictions;
	uint64_t expirations;
} rs_pool_stats;

typedef struct rs_segment_stats {
	uint64_t total_bytes;    /* segment size */
	uint64_t heap_bytes;     /* bytes managed by the allocator */
	uint64_t used_bytes;     /* allocated blocks (live entries, limbo, reservations) */
	uint64_t free_bytes;
	uint64_t largest_free;   /* largest free block */
	uint64_t free_blocks;
	uint64_t limbo_bytes;
	uint64_t limbo_entries;
	uint64_t entries;
	uint64_t live_bytes;     /* the live entries' blocks: headers, keys, values (the pools' bytes) */
	uint64_t hits;
	uint64_t misses;
	uint64_t stores;
	uint64_t evictions;
	uint64_t expirations;
	uint64_t lock_waits;     /* write-lock acquisitions that had to wait */
	uint64_t recoveries;     /* times a dead lock holder was recovered from */
	uint64_t dead_slots;     /* reader slots cleared after their owner died */
	uint64_t sweep_buckets;  /* buckets visited by eviction sweeps (the work of making room) */
	uint64_t reader_waits;   /* 1 ms waits of stores for readers in flight to release memory */
	uint64_t store_failures; /* reservations refused: too big, or no room could be made */
	uint64_t wipes;          /* RS_EVICT_WIPE: times the unpinned entries were dropped to make room */
	uint32_t eviction;       /* rs_eviction */
	uint64_t epoch;
	uint32_t slots_total;
	uint32_t slots_used;
	uint32_t pools;
	uint64_t buckets;
} rs_segment_stats;

/* --- inspection (dashboards, bin/resident) ------------------------------------ */

/* Bytes per state in each of ncells equal slices of the heap, by address:
 * out[i][0] live entries, [1] free, [2] limbo (replaced, waiting for
 * readers), [3] reserved (being written). Holds the write lock while it
 * walks the heap. */
void rs_memory_map(rs_store *st, uint32_t ncells, uint64_t (*out)[4]);

typedef struct rs_key_info {
	uint16_t pool;
	uint64_t bytes;          /* value size */
	uint64_t block_bytes;    /* the entry's whole block: header, key, value, alignment */
	uint64_t hits;           /* hottest: estimated hits */
	int64_t expires_ms;
	char key[RS_KEY_MAX + 1];
	uint32_t key_len;
} rs_key_info;

/* The n largest live entries, largest first; returns how many. */
uint32_t rs_largest(rs_store *st, rs_key_info *out, uint32_t n);
/* The n most read live entries (estimated), hottest first; returns how many. */
uint32_t rs_hottest(rs_store *st, rs_key_info *out, uint32_t n);

/* --- dumps (warm restarts) -------------------------------------------------------- */

typedef struct rs_dump_stats {
	uint64_t entries;
	uint64_t bytes;
	uint32_t pools;
} rs_dump_stats;

typedef struct rs_dump_info {
	char build_id[RS_BUILD_ID_MAX];
	char version[32];
	uint64_t base_address;   /* a restore needs a segment mapped here */
	uint64_t total_size;     /* ... of this size */
	uint64_t entries;
	int64_t dumped_ms;
} rs_dump_info;

/* Writes the live entries to fd (at offset 0), stamped with what made the
 * segment (layout, encoding, build) and this Resident version, with a
 * checksum over the header and one over the rest. */
rs_status rs_dump(rs_store *st, int fd, const char *version, rs_dump_stats *stats, char *err, size_t errlen);
/* The same into the file at path, which is replaced whole: written to a
 * file of its own beside it (exclusively, mode 0600, never through a
 * symbolic link), synced, then renamed over path. */
rs_status rs_dump_file(rs_store *st, const char *path, const char *version, rs_dump_stats *stats,
                       char *err, size_t errlen);
/* Reads and checks a dump's header: intact (its checksum), and made by
 * the build cfg describes (layout, encoding, build id). Says what segment
 * it needs. */
/* A dump is loaded like the segment's own memory: RS_OK only for a regular
 * file of this process's user that no other user can write. */
rs_status rs_dump_trusted(int fd, char *err, size_t errlen);
rs_status rs_dump_peek(int fd, const rs_config *cfg, rs_dump_info *info, char *err, size_t errlen);
/* Loads a dump into an empty segment of the same build, size and address.
 * The whole file is checked before anything is written: a truncated,
 * damaged or foreign file leaves the segment as it was. */
rs_status rs_restore(rs_store *st, int fd, rs_dump_stats *stats, char *err, size_t errlen);

/* --- segment lifecycle ---------------------------------------------------- */

/* A handle on no segment (every creating or attaching call starts with it). */
void rs_handle_init(rs_store *st);
/* A handle of this thread (or process) on the mapping another handle of
 * the process made: its own reader slot, the same memory and lock file. */
void rs_handle_share(rs_store *st, const rs_store *mapping);
/* Creates an anonymous shared mapping (inherited by fork). */
rs_status rs_create(rs_store *st, const rs_config *cfg, char *err, size_t errlen);
/* Creates, or attaches to, a segment backed by the file at path, mapped at
 * the same address in every process. The file is created exclusively with
 * mode 0600; an existing one is only used if it is a regular file owned by
 * this process's user that no other user can access, never through a
 * symbolic link. With may_replace, a segment of ours made by another build,
 * of another size, with a damaged header or whose creator died formatting
 * it is replaced when no process is attached to it; anything that is not a
 * Resident segment is never replaced. Without may_replace an existing
 * segment is attached whatever its size. *created says whether this call
 * formatted a new segment: then other processes wait to attach until the
 * creator calls rs_named_ready() (after restoring a dump into it, say), or
 * 10 s. */
rs_status rs_open_named(rs_store *st, const char *path, const rs_config *cfg, bool may_replace, bool *created,
                        char *err, size_t errlen);
void rs_named_ready(rs_store *st);
/* Unmaps; call once per process that created/inherited the mapping. */
void rs_destroy(rs_store *st);
/* After fork: the child keeps the mapping but must not reuse the parent's slot. */
void rs_after_fork(rs_store *st);
/* pthread_atfork handlers. A child forked inside a read section inherits the
 * parent's borrowed entries, so it inherits its epoch too: the parent claims
 * a slot for the child before fork, the child takes it over. */
void rs_fork_prepare(rs_store *st);
void rs_fork_child(rs_store *st);
/* Releases this process's/thread's reader slot (thread exit, shutdown). */
void rs_slot_release(rs_store *st);

/* --- readers ---------------------------------------------------------------- */

/* Enters a read section: entries found until the matching rs_read_end stay
 * valid. Nestable. */
rs_status rs_read_begin(rs_store *st);
void rs_read_end(rs_store *st);
bool rs_in_read(const rs_store *st);
/* After a longjmp out of the caller's code (a PHP bailout) that may have
 * left this handle inside store calls: frees a reservation neither
 * committed nor aborted, releases the write lock if this handle holds it
 * for anything but an outer read section, and ends the read sections
 * nested deeper than `depth`. */
void rs_unwind(rs_store *st, uint32_t depth);
/* The read section is held under the write lock (no reader slot was free):
 * the caller must not run code that could write. */
bool rs_read_locked(const rs_store *st);

/* Who this process (thread) is, for others to ask whether it is still
 * alive: its reader slot and that slot's claim count, in 40 bits, taking a
 * slot if it has none; 0 when no slot is free. Unlike a pid, it means the
 * same in every PID namespace that shares the segment. */
uint64_t rs_owner_id(rs_store *st);
/* The owner named by rs_owner_id() still holds its slot and is alive (its
 * slot's byte lock is held). False once it released the slot or died. */
bool rs_owner_alive(rs_store *st, uint64_t owner);

/* Looks a key up; only inside a read section. NULL on miss or expiry.
 * Counts a hit or a miss for the pool. now_ms == 0 reads the clock only
 * when the entry found has a TTL. */
const rs_entry *rs_lookup(rs_store *st, uint16_t pool, const char *key, size_t key_len, int64_t now_ms);
/* Counts a hit found without rs_lookup (a caller's own memo). */
void rs_note_hit(rs_store *st, const rs_entry *e);
/* Same, without statistics or CLOCK reference (exists(), internal use). */
const rs_entry *rs_peek(rs_store *st, uint16_t pool, const char *key, size_t key_len, int64_t now_ms);
/* Finds an entry past its expiry but still within its stale period (see
 * rs_reservation_keep_stale); *stale tells which. No statistics. */
const rs_entry *rs_lookup_stale(rs_store *st, uint16_t pool, const char *key, size_t key_len, bool *stale);

const void *rs_entry_value(const rs_entry *e);
size_t rs_entry_value_size(const rs_entry *e);
uint32_t rs_entry_kind(const rs_entry *e);
int64_t rs_entry_expires(const rs_entry *e);
const char *rs_entry_key(const rs_entry *e, size_t *len);
uint16_t rs_entry_pool(const rs_entry *e);

/* Key enumeration, a bucket at a time, inside a read section: calls fn for
 * every live entry of the pool in the bucket. fn runs inside the section:
 * it must neither jump out nor block (see rs_keys_collect). */
uint64_t rs_bucket_count(const rs_store *st);
typedef void (*rs_key_fn)(void *ctx, const char *key, size_t len);
void rs_scan_bucket(rs_store *st, uint64_t bucket, uint16_t pool, rs_key_fn fn, void *ctx);

/* The same, copied out: the live keys of the pool in up to nbuckets
 * buckets from *bucket on (advanced past them), read inside a section of
 * its own, so that the caller handles them outside any. False when memory
 * for the copy ran out (the keys copied until then stay). */
typedef struct rs_key_batch {
	char *buf;
	size_t used;
	size_t cap;
	uint32_t count;
} rs_key_batch;
typedef struct rs_key_ref {
	const char *key;
	size_t len;
	uint64_t value_size;
} rs_key_ref;
bool rs_keys_collect(rs_store *st, uint16_t pool, uint64_t *bucket, uint64_t nbuckets, rs_key_batch *batch);
/* The same with the expired entries not yet reclaimed: every entry the
 * pool's and the segment's entry counts count (ext-user_cache's pool
 * status lists them until they are reclaimed). */
bool rs_keys_collect_stored(rs_store *st, uint16_t pool, uint64_t *bucket, uint64_t nbuckets, rs_key_batch *batch);
/* Iterates a batch: *pos starts at 0. */
bool rs_key_batch_next(const rs_key_batch *batch, size_t *pos, rs_key_ref *out);
void rs_key_batch_clear(rs_key_batch *batch);
void rs_key_batch_free(rs_key_batch *batch);

/* True when limbo holds more than its cap: long readers should copy instead
 * of holding on to entries. */
bool rs_limbo_over_cap(const rs_store *st);

/* Global counter bumped by every store, delete and clear (request-local
 * caches compare it to know whether what they remember is still current). */
uint64_t rs_mutation_epoch(const rs_store *st);

/* Whether p points into the segment (what a borrowed value points at). */
bool rs_contains(const rs_store *st, const void *p);

/* --- writers ---------------------------------------------------------------- */

/* Finds or creates a pool by name. */
rs_status rs_pool_open(rs_store *st, const char *name, bool pinned, uint16_t *id);
/* Whether pool `id` is the one named `name`: a caller that remembers the id
 * rs_pool_open() gave checks it so, at the cost of one comparison (pools
 * are never removed, but a segment made anew numbers them anew). */
bool rs_pool_is(const rs_store *st, uint16_t id, const char *name);
/* Eviction (CLOCK, windows, wipes) passes over an entry of `pool` while
 * pool `guard` holds a live entry of the same key: a lock, say. */
rs_status rs_pool_guard(rs_store *st, uint16_t pool, uint16_t guard);

/* The largest value an entry of this key can hold: the whole heap, less the
 * entry's header and key (rs_reserve says RS_TOO_BIG above it). */
size_t rs_max_value_size(const rs_store *st, size_t key_len);

/* Reserves an entry for a value of value_size bytes, evicting if needed.
 * The value area is 16-byte aligned, writable, invisible to readers. */
rs_status rs_reserve(rs_store *st, uint16_t pool, const char *key, size_t key_len,
                     size_t value_size, uint32_t kind, int64_t expires_ms, rs_reservation *r);
/* The same, for a value whose writing may fail in any way (allocate, run
 * code, longjmp): the lock is never held while the caller writes. The
 * reservation is recorded in the caller's reader slot, so that it is freed
 * if the process dies; RS_NO_SLOT when no slot is free. */
rs_status rs_reserve_unlocked(rs_store *st, uint16_t pool, const char *key, size_t key_len,
                              size_t value_size, uint32_t kind, int64_t expires_ms, rs_reservation *r);
/* Publishes a reservation. only_if_absent: fail with RS_EXISTS (and free the
 * reservation) if a live entry for the key exists. */
rs_status rs_commit(rs_store *st, rs_reservation *r, bool only_if_absent, int64_t now_ms);
void rs_abort(rs_store *st, rs_reservation *r);
/* Before commit: the value took only value_size bytes of the reservation
 * (no more than reserved); commit gives the rest back to the heap. */
void rs_reservation_shrink(rs_reservation *r, size_t value_size);
/* Before commit: keep the entry findable by rs_lookup_stale until this time
 * after it expires (stale-while-revalidate). */
void rs_reservation_keep_stale(rs_reservation *r, int64_t stale_until_ms);
/* Deletes the key only if its value area starts with these bytes (release
 * of a lock entry that may have been taken over meanwhile). */
rs_status rs_delete_if(rs_store *st, uint16_t pool, const char *key, size_t key_len, const void *expect, size_t n);

rs_status rs_delete(rs_store *st, uint16_t pool, const char *key, size_t key_len);
/* Which commit an entry is (read while the entry is, inside a read
 * section): a later value of the same key is another, even at the same
 * offset. */
typedef struct rs_entry_id {
	const rs_entry *entry;
	uint64_t commit;
} rs_entry_id;
rs_entry_id rs_entry_identity(const rs_entry *e);
/* A number that names the value of a live entry (never 0): the same for as
 * long as the entry lives, in every process, and (but for a 2^-64 chance)
 * no other value's, in this segment or another. What a process derives
 * from a value and keeps past the request is keyed by it. */
uint64_t rs_entry_stamp(rs_store *st, const rs_entry *e);
/* Deletes the key only while its entry is still the one seen (RS_EXISTS
 * when another value replaced it meanwhile: that one stays). */
rs_status rs_delete_if_same(rs_store *st, uint16_t pool, const char *key, size_t key_len, rs_entry_id seen);
/* Drops every entry of a pool; pool < 0 drops everything. */
void rs_clear(rs_store *st, int pool);
/* Drops the entries of a pool whose key starts with prefix (a namespace
 * of keys inside the pool), at once under the lock; returns how many. */
uint64_t rs_clear_prefix(rs_store *st, uint16_t pool, const char *prefix, size_t prefix_len);

/* SipHash-1-3 of data under a 128-bit key: for tables keyed by user input
 * outside the segment (PHP's own string hash can be flooded). */
uint64_t rs_keyed_hash(const uint64_t key[2], const void *data, size_t len);

/* Wall-clock milliseconds, the clock TTLs are measured with. */
uint64_t rs_now_ms(void);
/* This process's pid, kept by a fork handler: getpid() is a system call,
 * and callers that must notice a fork (pcntl_fork()) ask on every call. */
int32_t rs_process_id(void);

/* --- statistics and maintenance ------------------------------------------- */

void rs_stats_flush(rs_store *st);
/* When a lookup of this handle found its key expired: takes the write lock
 * and retires expired entries (a bounded scan), so that a process that only
 * reads gives back what expired. Call it outside any read section (what it
 * retires is then freed at once unless another process is reading). */
void rs_expire_seen(rs_store *st);
rs_status rs_pool_stats_get(rs_store *st, uint16_t pool, rs_pool_stats *out);
void rs_segment_stats_get(rs_store *st, rs_segment_stats *out);
/* The segment's rs_eviction (its creator's). */
rs_eviction rs_eviction_policy(const rs_store *st);
/* Frees limbo that no reader can still see; returns bytes freed. */
size_t rs_reclaim(rs_store *st);
/* Full consistency check of index, allocator and limbo (tests, debugging).
 * Returns NULL when consistent, else a static description of the problem. */
const char *rs_check(rs_store *st);

/* Test hook: crash (raise SIGKILL) at the named point while holding the lock. */
void rs_test_set_crash_point(rs_store *st, int point);
enum {
	RS_CRASH_NONE = 0,
	RS_CRASH_AFTER_ALLOC,      /* block split, entry not linked */
	RS_CRASH_AFTER_LINK,       /* new entry linked, old one not yet unlinked */
	RS_CRASH_AFTER_UNLINK,     /* old entry unlinked, not yet in limbo */
	RS_CRASH_IN_FREE,          /* block being coalesced */
	RS_CRASH_HOLDING_LOCK      /* lock taken, nothing changed */
};

#endif
