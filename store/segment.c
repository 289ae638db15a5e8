/*
 * The segment: one shared mapping created before workers fork, so every
 * worker sees it at the same address. Its header is stamped with a layout
 * version and the caller's build id (for PHP: version, ZTS and debug), since
 * the values inside are engine structures of one exact build.
 */
#include "internal.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#define RS_MIN_SIZE ((size_t)1 << 20)

static void seed_init(uint64_t seed[2])
{
	if (getrandom(seed, sizeof(uint64_t) * 2, 0) != (ssize_t)(sizeof(uint64_t) * 2)) {
		/* Still unpredictable enough to defeat precomputed collisions. */
		seed[0] = (uint64_t)getpid() * 0x9e3779b97f4a7c15ULL ^ rs_now_ms();
		seed[1] = (uint64_t)(uintptr_t)&seed ^ 0xc2b2ae3d27d4eb4fULL;
	}
}

static uint64_t pow2_floor(uint64_t n)
{
	return n ? (uint64_t)1 << (63 - __builtin_clzll(n)) : 0;
}

rs_status rs_create(rs_store *st, const rs_config *cfg, char *err, size_t errlen)
{
	memset(st, 0, sizeof(*st));
	rs_pid_init();
	st->slot = -1;
	st->fork_slot = -1;
	st->lock_fd = -1;

	size_t size = cfg->size;
	if (size < RS_MIN_SIZE) {
		snprintf(err, errlen, "segment size %zu is below the minimum of %zu bytes", size, RS_MIN_SIZE);
		return RS_ERROR;
	}
	size = RS_ALIGN_UP(size, 4096);
	uint32_t nslots = cfg->slots ? cfg->slots : RS_DEFAULT_SLOTS;
	/* One bucket per 512 bytes keeps chains short for typical entries
	 * while costing under 2% of the segment. */
	uint64_t nbuckets = pow2_floor(size / 512);
	if (nbuckets < 64) {
		nbuckets = 64;
	}

	rs_off pools_off = RS_ALIGN_UP(sizeof(rs_header), RS_CACHELINE);
	rs_off slots_off = RS_ALIGN_UP(pools_off + sizeof(rs_pool) * RS_MAX_POOLS, RS_CACHELINE);
	rs_off buckets_off = RS_ALIGN_UP(slots_off + sizeof(rs_slot) * nslots, RS_CACHELINE);
	rs_off heap_off = RS_ALIGN_UP(buckets_off + sizeof(rs_off) * nbuckets, RS_CACHELINE);
	if (heap_off + (RS_MIN_SIZE / 2) > size) {
		snprintf(err, errlen, "segment size %zu leaves no room for values", size);
		return RS_ERROR;
	}

	int fd = memfd_create("resident-slots", MFD_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "memfd_create failed: %s", strerror(errno));
		return RS_ERROR;
	}
	void *mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		snprintf(err, errlen, "mmap of %zu bytes failed: %s", size, strerror(errno));
		close(fd);
		return RS_ERROR;
	}

	rs_header *h = mem;
	st->hdr = h;
	st->base = mem;
	st->lock_fd = fd;

	h->layout_version = RS_LAYOUT_VERSION;
	h->header_size = (uint32_t)sizeof(rs_header);
	snprintf(h->build_id, sizeof(h->build_id), "%s", cfg->build_id ? cfg->build_id : "");
	h->total_size = size;
	h->base_address = (uint64_t)(uintptr_t)mem;
	seed_init(h->seed);
	rs_lock_init(h);
	atomic_init(&h->epoch, 1);
	atomic_init(&h->mutation_epoch, 1);
	h->pools_off = pools_off;
	h->slots_off = slots_off;
	h->nslots = nslots;
	h->limbo_cap_percent = cfg->limbo_cap_percent ? cfg->limbo_cap_percent : RS_DEFAULT_LIMBO_CAP_PERCENT;
	h->buckets_off = buckets_off;
	h->nbuckets = nbuckets;
	h->heap_off = heap_off;
	h->heap_size = (size - heap_off) & ~(uint64_t)(RS_ALIGN - 1);

	rs_slots_init(st);
	rs_alloc_init(st);
	rs_pool *def = &rs_pools(st)[0];
	strcpy(def->name, "default");
	def->in_use = 1;
	h->npools = 1;

	/* Published last: a header with the magic is complete. */
	atomic_thread_fence(memory_order_release);
	h->magic = RS_MAGIC;
	return RS_OK;
}

void rs_destroy(rs_store *st)
{
	if (st->hdr) {
		rs_slot_release(st);
		munmap(st->base, st->hdr->total_size);
	}
	if (st->lock_fd >= 0) {
		close(st->lock_fd);
	}
	st->hdr = NULL;
	st->base = NULL;
	st->lock_fd = -1;
}

uint64_t rs_mutation_epoch(const rs_store *st)
{
	return atomic_load_explicit(&st->hdr->mutation_epoch, memory_order_acquire);
}
