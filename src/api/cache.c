/* SPDX-License-Identifier: MIT */
/*
 * Resident\Cache: the class, its pools, and its methods on values (store,
 * add, fetch, their multi forms, exists, delete, clear, remember, keys);
 * the counters and what it says about itself have files of their own.
 */
#include "php.h"
#include "php_resident.h"
#include "api.h"
#include "arguments.h"
#include "cache/cache.h"
#include "runtime/segment.h"
#include "value/value.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"
#include "resident_arginfo.h"

zend_class_entry *resident_cache_ce;
zend_class_entry *resident_request_over_static_ce;
static zend_object_handlers resident_cache_handlers;
static zend_string *default_pool_name;

#define THIS_CACHE() resident_cache_of(Z_OBJ_P(ZEND_THIS))

static zend_object *cache_create(zend_class_entry *ce)
{
	resident_cache_obj *c = zend_object_alloc(sizeof(resident_cache_obj), ce);
	zend_object_std_init(&c->std, ce);
	c->std.handlers = &resident_cache_handlers;
	return &c->std;
}

static void cache_free(zend_object *obj)
{
	resident_cache_obj *c = resident_cache_of(obj);
	if (c->name) {
		zend_string_release(c->name);
	}
	zend_object_std_dtor(obj);
}

/* --- methods -------------------------------------------------------------------- */

ZEND_METHOD(Resident_Cache, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
}

/* Control characters are kept for Resident's own pools. */
static bool pool_name_valid(const zend_string *name)
{
	if (ZSTR_LEN(name) == 0 || ZSTR_LEN(name) > RS_POOL_NAME_MAX) {
		return false;
	}
	for (size_t i = 0; i < ZSTR_LEN(name); i++) {
		if ((unsigned char)ZSTR_VAL(name)[i] < 0x20 || ZSTR_VAL(name)[i] == 0x7f) {
			return false;
		}
	}
	return true;
}

/* Opens (creating if needed) a pool and returns its Cache object. */
static zend_result resident_open_pool(zval *dst, zend_string *name, bool pinned, uint32_t name_arg)
{
	if (!pool_name_valid(name)) {
		zend_argument_value_error(name_arg, "must be between 1 and %d bytes without control characters", RS_POOL_NAME_MAX);
		return FAILURE;
	}
	/* metrics() and inspect() show Resident's own pools as "(remember)" and
	 * "(statics)"; a user pool of that form would be a second series with
	 * the same labels. */
	if (ZSTR_LEN(name) >= 2 && ZSTR_VAL(name)[0] == '(' && ZSTR_VAL(name)[ZSTR_LEN(name) - 1] == ')') {
		zend_argument_value_error(name_arg, "must not be enclosed in parentheses, which name Resident's own pools");
		return FAILURE;
	}
	uint16_t id = 0;
	rs_store *st = resident_store();
	if (st) {
		if (rs_pool_open(st, ZSTR_VAL(name), pinned, &id) != RS_OK) {
			zend_throw_error(NULL, "Cannot create pool \"%s\": all %d pools are in use", ZSTR_VAL(name), RS_MAX_POOLS);
			return FAILURE;
		}
		rs_pool_stats ps;
		rs_pool_stats_get(st, id, &ps);
		if (pinned && !ps.pinned) {
			zend_argument_value_error(name_arg + 1, "cannot pin pool \"%s\": it already exists unpinned", ZSTR_VAL(name));
			return FAILURE;
		}
	}
	object_init_ex(dst, resident_cache_ce);
	resident_cache_obj *c = resident_cache_of(Z_OBJ_P(dst));
	c->pool = id;
	c->name = zend_string_copy(name);
	return SUCCESS;
}

zend_result resident_cache_for_pool(zval *dst, zend_string *name)
{
	return resident_open_pool(dst, name, false, 1);
}

ZEND_METHOD(Resident_Cache, pool)
{
	zend_string *name = NULL;
	bool pinned = false;

	ZEND_PARSE_PARAMETERS_START(0, 2)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR(name)
		Z_PARAM_BOOL(pinned)
	ZEND_PARSE_PARAMETERS_END();

	if (resident_open_pool(return_value, name ? name : default_pool_name, pinned, 1) == FAILURE) {
		RETURN_THROWS();
	}
}

ZEND_METHOD(Resident_Cache, name)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_STR_COPY(THIS_CACHE()->name);
}

static void store_method(INTERNAL_FUNCTION_PARAMETERS, bool only_if_absent)
{
	zend_string *key;
	zval *value;
	zend_long ttl = 0;
	int64_t expires;

	ZEND_PARSE_PARAMETERS_START(2, 3)
		Z_PARAM_STR(key)
		Z_PARAM_ZVAL(value)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	if (resident_check_key(key, 1) == FAILURE || resident_expiry(ttl, 3, &expires) == FAILURE) {
		RETURN_THROWS();
	}
	int rc = resident_store_value(THIS_CACHE(), key, value, expires, 0, only_if_absent, 2);
	if (rc < 0) {
		RETURN_THROWS();
	}
	RETURN_BOOL(rc);
}

ZEND_METHOD(Resident_Cache, store)
{
	store_method(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

ZEND_METHOD(Resident_Cache, add)
{
	store_method(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

ZEND_METHOD(Resident_Cache, fetch)
{
	zend_string *key;
	zval *def = NULL;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_STR(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_ZVAL(def)
	ZEND_PARSE_PARAMETERS_END();

	if (resident_check_key(key, 1) == FAILURE) {
		RETURN_THROWS();
	}
	if (resident_fetch(THIS_CACHE(), key, return_value)) {
		return;
	}
	if (EG(exception)) {
		RETURN_THROWS();
	}
	if (def) {
		RETURN_COPY(def);
	}
	RETURN_NULL();
}

ZEND_METHOD(Resident_Cache, storeMultiple)
{
	HashTable *values;
	zend_long ttl = 0;
	int64_t expires;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ARRAY_HT(values)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	if (resident_expiry(ttl, 2, &expires) == FAILURE) {
		RETURN_THROWS();
	}
	uint32_t n = zend_hash_num_elements(values);
	zend_string **keys = safe_emalloc(n, sizeof(zend_string *), 0);
	rv_plan *plans = safe_emalloc(n, sizeof(rv_plan), 0);
	/* Where each value is, for messages: a plan keeps its path until it is
	 * written. */
	rv_path root = { .kind = RV_PATH_ROOT, .name = "values" };
	rv_path *paths = safe_emalloc(n, sizeof(rv_path), 0);
	uint32_t planned = 0;
	bool failed = false;
	zend_string *skey;
	zend_ulong idx;
	zval *val;

	/* Every key and value is checked before anything is stored: bad input
	 * leaves the cache unchanged. Hooks planning runs must not end the
	 * request for what the plans point at (src/cache/quiescent.c). */
	RESIDENT_G(cache_calls)++;
	ZEND_HASH_FOREACH_KEY_VAL(values, idx, skey, val) {
		zend_string *key = resident_key_from_array_key(skey, idx, 1);
		if (!key) {
			failed = true;
			break;
		}
		rv_path *here = &paths[planned];
		*here = (rv_path){ .up = &root, .kind = skey ? RV_PATH_KEY : RV_PATH_INDEX, .index = idx, .key = skey };
		if (rv_plan_value(RV_CTX, &plans[planned], val, here, 1) == FAILURE) {
			zend_string_release(key);
			failed = true;
			break;
		}
		keys[planned++] = key;
	} ZEND_HASH_FOREACH_END();

	if (!failed) {
		array_init(return_value);
		resident_cache_obj *c = THIS_CACHE();
		for (uint32_t i = 0; i < planned && !EG(exception); i++) {
			if (!resident_store() || !resident_store_planned(c, keys[i], &plans[i], expires, 0, false)) {
				add_next_index_str(return_value, zend_string_copy(keys[i]));
			}
		}
		if (EG(exception)) {
			/* A value changed since it was planned, into one that cannot be cached. */
			zval_ptr_dtor(return_value);
			ZVAL_NULL(return_value);
			failed = true;
		}
	}
	RESIDENT_G(cache_calls)--;
	for (uint32_t i = 0; i < planned; i++) {
		rv_plan_release(&plans[i]);
		zend_string_release(keys[i]);
	}
	efree(plans);
	efree(paths);
	efree(keys);
	if (failed) {
		RETURN_THROWS();
	}
}

ZEND_METHOD(Resident_Cache, fetchMultiple)
{
	HashTable *keys;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ARRAY_HT(keys)
	ZEND_PARSE_PARAMETERS_END();

	array_init(return_value);
	resident_cache_obj *c = THIS_CACHE();
	zval *kz;
	ZEND_HASH_FOREACH_VAL(keys, kz) {
		zend_string *key = resident_key_from_zval(kz, 1);
		if (!key) {
			zval_ptr_dtor(return_value);
			ZVAL_NULL(return_value);
			RETURN_THROWS();
		}
		zval v;
		if (resident_fetch(c, key, &v)) {
			zend_symtable_update(Z_ARRVAL_P(return_value), key, &v);
		}
		zend_string_release(key);
		if (EG(exception)) {
			zval_ptr_dtor(return_value);
			ZVAL_NULL(return_value);
			RETURN_THROWS();
		}
	} ZEND_HASH_FOREACH_END();
}

ZEND_METHOD(Resident_Cache, exists)
{
	zend_string *key;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(key)
	ZEND_PARSE_PARAMETERS_END();

	if (resident_check_key(key, 1) == FAILURE) {
		RETURN_THROWS();
	}
	RETURN_BOOL(resident_exists(THIS_CACHE(), key));
}

ZEND_METHOD(Resident_Cache, delete)
{
	zend_string *key;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(key)
	ZEND_PARSE_PARAMETERS_END();

	if (resident_check_key(key, 1) == FAILURE) {
		RETURN_THROWS();
	}
	rs_store *st = resident_store();
	RETURN_BOOL(st && rs_delete(st, THIS_CACHE()->pool, ZSTR_VAL(key), ZSTR_LEN(key)) == RS_OK);
}

ZEND_METHOD(Resident_Cache, deleteMultiple)
{
	HashTable *keys;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ARRAY_HT(keys)
	ZEND_PARSE_PARAMETERS_END();

	uint32_t n = zend_hash_num_elements(keys), count = 0, deleted = 0;
	zend_string **list = safe_emalloc(n, sizeof(zend_string *), 0);
	zval *kz;
	ZEND_HASH_FOREACH_VAL(keys, kz) {
		zend_string *key = resident_key_from_zval(kz, 1);
		if (!key) {
			break;
		}
		list[count++] = key;
	} ZEND_HASH_FOREACH_END();

	rs_store *st = resident_store();
	uint16_t pool = THIS_CACHE()->pool;
	for (uint32_t i = 0; i < count; i++) {
		if (!EG(exception) && st) {
			deleted += rs_delete(st, pool, ZSTR_VAL(list[i]), ZSTR_LEN(list[i])) == RS_OK;
		}
		zend_string_release(list[i]);
	}
	efree(list);
	if (EG(exception)) {
		RETURN_THROWS();
	}
	RETURN_LONG(deleted);
}

ZEND_METHOD(Resident_Cache, clear)
{
	ZEND_PARSE_PARAMETERS_NONE();
	rs_store *st = resident_store();
	if (!st) {
		RETURN_FALSE;
	}
	rs_clear(st, THIS_CACHE()->pool);
	RETURN_TRUE;
}

ZEND_METHOD(Resident_Cache, remember)
{
	zend_string *key;
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	zend_long ttl = 0, stale_ttl = 0;
	int64_t expires, stale_until = 0;

	ZEND_PARSE_PARAMETERS_START(2, 4)
		Z_PARAM_STR(key)
		Z_PARAM_FUNC(fci, fcc)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(ttl)
		Z_PARAM_LONG(stale_ttl)
	ZEND_PARSE_PARAMETERS_END();

	if (resident_check_key(key, 1) == FAILURE || resident_expiry(ttl, 3, &expires) == FAILURE) {
		RETURN_THROWS();
	}
	if (stale_ttl < 0) {
		zend_argument_value_error(4, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	if (stale_ttl > 0) {
		if (ttl == 0) {
			zend_argument_value_error(4, "needs a TTL: a value that never expires is never stale");
			RETURN_THROWS();
		}
		if (stale_ttl > (INT64_MAX - expires) / 1000) {
			zend_argument_value_error(4, "is too large");
			RETURN_THROWS();
		}
		stale_until = expires + (int64_t)stale_ttl * 1000;
	}
	resident_remember(THIS_CACHE(), key, &fci, &fcc, expires, stale_until, return_value);
}

ZEND_METHOD(Resident_Cache, keep)
{
	zend_string *key;
	zend_fcall_info fci, reset = empty_fcall_info;
	zend_fcall_info_cache fcc, reset_cache = empty_fcall_info_cache;

	ZEND_PARSE_PARAMETERS_START(2, 3)
		Z_PARAM_STR(key)
		Z_PARAM_FUNC(fci, fcc)
		Z_PARAM_OPTIONAL
		Z_PARAM_FUNC_OR_NULL(reset, reset_cache)
	ZEND_PARSE_PARAMETERS_END();

	if (resident_check_key(key, 1) == FAILURE) {
		RETURN_THROWS();
	}
	resident_keep(THIS_CACHE(), key, &fci, &fcc, ZEND_FCI_INITIALIZED(reset) ? &reset : NULL, &reset_cache, return_value);
}

ZEND_METHOD(Resident_Cache, keys)
{
	zend_string *prefix = NULL;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR(prefix)
	ZEND_PARSE_PARAMETERS_END();

	resident_key_iterator_create(return_value, THIS_CACHE()->pool, prefix ? prefix : ZSTR_EMPTY_ALLOC());
}

void resident_api_register(int module_number, bool testing)
{
	default_pool_name = zend_string_init_interned("default", sizeof("default") - 1, 1);
	register_resident_symbols(module_number);
	resident_cache_ce = register_class_Resident_Cache();
	resident_cache_ce->create_object = cache_create;
	memcpy(&resident_cache_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	resident_cache_handlers.offset = XtOffsetOf(resident_cache_obj, std);
	resident_cache_handlers.free_obj = cache_free;
	resident_cache_handlers.clone_obj = NULL;
	resident_key_iterator_register(register_class_Resident_KeyIterator(zend_ce_iterator));
	resident_request_over_static_ce = register_class_Resident_RequestOverStatic();
	if (testing) {
		register_class_Resident_Testing();
	}
}
