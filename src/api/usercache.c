/* SPDX-License-Identifier: MIT */
/*
 * UserCache\Cache: its pools (one object per name and request, a namespace
 * of keys in the store, see usercache.h) and its methods on values, with
 * the checks, results and errors the ext-user_cache proposal gives them.
 * Values go through the cache layer every Resident API shares
 * (src/cache/read.c, write.c): borrowed or copied as the request does,
 * restore hooks run with Fiber switches refused, stores never holding the
 * lock while PHP code runs.
 */
#include <sys/random.h>
#include <unistd.h>
#include "php.h"
#include "SAPI.h"
#include "php_resident.h"
#include "runtime/segment.h"
#include "value/value.h"
#include "api.h"
#include "arguments.h"
#include "usercache.h"
#include "zend_closures.h"
#include "zend_exceptions.h"

static zend_class_entry *uc_ce;
static zend_object_handlers uc_handlers;
static zend_string *values_pool_name, *locks_pool_name;

/* --- the request's tables ------------------------------------------------------ */

static zend_ulong name_hash(const user_cache_request *r, const zend_string *name)
{
	return (zend_ulong)rs_keyed_hash(r->hash_key, ZSTR_VAL(name), ZSTR_LEN(name));
}

uc_node *uc_find(user_cache_request *r, HashTable *table, const zend_string *name)
{
	zval *head = zend_hash_index_find(table, name_hash(r, name));
	for (uc_node *n = head ? Z_PTR_P(head) : NULL; n; n = n->next) {
		if (zend_string_equals(n->name, name)) {
			return n;
		}
	}
	return NULL;
}

uc_node *uc_add(user_cache_request *r, HashTable *table, zend_string *name)
{
	uc_node *n = ecalloc(1, sizeof(*n));
	n->name = zend_string_copy(name);
	zend_ulong h = name_hash(r, name);
	zval *head = zend_hash_index_find(table, h);
	if (head) {
		n->next = Z_PTR_P(head);
		Z_PTR_P(head) = n;
	} else {
		zval ptr;
		ZVAL_PTR(&ptr, n);
		zend_hash_index_add_new(table, h, &ptr);
	}
	return n;
}

static void node_free(uc_node *n)
{
	zend_string_release(n->name);
	if (n->pool) {
		OBJ_RELEASE(n->pool);
	}
	efree(n);
}

void uc_remove(user_cache_request *r, HashTable *table, const zend_string *name)
{
	zend_ulong h = name_hash(r, name);
	zval *head = zend_hash_index_find(table, h);
	if (!head) {
		return;
	}
	for (uc_node **link = (uc_node **)&Z_PTR_P(head); *link; link = &(*link)->next) {
		uc_node *n = *link;
		if (zend_string_equals(n->name, name)) {
			*link = n->next;
			if (!Z_PTR_P(head)) {
				zend_hash_index_del(table, h);
			}
			node_free(n);
			return;
		}
	}
}

static void table_free(HashTable *table)
{
	zval *head;
	ZEND_HASH_FOREACH_VAL(table, head) {
		for (uc_node *n = Z_PTR_P(head), *next; n; n = next) {
			next = n->next;
			node_free(n);
		}
	} ZEND_HASH_FOREACH_END();
	zend_hash_destroy(table);
}

user_cache_request *uc_request(void)
{
	user_cache_request *r = RESIDENT_G(user_cache);
	if (!r) {
		r = ecalloc(1, sizeof(*r));
		zend_hash_init(&r->pools, 8, NULL, NULL, 0);
		zend_hash_init(&r->locks, 8, NULL, NULL, 0);
		if (getrandom(r->hash_key, sizeof(r->hash_key), 0) != (ssize_t)sizeof(r->hash_key)) {
			/* Only the flooding resistance of these tables depends on it. */
			r->hash_key[0] = (uint64_t)(uintptr_t)r ^ (uint64_t)rs_now_ms();
			r->hash_key[1] = (uint64_t)getpid() * 0x9e3779b97f4a7c15ULL;
		}
		r->pid = rs_process_id();
		RESIDENT_G(user_cache) = r;
	} else if (UNEXPECTED(r->pid != rs_process_id())) {
		/* pcntl_fork(): the parent's locks stay its own. */
		uc_locks_forget(r);
		r->pid = rs_process_id();
	}
	return r;
}

void resident_user_cache_request_end(void)
{
	user_cache_request *r = RESIDENT_G(user_cache);
	if (RESIDENT_G(uc_fetch_key)) {
		zend_string_release(RESIDENT_G(uc_fetch_key));
		RESIDENT_G(uc_fetch_key) = NULL;
	}
	RESIDENT_G(uc_pools_checked) = false;
	/* A store that a fatal error ended left it raised. */
	RESIDENT_G(quiet_stores) = 0;
	if (!r) {
		return;
	}
	RESIDENT_G(user_cache) = NULL;
	if (r->pid == rs_process_id()) {
		uc_locks_request_end(r);
	} else {
		uc_locks_forget(r);
	}
	zend_hash_destroy(&r->locks);
	table_free(&r->pools);
	efree(r);
}

/* --- where UserCache lives in the store --------------------------------------------- */

/* known: the id the pool had, plus one, or 0; checked at the first call of
 * a request, then trusted (pools are never removed from a segment, and a
 * request keeps its segment): every call of every method opens its pools,
 * and looking the name up among the segment's pools each time was 8% of a
 * small fetch. */
static bool open_pool(resident_cache_obj *out, const char *name, zend_string *display, bool pinned, uint16_t *known)
{
	rs_store *st = resident_store();
	memset(out, 0, sizeof(*out));
	if (!st) {
		return false;
	}
	if (!RESIDENT_G(uc_pools_checked) && (!*known || !rs_pool_is(st, (uint16_t)(*known - 1), name))) {
		uint16_t id;
		if (rs_pool_open(st, name, pinned, &id) != RS_OK) {
			return false;
		}
		*known = (uint16_t)(id + 1);
	}
	out->pool = (uint16_t)(*known - 1);
	out->name = display;
	return true;
}

/* A value whose key is locked is not evicted, as in the proposal: the
 * locks pool guards the values pool. */
bool uc_values(resident_cache_obj *out)
{
	if (!open_pool(out, UC_VALUES_POOL, values_pool_name, false, &RESIDENT_G(uc_values_pool))) {
		return false;
	}
	resident_cache_obj locks;
	if (!RESIDENT_G(uc_pools_checked) && uc_locks(&locks) && rs_pool_guard(resident_store(), out->pool, locks.pool) == RS_OK) {
		RESIDENT_G(uc_pools_checked) = true;
	}
	return true;
}

/* Pinned: memory pressure never takes a lock away. */
bool uc_locks(resident_cache_obj *out)
{
	return open_pool(out, UC_LOCKS_POOL, locks_pool_name, true, &RESIDENT_G(uc_locks_pool));
}

/* The php-fpm pool this worker serves, or "" (one process per worker,
 * which serves one pool for its whole life). */
static const char *partition(size_t *len)
{
	static char name[128];
	static size_t name_len;
	static int32_t for_pid;
	if (strcmp(sapi_module.name, "fpm-fcgi") != 0) {
		*len = 0;
		return "";
	}
	if (for_pid != rs_process_id()) {
		if (!resident_fpm_pool_name(name, sizeof(name))) {
			name[0] = '\0';
		}
		name_len = strlen(name);
		/* The delimiter must stay unambiguous. */
		for (size_t i = 0; i < name_len; i++) {
			if (name[i] == UC_DELIM) {
				name[i] = '?';
			}
		}
		for_pid = rs_process_id();
	}
	*len = name_len;
	return name;
}

zend_string *uc_prefix(const zend_string *pool)
{
	size_t plen;
	const char *part = partition(&plen);
	zend_string *prefix = zend_string_alloc(plen + ZSTR_LEN(pool) + 2, 0);
	char *p = ZSTR_VAL(prefix);
	memcpy(p, part, plen);
	p[plen] = UC_DELIM;
	memcpy(p + plen + 1, ZSTR_VAL(pool), ZSTR_LEN(pool));
	p[plen + 1 + ZSTR_LEN(pool)] = UC_DELIM;
	p[ZSTR_LEN(prefix)] = '\0';
	return prefix;
}

/* Any integer key ("-9223372036854775808": MAX_LENGTH_OF_LONG bytes) fits
 * every pool. */
static size_t pool_name_max(void)
{
	size_t plen;
	partition(&plen);
	return RS_KEY_MAX - plen - 2 - MAX_LENGTH_OF_LONG;
}

static size_t key_max(const user_cache_obj *u)
{
	return RS_KEY_MAX - ZSTR_LEN(u->prefix);
}

static zend_string *store_key(const user_cache_obj *u, const zend_string *key)
{
	return zend_string_concat2(ZSTR_VAL(u->prefix), ZSTR_LEN(u->prefix), ZSTR_VAL(key), ZSTR_LEN(key));
}

/* store_key() for a fetch, in a string the request reuses while nothing
 * else holds it: allocating and freeing one was a tenth of a fetch of a
 * small value. A fetch that a restore hook makes meanwhile finds it held
 * and takes one of its own. The caller releases it as any other. */
static zend_string *fetch_store_key(const user_cache_obj *u, const zend_string *key)
{
	size_t plen = ZSTR_LEN(u->prefix), len = plen + ZSTR_LEN(key);
	zend_string *s = RESIDENT_G(uc_fetch_key);
	if (!s || GC_REFCOUNT(s) != 1 || RESIDENT_G(uc_fetch_key_room) < len) {
		if (s) {
			zend_string_release(s);
		}
		size_t room = MAX(len, 119);
		s = zend_string_alloc(room, 0);
		RESIDENT_G(uc_fetch_key) = s;
		RESIDENT_G(uc_fetch_key_room) = room;
	}
	memcpy(ZSTR_VAL(s), ZSTR_VAL(u->prefix), plen);
	memcpy(ZSTR_VAL(s) + plen, ZSTR_VAL(key), ZSTR_LEN(key));
	ZSTR_VAL(s)[len] = '\0';
	ZSTR_LEN(s) = len;
	zend_string_forget_hash_val(s);
	GC_ADDREF(s);
	return s;
}

/* --- arguments ---------------------------------------------------------------- */

static bool check_pool_name(const zend_string *pool)
{
	if (ZSTR_LEN(pool) == 0) {
		zend_argument_value_error(1, "must not be empty");
		return false;
	}
	if (memchr(ZSTR_VAL(pool), UC_DELIM, ZSTR_LEN(pool))) {
		zend_argument_value_error(1, "must not contain the user-cache key delimiter " UC_DELIM_NAME);
		return false;
	}
	if (ZSTR_LEN(pool) > pool_name_max()) {
		zend_argument_value_error(1, "must not be longer than %zu bytes", pool_name_max());
		return false;
	}
	return true;
}

static bool check_key(const user_cache_obj *u, const zend_string *key)
{
	if (ZSTR_LEN(key) == 0) {
		zend_argument_value_error(1, "must be a non-empty string");
		return false;
	}
	if (memchr(ZSTR_VAL(key), UC_DELIM, ZSTR_LEN(key))) {
		zend_argument_value_error(1, "must not contain the user-cache key delimiter " UC_DELIM_NAME);
		return false;
	}
	if (ZSTR_LEN(key) > key_max(u)) {
		zend_argument_value_error(1, "must not be longer than %zu bytes", key_max(u));
		return false;
	}
	return true;
}

static bool check_not_negative(zend_long n, uint32_t arg)
{
	if (n < 0) {
		zend_argument_value_error(arg, "must be greater than or equal to 0");
		return false;
	}
	return true;
}

/* What the proposal refuses before looking inside a value. */
static bool check_root_value(zval *value)
{
	ZVAL_DEREF(value);
	if (Z_TYPE_P(value) == IS_RESOURCE) {
		zend_type_error("Resources cannot be stored in the user cache");
		return false;
	}
	if (Z_TYPE_P(value) == IS_OBJECT && Z_OBJCE_P(value) == zend_ce_closure) {
		zend_type_error("Closure objects cannot be stored in the user cache");
		return false;
	}
	return true;
}

/* The value layer's refusal of something inside a value ("Argument #2
 * ($value) cannot be cached: $value['a'] is a resource"), said the way the
 * proposal says it. */
static void restate_refusal(void)
{
	zend_object *ex = EG(exception);
	if (!ex || (!instanceof_function(ex->ce, zend_ce_type_error) && !instanceof_function(ex->ce, zend_ce_value_error))) {
		return;
	}
	zval rv;
	zval *msg = zend_read_property_ex(zend_ce_error, ex, ZSTR_KNOWN(ZEND_STR_MESSAGE), true, &rv);
	if (Z_TYPE_P(msg) != IS_STRING) {
		return;
	}
	const char *m = Z_STRVAL_P(msg), *restated = NULL;
	if (strstr(m, ") cannot be cached: ")) {
		/* The path before it may hold " is " in a key; the class name after cannot. */
		const char *what = NULL;
		for (const char *at = strstr(m, " is "); at; at = strstr(at + 1, " is ")) {
			what = at + 4;
		}
		if (!what) {
			return;
		}
		if (strcmp(what, "a resource") == 0) {
			restated = "Resources cannot be stored in the user cache";
		} else if (strcmp(what, "a Closure") == 0) {
			restated = "Closure objects cannot be stored in the user cache";
		} else if (strcmp(what, "an instance of an anonymous class") == 0) {
			/* Named as the proposal names it: "Parent@anonymous" (the
			 * engine's name up to its NUL), "class@anonymous" for none. */
			zend_class_entry *anon = RV_CTX->refused_anonymous;
			RV_CTX->refused_anonymous = NULL;
			zend_string *named = zend_strpprintf(0, "%s objects cannot be stored in the user cache", anon ? ZSTR_VAL(anon->name) : "class@anonymous");
			zend_clear_exception();
			zend_type_error("%s", ZSTR_VAL(named));
			zend_string_release(named);
			return;
		} else if (strcmp(what, "a Generator") == 0) {
			restated = "Generator objects cannot be stored in the user cache";
		} else if (strncmp(what, "an instance of ", 15) == 0) {
			/* The proposal names the class (a Fiber, a WeakReference, ...). */
			zend_string *named = zend_strpprintf(0, "%s objects cannot be stored in the user cache", what + 15);
			zend_clear_exception();
			zend_type_error("%s", ZSTR_VAL(named));
			zend_string_release(named);
			return;
		} else if (strcmp(what, "an internal value") == 0) {
			restated = "objects with opaque internal state (e.g. Fiber, Generator, PDO) cannot be stored in the user cache";
		}
	} else if (strstr(m, ") is nested deeper than ") || strstr(m, ") is nested too deeply for the stack left")) {
		restated = "Value is nested too deeply to be stored in the user cache";
	} else if ((restated = strstr(m, "::__sleep() must return an array")) && restated[sizeof("::__sleep() must return an array") - 1] == '\0') {
		/* As the proposal words it, after serialize()'s own warning. */
		zend_string *cls = zend_string_init(m, restated - m, false);
		zend_clear_exception();
		php_error_docref(NULL, E_WARNING, "%s::__sleep() should return an array only containing the names of instance-variables to serialize", ZSTR_VAL(cls));
		zend_type_error("%s::__sleep() did not return an array of member names; the object cannot be stored in the user cache", ZSTR_VAL(cls));
		zend_string_release(cls);
		return;
	}
	if (!restated) {
		return;
	}
	zend_clear_exception();
	zend_type_error("%s", restated);
}

/* --- the class ------------------------------------------------------------------- */

static zend_object *uc_create(zend_class_entry *ce)
{
	user_cache_obj *u = zend_object_alloc(sizeof(user_cache_obj), ce);
	zend_object_std_init(&u->std, ce);
	u->std.handlers = &uc_handlers;
	return &u->std;
}

static void uc_free(zend_object *obj)
{
	user_cache_obj *u = user_cache_of(obj);
	if (u->name) {
		zend_string_release(u->name);
		zend_string_release(u->prefix);
	}
	zend_object_std_dtor(obj);
}

static user_cache_obj *this_pool(zval *this_ptr)
{
	user_cache_obj *u = user_cache_of(Z_OBJ_P(this_ptr));
	if (UNEXPECTED(!u->name)) {
		zend_throw_error(NULL, "%s instance was not initialized", ZSTR_VAL(Z_OBJCE_P(this_ptr)->name));
		return NULL;
	}
	return u;
}

#define THIS_POOL(u) \
	user_cache_obj *u = this_pool(ZEND_THIS); \
	if (!u) { \
		RETURN_THROWS(); \
	}

void resident_user_cache_setup(zend_class_entry *cache_ce)
{
	uc_ce = cache_ce;
	uc_ce->create_object = uc_create;
	memcpy(&uc_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	uc_handlers.offset = XtOffsetOf(user_cache_obj, std);
	uc_handlers.free_obj = uc_free;
	uc_handlers.clone_obj = NULL;
	/* A pool is equal to itself only (== compares no contents). */
	uc_handlers.compare = zend_objects_not_comparable;
	values_pool_name = zend_string_init_interned(UC_VALUES_POOL, sizeof(UC_VALUES_POOL) - 1, 1);
	locks_pool_name = zend_string_init_interned(UC_LOCKS_POOL, sizeof(UC_LOCKS_POOL) - 1, 1);
	uc_status_register();
}

ZEND_METHOD(UserCache_Cache, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_throw_error(NULL, "%s instances must be obtained via %s::getPool()", ZSTR_VAL(uc_ce->name), ZSTR_VAL(uc_ce->name));
}

/* --- pools ------------------------------------------------------------------------- */

ZEND_METHOD(UserCache_Cache, getPool)
{
	zend_string *name;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(name)
	ZEND_PARSE_PARAMETERS_END();

	if (!check_pool_name(name)) {
		RETURN_THROWS();
	}
	user_cache_request *r = uc_request();
	uc_node *n = uc_find(r, &r->pools, name);
	if (n) {
		RETURN_OBJ_COPY(n->pool);
	}
	object_init_ex(return_value, uc_ce);
	user_cache_obj *u = user_cache_of(Z_OBJ_P(return_value));
	u->name = zend_string_copy(name);
	u->prefix = uc_prefix(name);
	n = uc_add(r, &r->pools, name);
	n->pool = Z_OBJ_P(return_value);
	GC_ADDREF(n->pool);
	r->npools++;
}

ZEND_METHOD(UserCache_Cache, hasPool)
{
	zend_string *name;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(name)
	ZEND_PARSE_PARAMETERS_END();

	if (!check_pool_name(name)) {
		RETURN_THROWS();
	}
	user_cache_request *r = RESIDENT_G(user_cache);
	RETURN_BOOL(r && uc_find(r, &r->pools, name));
}

ZEND_METHOD(UserCache_Cache, getPools)
{
	ZEND_PARSE_PARAMETERS_NONE();
	array_init(return_value);
	user_cache_request *r = RESIDENT_G(user_cache);
	if (!r) {
		return;
	}
	zval *head;
	ZEND_HASH_FOREACH_VAL(&r->pools, head) {
		for (uc_node *n = Z_PTR_P(head); n; n = n->next) {
			zval pool;
			ZVAL_OBJ_COPY(&pool, n->pool);
			/* "123" is the integer key 123, as in any PHP array. */
			zend_symtable_update(Z_ARRVAL_P(return_value), n->name, &pool);
		}
	} ZEND_HASH_FOREACH_END();
}

/* Drops a pool's entries unless another request holds a lock in it. */
static bool clear_prefix(zend_string *prefix)
{
	resident_cache_obj values;
	if (!uc_values(&values)) {
		return true;
	}
	if (!uc_locks_allow_clear(prefix)) {
		return false;
	}
	rs_clear_prefix(resident_store(), values.pool, ZSTR_VAL(prefix), ZSTR_LEN(prefix));
	return true;
}

ZEND_METHOD(UserCache_Cache, deletePool)
{
	zend_string *name;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(name)
	ZEND_PARSE_PARAMETERS_END();

	if (!check_pool_name(name)) {
		RETURN_THROWS();
	}
	zend_string *prefix = uc_prefix(name);
	bool cleared = clear_prefix(prefix);
	zend_string_release(prefix);
	if (!cleared) {
		RETURN_FALSE;
	}
	/* An object of the pool held elsewhere stays usable; getPool() makes a new one. */
	user_cache_request *r = RESIDENT_G(user_cache);
	if (r && uc_find(r, &r->pools, name)) {
		uc_remove(r, &r->pools, name);
		r->npools--;
	}
	RETURN_TRUE;
}

ZEND_METHOD(UserCache_Cache, getStatus)
{
	ZEND_PARSE_PARAMETERS_NONE();
	uc_return_status(return_value);
}

ZEND_METHOD(UserCache_Cache, getPoolStatus)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_POOL(u);
	uc_return_pool_status(u, return_value);
}

/* --- values ------------------------------------------------------------------------ */

/* What UserCache refuses that Resident\Cache stores, as the proposal
 * refuses it (rv_context says each). */
static void uc_store_rules(bool on)
{
	RV_CTX->code_refused = RV_CTX->spl_object_storage_refused = RV_CTX->late_growth_refused = on;
}

static int store_quietly(resident_cache_obj *values, zend_string *skey, zval *value, int64_t expires, bool only_if_absent)
{
	RESIDENT_G(quiet_stores)++;
	uc_store_rules(true);
	int rc = resident_store_value(values, skey, value, expires, 0, only_if_absent, 2);
	uc_store_rules(false);
	RESIDENT_G(quiet_stores)--;
	return rc;
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

	THIS_POOL(u);
	if (!check_key(u, key) || !check_root_value(value) || !check_not_negative(ttl, 3) || resident_expiry(ttl, 3, &expires) == FAILURE) {
		RETURN_THROWS();
	}
	resident_cache_obj values;
	if (!uc_values(&values)) {
		RETURN_FALSE;
	}
	zend_string *skey = store_key(u, key);
	uint64_t changed = RV_CTX->changed_while_stored;
	int rc = uc_wait_unlocked(skey) ? store_quietly(&values, skey, value, expires, only_if_absent) : 0;
	zend_string_release(skey);
	if (rc < 0 && RV_CTX->changed_while_stored != changed) {
		/* A hook put a hooked object where the walk had been already: the
		 * proposal stores nothing and says false, no exception. */
		zend_clear_exception();
		RETURN_FALSE;
	}
	if (rc < 0) {
		restate_refusal();
		RETURN_THROWS();
	}
	RETURN_BOOL(rc == 1);
}

ZEND_METHOD(UserCache_Cache, store)
{
	store_method(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

ZEND_METHOD(UserCache_Cache, add)
{
	store_method(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

/* The keys of $values for storeMultiple(): strings as the proposal allows
 * them, integers as their decimal string. NULL with an exception. */
static zend_string *array_key(const user_cache_obj *u, zend_string *key, zend_ulong idx)
{
	if (!key) {
		return zend_long_to_str((zend_long)idx);
	}
	if (ZSTR_LEN(key) == 0 || memchr(ZSTR_VAL(key), UC_DELIM, ZSTR_LEN(key))) {
		zend_argument_value_error(1, "must be an array with non-empty string or int keys that do not contain " UC_DELIM_NAME);
		return NULL;
	}
	if (ZSTR_LEN(key) > key_max(u)) {
		zend_argument_value_error(1, "must be an array whose keys are not longer than %zu bytes", key_max(u));
		return NULL;
	}
	return zend_string_copy(key);
}

/* The keys of fetchMultiple() and deleteMultiple(): a list of strings and
 * integers. NULL with an exception. */
static zend_string *list_key(const user_cache_obj *u, zval *key)
{
	ZVAL_DEREF(key);
	if (Z_TYPE_P(key) == IS_LONG) {
		return zend_long_to_str(Z_LVAL_P(key));
	}
	if (Z_TYPE_P(key) != IS_STRING || Z_STRLEN_P(key) == 0 || memchr(Z_STRVAL_P(key), UC_DELIM, Z_STRLEN_P(key))) {
		zend_argument_value_error(1, "must contain only non-empty string or int cache keys that do not contain " UC_DELIM_NAME);
		return NULL;
	}
	if (Z_STRLEN_P(key) > key_max(u)) {
		zend_argument_value_error(1, "must contain only cache keys that are not longer than %zu bytes", key_max(u));
		return NULL;
	}
	return zend_string_copy(Z_STR_P(key));
}

ZEND_METHOD(UserCache_Cache, storeMultiple)
{
	HashTable *input;
	zend_long ttl = 0;
	int64_t expires;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ARRAY_HT(input)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	THIS_POOL(u);
	uint32_t n = zend_hash_num_elements(input), count = 0, planned = 0;
	/* Keys and values are taken as they are now: hooks that run while the
	 * values are planned may change the array and what it references. */
	zend_string **skeys = safe_emalloc(n, sizeof(zend_string *), 0);
	zval *vals = safe_emalloc(n, sizeof(zval), 0);
	rv_plan *plans = safe_emalloc(n, sizeof(rv_plan), 0);
	bool ok = true, threw = false;
	zend_string *skey;
	zend_ulong idx;
	zval *val;
	ZEND_HASH_FOREACH_KEY_VAL(input, idx, skey, val) {
		zend_string *key = array_key(u, skey, idx);
		if (!key) {
			threw = true;
			break;
		}
		skeys[count] = store_key(u, key);
		zend_string_release(key);
		ZVAL_COPY_DEREF(&vals[count], val);
		count++;
		if (!check_root_value(val)) {
			threw = true;
			break;
		}
	} ZEND_HASH_FOREACH_END();
	if (!threw && (!check_not_negative(ttl, 2) || resident_expiry(ttl, 2, &expires) == FAILURE)) {
		threw = true;
	}
	resident_cache_obj values;
	rs_store *st = resident_store();
	if (!threw && !uc_values(&values)) {
		ok = false;
	}
	/* Every value is checked and sized before anything is written: one
	 * that cannot be cached, or that the whole cache could not hold, stores
	 * nothing. */
	rv_path root = { .kind = RV_PATH_ROOT, .name = "values" };
	for (uint32_t i = 0; ok && !threw && i < count; i++) {
		uc_store_rules(true);
		zend_result planned_ok = rv_plan_value(RV_CTX, &plans[i], &vals[i], &root, 1);
		uc_store_rules(false);
		if (planned_ok == FAILURE) {
			restate_refusal();
			threw = true;
			break;
		}
		planned++;
		if (plans[i].size > rs_max_value_size(st, ZSTR_LEN(skeys[i]))) {
			ok = false;
		}
	}
	for (uint32_t i = 0; ok && !threw && i < count; i++) {
		ok = uc_wait_unlocked(skeys[i]);
	}
	if (ok && !threw) {
		RESIDENT_G(quiet_stores)++;
		uint32_t written = 0;
		for (uint32_t i = 0; ok && i < count; i++) {
			ok = resident_store_planned(&values, skeys[i], &plans[i], expires, 0, false);
			written += ok;
		}
		RESIDENT_G(quiet_stores)--;
		/* One that found no room (the others took it) undoes the batch:
		 * the keys written before it go, as the proposal rolls back. */
		for (uint32_t i = 0; !ok && i < written; i++) {
			rs_delete(st, values.pool, ZSTR_VAL(skeys[i]), ZSTR_LEN(skeys[i]));
		}
		if (EG(exception)) {
			restate_refusal();
			threw = true;
		}
	}
	for (uint32_t i = 0; i < planned; i++) {
		rv_plan_release(&plans[i]);
	}
	for (uint32_t i = 0; i < count; i++) {
		zend_string_release(skeys[i]);
		zval_ptr_dtor(&vals[i]);
	}
	efree(plans);
	efree(vals);
	efree(skeys);
	if (threw) {
		RETURN_THROWS();
	}
	RETURN_BOOL(ok);
}

static void counter_method(INTERNAL_FUNCTION_PARAMETERS, bool up)
{
	zend_string *key;
	zend_long step = 1, ttl = 0;
	int64_t expires;

	ZEND_PARSE_PARAMETERS_START(1, 3)
		Z_PARAM_STR(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(step)
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	THIS_POOL(u);
	if (!check_key(u, key) || !check_not_negative(step, 2) || !check_not_negative(ttl, 3) || resident_expiry(ttl, 3, &expires) == FAILURE) {
		RETURN_THROWS();
	}
	resident_cache_obj values;
	if (!uc_values(&values)) {
		RETURN_NULL();
	}
	zend_string *skey = store_key(u, key);
	resident_counter rc = RESIDENT_COUNTER_NOT_STORED;
	zend_long value = 0;
	const char *type = NULL;
	if (uc_wait_unlocked(skey)) {
		RESIDENT_G(quiet_stores)++;
		rc = resident_counter_add(&values, skey, step, up, expires, &value, &type);
		RESIDENT_G(quiet_stores)--;
	}
	zend_string_release(skey);
	switch (rc) {
		case RESIDENT_COUNTER_DONE:
			RETURN_LONG(value);
		case RESIDENT_COUNTER_NOT_INTEGER:
			zend_value_error("%s of user cache key \"%s\" requires the stored value to be an integer",
				up ? "Increment" : "Decrement", ZSTR_VAL(key));
			RETURN_THROWS();
		case RESIDENT_COUNTER_OVERFLOW:
			zend_throw_error(zend_ce_arithmetic_error, "%s of user cache key \"%s\" would exceed the range of a PHP integer",
				up ? "Increment" : "Decrement", ZSTR_VAL(key));
			RETURN_THROWS();
		case RESIDENT_COUNTER_THREW:
			RETURN_THROWS();
		case RESIDENT_COUNTER_NOT_STORED:
			RETURN_NULL();
	}
}

ZEND_METHOD(UserCache_Cache, increment)
{
	counter_method(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

ZEND_METHOD(UserCache_Cache, decrement)
{
	counter_method(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

/* A hit into out; false on a miss (or with an exception a restore hook
 * threw). A value holding an object whose class is gone, or is one that
 * cannot be instantiated (abstract, an interface, ...), an enum case that
 * is gone, or a property name unserialize() rejects, is, as in the
 * proposal, a miss, and its entry goes: also when that object made a
 * restore fail (a DatePeriod given an __PHP_Incomplete_Class start), the
 * failure's exception is dropped with it. Resident\Cache gives such a
 * value as unserialize() does (__PHP_Incomplete_Class, or the Error). So
 * is, here only, an object stored by its properties whose name now stands
 * for an internal class that cannot take them (rv_context's
 * internal_state_refused). An autoloader's exception is not a class gone:
 * it reaches the caller. */
static bool fetch_key(const user_cache_obj *u, zend_string *key, zval *out)
{
	resident_cache_obj values;
	if (!uc_values(&values)) {
		return false;
	}
	zend_string *skey = fetch_store_key(u, key);
	uint64_t incomplete = RV_CTX->incomplete_made;
	uint64_t stale = RV_CTX->stale_decodes;
	uint64_t uninstantiable = RV_CTX->uninstantiable_met;
	uint64_t stack_exhausted = RV_CTX->stack_exhausted;
	rs_entry_id seen = { 0 };
	RV_CTX->internal_state_refused = true;
	bool hit = resident_fetch_seen_as(&values, skey, key, out, &seen);
	/* Left set when no object graph took it (a string, a miss). */
	RV_CTX->internal_state_refused = false;
	if (RV_CTX->stack_exhausted != stack_exhausted && !hit && EG(exception)) {
		/* As in the proposal: the C stack ran out decoding it here (a
		 * Fiber's small stack): a miss, and the entry stays for callers
		 * with more stack. */
		zend_clear_exception();
		zend_string_release(skey);
		return false;
	}
	if (RV_CTX->incomplete_made != incomplete || RV_CTX->uninstantiable_met != uninstantiable) {
		if (hit) {
			zval_ptr_dtor(out);
			ZVAL_UNDEF(out);
		}
		if (EG(exception)) {
			zend_clear_exception();
		}
		/* Not a value a restore hook or autoloader stored meanwhile. */
		rs_delete_if_same(resident_store(), values.pool, ZSTR_VAL(skey), ZSTR_LEN(skey), seen);
		hit = false;
	} else if (!hit && EG(exception) && RV_CTX->stale_decodes != stale) {
		/* The decoder's own Error, not an autoloader's: the value is stale. */
		zend_clear_exception();
		rs_delete_if_same(resident_store(), values.pool, ZSTR_VAL(skey), ZSTR_LEN(skey), seen);
	}
	zend_string_release(skey);
	return hit;
}

ZEND_METHOD(UserCache_Cache, fetch)
{
	zend_string *key;
	zval *def = NULL;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_STR(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_ZVAL(def)
	ZEND_PARSE_PARAMETERS_END();

	THIS_POOL(u);
	if (!check_key(u, key)) {
		RETURN_THROWS();
	}
	if (fetch_key(u, key, return_value)) {
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

/* The keys of a list argument, taken before any PHP code can run (a
 * restore hook may change the variables they reference): store keys and
 * the keys as given. False with an exception. */
static bool list_keys(const user_cache_obj *u, HashTable *keys, zend_string ***skeys, zval **given, uint32_t *count)
{
	uint32_t n = zend_hash_num_elements(keys);
	*skeys = safe_emalloc(n, sizeof(zend_string *), 0);
	*given = safe_emalloc(n, sizeof(zval), 0);
	*count = 0;
	zval *kz;
	ZEND_HASH_FOREACH_VAL(keys, kz) {
		zend_string *key = list_key(u, kz);
		if (!key) {
			return false;
		}
		(*skeys)[*count] = key;
		ZVAL_COPY_DEREF(&(*given)[*count], kz);
		(*count)++;
	} ZEND_HASH_FOREACH_END();
	return true;
}

static void list_keys_free(zend_string **skeys, zval *given, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++) {
		zend_string_release(skeys[i]);
		zval_ptr_dtor(&given[i]);
	}
	efree(skeys);
	efree(given);
}

ZEND_METHOD(UserCache_Cache, fetchMultiple)
{
	HashTable *keys;
	zval *def = NULL;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ARRAY_HT(keys)
		Z_PARAM_OPTIONAL
		Z_PARAM_ZVAL(def)
	ZEND_PARSE_PARAMETERS_END();

	THIS_POOL(u);
	zend_string **list;
	zval *given;
	uint32_t count;
	if (!list_keys(u, keys, &list, &given, &count)) {
		list_keys_free(list, given, count);
		RETURN_THROWS();
	}
	array_init_size(return_value, count);
	for (uint32_t i = 0; i < count; i++) {
		zval v;
		if (!fetch_key(u, list[i], &v)) {
			if (EG(exception)) {
				break;
			}
			if (def) {
				ZVAL_COPY(&v, def);
			} else {
				ZVAL_NULL(&v);
			}
		}
		if (Z_TYPE(given[i]) == IS_LONG) {
			zend_hash_index_update(Z_ARRVAL_P(return_value), Z_LVAL(given[i]), &v);
		} else {
			zend_symtable_update(Z_ARRVAL_P(return_value), Z_STR(given[i]), &v);
		}
	}
	list_keys_free(list, given, count);
	if (EG(exception)) {
		zval_ptr_dtor(return_value);
		ZVAL_UNDEF(return_value);
		RETURN_THROWS();
	}
}

ZEND_METHOD(UserCache_Cache, has)
{
	zend_string *key;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(key)
	ZEND_PARSE_PARAMETERS_END();

	THIS_POOL(u);
	if (!check_key(u, key)) {
		RETURN_THROWS();
	}
	resident_cache_obj values;
	if (!uc_values(&values)) {
		RETURN_FALSE;
	}
	zend_string *skey = store_key(u, key);
	bool found = resident_exists(&values, skey);
	zend_string_release(skey);
	RETURN_BOOL(found);
}

/* true whether or not the key was there; false when another request's
 * lock on it outlasted the wait. */
static bool delete_key(resident_cache_obj *values, zend_string *skey)
{
	if (!uc_wait_unlocked(skey)) {
		return false;
	}
	rs_delete(resident_store(), values->pool, ZSTR_VAL(skey), ZSTR_LEN(skey));
	return true;
}

ZEND_METHOD(UserCache_Cache, delete)
{
	zend_string *key;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(key)
	ZEND_PARSE_PARAMETERS_END();

	THIS_POOL(u);
	if (!check_key(u, key)) {
		RETURN_THROWS();
	}
	resident_cache_obj values;
	if (!uc_values(&values)) {
		RETURN_TRUE;
	}
	zend_string *skey = store_key(u, key);
	bool done = delete_key(&values, skey);
	zend_string_release(skey);
	RETURN_BOOL(done);
}

ZEND_METHOD(UserCache_Cache, deleteMultiple)
{
	HashTable *keys;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ARRAY_HT(keys)
	ZEND_PARSE_PARAMETERS_END();

	THIS_POOL(u);
	zend_string **list;
	zval *given;
	uint32_t count;
	if (!list_keys(u, keys, &list, &given, &count)) {
		list_keys_free(list, given, count);
		RETURN_THROWS();
	}
	resident_cache_obj values;
	bool done = true;
	if (uc_values(&values)) {
		/* Nothing is deleted until no other request holds a lock on any of them. */
		for (uint32_t i = 0; done && i < count; i++) {
			zend_string *skey = store_key(u, list[i]);
			done = uc_wait_unlocked(skey);
			zend_string_release(skey);
		}
		for (uint32_t i = 0; done && i < count; i++) {
			zend_string *skey = store_key(u, list[i]);
			done = delete_key(&values, skey);
			zend_string_release(skey);
		}
	}
	list_keys_free(list, given, count);
	RETURN_BOOL(done);
}

ZEND_METHOD(UserCache_Cache, clear)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_POOL(u);
	RETURN_BOOL(clear_prefix(u->prefix));
}

ZEND_METHOD(UserCache_Cache, lock)
{
	zend_string *key;
	zend_long lease = 0;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_STR(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(lease)
	ZEND_PARSE_PARAMETERS_END();

	THIS_POOL(u);
	if (!check_key(u, key) || !check_not_negative(lease, 2)) {
		RETURN_THROWS();
	}
	zend_long max = RESIDENT_G(lock_lease_max);
	if (max > 0 && lease > max) {
		lease = max;
	}
	zend_string *skey = store_key(u, key);
	bool locked = uc_lock(skey, lease, false, true);
	zend_string_release(skey);
	RETURN_BOOL(locked);
}

ZEND_METHOD(UserCache_Cache, unlock)
{
	zend_string *key;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(key)
	ZEND_PARSE_PARAMETERS_END();

	THIS_POOL(u);
	if (!check_key(u, key)) {
		RETURN_THROWS();
	}
	zend_string *skey = store_key(u, key);
	bool unlocked = uc_unlock(skey);
	zend_string_release(skey);
	RETURN_BOOL(unlocked);
}

/* remember()'s part once it missed: computes (the key's lock held, so that
 * one request computes while the others wait for its result), stores, and
 * returns the value. */
static void compute(user_cache_obj *u, zend_string *key, zend_string *skey, bool locked, zend_fcall_info *fci,
                    zend_fcall_info_cache *fcc, int64_t expires, zval *return_value)
{
	zval result, arg;
	ZVAL_UNDEF(&result);
	ZVAL_STR(&arg, key);
	fci->retval = &result;
	fci->param_count = 1;
	fci->params = &arg;
	fci->named_params = NULL;
	volatile bool bailed_out = false;
	/* A fatal error in $callback must not leave the lock behind: every
	 * other request of the key would wait for it. */
	zend_try {
		zend_call_function(fci, fcc);
	} zend_catch {
		bailed_out = true;
	} zend_end_try();
	if (bailed_out) {
		if (locked) {
			uc_unlock_unclaimed(skey);
		}
		zend_bailout();
	}
	if (EG(exception) || Z_ISUNDEF(result)) {
		zval_ptr_dtor(&result);
		if (locked) {
			uc_unlock_unclaimed(skey);
		}
		if (!EG(exception)) {
			RETURN_NULL();
		}
		return;
	}
	if (Z_ISREF(result)) {
		zend_unwrap_reference(&result);
	}
	resident_cache_obj values;
	if (!check_root_value(&result)
		|| (uc_values(&values) && (locked || uc_wait_unlocked(skey)) && store_quietly(&values, skey, &result, expires, false) < 0)) {
		restate_refusal();
		zval_ptr_dtor(&result);
		if (locked) {
			uc_unlock_unclaimed(skey);
		}
		return;
	}
	if (locked) {
		uc_unlock_unclaimed(skey);
	}
	RETURN_COPY_VALUE(&result);
}

ZEND_METHOD(UserCache_Cache, remember)
{
	zend_string *key;
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	zend_long ttl = 0;
	int64_t expires;

	ZEND_PARSE_PARAMETERS_START(2, 3)
		Z_PARAM_STR(key)
		Z_PARAM_FUNC(fci, fcc)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	THIS_POOL(u);
	if (!check_key(u, key) || !check_not_negative(ttl, 3) || resident_expiry(ttl, 3, &expires) == FAILURE) {
		RETURN_THROWS();
	}
	if (fetch_key(u, key, return_value)) {
		return;
	}
	if (EG(exception)) {
		RETURN_THROWS();
	}
	zend_string *skey = store_key(u, key);
	resident_cache_obj values;
	bool locked = false;
	/* A lock the caller took with lock() is the caller's to release. */
	if (uc_values(&values) && !uc_lock_held(skey)) {
		locked = uc_lock(skey, 0, true, false);
		/* Whoever held it may have stored the value meanwhile. */
		if (fetch_key(u, key, return_value) || EG(exception)) {
			if (locked) {
				uc_unlock(skey);
			}
			zend_string_release(skey);
			return;
		}
	}
	compute(u, key, skey, locked, &fci, &fcc, expires, return_value);
	zend_string_release(skey);
}
