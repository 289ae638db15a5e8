/* SPDX-License-Identifier: MIT */
/*
 * RequestOverStatic, restore: a linked class's snapshots written back into
 * its static properties and its methods' static variables, once each is
 * found to match the class file and the unit's layout. When it runs (at
 * link, or once the compile that linked the class returns) is
 * lifecycle.c's to decide; what it writes is the baseline that publish.c
 * compares with at the end.
 */
#include <time.h>
#include "php.h"
#include "php_resident.h"
#include "internal.h"
#include "zend_exceptions.h"

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
		zend_string *item = ros_item_name(prop, NULL, NULL);
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
	zend_string *item = ros_item_name(NULL, method, var);
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
	zend_string *my_file = ros_file_identity(u->ce);
	zend_string *my_layout = ros_unit_layout(u);
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
		ros_each_item(u, restore_item, &r);
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

void ros_restore_class(ros_class *rc)
{
	resident_cache_obj pool;
	if (!ros_pool_handle(&pool)) {
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
