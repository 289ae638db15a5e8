/*
 * #[Resident\RequestOverStatic]: static state that survives the request.
 *
 * A unit of state is a class (all its static properties and the static
 * variables of its methods), one static property, or one method's static
 * variables. Each unit is one snapshot in a hidden pool.
 *
 * Restore: when the engine links a class (the class-linked observer, PHP
 * 8.2+), before any code can read its statics: properties are written into
 * the class's static slots, method statics become the method's static
 * variable table (as references, which 8.3+ requires). While the engine is
 * compiling, nothing may autoload, so classes linked then are restored as
 * soon as the outermost compile returns (zend_compile_file is wrapped at the
 * first request, outside OPcache, so a cache hit cannot bypass it).
 *
 * Publish: in RSHUTDOWN (the last point where statics and objects are
 * intact), and only if something changed. Whatever was restored is held
 * until then, so a changed string or array is a different pointer (an array
 * we hold is separated on its first write). Objects can change inside: a
 * snapshot carries the digest of each object graph it holds
 * (value/digest.c), compared with the graph's digest at the end. Nothing is published after a fatal error or a timeout. A
 * snapshot remembers its class file (path, mtime, size) and the unit's
 * layout; any difference drops it. Concurrent requests: the last to end
 * wins, and each snapshot is written whole.
 *
 * No opcode handler and no zend_execute_ex: the JIT stays on.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "php.h"
#include "php_resident.h"
#include "api/api.h"
#include "ros.h"
#include "runtime/class_list.h"
#include "value/value.h"
#include "SAPI.h"
#include "zend_attributes.h"
#include "zend_exceptions.h"
#include "zend_observer.h"
#include "zend_smart_str.h"


enum { ROS_CLASS, ROS_PROP, ROS_METHOD };

typedef struct ros_unit {
	uint8_t scope;
	bool restored;                 /* a snapshot was applied this request */
	zend_class_entry *ce;
	zend_property_info *prop;      /* ROS_PROP */
	zend_op_array *method;         /* ROS_METHOD */
	zend_string *key;
	HashTable baseline;            /* item -> what was restored (held until the end) */
	HashTable digests;             /* item -> digest its objects were published with */
	rv_lazy_graph *graph;          /* the snapshot restored lazily, or NULL */
} ros_unit;

typedef struct ros_class {
	zend_class_entry *ce;
	uint32_t nunits;
	ros_unit units[];
} ros_class;

static zend_string *attribute_lcname;
static resident_class_list listed_classes;  /* resident.request_over_static_classes */
static zend_op_array *(*orig_compile_file)(zend_file_handle *, int);
static zend_op_array *(*orig_compile_string)(zend_string *, const char *, zend_compile_position);

/* --- the cache pool of snapshots ---------------------------------------------- */

static bool pool_handle(resident_cache_obj *pool)
{
	rs_store *st = resident_store();
	memset(pool, 0, sizeof(*pool));
	if (!st || rs_pool_open(st, RESIDENT_ROS_POOL, false, &pool->pool) != RS_OK) {
		return false;
	}
	pool->name = ZSTR_EMPTY_ALLOC();
	return true;
}

/* --- which units a class has ------------------------------------------------------ */

static bool has_attribute(HashTable *attributes)
{
	return attributes && zend_get_attribute(attributes, attribute_lcname);
}

static bool own_static_prop(zend_class_entry *ce, zend_property_info *info)
{
	return info->ce == ce && (info->flags & ZEND_ACC_STATIC);
}

static bool own_method_with_statics(zend_class_entry *ce, zend_function *fn)
{
	return fn->type == ZEND_USER_FUNCTION && fn->common.scope == ce && fn->op_array.static_variables;
}

static void unit_init(ros_unit *u, zend_class_entry *ce, uint8_t scope, const char *member)
{
	static const char *prefix[] = { "class:", "prop:", "method:" };
	memset(u, 0, sizeof(*u));
	u->scope = scope;
	u->ce = ce;
	zend_string *lc = zend_string_tolower(ce->name);
	u->key = member ? zend_strpprintf(0, "%s%s::%s", prefix[scope], ZSTR_VAL(lc), member)
		: zend_strpprintf(0, "%s%s", prefix[scope], ZSTR_VAL(lc));
	zend_string_release(lc);
	zend_hash_init(&u->baseline, 8, NULL, ZVAL_PTR_DTOR, 0);
	zend_hash_init(&u->digests, 0, NULL, NULL, 0);
}

/* Whether any script compiled since the master started put the attribute
 * on a property or a method: until one does, a linked class needs no scan
 * of its members (most of what the class-linked hook would cost). Set by
 * the attribute's validator, which runs when such a script is compiled,
 * before any of its classes is linked, in whichever process compiles it:
 * so the flag lives in a page shared by the master and its workers, made
 * at MINIT as OPcache's shared memory is, and gone with it. */
static atomic_bool *member_attribute_seen;
static atomic_bool member_attribute_assumed = true;  /* no shared page */
/* OPcache's file cache brings scripts back without compiling them. Set
 * once per process with the hooks (install_hooks()), when OPcache's
 * settings are known; PHP_INI_SYSTEM, so it cannot change after. */
static bool opcache_file_cache;

static bool members_may_carry_attribute(void)
{
	return opcache_file_cache || atomic_load(member_attribute_seen);
}

static ros_class *units_of(zend_class_entry *ce)
{
	if (ce->type != ZEND_USER_CLASS || (ce->ce_flags & (ZEND_ACC_INTERFACE | ZEND_ACC_TRAIT))) {
		return NULL;
	}
	bool whole = has_attribute(ce->attributes) || resident_class_list_has(&listed_classes, ce->name);
	if (!whole && !members_may_carry_attribute()) {
		return NULL;
	}
	uint32_t n = whole;
	zend_property_info *info;
	zend_function *fn;
	if (!whole) {
		if (ce->default_static_members_count) {
			ZEND_HASH_MAP_FOREACH_PTR(&ce->properties_info, info) {
				n += own_static_prop(ce, info) && has_attribute(info->attributes);
			} ZEND_HASH_FOREACH_END();
		}
		ZEND_HASH_MAP_FOREACH_PTR(&ce->function_table, fn) {
			n += own_method_with_statics(ce, fn) && has_attribute(fn->op_array.attributes);
		} ZEND_HASH_FOREACH_END();
	}
	if (n == 0) {
		return NULL;
	}
	ros_class *rc = ecalloc(1, sizeof(ros_class) + n * sizeof(ros_unit));
	rc->ce = ce;
	if (whole) {
		unit_init(&rc->units[rc->nunits++], ce, ROS_CLASS, NULL);
		return rc;
	}
	ZEND_HASH_MAP_FOREACH_PTR(&ce->properties_info, info) {
		if (own_static_prop(ce, info) && has_attribute(info->attributes)) {
			ros_unit *u = &rc->units[rc->nunits++];
			unit_init(u, ce, ROS_PROP, zend_get_unmangled_property_name(info->name));
			u->prop = info;
		}
	} ZEND_HASH_FOREACH_END();
	ZEND_HASH_MAP_FOREACH_PTR(&ce->function_table, fn) {
		if (own_method_with_statics(ce, fn) && has_attribute(fn->op_array.attributes)) {
			ros_unit *u = &rc->units[rc->nunits++];
			unit_init(u, ce, ROS_METHOD, ZSTR_VAL(fn->common.function_name));
			u->method = &fn->op_array;
		}
	} ZEND_HASH_FOREACH_END();
	return rc;
}

static void ros_class_free(ros_class *rc)
{
	for (uint32_t i = 0; i < rc->nunits; i++) {
		zend_string_release(rc->units[i].key);
		zend_hash_destroy(&rc->units[i].baseline);
		zend_hash_destroy(&rc->units[i].digests);
	}
	efree(rc);
}

/* --- the items of a unit ------------------------------------------------------------ */

/* Calls fn for every static property and method static variable of the unit. */
typedef void (*item_fn)(ros_unit *u, zend_property_info *prop, zend_op_array *method, zend_string *var, void *ctx);

static void each_item(ros_unit *u, item_fn fn, void *ctx)
{
	zend_class_entry *ce = u->ce;
	if (u->scope == ROS_PROP) {
		fn(u, u->prop, NULL, NULL, ctx);
		return;
	}
	if (u->scope == ROS_CLASS) {
		zend_property_info *info;
		ZEND_HASH_MAP_FOREACH_PTR(&ce->properties_info, info) {
			if (own_static_prop(ce, info)) {
				fn(u, info, NULL, NULL, ctx);
			}
		} ZEND_HASH_FOREACH_END();
	}
	zend_function *f;
	ZEND_HASH_MAP_FOREACH_PTR(&ce->function_table, f) {
		if (own_method_with_statics(ce, f) && (u->scope == ROS_CLASS || &f->op_array == u->method)) {
			zend_string *var;
			ZEND_HASH_MAP_FOREACH_STR_KEY(f->op_array.static_variables, var) {
				fn(u, NULL, &f->op_array, var, ctx);
			} ZEND_HASH_FOREACH_END();
		}
	} ZEND_HASH_FOREACH_END();
}

static zend_string *item_name(zend_property_info *prop, zend_op_array *method, zend_string *var)
{
	if (prop) {
		return zend_strpprintf(0, "p:%s", zend_get_unmangled_property_name(prop->name));
	}
	return zend_strpprintf(0, "m:%s:%s", ZSTR_VAL(method->function_name), ZSTR_VAL(var));
}

/* The item's value this request, NULL when it was never set up (statics
 * not initialized, method never called). */
static zval *item_current(zend_class_entry *ce, zend_property_info *prop, zend_op_array *method, zend_string *var)
{
	if (prop) {
		zval *statics = CE_STATIC_MEMBERS(ce);
		if (!statics) {
			return NULL;
		}
		zval *slot = &statics[prop->offset];
		ZVAL_DEINDIRECT(slot);
		return slot;
	}
	HashTable *ht = ZEND_MAP_PTR_GET(method->static_variables_ptr);
	return ht ? zend_hash_find(ht, var) : NULL;
}

static zval *item_default(zend_class_entry *ce, zend_property_info *prop, zend_op_array *method, zend_string *var)
{
	if (prop) {
		return &ce->default_static_members_table[prop->offset];
	}
	return zend_hash_find(method->static_variables, var);
}

/* What a snapshot must match: the names of the unit's items, in order. */
static void layout_item(ros_unit *u, zend_property_info *prop, zend_op_array *method, zend_string *var, void *ctx)
{
	zend_string *name = item_name(prop, method, var);
	smart_str_append((smart_str *)ctx, name);
	smart_str_appendc((smart_str *)ctx, ';');
	zend_string_release(name);
}

static zend_string *unit_layout(ros_unit *u)
{
	smart_str s = {0};
	each_item(u, layout_item, &s);
	smart_str_0(&s);
	return s.s ? s.s : ZSTR_EMPTY_ALLOC();
}

static zend_string *stat_identity(zend_string *file, bool persistent)
{
	struct stat sb;
	char *id;
	size_t len = stat(ZSTR_VAL(file), &sb) == 0
		? zend_spprintf(&id, 0, "%s|%lld|%lld", ZSTR_VAL(file), (long long)sb.st_mtime, (long long)sb.st_size)
		: zend_spprintf(&id, 0, "%s|?", ZSTR_VAL(file));
	zend_string *s = zend_string_init(id, len, persistent);
	efree(id);
	return s;
}

/* Preloaded classes cannot change until php-fpm restarts (OPcache keeps
 * them through its own restarts): the files of those with units are
 * stat()ed once per process, when they are first found (preloaded_files:
 * file -> identity, persistent). Built whole before preloaded_known is
 * set, and never changed after: threads read it without the lock. A class
 * given units later (a pool's own list) is stat()ed per request. */
static HashTable *preloaded_files;

/* The class file's identity, stat()ed once per request (once per process
 * for a preloaded class). */
static zend_string *file_identity(zend_class_entry *ce)
{
	zend_string *file = ce->info.user.filename;
	if (!file) {
		return ZSTR_EMPTY_ALLOC();
	}
	if ((ce->ce_flags & ZEND_ACC_PRELOADED) && preloaded_files) {
		zend_string *known = zend_hash_find_ptr(preloaded_files, file);
		if (known) {
			/* A copy: threads must not share the refcount. */
			return zend_string_init(ZSTR_VAL(known), ZSTR_LEN(known), 0);
		}
	}
	HashTable *cache = RESIDENT_G(ros_files);
	if (!cache) {
		ALLOC_HASHTABLE(cache);
		zend_hash_init(cache, 8, NULL, ZVAL_PTR_DTOR, 0);
		RESIDENT_G(ros_files) = cache;
	}
	zval *known = zend_hash_find(cache, file);
	if (known) {
		return zend_string_copy(Z_STR_P(known));
	}
	zend_string *id = stat_identity(file, false);
	zval v;
	ZVAL_STR_COPY(&v, id);
	zend_hash_update(cache, file, &v);
	return id;
}

/* --- restore ----------------------------------------------------------------------- */

typedef struct restore_ctx {
	zval *props;       /* snapshot['props'] */
	zval *statics;     /* snapshot['statics'] */
	zval *digests;     /* snapshot['digests'] */
	bool failed;
} restore_ctx;

static void remember_restored(ros_unit *u, zend_string *name, zval *value, zval *digests)
{
	zval held;
	ZVAL_COPY(&held, value);
	zend_hash_update(&u->baseline, name, &held);
	/* Objects can change inside: the digest they were published with. */
	zval *d = digests && Z_TYPE_P(digests) == IS_ARRAY ? zend_hash_find(Z_ARRVAL_P(digests), name) : NULL;
	if (d && Z_TYPE_P(d) == IS_LONG) {
		zend_hash_update(&u->digests, name, d);
	}
}

static void restore_item(ros_unit *u, zend_property_info *prop, zend_op_array *method, zend_string *var, void *ctx)
{
	restore_ctx *r = ctx;
	zend_class_entry *ce = u->ce;
	if (r->failed) {
		return;
	}
	if (prop) {
		const char *name = zend_get_unmangled_property_name(prop->name);
		zval *value = Z_TYPE_P(r->props) == IS_ARRAY ? zend_hash_str_find(Z_ARRVAL_P(r->props), name, strlen(name)) : NULL;
		if (!value) {
			return;
		}
		if (ZEND_TYPE_IS_SET(prop->type) && !zend_verify_property_type(prop, value, 1)) {
			/* The declared type changed since: the snapshot is not used. */
			zend_clear_exception();
			r->failed = true;
			return;
		}
		if (!CE_STATIC_MEMBERS(ce)) {
			zend_class_init_statics(ce);
		}
		zval *slot = &CE_STATIC_MEMBERS(ce)[prop->offset];
		ZVAL_DEINDIRECT(slot);
		zval old;
		ZVAL_COPY_VALUE(&old, slot);
		ZVAL_COPY(slot, value);
		zval_ptr_dtor(&old);
		zend_string *item = item_name(prop, NULL, NULL);
		remember_restored(u, item, slot, r->digests);
		zend_string_release(item);
		return;
	}
	zval *vars = Z_TYPE_P(r->statics) == IS_ARRAY ? zend_hash_find(Z_ARRVAL_P(r->statics), method->function_name) : NULL;
	zval *value = vars && Z_TYPE_P(vars) == IS_ARRAY ? zend_hash_find(Z_ARRVAL_P(vars), var) : NULL;
	if (!value) {
		return;
	}
	HashTable *ht = ZEND_MAP_PTR_GET(method->static_variables_ptr);
	if (!ht) {
		/* The layout the engine's BIND_STATIC expects: the template's. */
		ht = zend_array_dup(method->static_variables);
		ZEND_MAP_PTR_SET(method->static_variables_ptr, ht);
	}
	zval *slot = zend_hash_find(ht, var);
	if (!slot) {
		return;
	}
	zval_ptr_dtor(slot);
	Z_TRY_ADDREF_P(value);
	/* Bound statics are references (and must be, from PHP 8.3). */
	ZVAL_NEW_REF(slot, value);
	zend_string *item = item_name(NULL, method, var);
	remember_restored(u, item, Z_REFVAL_P(slot), r->digests);
	zend_string_release(item);
}

static void restore_unit(resident_cache_obj *pool, ros_unit *u)
{
	zval snap;
	if (!resident_fetch_lazy(pool, u->key, &snap, &u->graph)) {
		if (EG(exception)) {
			/* A snapshot that cannot come back (a class it needs is gone):
			 * drop it rather than fail every request. */
			zend_clear_exception();
			rs_delete(resident_store(), pool->pool, ZSTR_VAL(u->key), ZSTR_LEN(u->key));
		}
		return;
	}
	zval *file = Z_TYPE(snap) == IS_ARRAY ? zend_hash_str_find(Z_ARRVAL(snap), "file", 4) : NULL;
	zval *layout = Z_TYPE(snap) == IS_ARRAY ? zend_hash_str_find(Z_ARRVAL(snap), "layout", 6) : NULL;
	zend_string *my_file = file_identity(u->ce);
	zend_string *my_layout = unit_layout(u);
	bool valid = file && layout && Z_TYPE_P(file) == IS_STRING && Z_TYPE_P(layout) == IS_STRING
		&& zend_string_equals(Z_STR_P(file), my_file) && zend_string_equals(Z_STR_P(layout), my_layout);
	zend_string_release(my_file);
	zend_string_release(my_layout);
	if (valid) {
		restore_ctx r = {
			.props = zend_hash_str_find(Z_ARRVAL(snap), "props", 5),
			.statics = zend_hash_str_find(Z_ARRVAL(snap), "statics", 7),
			.digests = zend_hash_str_find(Z_ARRVAL(snap), "digests", 7),
		};
		zval none;
		ZVAL_NULL(&none);
		if (!r.props) {
			r.props = &none;
		}
		if (!r.statics) {
			r.statics = &none;
		}
		each_item(u, restore_item, &r);
		valid = !r.failed;
		u->restored = true;
	}
	if (!valid) {
		/* The class file or its layout changed: the snapshot is stale. */
		rs_delete(resident_store(), pool->pool, ZSTR_VAL(u->key), ZSTR_LEN(u->key));
	}
	zval_ptr_dtor(&snap);
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void restore_class(ros_class *rc)
{
	resident_cache_obj pool;
	if (!pool_handle(&pool)) {
		return;
	}
	/* Timed once, by the outermost restore. */
	uint64_t start = RESIDENT_G(ros_restore_depth)++ ? 0 : monotonic_ns();
	for (uint32_t i = 0; i < rc->nunits; i++) {
		restore_unit(&pool, &rc->units[i]);
	}
	if (--RESIDENT_G(ros_restore_depth) == 0) {
		RESIDENT_G(ros_restore_ns) += monotonic_ns() - start;
	}
}

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
		restore_class(rc);
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
	ros_class *rc = units_of(ce);
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
		restore_class(rc);
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

/* --- publish ----------------------------------------------------------------------- */

typedef struct publish_ctx {
	bool changed;
	zval props;
	zval statics;
	zval digests;      /* item -> digest, for items holding objects */
} publish_ctx;

static bool same_value(zval *c, zval *b)
{
	ZVAL_DEREF(c);
	ZVAL_DEREF(b);
	if (Z_TYPE_P(c) != Z_TYPE_P(b)) {
		return false;
	}
	switch (Z_TYPE_P(c)) {
		case IS_LONG: return Z_LVAL_P(c) == Z_LVAL_P(b);
		case IS_DOUBLE: return memcmp(&Z_DVAL_P(c), &Z_DVAL_P(b), sizeof(double)) == 0;
		case IS_STRING: return Z_STR_P(c) == Z_STR_P(b) || zend_string_equal_content(Z_STR_P(c), Z_STR_P(b));
		/* A restored array we still hold is separated on its first write. */
		case IS_ARRAY: return Z_ARR_P(c) == Z_ARR_P(b);
		case IS_OBJECT: return Z_OBJ_P(c) == Z_OBJ_P(b);
		case IS_NULL: case IS_FALSE: case IS_TRUE: return true;
		default: return false;
	}
}

/* Adds the item's value (and its digest, if any) to the snapshot being built. */
static void snapshot_add(publish_ctx *p, zend_property_info *prop, zend_op_array *method, zend_string *var,
                         zend_string *name, zval *value, zval *digest)
{
	Z_TRY_ADDREF_P(value);
	if (prop) {
		add_assoc_zval(&p->props, zend_get_unmangled_property_name(prop->name), value);
	} else {
		zval *vars = zend_hash_find(Z_ARRVAL(p->statics), method->function_name);
		if (!vars) {
			zval arr;
			array_init(&arr);
			vars = zend_hash_add_new(Z_ARRVAL(p->statics), method->function_name, &arr);
		}
		add_assoc_zval_ex(vars, ZSTR_VAL(var), ZSTR_LEN(var), value);
	}
	if (digest) {
		add_assoc_long_ex(&p->digests, ZSTR_VAL(name), ZSTR_LEN(name), Z_LVAL_P(digest));
	}
}

static void check_item(ros_unit *u, zend_property_info *prop, zend_op_array *method, zend_string *var, void *ctx)
{
	publish_ctx *p = ctx;
	zval *cur = item_current(u->ce, prop, method, var);
	zend_string *name = item_name(prop, method, var);
	if (cur) {
		/* Bound method statics are references: the value is what counts. */
		ZVAL_DEREF(cur);
		zval *base = u->restored ? zend_hash_find(&u->baseline, name) : item_default(u->ce, prop, method, var);
		bool same = base && same_value(cur, base);
		zval digest, *d = NULL;
		if (rv_holds_objects(cur)) {
			/* Objects change inside: compare with what was published.
			 * Restored lazily, the objects used are compared with their
			 * records instead, which leaves the others as they are. */
			zval *published = zend_hash_find(&u->digests, name);
			if (same && published && u->graph && rv_lazy_graph_unchanged(u->graph)) {
				d = published;
			} else {
				ZVAL_LONG(&digest, (zend_long)rv_digest(cur));
				same = same && published && Z_LVAL_P(published) == Z_LVAL(digest);
				d = &digest;
			}
		}
		p->changed |= !same;
		/* Whatever happens, the snapshot carries every item set up now. */
		snapshot_add(p, prop, method, var, name, cur, d);
	} else if (u->restored) {
		/* Restored but not set up again (a method not called): keep what
		 * the snapshot had. */
		zval *held = zend_hash_find(&u->baseline, name);
		if (held) {
			snapshot_add(p, prop, method, var, name, held, zend_hash_find(&u->digests, name));
		}
	}
	zend_string_release(name);
}

/* Plans value under the name given (a refusal goes to error_sink), and
 * releases the name. */
static void plan_named(zval *value, zend_string *name)
{
	rv_path root = { .kind = RV_PATH_NAMED, .name = ZSTR_VAL(name) };
	rv_plan plan;
	if (rv_plan_value(RV_CTX, &plan, value, &root, 0) == SUCCESS) {
		rv_plan_release(&plan);
	}
	zend_string_release(name);
}

/* Plans each item of a refused snapshot alone, under its own name, and
 * returns the first refusal: "cannot be cached: Foo::$bar[1] is a Closure". */
static zend_string *explain_refusal(ros_unit *u, zval *snap)
{
	zend_string *why = NULL;
	zval *props = zend_hash_str_find(Z_ARRVAL_P(snap), "props", 5);
	zval *statics = zend_hash_str_find(Z_ARRVAL_P(snap), "statics", 7);
	zend_string *key, *method;
	zval *v, *vars;
	RV_CTX->error_sink = &why;
	ZEND_HASH_FOREACH_STR_KEY_VAL(Z_ARRVAL_P(props), key, v) {
		if (!why) {
			plan_named(v, zend_strpprintf(0, "%s::$%s", ZSTR_VAL(u->ce->name), ZSTR_VAL(key)));
		}
	} ZEND_HASH_FOREACH_END();
	ZEND_HASH_FOREACH_STR_KEY_VAL(Z_ARRVAL_P(statics), method, vars) {
		ZEND_HASH_FOREACH_STR_KEY_VAL(Z_ARRVAL_P(vars), key, v) {
			if (!why) {
				plan_named(v, zend_strpprintf(0, "static $%s in %s::%s()", ZSTR_VAL(key), ZSTR_VAL(u->ce->name), ZSTR_VAL(method)));
			}
		} ZEND_HASH_FOREACH_END();
	} ZEND_HASH_FOREACH_END();
	RV_CTX->error_sink = NULL;
	zend_clear_exception();
	return why;
}

static void publish_unit(resident_cache_obj *pool, ros_unit *u)
{
	if (u->graph && rv_lazy_graph_failed(u->graph)) {
		/* Objects of the snapshot could not come back (see restore_unit()):
		 * their statics are not whole. */
		rs_delete(resident_store(), pool->pool, ZSTR_VAL(u->key), ZSTR_LEN(u->key));
		return;
	}
	publish_ctx p = { .changed = false };
	array_init(&p.props);
	array_init(&p.statics);
	array_init(&p.digests);
	each_item(u, check_item, &p);
	if (p.changed) {
		zval snap;
		array_init(&snap);
		add_assoc_str(&snap, "file", file_identity(u->ce));
		add_assoc_str(&snap, "layout", unit_layout(u));
		add_assoc_zval(&snap, "props", &p.props);
		add_assoc_zval(&snap, "statics", &p.statics);
		add_assoc_zval(&snap, "digests", &p.digests);
		ZVAL_UNDEF(&p.props);
		ZVAL_UNDEF(&p.statics);
		ZVAL_UNDEF(&p.digests);
		/* No PHP frame is running to throw into: refusals come back as text. */
		zend_string *why = NULL;
		RV_CTX->error_sink = &why;
		int stored = resident_store_value(pool, u->key, &snap, 0, 0, false, 0);
		RV_CTX->error_sink = NULL;
		if (stored <= 0 || EG(exception)) {
			zend_clear_exception();
			if (why) {
				/* Name the static rather than the snapshot's inner layout. */
				zend_string *better = explain_refusal(u, &snap);
				if (better) {
					zend_string_release(why);
					why = better;
				}
			}
			php_error_docref(NULL, E_WARNING, "The static state of %s cannot be kept across requests: %s",
				ZSTR_VAL(u->ce->name), why ? ZSTR_VAL(why) : "it could not be stored");
		}
		if (why) {
			zend_string_release(why);
		}
		zval_ptr_dtor(&snap);
	}
	zval_ptr_dtor(&p.props);
	zval_ptr_dtor(&p.statics);
	zval_ptr_dtor(&p.digests);
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
	opcache_file_cache = file_cache && *file_cache;
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
			zend_hash_str_add_new_ptr(files, ZSTR_VAL(file), ZSTR_LEN(file), stat_identity(file, true));
		}
	}
	preloaded_files = files;
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
				ros_class *rc = units_of(ce);
				if (rc) {
					ros_class_free(rc);
					preloaded = perealloc(preloaded, (npreloaded + 1) * sizeof(*preloaded), 1);
					preloaded[npreloaded++] = ce;
				}
			}
		} ZEND_HASH_FOREACH_END();
		if (npreloaded && !preloaded_files) {
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
		if (publish && !pool_handle(&pool)) {
			publish = false;
		}
		ros_class *rc;
		ZEND_HASH_FOREACH_PTR(classes, rc) {
			for (uint32_t i = 0; publish && i < rc->nunits; i++) {
				publish_unit(&pool, &rc->units[i]);
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

/* A key of a property or method unit of the class: "prop:<class>::..."
 * or "method:<class>::...". */
static bool member_key_of(const zend_string *lc, const char *key, size_t len)
{
	const char *sep = memchr(key, ':', len);
	if (!sep || strncmp(key, "class:", 6) == 0) {
		return false;
	}
	size_t rest = len - (size_t)(sep + 1 - key);
	return rest > ZSTR_LEN(lc) + 2 && memcmp(sep + 1, ZSTR_VAL(lc), ZSTR_LEN(lc)) == 0
		&& sep[1 + ZSTR_LEN(lc)] == ':' && sep[2 + ZSTR_LEN(lc)] == ':';
}

zend_long ros_forget(zend_string *class_name)
{
	resident_cache_obj pool;
	if (!pool_handle(&pool)) {
		return 0;
	}
	rs_store *st = resident_store();
	if (!class_name) {
		rs_pool_stats ps;
		rs_pool_stats_get(st, pool.pool, &ps);
		rs_clear(st, pool.pool);
		return (zend_long)ps.entries;
	}
	zend_string *lc = zend_string_tolower(class_name);
	if (ZSTR_LEN(lc) && ZSTR_VAL(lc)[0] == '\\') {
		zend_string *trimmed = zend_string_init(ZSTR_VAL(lc) + 1, ZSTR_LEN(lc) - 1, 0);
		zend_string_release(lc);
		lc = trimmed;
	}
	zend_long dropped = 0;
	zend_string *exact = zend_strpprintf(0, "class:%s", ZSTR_VAL(lc));
	dropped += rs_delete(st, pool.pool, ZSTR_VAL(exact), ZSTR_LEN(exact)) == RS_OK;
	zend_string_release(exact);
	/* Property and method units: every key under "prop:<class>::" or
	 * "method:<class>::". */
	/* Copied out of the segment first, then deleted one by one (each
	 * delete takes the lock). */
	rs_key_batch keys = {0};
	uint64_t buckets = rs_bucket_count(st);
	for (uint64_t b = 0; b < buckets;) {
		rs_key_batch_clear(&keys);
		bool complete = rs_keys_collect(st, pool.pool, &b, 1024, &keys);
		rs_key_ref k;
		for (size_t pos = 0; rs_key_batch_next(&keys, &pos, &k);) {
			if (member_key_of(lc, k.key, k.len)) {
				dropped += rs_delete(st, pool.pool, k.key, k.len) == RS_OK;
			}
		}
		if (!complete) {
			zend_throw_error(NULL, "Resident\\Cache::forgetStatics(): out of memory while copying keys");
			break;
		}
	}
	rs_key_batch_free(&keys);
	zend_string_release(lc);
	return dropped;
}

void ros_status(zval *out)
{
	array_init(out);
	add_assoc_bool(out, "active", RESIDENT_G(ros_active));
	resident_cache_obj pool;
	rs_pool_stats ps = {0};
	if (pool_handle(&pool)) {
		rs_pool_stats_get(resident_store(), pool.pool, &ps);
	}
	add_assoc_long(out, "snapshots", (zend_long)ps.entries);
	add_assoc_long(out, "memory", (zend_long)ps.bytes);
	add_assoc_long(out, "restores", (zend_long)ps.hits);
	add_assoc_long(out, "publishes", (zend_long)ps.stores);
	/* This request's own: what restoring cost it so far, including what ran
	 * before the script (preloaded classes are restored when the request starts). */
	add_assoc_long(out, "restore_us_this_request", (zend_long)(RESIDENT_G(ros_restore_ns) / 1000));
	/* Objects come back as shells, filled in when first used. */
	add_assoc_long(out, "shells_this_request", (zend_long)RV_CTX->shells_made);
	add_assoc_long(out, "shells_filled_this_request", (zend_long)RV_CTX->shells_filled);
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
	atomic_store(member_attribute_seen, true);
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

void ros_module_start(zend_class_entry *attribute_ce, const char *listed, bool observe)
{
	zend_internal_attribute *attr = zend_internal_attribute_register(attribute_ce,
		ZEND_ATTRIBUTE_TARGET_CLASS | ZEND_ATTRIBUTE_TARGET_PROPERTY | ZEND_ATTRIBUTE_TARGET_METHOD);
	attr->validator = validate;
	void *page = mmap(NULL, sizeof(atomic_bool), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (page != MAP_FAILED) {
		member_attribute_seen = page;
		atomic_init(member_attribute_seen, false);
	} else {
		member_attribute_seen = &member_attribute_assumed;
	}
	attribute_lcname = zend_string_init_interned("resident\\requestoverstatic", sizeof("resident\\requestoverstatic") - 1, 1);
	resident_class_list_parse(&listed_classes, listed);
	if (observe) {
		zend_observer_class_linked_register(class_linked);
	}
}

bool ros_listed_classes_are(const char *listed)
{
	return resident_class_list_is(&listed_classes, listed);
}

void ros_listed_classes_update(const char *listed)
{
	if (!resident_class_list_update(&listed_classes, listed)) {
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
	resident_class_list_free(&listed_classes);
	if (member_attribute_seen && member_attribute_seen != &member_attribute_assumed) {
		munmap(member_attribute_seen, sizeof(atomic_bool));
	}
	member_attribute_seen = NULL;
	if (orig_compile_file && zend_compile_file == ros_compile_file) {
		zend_compile_file = orig_compile_file;
		zend_compile_string = orig_compile_string;
	}
	if (preloaded) {
		pefree(preloaded, 1);
		preloaded = NULL;
		npreloaded = 0;
	}
	if (preloaded_files) {
		zend_hash_destroy(preloaded_files);
		pefree(preloaded_files, 1);
		preloaded_files = NULL;
	}
}
