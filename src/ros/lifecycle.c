/* SPDX-License-Identifier: MIT */
/*
 * RequestOverStatic: where the engine and the module call in, and so when
 * everything else runs. The engine: a class is linked (restored now, or
 * once the compile that linked it returns), the compile hooks wrapped
 * around OPcache's, the attribute's validator. The module: request start
 * (preloaded classes) and end (publish), module start and end, a pool's
 * own list of classes. Apart so that restore.c and publish.c say what is
 * done, and this file when.
 *
 * What a request that has no units pays: the engine calls a class-linked
 * observer for every class a request links, and that call alone costs
 * more than the whole budget for a request that uses nothing of Resident
 * (issue 24). So where the process serves one request at a time and no
 * other extension observes class links, the observer is registered at the
 * first request and the engine's switch for it
 * (zend_observer_class_linked_observed, which OPcache also reads when it
 * copies a cached script's classes in) is on only while this request may
 * link a class with units:
 *  - always, when some script put the attribute on a trait's member (the
 *    shared flag ROS_SEEN_MEMBER: any class may then have units), or
 *    OPcache reads scripts from its file cache (no validator runs for them);
 *  - else the compile hooks look at the classes each compile declared
 *    (new entries of the class table; a few instructions each: the list's
 *    bitmaps, the class's attributes when ROS_SEEN_CLASS is set, the
 *    bitmap of classes with the attribute on a member): one
 *    already linked is handed to class_linked() there; one declared at
 *    run time (its runtime-definition key) turns the observer on until it
 *    is linked;
 *  - and the attribute's validator turns it on at once, as the class whose
 *    attribute it checks is linked after its attributes are compiled.
 * Elsewhere (threads of one process serving requests, or another observer)
 * the observer is registered at module start and stays on.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include "php.h"
#include "php_resident.h"
#include "internal.h"
#include "ros.h"
#include "runtime/class_list.h"
#include "runtime/sapi.h"
#include "value/closure.h"
#include "zend_attributes.h"
#include "zend_extensions.h"
#include "zend_observer.h"

static zend_op_array *(*orig_compile_file)(zend_file_handle *, int);
static zend_op_array *(*orig_compile_string)(zend_string *, const char *, zend_compile_position);

/* --- a class linked; the compile hooks ---------------------------------------------- */

static void drain_pending(void)
{
	HashTable *pending = RESIDENT_G(ros_pending);
	if (!pending || RESIDENT_G(ros_compiling) || CG(in_compilation)) {
		return;
	}
	/* Restoring can autoload, which links (and queues) more classes: they
	 * go to a new queue, drained when their own compile returns. */
	RESIDENT_G(ros_pending) = NULL;
	ros_class *rc;
	ZEND_HASH_FOREACH_PTR(pending, rc) {
		ros_restore_class(rc);
	} ZEND_HASH_FOREACH_END();
	zend_hash_destroy(pending);
	FREE_HASHTABLE(pending);
}

/* Whether this process may switch the observer per request; set once the
 * observer is registered (register_observer()). observed_by_us: what we
 * last set, to notice an observer registered after ours. */
static bool observer_switchable;
static bool observed_by_us;

/* ros_compile_asks: a compile must ask more than "nothing to do": it is
 * watched, or it looks at the shared flags again. Under php-fpm a flag
 * another worker raises is read at the next request; in a CLI process (one
 * request, whose forks may compile and raise it) by the next compile. */
static void set_watch(bool watch)
{
	RESIDENT_G(ros_watch) = watch;
	RESIDENT_G(ros_compile_asks) = watch || (RESIDENT_G(ros_active) && resident_sapi_is_cli_like());
}

static void set_observing(bool on)
{
	if (observer_switchable) {
		zend_observer_class_linked_observed = on;
		observed_by_us = on;
	} else {
		on = true;
	}
	RESIDENT_G(ros_observing) = on;
	set_watch(RESIDENT_G(ros_active) && (on || RESIDENT_G(ros_scan)));
}

static void memo_refresh(uint8_t seen);
static bool preload_awaited(void);

/* What this request must see of class links, from the shared flags (read
 * at request start, and again by a compile once a flag was raised since). */
static void choose_watch(uint8_t seen)
{
	bool always = !observer_switchable || ros_opcache_file_cache || (seen & ROS_SEEN_MEMBER) || preload_awaited();
	RESIDENT_G(ros_scan) = !always && (!resident_class_list_empty(&ros_listed_classes) || (seen & (ROS_SEEN_CLASS | ROS_SEEN_MEMBER_OF)));
	RESIDENT_G(ros_scan_attributes) = (seen & ROS_SEEN_CLASS) != 0;
	RESIDENT_G(ros_scan_members) = (seen & ROS_SEEN_MEMBER_OF) != 0;
	if (RESIDENT_G(ros_scan)) {
		memo_refresh(seen);
	}
	set_observing(always || (RESIDENT_G(ros_awaited) && zend_hash_num_elements(RESIDENT_G(ros_awaited))));
}

static void class_linked(zend_class_entry *ce, zend_string *name)
{
	if (!RESIDENT_G(ros_active)) {
		return;
	}
	HashTable *awaited = RESIDENT_G(ros_awaited);
	if (awaited && name && zend_hash_del(awaited, name) == SUCCESS && zend_hash_num_elements(awaited) == 0) {
		/* The last class declared at run time that may have units. */
		choose_watch(atomic_load(&ros_shared->attribute_seen));
	}
	if (CG(compiler_options) & ZEND_COMPILE_PRELOAD) {
		/* OPcache preloading: nothing may come from the cache into what
		 * becomes immutable. */
		RESIDENT_G(ros_preloading) = true;
		return;
	}
	HashTable *classes = RESIDENT_G(ros_classes);
	/* Class aliases notify the same class again. */
	if (classes && zend_hash_index_exists(classes, (zend_ulong)(uintptr_t)ce)) {
		return;
	}
	ros_class *rc = ros_units_of(ce);
	if (!rc) {
		return;
	}
	if (!classes) {
		ALLOC_HASHTABLE(classes);
		zend_hash_init(classes, 8, NULL, NULL, 0);
		RESIDENT_G(ros_classes) = classes;
	}
	zend_hash_index_add_new_ptr(classes, (zend_ulong)(uintptr_t)ce, rc);
	/* While a file is compiled or loaded from OPcache, the class table is
	 * half built: autoloading now could include the same file twice. */
	if (RESIDENT_G(ros_compiling) || CG(in_compilation)) {
		HashTable *pending = RESIDENT_G(ros_pending);
		if (!pending) {
			ALLOC_HASHTABLE(pending);
			zend_hash_init(pending, 8, NULL, NULL, 0);
			RESIDENT_G(ros_pending) = pending;
		}
		zend_hash_next_index_insert_ptr(pending, rc);
	} else {
		ros_restore_class(rc);
	}
}

/* A class a compile declared that may have units (listed, or the
 * attribute on it): linked already, or to be linked at run time (its key
 * is a runtime-definition key, "\0name..."), which the observer must see. */
static void declared(zend_string *key, zend_class_entry *ce)
{
	/* An anonymous class is linked without telling observers: it has
	 * never been restored. */
	if (ce->type != ZEND_USER_CLASS || (ce->ce_flags & ZEND_ACC_ANON_CLASS)) {
		return;
	}
	if (ZSTR_LEN(key) && ZSTR_VAL(key)[0] != '\0') {
		if (ce->ce_flags & ZEND_ACC_LINKED) {
			class_linked(ce, key);
		}
		return;
	}
	ros_class *rc = ros_units_of(ce);
	if (!rc) {
		return;
	}
	ros_class_free(rc);
	HashTable *awaited = RESIDENT_G(ros_awaited);
	if (!awaited) {
		ALLOC_HASHTABLE(awaited);
		zend_hash_init(awaited, 8, NULL, NULL, 0);
		RESIDENT_G(ros_awaited) = awaited;
	}
	zend_string *lc = zend_string_tolower(ce->name);
	zend_hash_add_empty_element(awaited, lc);
	zend_string_release(lc);
	set_observing(true);
}

/* The classes a compile added to the class table: those past where the
 * table ended before it (all of them if the table was compacted since).
 * True when one of them may have units. */
static bool scan_declared(uint32_t used_before, uint32_t count_before)
{
	HashTable *ct = EG(class_table);
	uint32_t from = ct->nNumUsed - used_before == ct->nNumOfElements - count_before ? used_before : 0;
	bool attributes = RESIDENT_G(ros_scan_attributes), members = RESIDENT_G(ros_scan_members), found = false;
	/* By index: restoring a class found (declared()) can autoload, and so
	 * grow the table under the loop. */
	for (uint32_t i = from; i < ct->nNumUsed; i++) {
		Bucket *p = ct->arData + i;
		if (UNEXPECTED(Z_TYPE(p->val) == IS_UNDEF) || !p->key) {
			continue;
		}
		zend_class_entry *ce = Z_PTR(p->val);
		if ((attributes && ce->attributes)
			|| resident_class_list_may_have(&ros_listed_classes, ZSTR_VAL(ce->name), ZSTR_LEN(ce->name))
			|| (members && ros_member_classes_may_have(ZSTR_VAL(ce->name), ZSTR_LEN(ce->name)))) {
			found = true;
			declared(p->key, ce);
		}
	}
	return found;
}

/* Scripts OPcache serves from its shared memory whose classes were found
 * to have no units, so that a request does not look at the same classes
 * again (a few hundred per request in an application: issue 24). A
 * script is known by its file name and its opcodes, both in OPcache's
 * memory and the same in every request until OPcache restarts; the memo
 * is forgotten when what the answer depends on changes (memo_stamp):
 * opcache_reset() or opcache_invalidate() in any process (the shared
 * page's count), this process's list of classes, or the shared flags.
 * Direct-mapped: a collision only costs a scan. Per process: the scan
 * runs only where the process serves one request at a time. */
#define SCAN_MEMO_BITS 11
#define SCAN_MEMO_SLOTS (1u << SCAN_MEMO_BITS)
typedef struct scan_memo_slot {
	zend_string *file;
	zend_op *opcodes;
} scan_memo_slot;
static scan_memo_slot *scan_memo;
static uint64_t scan_memo_stamp;
static uint32_t listed_version;

static uint64_t memo_stamp(uint8_t seen)
{
	return ((uint64_t)atomic_load(&ros_shared->deploys) << 40) ^ ((uint64_t)atomic_load(&ros_shared->member_classes_added) << 16)
		^ ((uint64_t)listed_version << 8) ^ seen;
}

static zend_always_inline scan_memo_slot *memo_slot(zend_op_array *op)
{
	uint64_t h = (uint64_t)(uintptr_t)op->opcodes * 0x9e3779b97f4a7c15ULL;
	return &scan_memo[h >> (64 - SCAN_MEMO_BITS)];
}

static void memo_refresh(uint8_t seen)
{
	uint64_t stamp = memo_stamp(seen);
	if (!scan_memo) {
		scan_memo = pecalloc(SCAN_MEMO_SLOTS, sizeof(scan_memo_slot), 1);
	} else if (stamp != scan_memo_stamp) {
		memset(scan_memo, 0, SCAN_MEMO_SLOTS * sizeof(scan_memo_slot));
	}
	scan_memo_stamp = stamp;
}

/* In OPcache's shared memory: its strings are interned for good. */
static zend_always_inline bool memo_may_hold(zend_op_array *op)
{
	return op && op->filename && (GC_FLAGS(op->filename) & IS_STR_PERMANENT) && scan_memo;
}

/* A compile of a request where the observer is off: what it declared is
 * looked at afterwards, unless the script is known to declare nothing with
 * units. No restore can be due while it runs (nothing observed), so it
 * needs no guard against a bailout. */
static zend_op_array *scanned_compile(zend_file_handle *file_handle, zend_string *source, const char *filename,
	zend_compile_position position, int type)
{
	HashTable *ct = EG(class_table);
	uint32_t used_before = ct->nNumUsed, count_before = ct->nNumOfElements;
	zend_op_array *op = file_handle ? orig_compile_file(file_handle, type) : orig_compile_string(source, filename, position);
	bool memo = memo_may_hold(op);
	if (memo) {
		scan_memo_slot *slot = memo_slot(op);
		if (slot->opcodes == op->opcodes && slot->file == op->filename) {
			memo = false;
			goto done;
		}
	}
	if (!scan_declared(used_before, count_before) && memo) {
		scan_memo_slot *slot = memo_slot(op);
		slot->file = op->filename;
		slot->opcodes = op->opcodes;
	}
done:
	if (UNEXPECTED(RESIDENT_G(ros_pending))) {
		drain_pending();
	}
	return op;
}

/* A compile of a request that observes class links. */
static zend_op_array *watched_compile(zend_file_handle *file_handle, zend_string *source, const char *filename,
	zend_compile_position position, int type)
{
	if (file_handle && (CG(compiler_options) & ZEND_COMPILE_PRELOAD)) {
		/* OPcache's preloading, which links classes without telling
		 * observers: the preloaded classes are looked for afterwards. */
		RESIDENT_G(ros_preloading) = true;
	}
	/* While a file is compiled or loaded from OPcache, the class table is
	 * half built: classes linked meanwhile are restored once it returns. */
	RESIDENT_G(ros_compiling)++;
	zend_op_array *op;
	zend_try {
		op = file_handle ? orig_compile_file(file_handle, type) : orig_compile_string(source, filename, position);
	} zend_catch {
		RESIDENT_G(ros_compiling)--;
		zend_bailout();
	} zend_end_try();
	RESIDENT_G(ros_compiling)--;
	drain_pending();
	return op;
}

/* Whether this compile must be watched: the request may link classes with
 * units, or (see set_watch()) a flag was raised since it started (another
 * process compiled a script with the attribute, which this one may load
 * from OPcache). About 10 instructions when not: they are paid for every
 * file a request compiles or loads. */
static zend_always_inline bool compile_watched(void)
{
	if (EXPECTED(!RESIDENT_G(ros_compile_asks))) {
		return false;
	}
	if (!RESIDENT_G(ros_watch)) {
		if (!atomic_load_explicit(&ros_shared->attribute_seen, memory_order_relaxed)) {
			return false;
		}
		choose_watch(atomic_load(&ros_shared->attribute_seen));
	}
	return RESIDENT_G(ros_watch);
}

static zend_op_array *compile_file_as_asked(zend_file_handle *file_handle, int type)
{
	if (EXPECTED(!compile_watched())) {
		zend_op_array *op = orig_compile_file(file_handle, type);
		if (UNEXPECTED(RESIDENT_G(ros_pending))) {
			/* The attribute's validator turned the observer on during it. */
			drain_pending();
		}
		return op;
	}
	if (!RESIDENT_G(ros_observing)) {
		return scanned_compile(file_handle, NULL, NULL, 0, type);
	}
	return watched_compile(file_handle, NULL, NULL, 0, type);
}

static zend_op_array *ros_compile_file(zend_file_handle *file_handle, int type)
{
	zend_op_array *op = compile_file_as_asked(file_handle, type);
	if (op && UNEXPECTED(op->num_dynamic_func_defs)) {
		/* Closures stored later in the request are found from it. */
		rv_closure_note_script(RV_CTX, op);
	}
	return op;
}

static zend_op_array *ros_compile_string(zend_string *source, const char *filename, zend_compile_position position)
{
	if (EXPECTED(!compile_watched())) {
		zend_op_array *op = orig_compile_string(source, filename, position);
		if (UNEXPECTED(RESIDENT_G(ros_pending))) {
			drain_pending();
		}
		return op;
	}
	if (!RESIDENT_G(ros_observing)) {
		return scanned_compile(NULL, source, filename, position, 0);
	}
	return watched_compile(NULL, source, filename, position, 0);
}

/* --- request lifecycle ---------------------------------------------------------------- */

static pthread_once_t hooks_once = PTHREAD_ONCE_INIT;
static bool observer_at_first_request;
static pthread_mutex_t preloaded_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool preloaded_known;
static zend_class_entry **preloaded;   /* preloaded classes with units */
static uint32_t npreloaded;
/* OPcache runs with opcache.preload set, and preloading has not been seen
 * yet. Preloading runs in a request of its own (in php-fpm's master),
 * which RequestOverStatic sees begin as any other: that request must be
 * watched, for only a watched compile or the observer can tell that it
 * preloads (ZEND_COMPILE_PRELOAD is set only while it does), and the
 * preloaded classes are then looked for at the next request. */
static bool preload_configured;
static atomic_bool preload_done;

static bool preload_awaited(void)
{
	return preload_configured && !atomic_load_explicit(&preload_done, memory_order_relaxed);
}

/* OPcache installs its compile hook after every MINIT; ours goes outside
 * it, so that a cache hit, which links classes without ever calling the
 * original compiler, is still seen returning. */
static void install_hooks(void)
{
	const char *file_cache = zend_ini_string("opcache.file_cache", sizeof("opcache.file_cache") - 1, 0);
	ros_opcache_file_cache = file_cache && *file_cache;
	/* OPcache started (its compile hook in place), not only loaded. */
	bool opcache_started = zend_get_extension("Zend OPcache") && zend_compile_file != compile_file;
	ros_deploy_settings(opcache_started);
	const char *preload = zend_ini_string("opcache.preload", sizeof("opcache.preload") - 1, 0);
	preload_configured = opcache_started && preload && *preload;
	orig_compile_file = zend_compile_file;
	zend_compile_file = ros_compile_file;
	orig_compile_string = zend_compile_string;
	zend_compile_string = ros_compile_string;
	if (observer_at_first_request) {
		/* Registered now, after every extension's MINIT: if the engine's
		 * switch is still off, no other extension observes class links,
		 * and it is ours to turn on and off. */
		observer_switchable = !zend_observer_class_linked_observed;
		zend_observer_class_linked_register(class_linked);
		observed_by_us = true;
	}
}

static void preloaded_file_dtor(zval *zv)
{
	zend_string_release(Z_PTR_P(zv));
}

static void remember_preloaded_files(void)
{
	HashTable *files = pemalloc(sizeof(HashTable), 1);
	zend_hash_init(files, 8, NULL, preloaded_file_dtor, 1);
	for (uint32_t i = 0; i < npreloaded; i++) {
		zend_string *file = preloaded[i]->info.user.filename;
		if (file && !zend_hash_str_exists(files, ZSTR_VAL(file), ZSTR_LEN(file))) {
			zend_hash_str_add_new_ptr(files, ZSTR_VAL(file), ZSTR_LEN(file), ros_stat_identity(file, true));
		}
	}
	ros_preloaded_files = files;
}

/* Preloaded classes are linked before any request and never again: they
 * are found in the class table once, at the first request after
 * preloading (which itself runs as a request, in php-fpm's master). */
static void find_preloaded(void)
{
	pthread_mutex_lock(&preloaded_lock);
	if (!atomic_load(&preloaded_known)) {
		npreloaded = 0;
		zend_class_entry *ce;
		ZEND_HASH_MAP_FOREACH_PTR(EG(class_table), ce) {
			if (ce->type == ZEND_USER_CLASS && (ce->ce_flags & ZEND_ACC_PRELOADED)) {
				/* Preloading happened, in this process or before it forked. */
				atomic_store(&preload_done, true);
				ros_class *rc = ros_units_of(ce);
				if (rc) {
					ros_class_free(rc);
					preloaded = perealloc(preloaded, (npreloaded + 1) * sizeof(*preloaded), 1);
					preloaded[npreloaded++] = ce;
				}
			}
		} ZEND_HASH_FOREACH_END();
		if (npreloaded && !ros_preloaded_files) {
			remember_preloaded_files();
		}
		atomic_store(&preloaded_known, true);
	}
	pthread_mutex_unlock(&preloaded_lock);
}

void ros_request_start(bool active)
{
	/* The compile hooks note the scripts that declare closures, and the
	 * deploy hooks count what closure records must match (ros/code.c),
	 * whether or not statics are kept. */
	pthread_once(&hooks_once, install_hooks);
	ros_deploy_hooks();
	RESIDENT_G(ros_active) = active;
	RESIDENT_G(ros_restore_ns) = 0;
	RESIDENT_G(ros_restore_depth) = 0;
	RESIDENT_G(ros_compiling) = 0;
	RESIDENT_G(ros_preloading) = false;
	RESIDENT_G(ros_scan) = false;
	if (!active) {
		if (observer_switchable) {
			set_observing(false);
		}
		set_watch(false);
		return;
	}
	if (observer_switchable && zend_observer_class_linked_observed != observed_by_us) {
		/* Another extension registered an observer since: it stays on. */
		observer_switchable = false;
	}
	choose_watch(atomic_load(&ros_shared->attribute_seen));
	if (!atomic_load(&preloaded_known)) {
		find_preloaded();
	}
	for (uint32_t i = 0; i < npreloaded; i++) {
		class_linked(preloaded[i], preloaded[i]->name);
	}
}

/* A fatal error, an uncaught exception or a timeout may have left the
 * statics half updated. */
bool ros_request_ok(void)
{
	if (CG(unclean_shutdown) || zend_atomic_bool_load(&EG(timed_out)) || EG(exception)) {
		return false;
	}
	return !(PG(last_error_message) && (PG(last_error_type) & (E_ERROR | E_CORE_ERROR | E_COMPILE_ERROR | E_USER_ERROR | E_PARSE)));
}

void ros_request_end(void)
{
	/* Request end publishes what is left: nothing more is watched. */
	if (UNEXPECTED(RESIDENT_G(ros_immediate) != NULL)) {
		ros_immediate_request_end();
	}
	if (RESIDENT_G(ros_pending)) {
		zend_hash_destroy(RESIDENT_G(ros_pending));
		FREE_HASHTABLE(RESIDENT_G(ros_pending));
		RESIDENT_G(ros_pending) = NULL;
	}
	HashTable *classes = RESIDENT_G(ros_classes);
	if (classes) {
		bool publish = RESIDENT_G(ros_active) && !RESIDENT_G(ros_preloading) && ros_request_ok();
		resident_cache_obj pool;
		if (publish && !ros_pool_handle(&pool)) {
			publish = false;
		}
		ros_class *rc;
		ZEND_HASH_FOREACH_PTR(classes, rc) {
			for (uint32_t i = 0; publish && i < rc->nunits; i++) {
				ros_publish_unit(&pool, &rc->units[i], false);
			}
			ros_class_free(rc);
		} ZEND_HASH_FOREACH_END();
		zend_hash_destroy(classes);
		FREE_HASHTABLE(classes);
		RESIDENT_G(ros_classes) = NULL;
	}
	if (RESIDENT_G(ros_files)) {
		zend_hash_destroy(RESIDENT_G(ros_files));
		FREE_HASHTABLE(RESIDENT_G(ros_files));
		RESIDENT_G(ros_files) = NULL;
	}
	if (RESIDENT_G(ros_awaited)) {
		zend_hash_destroy(RESIDENT_G(ros_awaited));
		FREE_HASHTABLE(RESIDENT_G(ros_awaited));
		RESIDENT_G(ros_awaited) = NULL;
	}
	if (RESIDENT_G(ros_preloading)) {
		atomic_store(&preload_done, true);
		atomic_store(&preloaded_known, false);
		RESIDENT_G(ros_preloading) = false;
	}
	RESIDENT_G(ros_active) = false;
	set_watch(false);
}

/* --- attribute validation --------------------------------------------------------- */

/* The property whose attributes hold this attribute. */
static zend_property_info *attribute_property(zend_class_entry *scope, zend_attribute *attr)
{
	zend_property_info *info;
	ZEND_HASH_MAP_FOREACH_PTR(&scope->properties_info, info) {
		zend_attribute *a;
		if (info->ce != scope || !info->attributes) {
			continue;
		}
		ZEND_HASH_PACKED_FOREACH_PTR(info->attributes, a) {
			if (a == attr) {
				return info;
			}
		} ZEND_HASH_FOREACH_END();
	} ZEND_HASH_FOREACH_END();
	return NULL;
}

#if PHP_VERSION_ID >= 80500
/* PHP 8.5 (php-src #18817): validators return their error instead of raising it. */
# define ROS_INVALID(...) return zend_strpprintf(0, __VA_ARGS__)
# define ROS_VALID return NULL
static zend_string *validate(zend_attribute *attr, uint32_t target, zend_class_entry *scope)
#else
# define ROS_INVALID(...) zend_error_noreturn(E_COMPILE_ERROR, __VA_ARGS__)
# define ROS_VALID return
static void validate(zend_attribute *attr, uint32_t target, zend_class_entry *scope)
#endif
{
	/* The class is linked once this compile is done with it: a request
	 * that did not expect units must see it linked. */
	if (target == ZEND_ATTRIBUTE_TARGET_CLASS) {
		atomic_fetch_or(&ros_shared->attribute_seen, ROS_SEEN_CLASS);
	} else if (scope->ce_flags & ZEND_ACC_TRAIT) {
		/* Its methods become those of classes of any name. */
		atomic_fetch_or(&ros_shared->attribute_seen, ROS_SEEN_MEMBER);
	} else {
		uint32_t f = resident_class_fingerprint(ZSTR_VAL(scope->name), ZSTR_LEN(scope->name));
		uint64_t bit = 1ULL << (f & 63);
		if (!(atomic_fetch_or(&ros_shared->member_classes[f >> 6], bit) & bit)) {
			atomic_fetch_add(&ros_shared->member_classes_added, 1);
		}
		atomic_fetch_or(&ros_shared->attribute_seen, ROS_SEEN_MEMBER_OF);
	}
	if (RESIDENT_G(ros_active) && !RESIDENT_G(ros_observing)) {
		set_observing(true);
	}
	zend_string *wrong = ros_attribute_arguments_error(attr, target);
	if (wrong) {
		zend_property_info *info = target == ZEND_ATTRIBUTE_TARGET_PROPERTY ? attribute_property(scope, attr) : NULL;
		zend_op_array *op = target == ZEND_ATTRIBUTE_TARGET_METHOD ? CG(active_op_array) : NULL;
		zend_string *where = info ? zend_strpprintf(0, "%s::$%s", ZSTR_VAL(scope->name), zend_get_unmangled_property_name(info->name))
			: op && op->function_name ? zend_strpprintf(0, "%s::%s()", ZSTR_VAL(scope->name), ZSTR_VAL(op->function_name))
			: zend_string_copy(scope->name);
		char message[512];
		snprintf(message, sizeof(message), "#[Resident\\RequestOverStatic] on %s: %s", ZSTR_VAL(where), ZSTR_VAL(wrong));
		zend_string_release(where);
		zend_string_release(wrong);
		ROS_INVALID("%s", message);
	}
	if (target == ZEND_ATTRIBUTE_TARGET_CLASS) {
		if (scope->ce_flags & (ZEND_ACC_INTERFACE | ZEND_ACC_TRAIT)) {
			ROS_INVALID("#[Resident\\RequestOverStatic] cannot be applied to %s %s: it holds no static state of its own",
				(scope->ce_flags & ZEND_ACC_TRAIT) ? "trait" : "interface", ZSTR_VAL(scope->name));
		}
		ROS_VALID;
	}
	if (target == ZEND_ATTRIBUTE_TARGET_METHOD) {
		zend_op_array *op = CG(active_op_array);
		if (op && (op->fn_flags & ZEND_ACC_ABSTRACT)) {
			ROS_INVALID("#[Resident\\RequestOverStatic] cannot be applied to abstract method %s::%s(): it has no static variables",
				ZSTR_VAL(scope->name), ZSTR_VAL(op->function_name));
		}
		ROS_VALID;
	}
	zend_property_info *info = attribute_property(scope, attr);
	if (info && !(info->flags & ZEND_ACC_STATIC)) {
		ROS_INVALID("#[Resident\\RequestOverStatic] cannot be applied to non-static property %s::$%s: only static state is kept across requests",
			ZSTR_VAL(scope->name), zend_get_unmangled_property_name(info->name));
	}
	ROS_VALID;
}

/* --- module lifecycle -------------------------------------------------------------- */

/* The page when no shared one can be made: every linked class's members
 * are looked at (and so every class link observed). */
static ros_shared_page own_page = { .attribute_seen = ROS_SEEN_MEMBER | ROS_SEEN_CLASS };

void ros_module_start(zend_class_entry *attribute_ce, const char *listed, bool observe, bool immediate)
{
	if (immediate) {
		ros_immediate_module_start();
	}
	zend_internal_attribute *attr = zend_internal_attribute_register(attribute_ce,
		ZEND_ATTRIBUTE_TARGET_CLASS | ZEND_ATTRIBUTE_TARGET_PROPERTY | ZEND_ATTRIBUTE_TARGET_METHOD);
	attr->validator = validate;
	void *page = mmap(NULL, sizeof(ros_shared_page), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (page != MAP_FAILED) {
		ros_shared = page;
		atomic_init(&ros_shared->attribute_seen, 0);
		atomic_init(&ros_shared->deploys, 0);
		atomic_init(&ros_shared->resets, 0);
		atomic_init(&ros_shared->member_classes_added, 0);
		for (uint32_t i = 0; i < sizeof(ros_shared->member_classes) / sizeof(ros_shared->member_classes[0]); i++) {
			atomic_init(&ros_shared->member_classes[i], 0);
		}
		for (uint32_t i = 0; i < ROS_INVALIDATION_SLOTS; i++) {
			atomic_init(&ros_shared->invalidations[i], 0);
		}
	} else {
		ros_shared = &own_page;
	}
	/* Snapshots trusted without a stat() belong to this OPcache only. */
	if (getrandom(&ros_shared->boot, sizeof(ros_shared->boot), GRND_NONBLOCK) != sizeof(ros_shared->boot)) {
		ros_shared->boot = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	}
	ros_attribute_lcname = zend_string_init_interned("resident\\requestoverstatic", sizeof("resident\\requestoverstatic") - 1, 1);
	resident_class_list_parse(&ros_listed_classes, listed);
	if (observe && !resident_sapi_one_worker_per_process()) {
		/* Threads of one process serve requests: the engine's switch is
		 * process-wide, and the observer list must not change while one
		 * of them walks it. Registered now, and on for good. */
		zend_observer_class_linked_register(class_linked);
	} else {
		observer_at_first_request = observe;
	}
}

bool ros_listed_classes_are(const char *listed)
{
	return resident_class_list_is(&ros_listed_classes, listed);
}

void ros_listed_classes_update(const char *listed)
{
	if (!resident_class_list_update(&ros_listed_classes, listed)) {
		return;
	}
	listed_version++;
	/* Which preloaded classes have units depends on the list. */
	pthread_mutex_lock(&preloaded_lock);
	if (preloaded) {
		pefree(preloaded, 1);
		preloaded = NULL;
	}
	npreloaded = 0;
	atomic_store(&preloaded_known, false);
	pthread_mutex_unlock(&preloaded_lock);
}

void ros_module_end(void)
{
	ros_immediate_module_end();
	resident_class_list_free(&ros_listed_classes);
	if (ros_shared && ros_shared != &own_page) {
		munmap(ros_shared, sizeof(ros_shared_page));
	}
	ros_shared = NULL;
	if (orig_compile_file && zend_compile_file == ros_compile_file) {
		zend_compile_file = orig_compile_file;
		zend_compile_string = orig_compile_string;
	}
	if (preloaded) {
		pefree(preloaded, 1);
		preloaded = NULL;
		npreloaded = 0;
	}
	if (scan_memo) {
		pefree(scan_memo, 1);
		scan_memo = NULL;
	}
	if (ros_preloaded_files) {
		zend_hash_destroy(ros_preloaded_files);
		pefree(ros_preloaded_files, 1);
		ros_preloaded_files = NULL;
	}
}
