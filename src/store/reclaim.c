/* SPDX-License-Identifier: MIT */
/*
 * Epoch-based reclamation (HHVM's "treadmill", for processes).
 *
 * The segment has a global epoch E. Each reader process (or thread) owns a
 * slot holding the epoch it entered its read section at, 0 when quiescent.
 * A writer that unlinks an entry puts it on the limbo FIFO tagged with E and
 * bumps E. An entry in limbo is freed once every non-zero slot is newer than
 * its tag: nobody who could have seen it is still reading.
 *
 * Why that is enough: a reader publishes its slot (seq_cst) before reading
 * the index; a writer unlinks (seq_cst) before scanning the slots. Either the
 * writer sees the reader's slot, whose epoch is <= the tag, and waits; or the
 * reader's index read comes after the unlink and cannot find the entry.
 *
 * Dead readers: a slot owner holds an fcntl lock on byte <slot> of a memfd
 * shared by every process of the segment. The kernel drops it when the
 * process dies, so a writer can tell a dead slot from a live one without
 * trusting pids (which get reused).
 */
#include "internal.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <signal.h>
#include <unistd.h>

int32_t rs_cached_pid;

static void refresh_pid(void)
{
	rs_cached_pid = (int32_t)getpid();
}

int32_t rs_process_id(void)
{
	if (rs_cached_pid == 0) {
		rs_pid_init();
	}
	return rs_cached_pid;
}

void rs_pid_init(void)
{
	static bool registered = false;
	refresh_pid();
	if (!registered) {
		pthread_atfork(NULL, NULL, refresh_pid);
		registered = true;
	}
}

uint64_t rs_now_ms(void)
{
	/* The coarse clock is read from memory the kernel updates every tick;
	 * the precise one can cost as much as a whole store on a VM. A TTL may
	 * end a tick (a few ms) late. */
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void rs_slots_init(rs_store *st)
{
	memset(rs_slots(st), 0, sizeof(rs_slot) * st->hdr->nslots);
}

static int slot_lock_op(rs_store *st, uint32_t i, int cmd, short type)
{
	struct flock fl;
	memset(&fl, 0, sizeof(fl));
	fl.l_type = type;
	fl.l_whence = SEEK_SET;
	fl.l_start = i;
	fl.l_len = 1;
	int rc = fcntl(st->lock_fd, cmd, &fl);
	if (rc == 0 && cmd == F_GETLK) {
		return fl.l_type == F_UNLCK ? 0 : 1;
	}
	return rc;
}

/* Dead: owned by another process that no longer holds the slot's lock.
 * Slots of our own pid belong to live threads of this process. */
bool rs_slot_dead(rs_store *st, uint32_t i)
{
	rs_slot *s = &rs_slots(st)[i];
	int32_t pid = atomic_load(&s->pid);
	if (pid == 0 || (pid == rs_pid() && !atomic_load(&s->handover))) {
		return false;
	}
	if (slot_lock_op(st, i, F_GETLK, F_WRLCK) != 0) {
		return false;
	}
	/* A slot being handed to a forked child has no lock holder yet; it is
	 * dead only once its claimant is gone. */
	if (atomic_load(&s->handover)) {
		return kill(pid, 0) == -1 && errno == ESRCH;
	}
	return true;
}

/* Under the write lock. */
static void clear_slot(rs_store *st, uint32_t i)
{
	rs_slot *s = &rs_slots(st)[i];
	rs_off res = atomic_load(&s->reservation);
	if (res) {
		/* An entry the dead process reserved but never published. */
		rs_free(st, res);
		atomic_store(&s->reservation, 0);
	}
	atomic_store(&s->epoch, 0);
	atomic_store(&s->handover, 0);
	atomic_store(&s->pid, 0);
	st->hdr->dead_slots++;
}

void rs_clear_dead_slots(rs_store *st)
{
	uint32_t hw = atomic_load(&st->hdr->slots_hw);
	for (uint32_t i = 0; i < hw; i++) {
		if (rs_slot_dead(st, i)) {
			clear_slot(st, i);
		}
	}
}

static void note_slot_used(rs_store *st, uint32_t i)
{
	uint32_t hw = atomic_load(&st->hdr->slots_hw);
	while (hw < i + 1 && !atomic_compare_exchange_weak(&st->hdr->slots_hw, &hw, i + 1)) {
	}
}

static rs_status acquire_slot(rs_store *st)
{
	int32_t me = rs_pid();
	if (st->slot >= 0 && st->slot_pid == me) {
		return RS_OK;
	}
	st->slot = -1;
	st->read_depth = 0;
	for (int attempt = 0; attempt < 2; attempt++) {
		for (uint32_t i = 0; i < st->hdr->nslots; i++) {
			rs_slot *s = &rs_slots(st)[i];
			if (atomic_load_explicit(&s->pid, memory_order_relaxed) != 0) {
				continue;
			}
			/* Lock first, then claim: a claimed slot is always locked, so
			 * a writer never mistakes a live owner for a dead one. */
			if (slot_lock_op(st, i, F_SETLK, F_WRLCK) != 0) {
				continue;
			}
			int32_t expected = 0;
			if (atomic_compare_exchange_strong(&s->pid, &expected, me)) {
				note_slot_used(st, i);
				atomic_fetch_add(&s->claims, 1);
				atomic_store(&s->epoch, 0);
				st->slot = (int32_t)i;
				st->slot_pid = me;
				return RS_OK;
			}
			/* Taken meanwhile; under ZTS another thread of ours may own
			 * the byte lock now, so only drop it if the slot is not ours. */
			if (expected != me) {
				slot_lock_op(st, i, F_SETLK, F_UNLCK);
			}
		}
		if (attempt == 0) {
			rs_lock(st);
			rs_clear_dead_slots(st);
			rs_unlock(st);
		}
	}
	return RS_NO_SLOT;
}

void rs_slot_release(rs_store *st)
{
	if (st->slot < 0 || st->slot_pid != rs_pid()) {
		st->slot = -1;
		return;
	}
	rs_slot *s = &rs_slots(st)[st->slot];
	atomic_store(&s->epoch, 0);
	/* The byte lock stays: fcntl locks belong to the process, not the
	 * thread, so unlocking could pull it from under another thread of ours
	 * that claims this slot right after. The process keeps it until it
	 * exits; only its own threads can reuse the slot meanwhile. */
	atomic_store(&s->pid, 0);
	st->slot = -1;
	st->read_depth = 0;
}

/* Claims a free slot for `owner` without its byte lock. */
static int32_t claim_handover_slot(rs_store *st, int32_t owner, uint64_t epoch)
{
	for (uint32_t i = 0; i < st->hdr->nslots; i++) {
		rs_slot *s = &rs_slots(st)[i];
		int32_t expected = 0;
		if (atomic_load_explicit(&s->pid, memory_order_relaxed) == 0
				&& atomic_compare_exchange_strong(&s->pid, &expected, owner)) {
			note_slot_used(st, i);
			atomic_store(&s->handover, 1);
			atomic_store(&s->epoch, epoch);
			return (int32_t)i;
		}
	}
	return -1;
}

void rs_fork_prepare(rs_store *st)
{
	st->fork_slot = -1;
	if (st->hdr && rs_in_read(st) && st->slot >= 0) {
		uint64_t epoch = atomic_load(&rs_slots(st)[st->slot].epoch);
		st->fork_slot = claim_handover_slot(st, rs_pid(), epoch);
		st->forked_in_read = st->fork_slot >= 0;
	}
}

void rs_fork_child(rs_store *st)
{
	if (!st->hdr) {
		return;
	}
	int32_t i = st->fork_slot;
	st->fork_slot = -1;
	if (i < 0) {
		rs_after_fork(st);
		return;
	}
	rs_slot *s = &rs_slots(st)[i];
	int32_t me = rs_pid();
	int32_t parent = getppid();
	st->forked_in_read = false;
	slot_lock_op(st, (uint32_t)i, F_SETLK, F_WRLCK);
	if (!atomic_compare_exchange_strong(&s->pid, &parent, me)) {
		/* The parent gave the slot up already (it cannot tell a slow child
		 * from a failed fork); what we inherited is no longer protected. */
		slot_lock_op(st, (uint32_t)i, F_SETLK, F_UNLCK);
		rs_after_fork(st);
		return;
	}
	atomic_fetch_add(&s->claims, 1);
	atomic_store(&s->handover, 0);
	st->slot = i;
	st->slot_pid = me;
	/* read_depth stays: the child is inside the read section it inherited. */
}

uint64_t rs_owner_id(rs_store *st)
{
	if (st->slot_pid != rs_pid()) {
		rs_after_fork(st);
	}
	if (st->slot < 0 && st->read_depth == 0) {
		/* Taking a slot is what a read section does first. */
		rs_read_begin(st);
		rs_read_end(st);
	}
	if (st->slot < 0 || st->slot >= 0xffff) {
		return 0;
	}
	uint32_t claims = atomic_load(&rs_slots(st)[st->slot].claims);
	return ((uint64_t)st->slot + 1) << 24 | (claims & 0xffffff);
}

bool rs_owner_alive(rs_store *st, uint64_t owner)
{
	uint64_t slot = (owner >> 24) - 1;
	if (owner >> 24 == 0 || slot >= st->hdr->nslots) {
		return false;
	}
	rs_slot *s = &rs_slots(st)[slot];
	return atomic_load(&s->pid) != 0 && (atomic_load(&s->claims) & 0xffffff) == (owner & 0xffffff)
		&& !rs_slot_dead(st, (uint32_t)slot);
}

/* The parent leaves its read section: a slot it prepared for a child that
 * never took it over (fork failed) must not pin limbo. */
static void drop_unclaimed_handover(rs_store *st)
{
	int32_t me = rs_pid();
	uint32_t hw = atomic_load(&st->hdr->slots_hw);
	for (uint32_t i = 0; i < hw; i++) {
		rs_slot *s = &rs_slots(st)[i];
		int32_t expected = me;
		if (atomic_load_explicit(&s->handover, memory_order_relaxed)
				&& atomic_compare_exchange_strong(&s->pid, &expected, me)) {
			atomic_store(&s->epoch, 0);
			atomic_store(&s->handover, 0);
			atomic_store(&s->pid, 0);
		}
	}
}

void rs_after_fork(rs_store *st)
{
	/* The child inherited our memory, not our slot's fcntl lock. */
	st->slot = -1;
	st->slot_pid = rs_pid();
	st->read_depth = 0;
	st->forked_in_read = false;
	/* The parent's lock and reservation stay the parent's. */
	st->locked = false;
	st->open_reservation = 0;
	memset(st->pending_hits, 0, sizeof(st->pending_hits));
	memset(st->pending_misses, 0, sizeof(st->pending_misses));
	st->pending_pools = 0;
	st->pending_ops = 0;
}

rs_status rs_read_begin(rs_store *st)
{
	if (st->slot_pid != rs_pid()) {
		rs_after_fork(st);
	}
	if (st->read_depth > 0) {
		st->read_depth++;
		return RS_OK;
	}
	rs_status rc = acquire_slot(st);
	if (rc != RS_OK) {
		/* No slot: read under the write lock instead, briefly. */
		rs_lock(st);
		st->read_depth = 1;
		return RS_NO_SLOT;
	}
	rs_slot *s = &rs_slots(st)[st->slot];
	uint64_t e = atomic_load_explicit(&st->hdr->epoch, memory_order_acquire);
	atomic_store_explicit(&s->epoch, e, memory_order_relaxed);
	/* Pairs with the fence in rs_reclaim: either the writer sees our slot,
	 * or we see its unlink. */
	atomic_thread_fence(memory_order_seq_cst);
	st->read_depth = 1;
	return RS_OK;
}

void rs_read_end(rs_store *st)
{
	if (st->read_depth == 0 || --st->read_depth > 0) {
		return;
	}
	if (st->slot < 0 || st->slot_pid != rs_pid()) {
		rs_unlock(st);
		return;
	}
	atomic_store_explicit(&rs_slots(st)[st->slot].epoch, 0, memory_order_release);
	if (st->forked_in_read) {
		st->forked_in_read = false;
		drop_unclaimed_handover(st);
	}
}

bool rs_read_locked(const rs_store *st)
{
	return st->read_depth > 0 && (st->slot < 0 || st->slot_pid != rs_pid());
}

bool rs_in_read(const rs_store *st)
{
	return st->read_depth > 0 && st->slot_pid == rs_pid();
}

/* Under the write lock. */
void rs_limbo_push(rs_store *st, rs_entry *e)
{
	rs_header *h = st->hdr;
	rs_off off = RS_OFF(st, e);
	e->state = RS_ENTRY_LIMBO;
	/* Only the lock holder changes the epoch. A reader that loads the new
	 * value (acquire) also sees the unlink that came before it (release),
	 * so it cannot find this entry; one that loaded the old value is at or
	 * below the tag and holds the entry until it leaves. */
	uint64_t tag = atomic_load_explicit(&h->epoch, memory_order_relaxed);
	atomic_store_explicit(&h->epoch, tag + 1, memory_order_release);
	e->limbo_tag = tag;
	e->limbo_next = 0;
	if (h->limbo_tail) {
		rs_entry_at(st, h->limbo_tail)->limbo_next = off;
	} else {
		h->limbo_head = off;
	}
	h->limbo_tail = off;
	/* Written under the lock only; readers just glance at it. */
	atomic_store_explicit(&h->limbo_bytes, atomic_load_explicit(&h->limbo_bytes, memory_order_relaxed) + rs_block_size(&e->block), memory_order_relaxed);
	h->limbo_entries++;
}

/* Under the write lock. */
size_t rs_reclaim(rs_store *st)
{
	rs_header *h = st->hdr;
	if (!h->limbo_head) {
		return 0;
	}
	atomic_thread_fence(memory_order_seq_cst);
	uint64_t oldest_tag = rs_entry_at(st, h->limbo_head)->limbo_tag;
	uint64_t min_active = UINT64_MAX;
	uint32_t hw = atomic_load(&h->slots_hw);
	for (uint32_t i = 0; i < hw; i++) {
		rs_slot *s = &rs_slots(st)[i];
		if (atomic_load_explicit(&s->pid, memory_order_relaxed) == 0) {
			continue;
		}
		uint64_t e = atomic_load(&s->epoch);
		if (e == 0) {
			/* Killed while writing a value outside the lock: its
			 * reservation would stay allocated until memory ran short. */
			if (atomic_load_explicit(&s->reservation, memory_order_relaxed) && rs_slot_dead(st, i)) {
				clear_slot(st, i);
			}
			continue;
		}
		if (e <= oldest_tag && rs_slot_dead(st, i)) {
			clear_slot(st, i);
			continue;
		}
		if (e < min_active) {
			min_active = e;
		}
	}
	size_t freed = 0;
	while (h->limbo_head) {
		rs_entry *e = rs_entry_at(st, h->limbo_head);
		if (e->limbo_tag >= min_active) {
			break;
		}
		rs_off off = h->limbo_head;
		h->limbo_head = e->limbo_next;
		if (!h->limbo_head) {
			h->limbo_tail = 0;
		}
		uint64_t size = rs_block_size(&e->block);
		atomic_store_explicit(&h->limbo_bytes, atomic_load_explicit(&h->limbo_bytes, memory_order_relaxed) - size, memory_order_relaxed);
		h->limbo_entries--;
		freed += size;
		rs_free(st, off);
	}
	return freed;
}

bool rs_limbo_over_cap(const rs_store *st)
{
	const rs_header *h = st->hdr;
	uint64_t cap = h->heap_size / 100 * h->limbo_cap_percent;
	return atomic_load_explicit(&((rs_header *)h)->limbo_bytes, memory_order_relaxed) > cap;
}
