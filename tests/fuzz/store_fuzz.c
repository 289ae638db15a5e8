/*
 * libFuzzer harness over the store layer (store/store.h), model-checked.
 *
 * Each input is a program of operations on a fresh 1 MiB segment: store,
 * add, reserve/commit/abort (inline and out-of-lock reservations), lookup,
 * borrow (a read section kept open across other operations), delete,
 * delete_if, clear (of a pool, of a key prefix), counters incremented in place with a CAS (as
 * Resident\Cache::increment does), stale reads, pools (pinned too), reclaim,
 * inspection, key scans, and writers SIGKILLed at each crash point in a
 * forked child. A model of what each key should hold is kept alongside:
 *
 *   - every value found is intact (self-checking bytes) and belongs to its key;
 *   - a key the model knows is present is found unless something was
 *     evicted since (the segment's eviction counter tells);
 *   - a value borrowed in a read section stays intact until the section ends,
 *     whatever was replaced, deleted, evicted or cleared meanwhile;
 *   - a store made while that section holds in limbo the memory the store
 *     needs (evicting more could not help before it ends) fails without
 *     evicting;
 *   - rs_check() finds the index, allocator and limbo consistent, and at the
 *     end, clearing everything leaves no used byte, entry or limbo.
 *
 * Build (see tests/fuzz/run.sh):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined store/[a-z]*.c tests/fuzz/store_fuzz.c
 * Without libFuzzer, -DSTORE_FUZZ_MAIN builds a driver that replays files.
 */
#include "../../src/store/internal.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NPOOLS 4
#define NKEYS 16
#define MAX_BORROWS 16
#define KIND_BLOB 7
#define KIND_COUNTER 9

#define FAIL(...) do { \
		fprintf(stderr, "store_fuzz: " __VA_ARGS__); \
		fprintf(stderr, "\n"); \
		abort(); \
	} while (0)

typedef struct model_key {
	bool present;     /* the last successful write left a live value */
	bool uncertain;   /* a killed writer may or may not have changed it */
	bool counter;
	uint32_t seed;    /* blob: the seed of its bytes */
	uint64_t len;
	int64_t count;    /* counter value */
	uint64_t losses;  /* evictions + expirations when it was written */
} model_key;

typedef struct borrow {
	const rs_entry *e;
	const char *value;
	uint64_t len;
	bool counter;
} borrow;

static struct {
	rs_store st;
	model_key keys[NPOOLS][NKEYS];
	uint16_t pool_ids[NPOOLS];
	bool pool_pinned[NPOOLS];
	uint32_t npools;
	borrow borrows[MAX_BORROWS];
	uint32_t nborrows;
	uint32_t depth;       /* our read_begin nesting */
	uint32_t gen;
	uint32_t crashes;
	rs_reservation pending;
	int pending_pool, pending_key;
	uint32_t pending_seed;
	bool pending_add;
} F;

/* --- input reader -------------------------------------------------------- */
typedef struct input {
	const uint8_t *p;
	size_t n;
} input;

static uint8_t u8(input *in)
{
	if (!in->n) {
		return 0;
	}
	in->n--;
	return *in->p++;
}

static uint32_t u16(input *in)
{
	return (uint32_t)u8(in) | (uint32_t)u8(in) << 8;
}

/* --- keys and values ------------------------------------------------------ */

/* Key k of a pool: short ones, one with NUL and high bytes, one of the
 * maximum length (4096 bytes). */
static size_t key_of(int k, char *out)
{
	if (k == NKEYS - 1) {
		memset(out, 'L', RS_KEY_MAX);
		out[RS_KEY_MAX - 1] = (char)('0' + k % 10);
		return RS_KEY_MAX;
	}
	if (k == NKEYS - 2) {
		static const char bin[] = { 'b', 0, (char)0xff, 0, 'z' };
		memcpy(out, bin, sizeof bin);
		return sizeof bin;
	}
	return (size_t)snprintf(out, 16, "k%d", k);
}

static uint32_t seed_for(int p, int k)
{
	F.gen = (F.gen + 1) & 0xfffff;
	return (uint32_t)p << 28 | (uint32_t)k << 20 | F.gen;
}

/* Bytes that prove their integrity and their owner: len, seed, a checksum,
 * then a sequence derived from the seed. */
static void fill_value(char *buf, uint64_t len, uint32_t seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
	uint32_t sum = 0;
	for (uint64_t i = 16; i < len; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		buf[i] = (char)(x >> 56);
		sum = sum * 31 + (unsigned char)buf[i];
	}
	memcpy(buf, &len, 8);
	memcpy(buf + 8, &seed, 4);
	memcpy(buf + 12, &sum, 4);
}

static bool value_ok(const char *buf, uint64_t len, uint32_t *seed_out)
{
	uint64_t l;
	uint32_t seed, sum, mine = 0;
	if (len < 16) {
		return false;
	}
	memcpy(&l, buf, 8);
	memcpy(&seed, buf + 8, 4);
	memcpy(&sum, buf + 12, 4);
	if (l != len) {
		return false;
	}
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
	for (uint64_t i = 16; i < len; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		if (buf[i] != (char)(x >> 56)) {
			return false;
		}
		mine = mine * 31 + (unsigned char)buf[i];
	}
	*seed_out = seed;
	return mine == sum;
}

static uint64_t losses(void)
{
	return F.st.hdr->evictions + F.st.hdr->expirations + F.st.hdr->wipes;
}

static void check_consistent(const char *when)
{
	const char *why = rs_check(&F.st);
	if (why) {
		FAIL("inconsistent after %s: %s", when, why);
	}
}

/* A found entry of pool index p, key k: intact, and what the model says. */
static void verify_found(int p, int k, const rs_entry *e, const char *what)
{
	model_key *m = &F.keys[p][k];
	size_t klen;
	char key[RS_KEY_MAX];
	size_t want = key_of(k, key);
	const char *ek = rs_entry_key(e, &klen);
	if (klen != want || memcmp(ek, key, klen) != 0 || rs_entry_pool(e) != F.pool_ids[p]) {
		FAIL("%s: entry of another key", what);
	}
	if (rs_entry_kind(e) == KIND_COUNTER) {
		if (rs_entry_value_size(e) != 8) {
			FAIL("%s: counter of %zu bytes", what, rs_entry_value_size(e));
		}
		int64_t v;
		memcpy(&v, rs_entry_value(e), 8);
		if (!m->uncertain && (!m->present || !m->counter || v != m->count)) {
			FAIL("%s: counter %d/%d is %lld, model %s %lld", what, p, k, (long long)v,
				m->present ? "has" : "has nothing", (long long)m->count);
		}
		return;
	}
	if (rs_entry_kind(e) != KIND_BLOB) {
		FAIL("%s: kind %u", what, rs_entry_kind(e));
	}
	uint32_t seed;
	if (!value_ok(rs_entry_value(e), rs_entry_value_size(e), &seed)) {
		FAIL("%s: value of %d/%d is corrupt (%zu bytes)", what, p, k, rs_entry_value_size(e));
	}
	if ((seed >> 28) != (uint32_t)p || ((seed >> 20) & 0xff) != (uint32_t)k) {
		FAIL("%s: value of %d/%d belongs to %u/%u", what, p, k, seed >> 28, (seed >> 20) & 0xff);
	}
	if (!m->uncertain && (!m->present || m->counter || m->seed != seed)) {
		FAIL("%s: %d/%d holds seed %x, model %s %x", what, p, k, seed, m->present ? "has" : "has nothing", m->seed);
	}
}

/* A miss: fine if the model has nothing, or something may have gone. */
static void verify_missing(int p, int k, const char *what)
{
	model_key *m = &F.keys[p][k];
	if (m->present && !m->uncertain && F.pool_pinned[p]) {
		FAIL("%s: %d/%d of a pinned pool missing", what, p, k);
	}
	if (m->present && !m->uncertain && m->losses == losses()) {
		FAIL("%s: %d/%d missing, nothing was evicted", what, p, k);
	}
}

static void lookup(int p, int k)
{
	char key[RS_KEY_MAX];
	size_t klen = key_of(k, key);
	if (rs_read_begin(&F.st) != RS_OK) {
		FAIL("rs_read_begin failed");
	}
	const rs_entry *e = rs_lookup(&F.st, F.pool_ids[p], key, klen, 0);
	if (e) {
		verify_found(p, k, e, "lookup");
	} else {
		verify_missing(p, k, "lookup");
	}
	rs_read_end(&F.st);
}

static void release_borrows(void)
{
	for (uint32_t i = 0; i < F.nborrows; i++) {
		borrow *b = &F.borrows[i];
		if (b->counter) {
			continue; /* updated in place by design */
		}
		uint32_t seed;
		if (!value_ok(b->value, b->len, &seed)) {
			FAIL("a borrowed value changed before its read section ended");
		}
	}
	F.nborrows = 0;
	while (F.depth) {
		rs_read_end(&F.st);
		F.depth--;
	}
}

static void borrow_key(int p, int k)
{
	char key[RS_KEY_MAX];
	size_t klen = key_of(k, key);
	if (rs_read_begin(&F.st) != RS_OK) {
		FAIL("rs_read_begin failed");
	}
	F.depth++;
	const rs_entry *e = rs_lookup(&F.st, F.pool_ids[p], key, klen, 0);
	if (e) {
		verify_found(p, k, e, "borrow");
		if (F.nborrows < MAX_BORROWS) {
			borrow *b = &F.borrows[F.nborrows++];
			b->e = e;
			b->value = rs_entry_value(e);
			b->len = rs_entry_value_size(e);
			b->counter = rs_entry_kind(e) == KIND_COUNTER;
		}
	} else {
		verify_missing(p, k, "borrow");
	}
}

static uint64_t value_size(input *in)
{
	uint8_t c = u8(in);
	uint64_t heap = F.st.hdr->heap_size;
	switch (c & 7) {
	case 0: case 1: case 2:
		return 16 + u8(in);
	case 3: case 4:
		return 16 + u16(in) % 4096;
	case 5:
		return 16 * 1024 + u16(in) * 2;          /* out-of-lock reservations */
	case 6:
		return heap / 2 + u16(in) * 4;
	default:
		/* around the largest value that can fit */
		return heap - 256 + u16(in) % 512 - (c >> 3) * 64;
	}
}

/* rs_reserve + fill; false when the reservation failed (model checked). */
static bool reserve(int p, int k, uint64_t len, int64_t expires, rs_reservation *r, uint32_t *seed)
{
	char key[RS_KEY_MAX];
	size_t klen = key_of(k, key);
	/* Inside a read section, everything retired since it began stays in
	 * limbo until it ends, and so would anything evicted now: when limbo
	 * already holds the block this store needs and no free block can hold
	 * it, the store fails without evicting. */
	bool held_enough = false;
	uint64_t evictions = F.st.hdr->evictions;
	if (F.depth) {
		uint64_t need = rs_alloc_round(RS_ALIGN_UP(offsetof(rs_entry, key) + klen + 1, RS_ALIGN) + len - sizeof(rs_block));
		rs_lock(&F.st);
		rs_reclaim(&F.st);
		held_enough = atomic_load(&F.st.hdr->limbo_bytes) >= need && F.st.hdr->free_bytes < need;
		rs_unlock(&F.st);
	}
	rs_status rc = rs_reserve(&F.st, F.pool_ids[p], key, klen, len, KIND_BLOB, expires, r);
	if (held_enough && (rc != RS_NO_MEMORY || F.st.hdr->evictions != evictions)) {
		FAIL("a store of %llu bytes while this read section holds as much in limbo: status %d, %llu evicted",
			(unsigned long long)len, rc, (unsigned long long)(F.st.hdr->evictions - evictions));
	}
	if (rc == RS_TOO_BIG) {
		if (len + klen < F.st.hdr->heap_size - 1024) {
			FAIL("RS_TOO_BIG for %llu bytes in a heap of %llu", (unsigned long long)len,
				(unsigned long long)F.st.hdr->heap_size);
		}
		return false;
	}
	if (rc == RS_NO_MEMORY) {
		return false;
	}
	if (rc != RS_OK) {
		FAIL("rs_reserve: %d", rc);
	}
	if (r->value_size != len || ((uintptr_t)r->value % RS_ALIGN) != 0) {
		FAIL("reservation of %llu bytes: size %zu, misaligned %p", (unsigned long long)len, r->value_size, r->value);
	}
	*seed = seed_for(p, k);
	fill_value(r->value, len, *seed);
	return true;
}

static void commit(int p, int k, rs_reservation *r, uint32_t seed, uint64_t len, bool add, int64_t expires)
{
	model_key *m = &F.keys[p][k];
	bool was_present = m->present && !m->uncertain;
	uint64_t before = losses();
	rs_status rc = rs_commit(&F.st, r, add, (int64_t)rs_now_ms());
	if (rc == RS_EXISTS) {
		if (!add) {
			FAIL("RS_EXISTS without add");
		}
		if (!m->present && !m->uncertain) {
			FAIL("add: RS_EXISTS for %d/%d that the model says is absent", p, k);
		}
		return;
	}
	if (rc != RS_OK) {
		FAIL("rs_commit: %d", rc);
	}
	if (add && was_present && m->losses == before) {
		FAIL("add succeeded over %d/%d, present and not evicted", p, k);
	}
	m->uncertain = false;
	m->counter = false;
	m->seed = seed;
	m->len = len;
	m->present = expires != 1;
	m->losses = losses();
}

static void do_store(input *in, int p, int k, bool add)
{
	uint64_t len = value_size(in);
	uint8_t t = u8(in);
	/* Already expired (1 ms after the epoch), an hour away, or none. */
	int64_t expires = (t & 3) == 1 ? 1 : (t & 3) == 2 ? (int64_t)rs_now_ms() + 3600 * 1000 : 0;
	rs_reservation r;
	uint32_t seed;
	if (!reserve(p, k, len, expires, &r, &seed)) {
		return;
	}
	if (t & 4) {
		rs_reservation_keep_stale(&r, (int64_t)rs_now_ms() + 3600 * 1000);
	}
	if ((t & 0x18) == 0x18) {
		rs_abort(&F.st, &r);
		return;
	}
	if ((t & 0x60) == 0x60 && len > 16) {
		/* The value took less than its reservation (a one-pass write into
		 * a guessed size): commit gives the rest back. */
		uint64_t kept = 16 + (len - 16) / (2u + (t >> 7) * 14u);
		fill_value(r.value, kept, seed);
		rs_reservation_shrink(&r, kept);
		len = kept;
	}
	commit(p, k, &r, seed, len, add, expires);
}

/* A reservation left open (outside the lock) while reads go on. */
static void open_pending(input *in, int p, int k)
{
	uint64_t len = 16 * 1024 + 16 + u16(in);
	uint32_t seed;
	if (!reserve(p, k, len, 0, &F.pending, &seed)) {
		return;
	}
	if (F.pending.holds_lock) {
		/* No slot: the lock is held, nothing else may run meanwhile. */
		commit(p, k, &F.pending, seed, len, false, 0);
		return;
	}
	F.pending_pool = p;
	F.pending_key = k;
	F.pending_seed = seed;
	F.pending_add = u8(in) & 1;
}

static void close_pending(bool abort_it)
{
	if (!F.pending.entry) {
		return;
	}
	if (abort_it) {
		rs_abort(&F.st, &F.pending);
	} else {
		commit(F.pending_pool, F.pending_key, &F.pending, F.pending_seed, F.pending.value_size, F.pending_add, 0);
	}
	memset(&F.pending, 0, sizeof F.pending);
}

static void do_increment(int p, int k, int64_t step)
{
	char key[RS_KEY_MAX];
	size_t klen = key_of(k, key);
	model_key *m = &F.keys[p][k];
	for (int attempt = 0; attempt < 3; attempt++) {
		rs_read_begin(&F.st);
		const rs_entry *e = rs_lookup(&F.st, F.pool_ids[p], key, klen, 0);
		if (e) {
			verify_found(p, k, e, "increment");
			if (rs_entry_kind(e) != KIND_COUNTER) {
				rs_read_end(&F.st);
				return; /* TypeError in PHP */
			}
			int64_t *slot = (int64_t *)rs_entry_value(e);
			int64_t cur = __atomic_load_n(slot, __ATOMIC_RELAXED);
			while (!__atomic_compare_exchange_n(slot, &cur, cur + step, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
			}
			rs_read_end(&F.st);
			if (!m->uncertain) {
				m->count += step;
			} else {
				m->count = cur + step;
			}
			m->uncertain = false;
			return;
		}
		rs_read_end(&F.st);
		verify_missing(p, k, "increment");
		rs_reservation r;
		rs_status rc = rs_reserve(&F.st, F.pool_ids[p], key, klen, 8, KIND_COUNTER, 0, &r);
		if (rc == RS_NO_MEMORY) {
			return;
		}
		if (rc != RS_OK) {
			FAIL("rs_reserve(counter): %d", rc);
		}
		memcpy(r.value, &step, 8);
		rc = rs_commit(&F.st, &r, true, (int64_t)rs_now_ms());
		if (rc == RS_OK) {
			m->present = true;
			m->uncertain = false;
			m->counter = true;
			m->count = step;
			m->losses = losses();
			return;
		}
		if (rc != RS_EXISTS) {
			FAIL("rs_commit(counter): %d", rc);
		}
		/* It exists after all (an expired-at-store entry does not count,
		 * so this would be a bug unless the model is uncertain). */
		if (!m->uncertain && !m->present) {
			FAIL("counter add: RS_EXISTS for an absent key");
		}
	}
}

static void do_delete(int p, int k)
{
	char key[RS_KEY_MAX];
	size_t klen = key_of(k, key);
	model_key *m = &F.keys[p][k];
	rs_status rc = rs_delete(&F.st, F.pool_ids[p], key, klen);
	if (rc == RS_OK && !m->present && !m->uncertain) {
		FAIL("delete found %d/%d that the model says is absent", p, k);
	}
	if (rc == RS_NOT_FOUND) {
		verify_missing(p, k, "delete");
	} else if (rc != RS_OK) {
		FAIL("rs_delete: %d", rc);
	}
	m->present = false;
	m->uncertain = false;
}

static void do_delete_if(int p, int k, bool match)
{
	char key[RS_KEY_MAX];
	size_t klen = key_of(k, key);
	model_key *m = &F.keys[p][k];
	if (m->uncertain || !m->present || m->counter) {
		return;
	}
	char expect[16];
	fill_value(expect, 16, m->seed);
	uint64_t len = m->len;
	memcpy(expect, &len, 8);
	if (!match) {
		expect[9] ^= 1;
	}
	rs_status rc = rs_delete_if(&F.st, F.pool_ids[p], key, klen, expect, 12);
	if (rc == RS_OK) {
		if (!match) {
			FAIL("delete_if deleted a value that did not match");
		}
		m->present = false;
	} else if (rc == RS_EXISTS) {
		if (match) {
			FAIL("delete_if refused its own value");
		}
	} else if (rc == RS_NOT_FOUND) {
		verify_missing(p, k, "delete_if");
		m->present = false;
	} else {
		FAIL("rs_delete_if: %d", rc);
	}
}

static void do_stale(int p, int k)
{
	char key[RS_KEY_MAX];
	size_t klen = key_of(k, key);
	rs_read_begin(&F.st);
	bool stale = false;
	const rs_entry *e = rs_lookup_stale(&F.st, F.pool_ids[p], key, klen, &stale);
	if (e && !stale) {
		verify_found(p, k, e, "lookup_stale");
	} else if (e) {
		uint32_t seed;
		if (rs_entry_kind(e) == KIND_BLOB && !value_ok(rs_entry_value(e), rs_entry_value_size(e), &seed)) {
			FAIL("stale value corrupt");
		}
	}
	rs_read_end(&F.st);
}

static void do_clear(int p)
{
	if (p < 0) {
		rs_clear(&F.st, -1);
		memset(F.keys, 0, sizeof F.keys);
		return;
	}
	rs_clear(&F.st, F.pool_ids[p]);
	memset(F.keys[p], 0, sizeof F.keys[p]);
}

/* rs_clear_prefix: a prefix of one of the keys (k1 also takes k10..k13),
 * or one no key has. */
static void do_clear_prefix(input *in, int p)
{
	uint8_t c = u8(in);
	char key[RS_KEY_MAX + 1];
	size_t len = key_of(c % NKEYS, key);
	size_t plen = (c >> 4) % (len + 1);
	if (c & 0x80) {
		key[0] = 'x';
	}
	rs_clear_prefix(&F.st, F.pool_ids[p], key, plen);
	for (int k = 0; k < NKEYS; k++) {
		char other[RS_KEY_MAX + 1];
		size_t olen = key_of(k, other);
		if (olen >= plen && memcmp(other, key, plen) == 0) {
			F.keys[p][k].present = false;
			F.keys[p][k].uncertain = false;
		}
	}
}

static void do_pool_open(input *in)
{
	uint8_t c = u8(in);
	char name[80];
	switch (c & 3) {
	case 0: snprintf(name, sizeof name, "pool%u", c >> 2 & 7); break;
	case 1: memset(name, 'n', 63); name[63] = 0; break;                  /* longest */
	case 2: memset(name, 'n', 64); name[64] = 0; break;                  /* too long */
	default: snprintf(name, sizeof name, "%s", (c & 4) ? "" : "bad\x01name"); break;
	}
	bool pinned = c & 0x80;
	uint16_t id;
	rs_status rc = rs_pool_open(&F.st, name, pinned, &id);
	size_t len = strlen(name);
	if (len == 0 || len > RS_POOL_NAME_MAX) {
		if (rc == RS_OK) {
			FAIL("pool \"%s\" (%zu bytes) accepted", name, len);
		}
		return;
	}
	if (rc != RS_OK) {
		if (rc == RS_BAD_POOL) {
			return; /* control characters */
		}
		FAIL("rs_pool_open: %d", rc);
	}
	for (uint32_t i = 0; i < F.npools; i++) {
		if (F.pool_ids[i] == id) {
			return;
		}
	}
	if (F.npools < NPOOLS) {
		/* The pinned flag is the one the pool was created with. */
		F.pool_pinned[F.npools] = rs_pools(&F.st)[id].pinned;
		F.pool_ids[F.npools++] = id;
	}
}

static void do_inspect(void)
{
	uint64_t map[16][4];
	rs_memory_map(&F.st, 16, map);
	uint64_t total = 0;
	for (int i = 0; i < 16; i++) {
		total += map[i][0] + map[i][1] + map[i][2] + map[i][3];
	}
	if (total != F.st.hdr->heap_size) {
		FAIL("memory map covers %llu of %llu bytes", (unsigned long long)total,
			(unsigned long long)F.st.hdr->heap_size);
	}
	static rs_key_info top[4];
	rs_largest(&F.st, top, 4);
	rs_hottest(&F.st, top, 4);
	rs_pool_stats ps;
	for (uint32_t i = 0; i < F.npools; i++) {
		rs_pool_stats_get(&F.st, F.pool_ids[i], &ps);
	}
	rs_segment_stats ss;
	rs_segment_stats_get(&F.st, &ss);
	if (ss.used_bytes + ss.free_bytes != ss.heap_bytes) {
		FAIL("used %llu + free %llu != heap %llu", (unsigned long long)ss.used_bytes,
			(unsigned long long)ss.free_bytes, (unsigned long long)ss.heap_bytes);
	}
	rs_stats_flush(&F.st);
}

typedef struct scan_ctx {
	int p;
	uint32_t seen;
} scan_ctx;

static void scan_cb(void *ctx, const char *key, size_t len)
{
	scan_ctx *s = ctx;
	char want[RS_KEY_MAX];
	for (int k = 0; k < NKEYS; k++) {
		size_t n = key_of(k, want);
		if (n == len && memcmp(want, key, len) == 0) {
			s->seen |= 1u << k;
			return;
		}
	}
	FAIL("scan: unknown key of %zu bytes", len);
}

static void do_scan(int p)
{
	scan_ctx s = { p, 0 };
	rs_read_begin(&F.st);
	uint64_t n = rs_bucket_count(&F.st);
	for (uint64_t b = 0; b < n; b++) {
		rs_scan_bucket(&F.st, b, F.pool_ids[p], scan_cb, &s);
	}
	rs_read_end(&F.st);
	for (int k = 0; k < NKEYS; k++) {
		if (!(s.seen & 1u << k)) {
			verify_missing(p, k, "scan");
		}
	}
}

/* A writer forked and SIGKILLed at a crash point in the middle of an
 * operation; the next writer recovers. */
static void do_crash(input *in, int p, int k)
{
	static const int points[] = {
		RS_CRASH_HOLDING_LOCK, RS_CRASH_AFTER_ALLOC, RS_CRASH_AFTER_LINK,
		RS_CRASH_AFTER_UNLINK, RS_CRASH_IN_FREE,
	};
	uint8_t c = u8(in);
	int point = points[c % 5];
	int what = (c >> 3) % 4;
	if (F.crashes >= 4 || F.depth) {
		return;
	}
	F.crashes++;
	uint32_t seed = seed_for(p, k);
	uint64_t len = 16 + (c & 0x80 ? 20000 : 100);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		FAIL("fork");
	}
	if (pid == 0) {
		char key[RS_KEY_MAX];
		size_t klen = key_of(k, key);
		rs_test_set_crash_point(&F.st, point);
		rs_reservation r;
		switch (what) {
		case 0: case 1:
			if (rs_reserve(&F.st, F.pool_ids[p], key, klen, len, KIND_BLOB, 0, &r) == RS_OK) {
				fill_value(r.value, len, seed);
				rs_commit(&F.st, &r, what == 1, (int64_t)rs_now_ms());
			}
			break;
		case 2:
			rs_delete(&F.st, F.pool_ids[p], key, klen);
			break;
		default:
			rs_clear(&F.st, F.pool_ids[p]);
			break;
		}
		rs_lock(&F.st);
		rs_reclaim(&F.st);
		rs_unlock(&F.st);
		_exit(0);
	}
	int status;
	pid_t got;
	while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
		/* libFuzzer's timer (SIGALRM) */
	}
	if (got != pid) {
		FAIL("waitpid: %s", strerror(errno));
	}
	if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		FAIL("crash child: status %x", status);
	}
	/* What it touched is either as before or as the child left it. */
	if (what == 3) {
		for (int i = 0; i < NKEYS; i++) {
			F.keys[p][i].uncertain = true;
		}
	} else {
		F.keys[p][k].uncertain = true;
	}
	/* The next lock recovers if needed. */
	rs_lock(&F.st);
	rs_unlock(&F.st);
	check_consistent("a killed writer");
}

static void setup(rs_eviction eviction)
{
	char err[256];
	rs_config cfg = { .size = 1 << 20, .build_id = "fuzz", .slots = 8, .eviction = eviction };
	memset(F.keys, 0, sizeof F.keys);
	if (rs_create(&F.st, &cfg, err, sizeof err) != RS_OK) {
		FAIL("rs_create: %s", err);
	}
	F.npools = 1;
	F.pool_ids[0] = 0;
	F.pool_pinned[0] = false;
	F.nborrows = 0;
	F.depth = 0;
	F.crashes = 0;
	memset(&F.pending, 0, sizeof F.pending);
}

static void teardown(void)
{
	close_pending(true);
	release_borrows();
	check_consistent("the run");
	rs_clear(&F.st, -1);
	rs_segment_stats ss;
	rs_segment_stats_get(&F.st, &ss);
	if (ss.used_bytes != 0 || ss.entries != 0 || ss.limbo_bytes != 0 || ss.limbo_entries != 0) {
		FAIL("after clear: %llu bytes used, %llu entries, %llu limbo bytes",
			(unsigned long long)ss.used_bytes, (unsigned long long)ss.entries,
			(unsigned long long)ss.limbo_bytes);
	}
	check_consistent("clear");
	rs_destroy(&F.st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	input in = { data, size };
	/* Mostly CLOCK; the last byte picks wiping or no eviction now and then. */
	uint8_t mode = size ? data[size - 1] : 0;
	setup(mode == 0xfe ? RS_EVICT_WIPE : mode == 0xff ? RS_EVICT_NONE : RS_EVICT_CLOCK);
	uint32_t ops = 0;
	while (in.n && ops++ < 400) {
		uint8_t op = u8(&in);
		uint8_t pk = u8(&in);
		int p = (int)((pk >> 4) % F.npools);
		int k = pk % NKEYS;
		if (F.pending.entry && (op % 20) > 4) {
			close_pending(op & 0x80);
		}
		switch (op % 20) {
		case 0: case 1:
			lookup(p, k);
			break;
		case 2:
			borrow_key(p, k);
			break;
		case 3:
			do_stale(p, k);
			break;
		case 4:
			if (!F.pending.entry && !F.depth) {
				open_pending(&in, p, k);
			}
			break;
		case 5: case 6: case 7:
			do_store(&in, p, k, false);
			break;
		case 8:
			do_store(&in, p, k, true);
			break;
		case 9:
			do_delete(p, k);
			break;
		case 10:
			do_increment(p, k, (int64_t)(int8_t)u8(&in));
			break;
		case 11:
			release_borrows();
			break;
		case 12:
			if (op & 0x40) {
				do_clear_prefix(&in, p);
			} else {
				do_clear((op & 0x80) ? -1 : p);
			}
			break;
		case 13:
			do_pool_open(&in);
			break;
		case 14:
			rs_lock(&F.st);
			rs_reclaim(&F.st);
			rs_unlock(&F.st);
			break;
		case 15:
			check_consistent("an operation");
			break;
		case 16:
			do_inspect();
			break;
		case 17:
			do_scan(p);
			break;
		case 18:
			do_delete_if(p, k, op & 0x80);
			break;
		default:
			do_crash(&in, p, k);
			break;
		}
	}
	teardown();
	return 0;
}

#ifdef STORE_FUZZ_MAIN
/* Replays inputs without libFuzzer: store_fuzz FILE... */
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 2;
		}
		static uint8_t buf[1 << 16];
		size_t n = fread(buf, 1, sizeof buf, f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
	}
	printf("store_fuzz: %d inputs replayed\n", argc - 1);
	return 0;
}
#endif
