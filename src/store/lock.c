/* SPDX-License-Identifier: MIT */
/*
 * The single writer lock: a robust, process-shared pthread mutex. When its
 * holder dies (SIGKILL, segfault), the next locker gets EOWNERDEAD instead of
 * hanging forever (APCu's classic failure), rebuilds every derived structure
 * from what readers can see (rs_recover), and marks the mutex consistent.
 * The same mutex excludes threads, so it serves ZTS builds as well.
 */
#include "internal.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void rs_lock_init(rs_header *hdr)
{
	pthread_mutexattr_t attr;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&hdr->lock, &attr);
	pthread_mutexattr_destroy(&attr);
}

void rs_lock(rs_store *st)
{
	rs_header *h = st->hdr;
	int rc = pthread_mutex_trylock(&h->lock);
	if (rc == EBUSY) {
		atomic_fetch_add_explicit(&h->lock_waits, 1, memory_order_relaxed);
		rc = pthread_mutex_lock(&h->lock);
	}
	if (rc == EOWNERDEAD) {
		/* The previous holder died mid-operation. Every change it could
		 * have made is a single store that leaves reader-visible state
		 * valid, so rebuilding the rest makes the segment whole again. If
		 * we die here too, the next locker gets EOWNERDEAD and redoes it. */
		rs_recover(st);
		h->recoveries++;
		pthread_mutex_consistent(&h->lock);
		rc = 0;
	}
	if (rc != 0) {
		/* ENOTRECOVERABLE cannot happen (we always mark consistent);
		 * anything else is memory corruption. Continuing would be worse. */
		fprintf(stderr, "resident: cannot take the segment lock: error %d\n", rc);
		abort();
	}
	st->locked = true;
}

void rs_unlock(rs_store *st)
{
	/* Writes drive the scan for expired entries, a few buckets each. */
	rs_expire_step(st, 0);
	st->locked = false;
	pthread_mutex_unlock(&st->hdr->lock);
}

void rs_crash_point_hit(rs_store *st, int point)
{
	if (st->crash_point == point) {
		st->crash_point = RS_CRASH_NONE;
		raise(SIGKILL);
	}
}

void rs_test_set_crash_point(rs_store *st, int point)
{
	st->crash_point = point;
	if (point == RS_CRASH_HOLDING_LOCK) {
		rs_lock(st);
		rs_crash_point(st, RS_CRASH_HOLDING_LOCK);
	}
}
