/* SPDX-License-Identifier: MIT */
/*
 * A long-running worker's quiescent point (Resident\Cache::endOfRequest()):
 * what the end of a request does for a request that borrowed, in a process
 * whose requests never end for PHP. Its read section ends, so that what it
 * pinned in limbo can be reclaimed, the lookup memo and the value layer's
 * per-request tables go, its statistics are added to the segment's.
 *
 * The contract is the caller's: nothing fetched before the call is used
 * after it. With resident.check_borrowed, garbage cycles are collected,
 * then what PHP still references of the segment is found and copied
 * (borrowed.c), with a warning, so a
 * breach reads the process's own copy instead of reclaimed memory; what
 * cannot be copied keeps the section open.
 */
#include "php.h"
#include "zend_fibers.h"
#include "php_resident.h"
#include "cache.h"
#include "runtime/sapi.h"
#include "runtime/segment.h"
#include "value/value.h"

bool resident_end_of_request(void)
{
	/* From the first call on, zero_copy=auto borrows in this process: it
	 * says where its requests end. */
	resident_sapi_note_quiescent_points();
	RESIDENT_G(borrow_mode) = resident_request_borrows();
	rs_store *st = resident_store();
	if (!st) {
		return true;
	}
	bool borrowing = RESIDENT_G(borrowing);
	if (RESIDENT_G(cache_calls) || st->locked || st->open_reservation || st->read_depth > (borrowing ? 1u : 0u)) {
		php_error_docref(NULL, E_WARNING, "Cannot end the request while a value is being read or stored "
			"(called from a hook a fetch or a store runs: __wakeup(), __serialize(), an autoloader); nothing was released");
		return false;
	}
	if (RV_CTX->lazy_graphs) {
		/* What fetch() restored lazily before the process's first call
		 * (resident.lazy_objects) is made whole, as an eager fetch would
		 * have made it; what filling runs cannot end the request. */
		zend_result rc = FAILURE;
		RESIDENT_G(cache_calls)++;
		zend_try {
			rc = rv_lazy_release_fetched(RV_CTX);
		} zend_catch {
			RESIDENT_G(cache_calls)--;
			zend_bailout();
		} zend_end_try();
		RESIDENT_G(cache_calls)--;
		if (rc == FAILURE) {
			return false;
		}
	}
	if (RV_CTX->lazy_graphs) {
		php_error_docref(NULL, E_WARNING, "Objects restored lazily in this request (Resident\\Testing::fetchLazily(), "
			"RequestOverStatic before the first endOfRequest()) still read the segment; nothing was released");
		return false;
	}
	if (borrowing && RESIDENT_G(check_borrowed)) {
		if (EG(active_fiber)) {
			/* The frames outside the Fiber cannot be walked from inside. */
			php_error_docref(NULL, E_WARNING, "With resident.check_borrowed=1, endOfRequest() must be called outside any Fiber; nothing was released");
			return false;
		}
		/* Garbage the collector has not reached yet (cycles: object
		 * graphs) would count as still referenced; a request's end would
		 * have destroyed it. Destructors may run here, as at a request's
		 * end. */
		zend_gc_collect_cycles();
		resident_borrowed_report r;
		resident_borrowed_rescue(st, &r);
		if (r.stuck) {
			php_error_docref(NULL, E_WARNING, "%u value%s fetched before endOfRequest() %s still referenced where no copy can replace %s "
				"(the first: %s); nothing was released. Values fetched before endOfRequest() must not be used after it",
				r.stuck + r.copied, r.stuck + r.copied == 1 ? "" : "s", r.stuck + r.copied == 1 ? "is" : "are",
				r.stuck + r.copied == 1 ? "it" : "them", r.first);
			return false;
		}
		if (r.copied) {
			php_error_docref(NULL, E_WARNING, "%u value%s fetched before endOfRequest() %s still referenced (the first: %s) "
				"and %s copied into this process's memory (resident.check_borrowed). Values fetched before endOfRequest() must not be used after it",
				r.copied, r.copied == 1 ? "" : "s", r.copied == 1 ? "was" : "were", r.first, r.copied == 1 ? "was" : "were");
		}
	}
	if (borrowing) {
		rs_unwind(st, 0);
		RESIDENT_G(borrowing) = false;
	}
	resident_cache_request_end();
	rv_context_request_end(RV_CTX);
	if (st->pending_ops) {
		rs_stats_flush(st);
	}
	return true;
}
