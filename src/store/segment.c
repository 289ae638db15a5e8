/* SPDX-License-Identifier: MIT */
/*
 * The segment: one shared mapping created before workers fork, so every
 * worker sees it at the same address. Its header is stamped with the
 * store's layout version, the caller's value encoding version and build id
 * (for PHP: version, ZTS and debug), since the values inside are engine
 * structures of one exact build, laid out by one version of the encoding.
 */
#include "internal.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <stddef.h>
#include <unistd.h>


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

/* Where each region of a segment of this size goes. */
typedef struct seg_layout {
	size_t size;
	uint32_t nslots;
	uint64_t nbuckets;
	rs_off pools_off, slots_off, buckets_off, heap_off;
	uint64_t heap_size;
} seg_layout;

uint64_t rs_max_buckets(size_t size)
{
	uint64_t max = pow2_floor(RS_ALIGN_UP(size, 4096) / 4 / sizeof(rs_off));
	return max < 64 ? 64 : max;
}

static rs_status plan_layout(const rs_config *cfg, seg_layout *l, char *err, size_t errlen)
{
	if (cfg->size < RS_MIN_SEGMENT_SIZE) {
		snprintf(err, errlen, "segment size %zu is below the minimum of %zu bytes", cfg->size, RS_MIN_SEGMENT_SIZE);
		return RS_ERROR;
	}
	l->size = RS_ALIGN_UP(cfg->size, 4096);
	l->nslots = cfg->slots ? cfg->slots : RS_DEFAULT_SLOTS;
	if (cfg->buckets) {
		/* As many as the caller expects entries, within what the size allows. */
		uint64_t max = rs_max_buckets(l->size);
		l->nbuckets = cfg->buckets >= max ? max : pow2_floor(cfg->buckets);
		if (l->nbuckets < cfg->buckets && l->nbuckets < max) {
			l->nbuckets <<= 1;
		}
	} else {
		/* One bucket per 512 bytes keeps chains short for typical entries
		 * while costing under 2% of the segment. */
		l->nbuckets = pow2_floor(l->size / 512);
	}
	if (l->nbuckets < 64) {
		l->nbuckets = 64;
	}
	l->pools_off = RS_ALIGN_UP(sizeof(rs_header), RS_CACHELINE);
	l->slots_off = RS_ALIGN_UP(l->pools_off + sizeof(rs_pool) * RS_MAX_POOLS, RS_CACHELINE);
	l->buckets_off = RS_ALIGN_UP(l->slots_off + sizeof(rs_slot) * l->nslots, RS_CACHELINE);
	l->heap_off = RS_ALIGN_UP(l->buckets_off + sizeof(rs_off) * l->nbuckets, RS_CACHELINE);
	if (l->heap_off + (RS_MIN_SEGMENT_SIZE / 2) > l->size) {
		snprintf(err, errlen, "segment size %zu leaves no room for values", l->size);
		return RS_ERROR;
	}
	l->heap_size = (l->size - l->heap_off) & ~(uint64_t)(RS_ALIGN - 1);
	return RS_OK;
}

static uint64_t header_sum(const rs_header *h)
{
	return rs_fnv1a(RS_FNV_INIT, &h->layout_version, offsetof(rs_header, header_sum) - offsetof(rs_header, layout_version));
}

/* Lays out a fresh segment in mem (zeroed) and publishes its header. */
static void format_segment(rs_store *st, void *mem, int fd, const rs_config *cfg, const seg_layout *l)
{
	rs_header *h = mem;
	st->hdr = h;
	st->base = mem;
	st->lock_fd = fd;

	h->layout_version = RS_LAYOUT_VERSION;
	h->header_size = (uint32_t)sizeof(rs_header);
	h->encoding_version = cfg->encoding_version;
	snprintf(h->build_id, sizeof(h->build_id), "%s", cfg->build_id ? cfg->build_id : "");
	h->total_size = l->size;
	h->base_address = (uint64_t)(uintptr_t)mem;
	seed_init(h->seed);
	rs_lock_init(h);
	atomic_init(&h->epoch, 1);
	atomic_init(&h->mutation_epoch, 1);
	h->pools_off = l->pools_off;
	h->slots_off = l->slots_off;
	h->nslots = l->nslots;
	h->limbo_cap_percent = cfg->limbo_cap_percent ? cfg->limbo_cap_percent : RS_DEFAULT_LIMBO_CAP_PERCENT;
	h->buckets_off = l->buckets_off;
	h->nbuckets = l->nbuckets;
	h->heap_off = l->heap_off;
	h->heap_size = l->heap_size;
	h->eviction = cfg->eviction <= RS_EVICT_NONE ? cfg->eviction : RS_EVICT_CLOCK;
	h->header_sum = header_sum(h);

	rs_slots_init(st);
	rs_alloc_init(st);
	rs_pool *def = &rs_pools(st)[0];
	strcpy(def->name, "default");
	def->in_use = 1;
	h->npools = 1;

	/* Published last: a header with the magic is complete. */
	atomic_thread_fence(memory_order_release);
	h->magic = RS_MAGIC;
}

void rs_handle_init(rs_store *st)
{
	memset(st, 0, sizeof(*st));
	rs_pid_init();
	st->slot = -1;
	st->fork_slot = -1;
	st->lock_fd = -1;
}

void rs_handle_share(rs_store *st, const rs_store *mapping)
{
	rs_handle_init(st);
	st->hdr = mapping->hdr;
	st->base = mapping->base;
	st->lock_fd = mapping->lock_fd;
}

/* Where an anonymous segment's search of the region starts (a named one's,
 * from a hash of its path; internal.h: RS_SEGMENT_BASE). */
#define ANONYMOUS_START (RS_SEGMENT_SPREAD / 2)

/* Maps size bytes of fd (anonymous memory with fd -1) exactly at want, or
 * nothing (MAP_FAILED). */
static void *map_exactly(void *want, size_t size, int fd)
{
	int flags = MAP_SHARED | (fd < 0 ? MAP_ANONYMOUS : 0) | MAP_FIXED_NOREPLACE;
	void *mem = mmap(want, size, PROT_READ | PROT_WRITE, flags, fd, 0);
	if (mem != MAP_FAILED && mem != want) {
		/* A kernel without MAP_FIXED_NOREPLACE took it as a hint. */
		munmap(mem, size);
		return MAP_FAILED;
	}
	return mem;
}

/* Maps a new segment: at address if one is asked for and free, else at
 * the first free slot of the region from slot `start`, else wherever the
 * kernel puts it. */
static void *map_segment(size_t size, int fd, uint64_t address, uint64_t start)
{
	if (address) {
		void *mem = map_exactly((void *)(uintptr_t)address, size, fd);
		if (mem != MAP_FAILED) {
			return mem;
		}
	}
	for (uint64_t i = 0; i < 64; i++) {
		void *mem = map_exactly((void *)(uintptr_t)(RS_SEGMENT_BASE + ((start + i) % RS_SEGMENT_SPREAD) * RS_SEGMENT_STRIDE), size, fd);
		if (mem != MAP_FAILED) {
			return mem;
		}
	}
	return mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | (fd < 0 ? MAP_ANONYMOUS : 0), fd, 0);
}

rs_status rs_create(rs_store *st, const rs_config *cfg, char *err, size_t errlen)
{
	rs_handle_init(st);
	seg_layout l;
	if (plan_layout(cfg, &l, err, errlen) != RS_OK) {
		return RS_ERROR;
	}
	int fd = memfd_create("resident-slots", MFD_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "memfd_create failed: %s", strerror(errno));
		return RS_ERROR;
	}
	void *mem = map_segment(l.size, -1, cfg->address, ANONYMOUS_START);
	if (mem == MAP_FAILED) {
		snprintf(err, errlen, "mmap of %zu bytes failed: %s", l.size, strerror(errno));
		close(fd);
		return RS_ERROR;
	}
	format_segment(st, mem, fd, cfg, &l);
	return RS_OK;
}

/* --- named segments ----------------------------------------------------------
 * A file (under /dev/shm) instead of an anonymous mapping, so that a process
 * that did not fork from the creator (a CLI tool, a deploy script) can
 * attach. Values hold absolute pointers, so every process maps the file at
 * the address recorded in its header, or stays out.
 *
 * The file is trusted like the process's own memory: whoever can write it
 * can make every process attached to it serve what they like, or read out
 * of bounds, and whoever can read it reads the cache. So it must be a
 * regular file of this process's user that no other user can access,
 * reached without a symbolic link; anything else is refused. It is created
 * exclusively (a file or link planted at the path is never written
 * through), and only a Resident segment of ours is ever replaced: the
 * creator marks the file as one (RS_MAGIC_FORMATTING) before anything else,
 * so that even a segment whose creator died formatting it is known for one,
 * and a file of someone else's is never taken for one.
 *
 * Byte-range locks on the file say who is attached: each process holds a
 * shared lock on RS_ATTACH_BYTE, and the reader slots' liveness locks are its
 * bytes [0, nslots). A file nobody holds a lock on can be replaced.
 *
 * The creator holds an exclusive lock on RS_SETUP_BYTE from the moment the file
 * exists until rs_named_ready(): while it formats the segment and fills it
 * (a dump restored), others wait to attach, so nobody sees half a header or
 * writes into a segment that must still be empty. */

#define SETUP_WAIT_MS 10000
/* How long an empty file may be one a creator has only just made. */
#define CREATE_WAIT_MS 1000
#define TRUSTED_FILE "a segment must be a regular file owned by this process's user (uid %u) that no other user can access (mode 0600)"

static int lock_byte(int fd, int cmd, short type, off_t start, off_t len)
{
	struct flock fl;
	memset(&fl, 0, sizeof(fl));
	fl.l_type = type;
	fl.l_whence = SEEK_SET;
	fl.l_start = start;
	fl.l_len = len;
	if (fcntl(fd, cmd, &fl) != 0) {
		return -1;
	}
	return cmd == F_GETLK ? fl.l_type != F_UNLCK : 0;
}

/* Waits until no creator is setting the file up; false after SETUP_WAIT_MS. */
static bool wait_for_setup(int fd)
{
	for (int waited = 0; waited < SETUP_WAIT_MS; waited++) {
		if (lock_byte(fd, F_SETLK, F_RDLCK, RS_SETUP_BYTE, 1) == 0) {
			lock_byte(fd, F_SETLK, F_UNLCK, RS_SETUP_BYTE, 1);
			return true;
		}
		usleep(1000);
	}
	return false;
}

/* Some other process is attached to (or reading from) the file. */
static bool file_in_use(int fd)
{
	return lock_byte(fd, F_GETLK, F_WRLCK, 0, 0) != 0;
}

bool rs_stamp_differs(uint32_t layout_version, uint32_t encoding_version, const char *build_id,
                      const rs_config *cfg, const char *made, char *err, size_t errlen)
{
	const char *ours = cfg->build_id ? cfg->build_id : "";
	if (layout_version != RS_LAYOUT_VERSION) {
		snprintf(err, errlen, "it was %s with store layout version %u, this build uses %u", made,
			(unsigned)layout_version, (unsigned)RS_LAYOUT_VERSION);
	} else if (encoding_version != cfg->encoding_version) {
		snprintf(err, errlen, "it was %s with value encoding version %u, this build uses %u", made,
			(unsigned)encoding_version, (unsigned)cfg->encoding_version);
	} else if (strncmp(build_id, ours, RS_BUILD_ID_MAX) != 0) {
		snprintf(err, errlen, "it was %s by another PHP build (\"%.*s\"; this one is \"%s\")", made,
			(int)strnlen(build_id, RS_BUILD_ID_MAX), build_id, ours);
	} else {
		return false;
	}
	return true;
}

/* Why this segment (its header's first n bytes, its file's stat) cannot be
 * attached by this build, in why; false when it can. */
static bool header_problem(const rs_header *h, size_t n, const struct stat *sb, const rs_config *cfg, bool *size_differs,
                           char *why, size_t whylen)
{
	if (n < offsetof(rs_header, header_size)) {
		snprintf(why, whylen, "its file is truncated");
		return true;
	}
	/* Another layout: nothing after the version is where this build looks. */
	if (h->layout_version != RS_LAYOUT_VERSION) {
		return rs_stamp_differs(h->layout_version, 0, "", cfg, "made", why, whylen);
	}
	if (n < sizeof(rs_header)) {
		snprintf(why, whylen, "its file is truncated");
		return true;
	}
	if (h->header_size != sizeof(rs_header) || h->header_sum != header_sum(h)) {
		snprintf(why, whylen, "its header is damaged (its checksum does not match)");
		return true;
	}
	if (rs_stamp_differs(h->layout_version, h->encoding_version, h->build_id, cfg, "made", why, whylen)) {
		return true;
	}
	/* The regions the header points at follow from its size, slot count and
	 * bucket count (a power of 2 its size allows). */
	seg_layout want;
	char ignored[128];
	rs_config geometry = { .size = h->total_size, .slots = h->nslots, .buckets = h->nbuckets };
	if (h->nslots == 0 || h->total_size % 4096 || plan_layout(&geometry, &want, ignored, sizeof(ignored)) != RS_OK
			|| want.size != h->total_size || want.pools_off != h->pools_off || want.slots_off != h->slots_off
			|| want.buckets_off != h->buckets_off || want.nbuckets != h->nbuckets || want.heap_off != h->heap_off
			|| want.heap_size != h->heap_size || h->eviction > RS_EVICT_NONE) {
		snprintf(why, whylen, "its header is damaged (its layout does not match its size)");
		return true;
	}
	if ((uint64_t)sb->st_size != h->total_size) {
		snprintf(why, whylen, "its file is truncated");
		return true;
	}
	*size_differs = RS_ALIGN_UP(cfg->size, 4096) != h->total_size;
	return false;
}

/* Creates and formats a new segment at path. RS_EXISTS: something is
 * there already. */
static rs_status create_named(rs_store *st, const char *path, const rs_config *cfg, const seg_layout *l,
                              char *err, size_t errlen)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		if (errno == EEXIST) {
			return RS_EXISTS;
		}
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
		return RS_ERROR;
	}
	lock_byte(fd, F_SETLK, F_WRLCK, RS_SETUP_BYTE, 1);
	uint64_t marker = RS_MAGIC_FORMATTING;
	void *mem = MAP_FAILED;
	/* 0600 whatever the umask took away: the attach check requires it. */
	if (fchmod(fd, 0600) != 0 || pwrite(fd, &marker, sizeof(marker), 0) != (ssize_t)sizeof(marker)) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
	} else if (ftruncate(fd, (off_t)l->size) != 0) {
		snprintf(err, errlen, "cannot size %s to %zu bytes: %s", path, l->size, strerror(errno));
	} else if ((mem = map_segment(l->size, fd, cfg->address, rs_fnv1a(RS_FNV_INIT, path, strlen(path)) % RS_SEGMENT_SPREAD)) == MAP_FAILED) {
		snprintf(err, errlen, "mmap of %s failed: %s", path, strerror(errno));
	}
	if (mem == MAP_FAILED) {
		unlink(path);
		close(fd);
		return RS_ERROR;
	}
	lock_byte(fd, F_SETLK, F_RDLCK, RS_ATTACH_BYTE, 1);
	format_segment(st, mem, fd, cfg, l);
	return RS_OK;
}

enum { FILE_SEGMENT, FILE_ABANDONED, FILE_FOREIGN, FILE_BUSY };

/* What the file at fd is: a segment (its header read into h, n bytes), one
 * whose creator died formatting it, or anything else. Waits while a creator
 * formats or fills it (FILE_BUSY after SETUP_WAIT_MS), and briefly for one
 * that has only just created it. */
static int read_header(int fd, rs_header *h, size_t *n)
{
	ssize_t got = 0;
	for (int waited = 0; waited < CREATE_WAIT_MS; waited += 10) {
		memset(h, 0, sizeof(*h));
		got = pread(fd, h, sizeof(*h), 0);
		if (got != 0) {
			break;
		}
		usleep(10000);
	}
	if (got < (ssize_t)sizeof(h->magic) || (h->magic != RS_MAGIC && h->magic != RS_MAGIC_FORMATTING)) {
		return FILE_FOREIGN;
	}
	if (!wait_for_setup(fd)) {
		return FILE_BUSY;
	}
	memset(h, 0, sizeof(*h));
	got = pread(fd, h, sizeof(*h), 0);
	*n = got > 0 ? (size_t)got : 0;
	return got >= (ssize_t)sizeof(h->magic) && h->magic == RS_MAGIC ? FILE_SEGMENT : FILE_ABANDONED;
}

rs_status rs_open_named(rs_store *st, const char *path, const rs_config *cfg, bool may_replace, bool *created,
                        char *err, size_t errlen)
{
	rs_handle_init(st);
	*created = false;
	seg_layout l;
	if (plan_layout(cfg, &l, err, errlen) != RS_OK) {
		return RS_ERROR;
	}
	for (int attempt = 0; attempt < 3; attempt++) {
		rs_status rc = create_named(st, path, cfg, &l, err, errlen);
		if (rc != RS_EXISTS) {
			*created = rc == RS_OK;
			return rc;
		}
		int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0) {
			if (errno == ENOENT) {
				continue;   /* replaced meanwhile */
			}
			if (errno == ELOOP) {
				snprintf(err, errlen, "cannot use %s: it is a symbolic link; " TRUSTED_FILE, path, (unsigned)geteuid());
			} else {
				snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
			}
			return RS_ERROR;
		}
		struct stat sb;
		if (fstat(fd, &sb) != 0) {
			snprintf(err, errlen, "cannot stat %s: %s", path, strerror(errno));
			close(fd);
			return RS_ERROR;
		}
		if (!S_ISREG(sb.st_mode) || sb.st_uid != geteuid() || (sb.st_mode & 077) != 0) {
			snprintf(err, errlen, "cannot use %s: it is %s owned by uid %u with mode %04o; " TRUSTED_FILE, path,
				S_ISREG(sb.st_mode) ? "a file" : "not a regular file", (unsigned)sb.st_uid, (unsigned)(sb.st_mode & 07777),
				(unsigned)geteuid());
			close(fd);
			return RS_ERROR;
		}
		rs_header h;
		size_t n = 0;
		int kind = read_header(fd, &h, &n);
		if (kind == FILE_FOREIGN) {
			snprintf(err, errlen, "cannot use %s: it is not a Resident segment (left as it is)", path);
			close(fd);
			return RS_ERROR;
		}
		if (kind == FILE_BUSY) {
			snprintf(err, errlen, "cannot attach to %s: the process creating it has not finished in %d s", path, SETUP_WAIT_MS / 1000);
			close(fd);
			return RS_ERROR;
		}
		/* Its size again, now that its creator has finished: the first stat
		 * may have been taken before the creator sized the file. */
		if (fstat(fd, &sb) != 0) {
			snprintf(err, errlen, "cannot stat %s: %s", path, strerror(errno));
			close(fd);
			return RS_ERROR;
		}
		char why[320];
		bool size_differs = false, problem = true;
		if (kind == FILE_ABANDONED) {
			snprintf(why, sizeof(why), "its creator died formatting it");
		} else {
			problem = header_problem(&h, n, &sb, cfg, &size_differs, why, sizeof(why));
		}
		bool in_use = file_in_use(fd);
		if ((problem || size_differs) && !in_use && may_replace) {
			/* A segment of ours nobody is attached to: replace it (a new
			 * build, a new size), if the name still stands for it. */
			struct stat now;
			if (lstat(path, &now) == 0 && now.st_dev == sb.st_dev && now.st_ino == sb.st_ino) {
				unlink(path);
			}
			close(fd);
			continue;
		}
		if (problem) {
			snprintf(err, errlen, "cannot use %s: %s%s", path, why, in_use ? ", and processes are still attached to it" : "");
			close(fd);
			return RS_ERROR;
		}
		void *want = (void *)(uintptr_t)h.base_address;
		void *mem = mmap(want, h.total_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED_NOREPLACE, fd, 0);
		if (mem != want) {
			if (mem != MAP_FAILED) {
				munmap(mem, h.total_size);
			}
			snprintf(err, errlen, "cannot map %s at its address %p in this process: %s", path, want,
				mem == MAP_FAILED ? strerror(errno) : "the kernel placed it elsewhere");
			close(fd);
			return RS_ERROR;
		}
		lock_byte(fd, F_SETLK, F_RDLCK, RS_ATTACH_BYTE, 1);
		st->hdr = mem;
		st->base = mem;
		st->lock_fd = fd;
		return RS_OK;
	}
	snprintf(err, errlen, "cannot create %s: it keeps being replaced", path);
	return RS_ERROR;
}

void rs_named_ready(rs_store *st)
{
	if (st->lock_fd >= 0) {
		lock_byte(st->lock_fd, F_SETLK, F_UNLCK, RS_SETUP_BYTE, 1);
	}
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

bool rs_contains(const rs_store *st, const void *p)
{
	return st->hdr && (const char *)p >= st->base && (uintptr_t)((const char *)p - st->base) < st->hdr->total_size;
}

uint64_t rs_mutation_epoch(const rs_store *st)
{
	return atomic_load_explicit(&st->hdr->mutation_epoch, memory_order_acquire);
}
