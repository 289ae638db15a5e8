/* SPDX-License-Identifier: MIT */
/*
 * The APIs of the two php-src proposals for the same idea, so code written
 * for either runs unchanged:
 *
 *   - the OPcache user-cache branch's functions OPcache\cache_*() and
 *     OPcache\user_cache_info(), thin wrappers over Resident\Cache's
 *     "default" pool (each forwards to the method of the same meaning, so
 *     checks and errors are Resident's own);
 *   - ext-user_cache's classes UserCache\Cache, CacheStatus,
 *     CachePoolStatus and CacheAvailability, registered here from their
 *     stub and implemented in usercache*.c.
 *
 * Nothing is registered under a name something else (a future PHP with
 * ext-user_cache) already defines.
 */
#include "php.h"
#include "php_resident.h"
#include "runtime/segment.h"
#include "api.h"
#include "zend_enum.h"
#include "compat_arginfo.h"

/* Calls Resident\Cache::<method> on `cache` with this call's arguments. */
static void forward(zval *cache, const char *method, zend_execute_data *execute_data, zval *return_value)
{
	zend_function *fn = zend_hash_str_find_ptr_lc(&resident_cache_ce->function_table, method, strlen(method));
	ZEND_ASSERT(fn);
	zend_call_known_instance_method(fn, Z_OBJ_P(cache), return_value, ZEND_NUM_ARGS(), ZEND_CALL_ARG(execute_data, 1));
}

static void forward_default(const char *method, zend_execute_data *execute_data, zval *return_value)
{
	zval cache;
	zend_string *name = zend_string_init("default", sizeof("default") - 1, 0);
	zend_result rc = resident_cache_for_pool(&cache, name);
	zend_string_release(name);
	if (rc == SUCCESS) {
		forward(&cache, method, execute_data, return_value);
		zval_ptr_dtor(&cache);
	}
}

/* --- OPcache\cache_* ------------------------------------------------------ */

ZEND_FUNCTION(OPcache_cache_store) { forward_default("store", execute_data, return_value); }
ZEND_FUNCTION(OPcache_cache_store_array) { forward_default("storeMultiple", execute_data, return_value); }
ZEND_FUNCTION(OPcache_cache_fetch) { forward_default("fetch", execute_data, return_value); }
ZEND_FUNCTION(OPcache_cache_delete) { forward_default("delete", execute_data, return_value); }
ZEND_FUNCTION(OPcache_cache_delete_array) { forward_default("deleteMultiple", execute_data, return_value); }
ZEND_FUNCTION(OPcache_cache_clear) { forward_default("clear", execute_data, return_value); }
ZEND_FUNCTION(OPcache_cache_atomic_increment) { forward_default("increment", execute_data, return_value); }
ZEND_FUNCTION(OPcache_cache_atomic_decrement) { forward_default("decrement", execute_data, return_value); }

ZEND_FUNCTION(OPcache_user_cache_info)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_call_known_function(zend_hash_str_find_ptr(&resident_cache_ce->function_table, "status", sizeof("status") - 1),
		NULL, resident_cache_ce, return_value, 0, NULL, NULL);
}

/* --- registration --------------------------------------------------------------- */

static bool class_free(const char *lcname)
{
	return !zend_hash_str_exists(CG(class_table), lcname, strlen(lcname));
}

void resident_compat_register(void)
{
	if (class_free("usercache\\cache") && class_free("usercache\\cachestatus") && class_free("usercache\\cachepoolstatus")
		&& class_free("usercache\\cacheavailability")) {
		zend_class_entry *availability = register_class_UserCache_CacheAvailability();
		zend_class_entry *status = register_class_UserCache_CacheStatus();
		zend_class_entry *pool_status = register_class_UserCache_CachePoolStatus();
		resident_user_cache_status_setup(status, pool_status, availability);
		resident_user_cache_setup(register_class_UserCache_Cache());
	}
	for (const zend_function_entry *f = ext_functions; f->fname; f++) {
		char *lc = zend_str_tolower_dup(f->fname, strlen(f->fname));
		bool taken = zend_hash_str_exists(CG(function_table), lc, strlen(lc));
		efree(lc);
		if (taken) {
			return;
		}
	}
	/* They stay until the engine destroys its function table at shutdown:
	 * unregistering them ourselves would free them twice under ZTS, where
	 * each thread's table shares the global table's functions. */
	zend_register_functions(NULL, ext_functions, NULL, MODULE_PERSISTENT);
}
