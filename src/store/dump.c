/* SPDX-License-Identifier: MIT */
/*
 * Dumps and restores: a segment's live entries in a file, so that a restart
 * (a deploy, a crash, a reboot) does not start from an empty cache.
 *
 * Values hold absolute pointers into their own block, so an entry is only
 * valid at the address it was made at. A dump therefore records each
 * entry's block with its offset, and restores into a fresh segment of the
 * same build, size and base address, putting every block back where it
 * was; the heap's free blocks, the index (with the new segment's hash
 * seed), the pools and the counters are rebuilt around them.
 *
 * File: header, pool table, then one record per entry: offset, size, the
 * block's bytes. The header is stamped like the segment (store layout,
 * value encoding, PHP build) and carries two checksums: one of everything
 * after it, and one of itself, which covers the first. No field is used
 * before the checksum over it is checked: the base address in the header
 * decides where resident.restore_on_start maps the next segment. A restore
 * reads the whole file once to check it and every record before it writes
 * anything, so a bad file is refused, never half-loaded.
 */
#include "internal.h"
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define DUMP_MAGIC "RESDUMP\x01"
/* Bumped with any change to dump_header, dump_pool or dump_record; magic
 * and format keep their offsets in every format. */
#define DUMP_FORMAT 2

typedef struct dump_header {
	char magic[8];
	uint32_t format;
	uint32_t header_size;
	uint32_t layout_version;
	uint32_t npools;
	char build_id[RS_BUILD_ID_MAX];
	char version[32];
	uint64_t base_address;
	uint64_t total_size;
	uint64_t heap_off;
	uint64_t heap_size;
	uint64_t nentries;
	uint64_t body_bytes;
	uint64_t checksum;          /* of the body */
	int64_t dumped_ms;
	uint32_t encoding_version;
	uint32_t _pad;
	uint64_t header_sum;        /* of this header, with header_sum 0 */
} dump_header;

/* The header checksum covers its bytes: there must be none the compiler adds. */
_Static_assert(sizeof(dump_header) == 232, "dump_header has padding");

static uint64_t dump_header_sum(const dump_header *hdr)
{
	dump_header copy = *hdr;
	copy.header_sum = 0;
	return rs_fnv1a(RS_FNV_INIT, &copy, sizeof(copy));
}

typedef struct dump_pool {
	uint16_t id;
	uint8_t pinned;
	uint8_t _pad[5];
	char name[RS_POOL_NAME_MAX + 1];
} dump_pool;

typedef struct dump_record {
	uint64_t off;
	uint64_t size;
} dump_record;

typedef struct writer {
	int fd;
	uint64_t bytes;
	uint64_t sum;
	bool failed;
	int err;
} writer;

static void put(writer *w, const void *p, size_t n)
{
	const char *c = p;
	w->sum = rs_fnv1a(w->sum, p, n);
	w->bytes += n;
	while (n > 0 && !w->failed) {
		ssize_t k = write(w->fd, c, n);
		if (k < 0) {
			if (errno == EINTR) {
				continue;
			}
			w->failed = true;
			w->err = errno;
			return;
		}
		c += k;
		n -= (size_t)k;
	}
}

rs_status rs_dump(rs_store *st, int fd, const char *version, rs_dump_stats *stats, char *err, size_t errlen)
{
	rs_header *h = st->hdr;
	dump_header hdr;
	memset(&hdr, 0, sizeof(hdr));
	memset(stats, 0, sizeof(*stats));
	writer w = { .fd = fd, .sum = RS_FNV_INIT };
	/* Room for the header, written last with the counts and checksum. */
	if (lseek(fd, sizeof(hdr), SEEK_SET) < 0) {
		snprintf(err, errlen, "cannot seek in the dump file: %s", strerror(errno));
		return RS_ERROR;
	}
	rs_pool *pools = rs_pools(st);
	for (uint16_t id = 0; id < RS_MAX_POOLS; id++) {
		if (pools[id].in_use) {
			dump_pool p;
			memset(&p, 0, sizeof(p));
			p.id = id;
			p.pinned = pools[id].pinned;
			memcpy(p.name, pools[id].name, sizeof(p.name));
			put(&w, &p, sizeof(p));
			hdr.npools++;
		}
	}
	/* What readers see: every entry reachable now stays allocated until
	 * this read section ends, so no two records can overlap. */
	int64_t now = (int64_t)rs_now_ms();
	rs_read_begin(st);
	for (uint64_t b = 0; b < h->nbuckets && !w.failed; b++) {
		rs_off off = atomic_load_explicit(&rs_buckets(st)[b], memory_order_acquire);
		while (off && !w.failed) {
			const rs_entry *e = RS_PTR(st, off);
			if (e->state == RS_ENTRY_LIVE && !(e->expires_ms && e->expires_ms <= now)) {
				dump_record r = { off, rs_block_size(&e->block) };
				put(&w, &r, sizeof(r));
				put(&w, e, r.size);
				hdr.nentries++;
				stats->bytes += r.size;
			}
			off = atomic_load_explicit(&e->next, memory_order_acquire);
		}
	}
	rs_read_end(st);
	if (w.failed) {
		snprintf(err, errlen, "cannot write the dump: %s", strerror(w.err));
		return RS_ERROR;
	}
	memcpy(hdr.magic, DUMP_MAGIC, sizeof(hdr.magic));
	hdr.format = DUMP_FORMAT;
	hdr.header_size = sizeof(hdr);
	hdr.layout_version = RS_LAYOUT_VERSION;
	hdr.encoding_version = h->encoding_version;
	memcpy(hdr.build_id, h->build_id, sizeof(hdr.build_id));
	snprintf(hdr.version, sizeof(hdr.version), "%s", version ? version : "");
	hdr.base_address = h->base_address;
	hdr.total_size = h->total_size;
	hdr.heap_off = h->heap_off;
	hdr.heap_size = h->heap_size;
	hdr.body_bytes = w.bytes;
	hdr.checksum = w.sum;
	hdr.dumped_ms = now;
	hdr.header_sum = dump_header_sum(&hdr);
	if (pwrite(fd, &hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr)) {
		snprintf(err, errlen, "cannot write the dump header: %s", strerror(errno));
		return RS_ERROR;
	}
	stats->entries = hdr.nentries;
	stats->pools = hdr.npools;
	return RS_OK;
}

/* Unguessable by another user ahead of us; O_EXCL is what makes it safe. */
static uint64_t random_suffix(void)
{
	uint64_t r;
	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		r = rs_now_ms() * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)getpid() << 32);
	}
	return r;
}

/* A file of our own beside path, to be renamed over it: in its directory
 * because rename works within one file system; created exclusively, never
 * through a symbolic link, because that directory may be shared (/tmp),
 * and whatever another user planted at a name we meant to use must not
 * receive the cache. */
static int create_beside(const char *path, char *tmp, size_t tmplen, char *err, size_t errlen)
{
	for (int attempt = 0; attempt < 100; attempt++) {
		if ((size_t)snprintf(tmp, tmplen, "%s.tmp-%016llx", path, (unsigned long long)random_suffix()) >= tmplen) {
			snprintf(err, errlen, "cannot create a file beside %s: the path is too long", path);
			return -1;
		}
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0) {
			/* 0600 whatever the umask took away. */
			if (fchmod(fd, 0600) != 0) {
				snprintf(err, errlen, "cannot set the mode of %s: %s", tmp, strerror(errno));
				unlink(tmp);
				close(fd);
				return -1;
			}
			return fd;
		}
		if (errno != EEXIST) {
			snprintf(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
			return -1;
		}
	}
	snprintf(err, errlen, "cannot create a file beside %s: every name tried exists", path);
	return -1;
}

rs_status rs_dump_file(rs_store *st, const char *path, const char *version, rs_dump_stats *stats,
                       char *err, size_t errlen)
{
	/* Written aside, then renamed: a reader never sees half a dump. */
	char tmp[4096];
	int fd = create_beside(path, tmp, sizeof(tmp), err, errlen);
	if (fd < 0) {
		return RS_ERROR;
	}
	bool ok = rs_dump(st, fd, version, stats, err, errlen) == RS_OK;
	if (ok && fsync(fd) != 0) {
		snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
		ok = false;
	}
	close(fd);
	if (ok && rename(tmp, path) != 0) {
		snprintf(err, errlen, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
		ok = false;
	}
	if (!ok) {
		unlink(tmp);
	}
	return ok ? RS_OK : RS_ERROR;
}

/* --- restore ------------------------------------------------------------------ */

static bool read_all(int fd, void *p, size_t n)
{
	char *c = p;
	while (n > 0) {
		ssize_t k = read(fd, c, n);
		if (k < 0 && errno == EINTR) {
			continue;
		}
		if (k <= 0) {
			return false;
		}
		c += k;
		n -= (size_t)k;
	}
	return true;
}

static int by_offset(const void *a, const void *b)
{
	uint64_t x = ((const dump_record *)a)->off, y = ((const dump_record *)b)->off;
	return x < y ? -1 : x > y;
}

/* Reads the header and checks, in this order, what each check needs: the
 * magic, the format (which fixes the header's layout), the header's
 * checksum, then what made it against cfg. */
static rs_status read_header(int fd, const rs_config *cfg, dump_header *hdr, char *err, size_t errlen)
{
	memset(hdr, 0, sizeof(*hdr));
	ssize_t n = pread(fd, hdr, sizeof(*hdr), 0);
	if (n < (ssize_t)sizeof(hdr->magic) || memcmp(hdr->magic, DUMP_MAGIC, sizeof(hdr->magic)) != 0) {
		snprintf(err, errlen, "it is not a Resident dump");
		return RS_ERROR;
	}
	if (n < (ssize_t)offsetof(dump_header, header_size)) {
		snprintf(err, errlen, "it is truncated");
		return RS_ERROR;
	}
	if (hdr->format != DUMP_FORMAT) {
		snprintf(err, errlen, "it was written by another version of Resident (dump format %u, this build reads format %u)",
			(unsigned)hdr->format, (unsigned)DUMP_FORMAT);
		return RS_ERROR;
	}
	if (n < (ssize_t)sizeof(*hdr)) {
		snprintf(err, errlen, "it is truncated");
		return RS_ERROR;
	}
	if (hdr->header_size != sizeof(*hdr) || hdr->header_sum != dump_header_sum(hdr)) {
		snprintf(err, errlen, "its header checksum does not match: it was changed or damaged");
		return RS_ERROR;
	}
	if (rs_stamp_differs(hdr->layout_version, hdr->encoding_version, hdr->build_id, cfg, "written", err, errlen)) {
		return RS_ERROR;
	}
	return RS_OK;
}

rs_status rs_dump_trusted(int fd, char *err, size_t errlen)
{
	struct stat sb;
	if (fstat(fd, &sb) != 0) {
		snprintf(err, errlen, "cannot stat it: %s", strerror(errno));
		return RS_ERROR;
	}
	if (!S_ISREG(sb.st_mode) || sb.st_uid != geteuid() || (sb.st_mode & 022)) {
		snprintf(err, errlen, "it is %s owned by uid %u with mode %04o; a dump must be a regular file owned by this process's user "
			"(uid %u) that no other user can write", S_ISREG(sb.st_mode) ? "a file" : "not a regular file", (unsigned)sb.st_uid,
			(unsigned)(sb.st_mode & 07777), (unsigned)geteuid());
		return RS_ERROR;
	}
	return RS_OK;
}

rs_status rs_dump_peek(int fd, const rs_config *cfg, rs_dump_info *info, char *err, size_t errlen)
{
	dump_header hdr;
	if (read_header(fd, cfg, &hdr, err, errlen) != RS_OK) {
		return RS_ERROR;
	}
	memset(info, 0, sizeof(*info));
	memcpy(info->build_id, hdr.build_id, sizeof(info->build_id));
	info->build_id[sizeof(info->build_id) - 1] = '\0';
	memcpy(info->version, hdr.version, sizeof(info->version));
	info->version[sizeof(info->version) - 1] = '\0';
	info->base_address = hdr.base_address;
	info->total_size = hdr.total_size;
	info->entries = hdr.nentries;
	info->dumped_ms = hdr.dumped_ms;
	return RS_OK;
}

/* Checks a record's block as an entry of this heap, from its bytes. */
static const char *record_problem(const rs_header *h, const dump_record *r, const rs_entry *e, const bool *pool_known)
{
	if (r->off < h->heap_off || r->off % RS_ALIGN || r->size < sizeof(rs_entry) || r->size % RS_ALIGN
			|| r->size > h->heap_size || r->off + r->size > h->heap_off + h->heap_size) {
		return "an entry lies outside the heap";
	}
	if (rs_block_size(&e->block) != r->size || !(e->block.size_flags & RS_BLOCK_USED) || e->state != RS_ENTRY_LIVE
			|| e->pool >= RS_MAX_POOLS || !pool_known[e->pool] || e->key_len == 0 || e->key_len > RS_KEY_MAX
			|| sizeof(rs_entry) + e->key_len > r->size || e->value_offset < sizeof(rs_entry) + e->key_len
			|| (uint64_t)e->value_offset + e->value_size > r->size) {
		return "an entry is malformed";
	}
	return NULL;
}

rs_status rs_restore(rs_store *st, int fd, rs_dump_stats *stats, char *err, size_t errlen)
{
	rs_header *h = st->hdr;
	memset(stats, 0, sizeof(*stats));
	/* Its entries go into this segment: they must be what it holds. */
	rs_config segment = { .build_id = h->build_id, .encoding_version = h->encoding_version };
	dump_header hdr;
	if (read_header(fd, &segment, &hdr, err, errlen) != RS_OK) {
		return RS_ERROR;
	}
	if (hdr.base_address != h->base_address || hdr.total_size != h->total_size || hdr.heap_off != h->heap_off
			|| hdr.heap_size != h->heap_size) {
		snprintf(err, errlen, "it was taken from a segment of %llu bytes at %#llx, this one has %llu bytes at %#llx",
			(unsigned long long)hdr.total_size, (unsigned long long)hdr.base_address,
			(unsigned long long)h->total_size, (unsigned long long)h->base_address);
		return RS_ERROR;
	}
	if (hdr.npools > RS_MAX_POOLS || hdr.nentries > h->heap_size / sizeof(rs_entry)) {
		snprintf(err, errlen, "its header is corrupt");
		return RS_ERROR;
	}

	/* Pass 1: checksum, pools, and every record checked; nothing written. */
	dump_pool pools[RS_MAX_POOLS];
	bool pool_known[RS_MAX_POOLS] = { false };
	uint64_t sum = RS_FNV_INIT, body = 0;
	if (lseek(fd, sizeof(hdr), SEEK_SET) < 0 || !read_all(fd, pools, sizeof(dump_pool) * hdr.npools)) {
		snprintf(err, errlen, "it is truncated");
		return RS_ERROR;
	}
	sum = rs_fnv1a(sum, pools, sizeof(dump_pool) * hdr.npools);
	body += sizeof(dump_pool) * hdr.npools;
	for (uint32_t i = 0; i < hdr.npools; i++) {
		if (pools[i].id >= RS_MAX_POOLS || pool_known[pools[i].id] || pools[i].name[RS_POOL_NAME_MAX] != '\0') {
			snprintf(err, errlen, "its pool table is corrupt");
			return RS_ERROR;
		}
		pool_known[pools[i].id] = true;
	}
	dump_record *records = malloc(sizeof(dump_record) * (hdr.nentries ? hdr.nentries : 1));
	char *block = malloc(h->heap_size < ((size_t)1 << 20) ? h->heap_size : ((size_t)1 << 20));
	size_t block_cap = h->heap_size < ((size_t)1 << 20) ? h->heap_size : ((size_t)1 << 20);
	const char *problem = NULL;
	for (uint64_t i = 0; i < hdr.nentries && !problem; i++) {
		dump_record r;
		if (!read_all(fd, &r, sizeof(r))) {
			problem = "it is truncated";
			break;
		}
		sum = rs_fnv1a(sum, &r, sizeof(r));
		body += sizeof(r);
		if (r.size < sizeof(rs_entry) || r.size > h->heap_size) {
			problem = "an entry lies outside the heap";
			break;
		}
		if (r.size > block_cap) {
			char *bigger = realloc(block, r.size);
			if (!bigger) {
				problem = "out of memory reading it";
				break;
			}
			block = bigger;
			block_cap = r.size;
		}
		if (!read_all(fd, block, r.size)) {
			problem = "it is truncated";
			break;
		}
		sum = rs_fnv1a(sum, block, r.size);
		body += r.size;
		problem = record_problem(h, &r, (const rs_entry *)block, pool_known);
		records[i] = r;
	}
	free(block);
	char extra;
	if (!problem && (body != hdr.body_bytes || sum != hdr.checksum || read(fd, &extra, 1) != 0)) {
		problem = body != hdr.body_bytes ? "it is truncated" : "its checksum does not match: it was changed or damaged";
	}
	if (!problem) {
		qsort(records, hdr.nentries, sizeof(dump_record), by_offset);
		for (uint64_t i = 1; i < hdr.nentries && !problem; i++) {
			if (records[i - 1].off + records[i - 1].size > records[i].off) {
				problem = "two entries overlap";
			}
		}
	}
	if (problem) {
		free(records);
		snprintf(err, errlen, "%s", problem);
		return RS_ERROR;
	}

	/* Pass 2, under the lock, into a segment nobody has written to. */
	rs_lock(st);
	if (h->entries != 0 || h->limbo_entries != 0) {
		rs_unlock(st);
		free(records);
		snprintf(err, errlen, "the segment is not empty (%llu entries): restore needs a fresh one",
			(unsigned long long)h->entries);
		return RS_ERROR;
	}
	rs_pool *tbl = rs_pools(st);
	/* Pools are never renamed nor named twice: callers keep a pool's id
	 * once they opened it (Resident\Cache objects, UserCache's request),
	 * so a pool of this segment must have the id the dump gives its name,
	 * and no id the dump uses may hold another pool's name. */
	for (uint32_t i = 0; i < hdr.npools && !problem; i++) {
		for (uint32_t j = 0; j < RS_MAX_POOLS; j++) {
			bool same_name = tbl[j].in_use && strncmp(tbl[j].name, pools[i].name, sizeof(tbl[j].name)) == 0;
			if (tbl[j].in_use && (j == pools[i].id) != same_name) {
				snprintf(err, errlen, "its pool \"%s\" has id %u, and this segment's pool \"%s\" id %u: restore needs a segment whose pools "
					"are the dump's or none", pools[i].name, (unsigned)pools[i].id, tbl[j].name, j);
				problem = err;
				break;
			}
		}
	}
	if (problem) {
		rs_unlock(st);
		free(records);
		return RS_ERROR;
	}
	for (uint32_t i = 0; i < hdr.npools; i++) {
		rs_pool *p = &tbl[pools[i].id];
		memset(p->name, 0, sizeof(p->name));
		memcpy(p->name, pools[i].name, sizeof(p->name));
		p->pinned = pools[i].pinned;
		p->in_use = 1;
	}
	h->npools = 0;
	for (uint32_t i = 0; i < RS_MAX_POOLS; i++) {
		h->npools += tbl[i].in_use ? 1 : 0;
	}
	/* The blocks at their offsets, the gaps between them free blocks. */
	lseek(fd, sizeof(hdr) + sizeof(dump_pool) * hdr.npools, SEEK_SET);
	bool short_read = false;
	for (uint64_t i = 0; i < hdr.nentries && !short_read; i++) {
		dump_record r;
		short_read = !read_all(fd, &r, sizeof(r)) || !read_all(fd, RS_PTR(st, r.off), r.size);
	}
	rs_off cursor = h->heap_off;
	rs_off end = h->heap_off + h->heap_size;
	for (uint64_t i = 0; i <= hdr.nentries; i++) {
		rs_off next = i < hdr.nentries ? records[i].off : end;
		if (next > cursor) {
			rs_block *gap = RS_PTR(st, cursor);
			gap->size_flags = next - cursor;
			gap->prev_size = 0;
		}
		if (i < hdr.nentries) {
			cursor = records[i].off + records[i].size;
		}
	}
	rs_alloc_rebuild(st);
	/* The index, with this segment's hash seed. Each entry gets a commit
	 * of its own, as a store gives it (rs_entry_identity(),
	 * rs_entry_stamp()): a segment emptied and restored again must not
	 * give another value an earlier one's identity at the same place. */
	uint64_t commit = atomic_load_explicit(&h->mutation_epoch, memory_order_relaxed);
	for (uint64_t i = 0; i < hdr.nentries && !short_read; i++) {
		rs_entry *e = RS_PTR(st, records[i].off);
		e->hash = rs_hash(h->seed, e->pool, e->key, e->key_len);
		e->limbo_tag = commit + i;
		e->limbo_next = 0;
		atomic_store_explicit(&e->referenced, 0, memory_order_relaxed);
		_Atomic rs_off *head = &rs_buckets(st)[e->hash & (h->nbuckets - 1)];
		atomic_store_explicit(&e->next, atomic_load_explicit(head, memory_order_relaxed), memory_order_relaxed);
		atomic_store_explicit(head, records[i].off, memory_order_release);
		rs_pool *p = &tbl[e->pool];
		p->entries++;
		p->bytes += records[i].size;
		h->entries++;
		if (e->expires_ms) {
			h->expiring_entries++;
		}
		stats->bytes += records[i].size;
	}
	free(records);
	if (short_read) {
		/* The file changed between the passes: leave an empty cache. */
		rs_unlock(st);
		rs_clear(st, -1);
		snprintf(err, errlen, "it changed while it was being read");
		return RS_ERROR;
	}
	atomic_store_explicit(&h->mutation_epoch, commit + hdr.nentries + 1, memory_order_release);
	rs_unlock(st);
	stats->entries = hdr.nentries;
	stats->pools = hdr.npools;
	return RS_OK;
}
