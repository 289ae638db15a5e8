/* SPDX-License-Identifier: MIT */
/*
 * RequestOverStatic: where the engine and the module call in, and so when
 * everything else runs. The engine: a class is linked (restored now, or
 * once the compile that linked it returns), the compile hooks wrapped
 * around OPcache's, the attribute's validator. The module: request start
 * (preloaded classes) and end (publish), module start and end, a pool's
 * own list of classes. Apart so that restore.c and publish.c say what is
 * done, and this file when.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include "php.h"
#include "php_resident.h"
#include "internal.h"
#include "ros.h"
#include "runtime/class_list.h"
#include "zend_attributes.h"
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

static void class_linked(zend_class_entry *ce, zend_string *name)
{
	if (!RESIDENT_G(ros_active)) {
		return;
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

static zend_op_array *ros_compile_file(zend_file_handle *file_handle, int type)
{
	if (!RESIDENT_G(ros_active)) {
		return orig_compile_file(file_handle, type);
	}
	if (CG(compiler_options) & ZEND_COMPILE_PRELOAD) {
		/* OPcache's preloading, which links classes without telling
		 * observers: the preloaded classes are looked for afterwards. */
		RESIDENT_G(ros_preloading) = true;
	}
	RESIDENT_G(ros_compiling)++;
	zend_op_array *op;
	zend_try {
		op = orig_compile_file(file_handle, type);
	} zend_catch {
		RESIDENT_G(ros_compiling)--;
		zend_bailout();
	} zend_end_try();
	RESIDENT_G(ros_compiling)--;
	drain_pending();
	return op;
}

static zend_op_array *ros_compile_string(zend_string *source, const char *filename, zend_compile_position position)
{
	if (!RESIDENT_G(ros_active)) {
		return orig_compile_string(source, filename, position);
	}
	RESIDENT_G(ros_compiling)++;
	zend_op_array *op;
	zend_try {
		op = orig_compile_string(source, filename, position);
	} zend_catch {
		RESIDENT_G(ros_compiling)--;
		zend_bailout();
	} zend_end_try();
	RESIDENT_G(ros_compiling)--;
	drain_pending();
	return op;
}

/* --- request lifecycle ---------------------------------------------------------------- */

static pthread_once_t hooks_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t preloaded_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool preloaded_known;
static zend_class_entry **preloaded;   /* preloaded classes with units */
static uint32_t npreloaded;

/* OPcache installs its compile hook after every MINIT; ours goes outside
 * it, so that a cache hit, which links classes without ever calling the
 * original compiler, is still seen returning. */
static void install_hooks(void)
{
	const char *file_cache = zend_ini_string("opcache.file_cache", sizeof("opcache.file_cache") - 1, 0);
	ros_opcache_file_cache = file_cache && *file_cache;
	orig_compile_file = zend_compile_file;
	zend_compile_file = ros_compile_file;
	orig_compile_string = zend_compile_string;
	zend_compile_string = ros_compile_string;
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
	RESIDENT_G(ros_active) = active;
	RESIDENT_G(ros_restore_ns) = 0;
	RESIDENT_G(ros_restore_depth) = 0;
	RESIDENT_G(ros_compiling) = 0;
	RESIDENT_G(ros_preloading) = false;
	if (!active) {
		return;
	}
	pthread_once(&hooks_once, install_hooks);
	if (!atomic_load(&preloaded_known)) {
		find_preloaded();
	}
	for (uint32_t i = 0; i < npreloaded; i++) {
		class_linked(preloaded[i], preloaded[i]->name);
	}
}

/* A fatal error, an uncaught exception or a timeout may have left the
 * statics half updated. */
static bool request_ended_cleanly(void)
{
	if (CG(unclean_shutdown) || zend_atomic_bool_load(&EG(timed_out)) || EG(exception)) {
		return false;
	}
	return !(PG(last_error_message) && (PG(last_error_type) & (E_ERROR | E_CORE_ERROR | E_COMPILE_ERROR | E_USER_ERROR | E_PARSE)));
}

void ros_request_end(void)
{
	if (RESIDENT_G(ros_pending)) {
		zend_hash_destroy(RESIDENT_G(ros_pending));
		FREE_HASHTABLE(RESIDENT_G(ros_pending));
		RESIDENT_G(ros_pending) = NULL;
	}
	HashTable *classes = RESIDENT_G(ros_classes);
	if (classes) {
		bool publish = RESIDENT_G(ros_active) && !RESIDENT_G(ros_preloading) && request_ended_cleanly();
		resident_cache_obj pool;
		if (publish && !ros_pool_handle(&pool)) {
			publish = false;
		}
		ros_class *rc;
		ZEND_HASH_FOREACH_PTR(classes, rc) {
			for (uint32_t i = 0; publish && i < rc->nunits; i++) {
				ros_publish_unit(&pool, &rc->units[i]);
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
	if (RESIDENT_G(ros_preloading)) {
		atomic_store(&preloaded_known, false);
		RESIDENT_G(ros_preloading) = false;
	}
	RESIDENT_G(ros_active) = false;
}

/* --- attribute validation --------------------------------------------------------- */

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
	if (target == ZEND_ATTRIBUTE_TARGET_CLASS) {
		if (scope->ce_flags & (ZEND_ACC_INTERFACE | ZEND_ACC_TRAIT)) {
			ROS_INVALID("#[Resident\\RequestOverStatic] cannot be applied to %s %s: it holds no static state of its own",
				(scope->ce_flags & ZEND_ACC_TRAIT) ? "trait" : "interface", ZSTR_VAL(scope->name));
		}
		ROS_VALID;
	}
	/* A property or a method: linked classes' members must be looked at. */
	atomic_store(ros_member_attribute_seen, true);
	if (target == ZEND_ATTRIBUTE_TARGET_METHOD) {
		zend_op_array *op = CG(active_op_array);
		if (op && (op->fn_flags & ZEND_ACC_ABSTRACT)) {
			ROS_INVALID("#[Resident\\RequestOverStatic] cannot be applied to abstract method %s::%s(): it has no static variables",
				ZSTR_VAL(scope->name), ZSTR_VAL(op->function_name));
		}
		ROS_VALID;
	}
	/* A property: the one whose attributes hold this attribute. */
	zend_property_info *info;
	ZEND_HASH_MAP_FOREACH_PTR(&scope->properties_info, info) {
		zend_attribute *a;
		if (info->ce != scope || !info->attributes) {
			continue;
		}
		ZEND_HASH_PACKED_FOREACH_PTR(info->attributes, a) {
			if (a == attr && !(info->flags & ZEND_ACC_STATIC)) {
				ROS_INVALID("#[Resident\\RequestOverStatic] cannot be applied to non-static property %s::$%s: only static state is kept across requests",
					ZSTR_VAL(scope->name), zend_get_unmangled_property_name(info->name));
			}
		} ZEND_HASH_FOREACH_END();
	} ZEND_HASH_FOREACH_END();
	ROS_VALID;
}

/* --- module lifecycle -------------------------------------------------------------- */

/* The flag when no shared page can be made: every linked class's members
 * are looked at. */
static atomic_bool member_attribute_assumed = true;

void ros_module_start(zend_class_entry *attribute_ce, const char *listed, bool observe)
{
	zend_internal_attribute *attr = zend_internal_attribute_register(attribute_ce,
		ZEND_ATTRIBUTE_TARGET_CLASS | ZEND_ATTRIBUTE_TARGET_PROPERTY | ZEND_ATTRIBUTE_TARGET_METHOD);
	attr->validator = validate;
	void *page = mmap(NULL, sizeof(atomic_bool), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (page != MAP_FAILED) {
		ros_member_attribute_seen = page;
		atomic_init(ros_member_attribute_seen, false);
	} else {
		ros_member_attribute_seen = &member_attribute_assumed;
	}
	ros_attribute_lcname = zend_string_init_interned("resident\\requestoverstatic", sizeof("resident\\requestoverstatic") - 1, 1);
	resident_class_list_parse(&ros_listed_classes, listed);
	if (observe) {
		zend_observer_class_linked_register(class_linked);
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
	resident_class_list_free(&ros_listed_classes);
	if (ros_member_attribute_seen && ros_member_attribute_seen != &member_attribute_assumed) {
		munmap(ros_member_attribute_seen, sizeof(atomic_bool));
	}
	ros_member_attribute_seen = NULL;
	if (orig_compile_file && zend_compile_file == ros_compile_file) {
		zend_compile_file = orig_compile_file;
		zend_compile_string = orig_compile_string;
	}
	if (preloaded) {
		pefree(preloaded, 1);
		preloaded = NULL;
		npreloaded = 0;
	}
	if (ros_preloaded_files) {
		zend_hash_destroy(ros_preloaded_files);
		pefree(ros_preloaded_files, 1);
		ros_preloaded_files = NULL;
	}
}
