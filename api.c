/*
 * Resident\Cache: argument checks and the glue between the store (store/)
 * and the value encoding (value/). Nothing else lives here.
 */
#include "php.h"
#include "php_resident.h"
#include "value/value.h"
#include "zend_exceptions.h"
#include "resident_arginfo.h"

typedef struct resident_cache_obj {
	uint16_t pool;
	zend_string *name;
	zend_object std;
} resident_cache_obj;

static zend_class_entry *resident_cache_ce;
static zend_object_handlers resident_cache_handlers;
static zend_string *default_pool_name;

static inline resident_cache_obj *cache_from(zend_object *obj)
{
	return (resident_cache_obj *)((char *)obj - XtOffsetOf(resident_cache_obj, std));
}
#define THIS_CACHE() cache_from(Z_OBJ_P(ZEND_THIS))

static zend_object *cache_create(zend_class_entry *ce)
{
	resident_cache_obj *c = zend_object_alloc(sizeof(resident_cache_obj), ce);
	zend_object_std_init(&c->std, ce);
	c->std.handlers = &resident_cache_handlers;
	return &c->std;
}

static void cache_free(zend_object *obj)
{
	resident_cache_obj *c = cache_from(obj);
	if (c->name) {
		zend_string_release(c->name);
	}
	zend_object_std_dtor(obj);
}

/* --- argument checks ---------------------------------------------------------- */

static zend_result check_key(const zend_string *key, uint32_t arg)
{
	if (ZSTR_LEN(key) == 0) {
		zend_argument_value_error(arg, "must not be empty");
		return FAILURE;
	}
	if (ZSTR_LEN(key) > RS_KEY_MAX) {
		zend_argument_value_error(arg, "must not be longer than %d bytes", RS_KEY_MAX);
		return FAILURE;
	}
	if (memchr(ZSTR_VAL(key), '\0', ZSTR_LEN(key))) {
		zend_argument_value_error(arg, "must not contain NUL bytes");
		return FAILURE;
	}
	return SUCCESS;
}

/* Keys of array arguments: strings, or integers (as PHP's own array keys). */
static zend_string *key_from_zval(zval *zv, uint32_t arg)
{
	ZVAL_DEREF(zv);
	if (Z_TYPE_P(zv) == IS_LONG) {
		return zend_long_to_str(Z_LVAL_P(zv));
	}
	if (Z_TYPE_P(zv) != IS_STRING) {
		zend_argument_type_error(arg, "must contain only string keys, %s given", zend_zval_type_name(zv));
		return NULL;
	}
	if (check_key(Z_STR_P(zv), arg) == FAILURE) {
		return NULL;
	}
	return zend_string_copy(Z_STR_P(zv));
}

static zend_string *key_from_array_key(zend_string *key, zend_ulong idx, uint32_t arg)
{
	if (!key) {
		return zend_ulong_to_str(idx);
	}
	if (check_key(key, arg) == FAILURE) {
		return NULL;
	}
	return zend_string_copy(key);
}

/* 0 = no expiry. */
static zend_result expiry_from_ttl(zend_long ttl, uint32_t arg, int64_t *expires)
{
	if (ttl < 0) {
		zend_argument_value_error(arg, "must be greater than or equal to 0");
		return FAILURE;
	}
	if (ttl == 0) {
		*expires = 0;
		return SUCCESS;
	}
	int64_t now = resident_now_ms();
	if (ttl > (INT64_MAX - now) / 1000) {
		zend_argument_value_error(arg, "is too large");
		return FAILURE;
	}
	*expires = now + (int64_t)ttl * 1000;
	return SUCCESS;
}

/* --- reading ------------------------------------------------------------------ */

/* Enters a read section; returns whether values may be borrowed, in which
 * case the section lasts until the request ends. Callers that hand out no
 * pointers into the segment pass borrow = false and get a short section. */
static bool read_enter(rs_store *st, bool borrow)
{
	if (RESIDENT_G(borrowing)) {
		return true;
	}
	if (borrow && RESIDENT_G(borrow_mode) && !rs_limbo_over_cap(st)) {
		if (rs_read_begin(st) == RS_OK) {
			RESIDENT_G(borrowing) = true;
			return true;
		}
		/* No reader slot: we read under the lock, so copy and leave. */
		return false;
	}
	rs_read_begin(st);
	return false;
}

static inline void read_leave(rs_store *st, bool borrow)
{
	if (!borrow) {
		rs_read_end(st);
	}
}

/* Looks the key up and decodes it into `out`. */
static bool fetch_one(resident_cache_obj *c, zend_string *key, zval *out)
{
	rs_store *st = resident_store();
	if (!st) {
		return false;
	}
	bool borrow = read_enter(st, true);
	const rs_entry *e = rs_lookup(st, c->pool, ZSTR_VAL(key), ZSTR_LEN(key), 0);
	if (!e) {
		read_leave(st, borrow);
		return false;
	}
	uint32_t kind = rs_entry_kind(e);
	const void *area = rs_entry_value(e);
	size_t size = rs_entry_value_size(e);
	if (kind == RV_KIND_SERIALIZED && !borrow) {
		/* Unserializing may run userland code (which may use the cache):
		 * never inside a short read section. */
		zend_string *copy = zend_string_init(area, size, 0);
		read_leave(st, borrow);
		zend_result rc = rv_materialize(out, kind, ZSTR_VAL(copy), ZSTR_LEN(copy), false);
		zend_string_release(copy);
		return rc == SUCCESS;
	}
	zend_result rc = rv_materialize(out, kind, area, size, borrow);
	read_leave(st, borrow);
	return rc == SUCCESS;
}

static bool exists_one(resident_cache_obj *c, zend_string *key)
{
	rs_store *st = resident_store();
	if (!st) {
		return false;
	}
	bool borrow = read_enter(st, false);
	bool found = rs_peek(st, c->pool, ZSTR_VAL(key), ZSTR_LEN(key), 0) != NULL;
	read_leave(st, borrow);
	return found;
}

/* --- writing ------------------------------------------------------------------ */

/* Stores a planned value. Returns false, with a warning, when it cannot fit. */
static bool store_planned(resident_cache_obj *c, zend_string *key, rv_plan *plan, int64_t expires, bool only_if_absent)
{
	rs_store *st = resident_store();
	rs_reservation r;
	rs_status rc = rs_reserve(st, c->pool, ZSTR_VAL(key), ZSTR_LEN(key), plan->size, plan->kind, expires, &r);
	switch (rc) {
		case RS_OK:
			break;
		case RS_TOO_BIG: {
			rs_segment_stats ss;
			rs_segment_stats_get(st, &ss);
			php_error_docref(NULL, E_WARNING, "Value for key \"%s\" needs %zu bytes, more than the whole cache (%" PRIu64 " bytes)",
				ZSTR_VAL(key), plan->size, ss.heap_bytes);
			return false;
		}
		case RS_NO_MEMORY:
			php_error_docref(NULL, E_WARNING, "No room for key \"%s\" (%zu bytes): what is left is pinned or still read by requests in flight",
				ZSTR_VAL(key), plan->size);
			return false;
		default:
			php_error_docref(NULL, E_WARNING, "Cannot store key \"%s\"", ZSTR_VAL(key));
			return false;
	}
	rv_write(plan, r.value);
	return rs_commit(st, &r, only_if_absent, resident_now_ms()) == RS_OK;
}

/* -1 on exception. */
static int store_one(resident_cache_obj *c, zend_string *key, zval *value, int64_t expires, bool only_if_absent)
{
	if (!resident_store()) {
		return 0;
	}
	if (only_if_absent && exists_one(c, key)) {
		return 0;
	}
	rv_path root = { .kind = RV_PATH_ROOT, .name = "value" };
	rv_plan plan;
	if (rv_plan_value(&plan, value, &root, 2) == FAILURE) {
		return -1;
	}
	bool ok = store_planned(c, key, &plan, expires, only_if_absent);
	rv_plan_release(&plan);
	return ok;
}

/* --- methods -------------------------------------------------------------------- */

ZEND_METHOD(Resident_Cache, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
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

	if (!name) {
		name = default_pool_name;
	}
	if (ZSTR_LEN(name) == 0 || ZSTR_LEN(name) > RS_POOL_NAME_MAX || memchr(ZSTR_VAL(name), '\0', ZSTR_LEN(name))) {
		zend_argument_value_error(1, "must be between 1 and %d bytes without NUL bytes", RS_POOL_NAME_MAX);
		RETURN_THROWS();
	}
	uint16_t id = 0;
	rs_store *st = resident_store();
	if (st) {
		rs_status rc = rs_pool_open(st, ZSTR_VAL(name), pinned, &id);
		if (rc != RS_OK) {
			zend_throw_error(NULL, "Cannot create pool \"%s\": all %d pools are in use", ZSTR_VAL(name), RS_MAX_POOLS);
			RETURN_THROWS();
		}
		rs_pool_stats ps;
		rs_pool_stats_get(st, id, &ps);
		if (pinned && !ps.pinned) {
			zend_argument_value_error(2, "cannot pin pool \"%s\": it already exists unpinned", ZSTR_VAL(name));
			RETURN_THROWS();
		}
	}
	object_init_ex(return_value, resident_cache_ce);
	resident_cache_obj *c = cache_from(Z_OBJ_P(return_value));
	c->pool = id;
	c->name = zend_string_copy(name);
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

	if (check_key(key, 1) == FAILURE || expiry_from_ttl(ttl, 3, &expires) == FAILURE) {
		RETURN_THROWS();
	}
	int rc = store_one(THIS_CACHE(), key, value, expires, only_if_absent);
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

	if (check_key(key, 1) == FAILURE) {
		RETURN_THROWS();
	}
	if (fetch_one(THIS_CACHE(), key, return_value)) {
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

	if (expiry_from_ttl(ttl, 2, &expires) == FAILURE) {
		RETURN_THROWS();
	}
	uint32_t n = zend_hash_num_elements(values);
	zend_string **keys = safe_emalloc(n, sizeof(zend_string *), 0);
	rv_plan *plans = safe_emalloc(n, sizeof(rv_plan), 0);
	uint32_t planned = 0;
	bool failed = false;
	zend_string *skey;
	zend_ulong idx;
	zval *val;

	/* Every key and value is checked before anything is stored: bad input
	 * leaves the cache unchanged. */
	ZEND_HASH_FOREACH_KEY_VAL(values, idx, skey, val) {
		zend_string *key = key_from_array_key(skey, idx, 1);
		if (!key) {
			failed = true;
			break;
		}
		rv_path root = { .kind = RV_PATH_ROOT, .name = "values" };
		rv_path here = { .up = &root, .kind = skey ? RV_PATH_KEY : RV_PATH_INDEX, .index = idx, .key = skey };
		if (rv_plan_value(&plans[planned], val, &here, 1) == FAILURE) {
			zend_string_release(key);
			failed = true;
			break;
		}
		keys[planned++] = key;
	} ZEND_HASH_FOREACH_END();

	if (!failed) {
		array_init(return_value);
		resident_cache_obj *c = THIS_CACHE();
		for (uint32_t i = 0; i < planned; i++) {
			if (!resident_store() || !store_planned(c, keys[i], &plans[i], expires, false)) {
				add_next_index_str(return_value, zend_string_copy(keys[i]));
			}
		}
	}
	for (uint32_t i = 0; i < planned; i++) {
		rv_plan_release(&plans[i]);
		zend_string_release(keys[i]);
	}
	efree(plans);
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
		zend_string *key = key_from_zval(kz, 1);
		if (!key) {
			zval_ptr_dtor(return_value);
			ZVAL_NULL(return_value);
			RETURN_THROWS();
		}
		zval v;
		if (fetch_one(c, key, &v)) {
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

	if (check_key(key, 1) == FAILURE) {
		RETURN_THROWS();
	}
	RETURN_BOOL(exists_one(THIS_CACHE(), key));
}

ZEND_METHOD(Resident_Cache, delete)
{
	zend_string *key;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(key)
	ZEND_PARSE_PARAMETERS_END();

	if (check_key(key, 1) == FAILURE) {
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
		zend_string *key = key_from_zval(kz, 1);
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

ZEND_METHOD(Resident_Cache, info)
{
	ZEND_PARSE_PARAMETERS_NONE();
	resident_cache_obj *c = THIS_CACHE();
	rs_pool_stats ps = {0};
	rs_store *st = resident_store();
	if (st) {
		rs_pool_stats_get(st, c->pool, &ps);
	}
	array_init(return_value);
	add_assoc_str(return_value, "name", zend_string_copy(c->name));
	add_assoc_bool(return_value, "pinned", ps.pinned);
	add_assoc_long(return_value, "entries", (zend_long)ps.entries);
	add_assoc_long(return_value, "memory", (zend_long)ps.bytes);
	add_assoc_long(return_value, "hits", (zend_long)ps.hits);
	add_assoc_long(return_value, "misses", (zend_long)ps.misses);
	add_assoc_long(return_value, "stores", (zend_long)ps.stores);
	add_assoc_long(return_value, "deletes", (zend_long)ps.deletes);
	add_assoc_long(return_value, "evictions", (zend_long)ps.evictions);
	add_assoc_long(return_value, "expirations", (zend_long)ps.expirations);
}

ZEND_METHOD(Resident_Cache, status)
{
	ZEND_PARSE_PARAMETERS_NONE();
	array_init(return_value);
	rs_store *st = resident_store();
	add_assoc_bool(return_value, "available", st != NULL);
	add_assoc_string(return_value, "version", PHP_RESIDENT_VERSION);
	if (!st) {
		add_assoc_string(return_value, "reason", (char *)resident_unavailable_reason());
		return;
	}
	rs_segment_stats s;
	rs_segment_stats_get(st, &s);
	add_assoc_string(return_value, "zero_copy", RESIDENT_G(borrow_mode) ? "borrow" : "copy");
	add_assoc_long(return_value, "memory_size", (zend_long)s.total_bytes);
	add_assoc_long(return_value, "memory_heap", (zend_long)s.heap_bytes);
	add_assoc_long(return_value, "memory_used", (zend_long)s.used_bytes);
	add_assoc_long(return_value, "memory_free", (zend_long)s.free_bytes);
	add_assoc_long(return_value, "largest_free_block", (zend_long)s.largest_free);
	add_assoc_long(return_value, "free_blocks", (zend_long)s.free_blocks);
	add_assoc_double(return_value, "fragmentation", s.free_bytes ? 1.0 - (double)s.largest_free / (double)s.free_bytes : 0.0);
	add_assoc_long(return_value, "limbo_bytes", (zend_long)s.limbo_bytes);
	add_assoc_long(return_value, "limbo_entries", (zend_long)s.limbo_entries);
	add_assoc_long(return_value, "entries", (zend_long)s.entries);
	add_assoc_long(return_value, "hits", (zend_long)s.hits);
	add_assoc_long(return_value, "misses", (zend_long)s.misses);
	add_assoc_long(return_value, "stores", (zend_long)s.stores);
	add_assoc_long(return_value, "evictions", (zend_long)s.evictions);
	add_assoc_long(return_value, "expirations", (zend_long)s.expirations);
	add_assoc_long(return_value, "lock_waits", (zend_long)s.lock_waits);
	add_assoc_long(return_value, "recoveries", (zend_long)s.recoveries);
	add_assoc_long(return_value, "dead_slots_cleared", (zend_long)s.dead_slots);
	add_assoc_long(return_value, "slots_used", (zend_long)s.slots_used);
	add_assoc_long(return_value, "slots_total", (zend_long)s.slots_total);
	add_assoc_long(return_value, "pools", (zend_long)s.pools);
	add_assoc_long(return_value, "buckets", (zend_long)s.buckets);
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
	if (testing) {
		register_class_Resident_Testing();
	}
}
