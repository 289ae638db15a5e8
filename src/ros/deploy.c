/* SPDX-License-Identifier: MIT */
/*
 * RequestOverStatic and deploys. OPcache learns of changed code in one of
 * two ways: it stat()s a script's file (opcache.validate_timestamps=1), or
 * it is told, by opcache_reset() or opcache_invalidate(), and else keeps
 * running the code it has. A snapshot must go when its class's code does,
 * and learn of it the same way (units.c, ros_file_identity()):
 *  - when OPcache stat()s, a snapshot is checked against its class file's
 *    path, mtime and size;
 *  - when it does not (validate_timestamps=0, OPcache on: ros_trust_opcache),
 *    against the path only, as OPcache does, and nothing is stat()ed;
 *  - either way, opcache_reset() and opcache_invalidate() are wrapped here:
 *    opcache_reset() drops every snapshot (the hidden pool only: explicit
 *    cache entries stay), and both change what the snapshots of the files
 *    they name must match (the counts of the shared page, which every
 *    worker of the master sees): a snapshot of an invalidated file is
 *    dropped when a request next finds it, and one that a request running
 *    the old code publishes after the call carries the old counts and
 *    never matches.
 */
#include "php.h"
#include "php_resident.h"
#include "internal.h"
#include "ros.h"
#include "SAPI.h"

bool ros_trust_opcache;

static zif_handler orig_opcache_reset;
static zif_handler orig_opcache_invalidate;

static zend_always_inline uint32_t file_slot(zend_string *file)
{
	return (uint32_t)(zend_string_hash_val(file) & (ROS_INVALIDATION_SLOTS - 1));
}

void ros_file_generation(zend_string *file, uint32_t *resets, uint32_t *invalidations)
{
	*resets = atomic_load(&ros_shared->resets);
	*invalidations = atomic_load(&ros_shared->invalidations[file_slot(file)]);
}

static ZEND_NAMED_FUNCTION(ros_opcache_reset)
{
	orig_opcache_reset(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (Z_TYPE_P(return_value) != IS_TRUE) {
		return;
	}
	atomic_fetch_add(&ros_shared->resets, 1);
	atomic_fetch_add(&ros_shared->deploys, 1);
	ros_forget(NULL);
}

static ZEND_NAMED_FUNCTION(ros_opcache_invalidate)
{
	orig_opcache_invalidate(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	/* False: OPcache did not have the file, or kept it (not forced, and
	 * unchanged): its snapshots still match its code. */
	if (Z_TYPE_P(return_value) != IS_TRUE || ZEND_NUM_ARGS() < 1) {
		return;
	}
	zval *arg = ZEND_CALL_ARG(execute_data, 1);
	ZVAL_DEREF(arg);
	if (Z_TYPE_P(arg) != IS_STRING) {
		return;
	}
	/* The path a class records is the resolved one, as OPcache's key. */
	zend_string *resolved = zend_resolve_path(Z_STR_P(arg));
	zend_string *file = resolved ? resolved : zend_string_copy(Z_STR_P(arg));
	atomic_fetch_add(&ros_shared->invalidations[file_slot(file)], 1);
	atomic_fetch_add(&ros_shared->deploys, 1);
	zend_string_release(file);
}

uint32_t ros_deploy_count(void)
{
	return atomic_load(&ros_shared->deploys);
}

bool ros_opcache_trusted(void)
{
	return ros_trust_opcache;
}

static void wrap(const char *name, size_t len, zif_handler *orig, zif_handler ours)
{
	zend_function *fn = zend_hash_str_find_ptr(CG(function_table), name, len);
	if (!fn || fn->type != ZEND_INTERNAL_FUNCTION || fn->internal_function.handler == ours) {
		return;
	}
	if (!*orig) {
		*orig = fn->internal_function.handler;
	}
	fn->internal_function.handler = ours;
}

/* OPcache registers its functions after every MINIT: they are wrapped at
 * the first request of each thread (a thread-safe PHP copies the function
 * table into each thread), before any script can call them. */
void ros_deploy_hooks(void)
{
	if (RESIDENT_G(ros_opcache_wrapped)) {
		return;
	}
	RESIDENT_G(ros_opcache_wrapped) = true;
	wrap("opcache_reset", sizeof("opcache_reset") - 1, &orig_opcache_reset, ros_opcache_reset);
	wrap("opcache_invalidate", sizeof("opcache_invalidate") - 1, &orig_opcache_invalidate, ros_opcache_invalidate);
}

bool ros_opcache_enabled(void)
{
	bool cli = sapi_module.name && (strcmp(sapi_module.name, "cli") == 0 || strcmp(sapi_module.name, "phpdbg") == 0);
	return zend_ini_long("opcache.enable", sizeof("opcache.enable") - 1, 0)
		&& (!cli || zend_ini_long("opcache.enable_cli", sizeof("opcache.enable_cli") - 1, 0));
}

/* Read once, with the compile hooks (lifecycle.c): OPcache's settings are
 * PHP_INI_SYSTEM but for opcache.enable, which a script may only turn off
 * (and then OPcache serves nothing: no snapshot outlives the code it ran). */
void ros_deploy_settings(bool opcache_running)
{
	ros_trust_opcache = opcache_running && ros_opcache_enabled()
		&& !zend_ini_long("opcache.validate_timestamps", sizeof("opcache.validate_timestamps") - 1, 0)
		&& !zend_ini_long("opcache.file_cache_only", sizeof("opcache.file_cache_only") - 1, 0);
}
