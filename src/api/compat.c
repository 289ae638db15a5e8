/* SPDX-License-Identifier: MIT */
/*
 * The APIs of the two php-src proposals for the same idea, as thin wrappers
 * over Resident\Cache, so code written for either runs unchanged:
 *
 *   - the OPcache user-cache branch's functions OPcache\cache_*() and
 *     OPcache\user_cache_info(), on Resident's "default" pool;
 *   - ext-user_cache's UserCache\Cache (one Resident pool per scope),
 *     UserCache\Cache::getStatus() and the UserCache\Availability enum.
 *
 * Each call forwards to the Resident\Cache method of the same meaning, so
 * checks and errors are Resident's own. Nothing is registered under a name
 * something else (a future PHP with ext-user_cache) already defines.
 */
#include "php.h"
#include "php_resident.h"
#include "runtime/segment.h"
#include "api.h"
#include "zend_enum.h"
#include "compat_arginfo.h"

static zend_class_entry *user_cache_ce, *status_ce, *availability_ce;
static zend_object_handlers user_cache_handlers;

typedef struct user_cache_obj {
	zval inner;          /* the Resident\Cache of this scope */
	zend_object std;
} user_cache_obj;

static inline user_cache_obj *user_cache_from(zend_object *obj)
{
	return (user_cache_obj *)((char *)obj - XtOffsetOf(user_cache_obj, std));
}

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

/* --- UserCache\Cache ----------------------------------------------------------- */

static zend_object *user_cache_create(zend_class_entry *ce)
{
	user_cache_obj *u = zend_object_alloc(sizeof(user_cache_obj), ce);
	zend_object_std_init(&u->std, ce);
	ZVAL_UNDEF(&u->inner);
	u->std.handlers = &user_cache_handlers;
	return &u->std;
}

static void user_cache_free(zend_object *obj)
{
	zval_ptr_dtor(&user_cache_from(obj)->inner);
	zend_object_std_dtor(obj);
}

static zend_result user_cache_open(zend_object *obj, zend_string *scope)
{
	user_cache_obj *u = user_cache_from(obj);
	zval_ptr_dtor(&u->inner);
	ZVAL_UNDEF(&u->inner);
	return resident_cache_for_pool(&u->inner, scope);
}

#define THIS_INNER() (&user_cache_from(Z_OBJ_P(ZEND_THIS))->inner)

ZEND_METHOD(UserCache_Cache, __construct)
{
	zend_string *scope = NULL;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR(scope)
	ZEND_PARSE_PARAMETERS_END();

	zend_string *name = scope ? zend_string_copy(scope) : zend_string_init("default", sizeof("default") - 1, 0);
	user_cache_open(Z_OBJ_P(ZEND_THIS), name);
	zend_string_release(name);
}

ZEND_METHOD(UserCache_Cache, getPool)
{
	zend_string *scope;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(scope)
	ZEND_PARSE_PARAMETERS_END();

	object_init_ex(return_value, user_cache_ce);
	if (user_cache_open(Z_OBJ_P(return_value), scope) == FAILURE) {
		zval_ptr_dtor(return_value);
		ZVAL_NULL(return_value);
		RETURN_THROWS();
	}
}

static void forward_inner(const char *method, zend_execute_data *execute_data, zval *return_value)
{
	zval *inner = THIS_INNER();
	if (Z_TYPE_P(inner) != IS_OBJECT) {
		zend_throw_error(NULL, "UserCache\\Cache was not constructed");
		return;
	}
	forward(inner, method, execute_data, return_value);
}

ZEND_METHOD(UserCache_Cache, store) { forward_inner("store", execute_data, return_value); }
ZEND_METHOD(UserCache_Cache, storeMultiple) { forward_inner("storeMultiple", execute_data, return_value); }
ZEND_METHOD(UserCache_Cache, fetch) { forward_inner("fetch", execute_data, return_value); }
ZEND_METHOD(UserCache_Cache, fetchMultiple) { forward_inner("fetchMultiple", execute_data, return_value); }
ZEND_METHOD(UserCache_Cache, delete) { forward_inner("delete", execute_data, return_value); }
ZEND_METHOD(UserCache_Cache, clear) { forward_inner("clear", execute_data, return_value); }

ZEND_METHOD(UserCache_Cache, getStatus)
{
	ZEND_PARSE_PARAMETERS_NONE();
	object_init_ex(return_value, status_ce);
}

/* --- UserCache\Status ---------------------------------------------------------- */

ZEND_METHOD(UserCache_Status, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
}

ZEND_METHOD(UserCache_Status, getAvailability)
{
	ZEND_PARSE_PARAMETERS_NONE();
	const char *name = "Available";
	if (!resident_store()) {
		name = resident_disabled_by_config() ? "Disabled" : "Unavailable";
	}
	RETURN_OBJ_COPY(zend_enum_get_case_cstr(availability_ce, name));
}

ZEND_METHOD(UserCache_Status, getInfo)
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
	if (class_free("usercache\\cache") && class_free("usercache\\status") && class_free("usercache\\availability")) {
		availability_ce = register_class_UserCache_Availability();
		status_ce = register_class_UserCache_Status();
		user_cache_ce = register_class_UserCache_Cache();
		user_cache_ce->create_object = user_cache_create;
		memcpy(&user_cache_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
		user_cache_handlers.offset = XtOffsetOf(user_cache_obj, std);
		user_cache_handlers.free_obj = user_cache_free;
		user_cache_handlers.clone_obj = NULL;
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
