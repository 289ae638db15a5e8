/* SPDX-License-Identifier: MIT */
#ifndef PHP_RESIDENT_H
#define PHP_RESIDENT_H

#include "php.h"
#include "store/store.h"
#include "value/context.h"

#define PHP_RESIDENT_VERSION "0.1.0"

extern zend_module_entry resident_module_entry;
#define phpext_resident_ptr &resident_module_entry

ZEND_BEGIN_MODULE_GLOBALS(resident)
	/* ini */
	bool enable;
	bool enable_cli;
	char *memory;
	const char *memory_setting; /* the ini name memory came from: resident.memory, or its alias user_cache.shm_size */
	zend_long eviction_policy;  /* resident.eviction_policy: an rs_eviction */
	zend_long lock_lease_max;   /* resident.lock_lease_max: seconds, 0 = no bound */
	zend_long entries_hint;     /* resident.entries_hint: entries expected, sizes the index; 0 = by memory */
	const char *entries_hint_setting; /* the ini name it came from: resident.entries_hint, or user_cache.entries_hint */
	char *segment;              /* resident.segment: "" = anonymous, else a name or a path */
	char *restore_on_start;     /* a dump to load into a segment this process creates */
	char *zero_copy;
	bool testing;
	bool check_borrowed;         /* resident.check_borrowed (src/cache/borrowed.c) */
	bool lazy_objects;           /* resident.lazy_objects: fetch() restores objects lazily where it borrows (src/cache/read.c) */
	/* Handle on the segment: per process (NTS) or per thread (ZTS). */
	rs_store store;
	/* This request borrows values (zero-copy) rather than copying them. */
	bool borrow_mode;
	/* Inside the request-long read section that borrowed values need. */
	bool borrowing;
	/* Fetches decoding and stores planning or writing, under way: PHP code
	 * they run (__wakeup(), __serialize(), autoloaders) must not end the
	 * request for what they read (src/cache/quiescent.c). */
	uint32_t cache_calls;
	/* This process (thread) called Resident\Cache::endOfRequest(): it says
	 * where its requests end, so zero_copy=auto borrows (runtime/sapi.c). */
	bool quiescent_points;
	char *direct_classes;
	bool request_over_static;
	char *request_over_static_classes;
	bool request_over_static_immediate;
	/* RequestOverStatic (src/ros/), per request */
	bool ros_active;             /* this request restores and publishes statics */
	HashTable *kept_checked;     /* api/keep.c: "pool:key" -> when its files were last stat()ed (persistent) */
	uint32_t ros_compiling;      /* depth of compile_file/compile_string calls */
	uint64_t ros_restore_ns;     /* time this request spent restoring statics */
	uint32_t ros_restore_depth;  /* restores running (one can autoload and start another) */
	bool ros_preloading;         /* this request is OPcache's preloading */
	HashTable *ros_classes;      /* class entry -> its units, classes linked this request */
	HashTable *ros_pending;      /* units linked while compiling, restored after */
	HashTable *ros_files;        /* class file -> identity (stat), this request */
	bool ros_watch;              /* the compile hooks look at what a compile declares (see lifecycle.c) */
	bool ros_compile_asks;       /* ... or at least at the shared flags */
	bool ros_observing;          /* the class-linked observer is on for this request */
	bool ros_scan;               /* classes a compile declares are looked at for units */
	bool ros_scan_attributes;    /* ... also for the attribute on the class */
	bool ros_scan_members;       /* ... also for the attribute on a member (by name, see ros/units.c) */
	bool ros_opcache_wrapped;    /* opcache_reset() and opcache_invalidate() wrapped in this thread's function table */
	HashTable *ros_awaited;      /* lowercase names of classes with units declared at run time, not linked yet */
	HashTable *ros_immediate;    /* units published before each built-in call (ros/immediate.c), this request */
	bool ros_polling;            /* ros/immediate.c is comparing or publishing them */
	struct remember_frame *remember_frames; /* remember() computes running in this request, innermost first */
	HashTable *lookups[RS_MAX_POOLS]; /* interned key -> entry found this request (src/cache/read.c), per pool */
	uint32_t quiet_stores;      /* > 0: a store that fails for lack of room warns nothing (src/cache/write.c) */
	struct user_cache_request *user_cache; /* UserCache\Cache's pools and locks of this request (src/api/usercache*.c) */
	/* The segment's ids of UserCache's values and locks pools, plus one (0:
	 * not known yet): a hint, checked at the first use in each request
	 * (src/api/usercache.c). */
	uint16_t uc_values_pool;
	uint16_t uc_locks_pool;
	/* Both hints checked in this request, and the values pool guarded by
	 * the locks pool: open_pool() takes them as they are. */
	bool uc_pools_checked;
	/* The store's key of UserCache\Cache::fetch(), reused while nothing
	 * else holds it (src/api/usercache.c), and the bytes it has room for. */
	zend_string *uc_fetch_key;
	size_t uc_fetch_key_room;
	uint64_t lookups_epoch;
	uint64_t lookups_pools;      /* a bit per pool whose lookups[] is set */
	/* What the value layer keeps (value/context.h): the module holds it,
	 * every call into the value layer is handed it (RV_CTX). */
	rv_context value;
ZEND_END_MODULE_GLOBALS(resident)

ZEND_EXTERN_MODULE_GLOBALS(resident)
#define RESIDENT_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(resident, v)
/* The calling thread's value context, the first argument of value calls. */
#define RV_CTX (&RESIDENT_G(value))

#if defined(ZTS) && defined(COMPILE_DL_RESIDENT)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

/* Milliseconds since the epoch, the store's clock. */
static inline int64_t resident_now_ms(void) { return (int64_t)rs_now_ms(); }

/* The hidden pool of RequestOverStatic snapshots (src/ros/pool.c). */
#define RESIDENT_ROS_POOL "\x01statics"

/* A pool's name as metrics(), inspect() and warnings show it: Resident's own
 * pools (named with a leading control character, which user names cannot
 * hold) in parentheses, "(statics)". out: at least RS_POOL_NAME_MAX + 3. */
static inline void resident_pool_display_name(const char *name, char *out, size_t len)
{
	if ((unsigned char)name[0] < 0x20) {
		snprintf(out, len, "(%s)", name + 1);
	} else {
		snprintf(out, len, "%s", name);
	}
}

#endif
