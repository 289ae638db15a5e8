/* SPDX-License-Identifier: MIT */
/*
 * RequestOverStatic, publish: at request end, each unit's items compared
 * with what was restored (or with their defaults), and a unit where
 * something changed stored whole as a new snapshot; a refusal names the
 * static that caused it. Apart from restore.c: it runs once, in RSHUTDOWN,
 * and only reads what restore wrote (a unit's baseline and digests).
 */
#include "php.h"
#include "php_resident.h"
#include "internal.h"
#include "zend_exceptions.h"

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

zval *ros_prop_current(ros_unit *u)
{
	zval *cur = item_current(u->ce, u->prop, NULL, NULL);
	if (cur) {
		ZVAL_DEREF(cur);
	}
	return cur;
}

static zval *item_default(zend_class_entry *ce, zend_property_info *prop, zend_op_array *method, zend_string *var)
{
	if (prop) {
		return &ce->default_static_members_table[prop->offset];
	}
	return zend_hash_find(method->static_variables, var);
}

typedef struct publish_ctx {
	bool changed;
	zval props;
	zval statics;
	zval digests;      /* item -> digest, for items holding objects */
} publish_ctx;

bool ros_same_value(zval *c, zval *b)
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
	zend_string *name = ros_item_name(prop, method, var);
	if (cur) {
		/* Bound method statics are references: the value is what counts. */
		ZVAL_DEREF(cur);
		zval *base = u->restored ? zend_hash_find(&u->baseline, name) : item_default(u->ce, prop, method, var);
		bool same = base && ros_same_value(cur, base);
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
	RV_CTX->code_refused = true;
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
	RV_CTX->code_refused = false;
	RV_CTX->error_sink = NULL;
	zend_clear_exception();
	return why;
}

/* A refused snapshot is not offered again while it stays the same: the
 * next request of an application usually builds the same unstorable
 * state, and trying costs it a plan, a refusal and a warning each time
 * (issue 24). The refusal is kept in the pool, beside the unit's
 * snapshot, as the digest of what was refused, so that every worker knows
 * it; the snapshot holds the class file's identity and the unit's layout,
 * so a changed class file, like a changed state, is offered again. */
static zend_string *refused_key(ros_unit *u)
{
	return zend_strpprintf(0, ROS_REFUSED_PREFIX "%s", ZSTR_VAL(u->key));
}

static bool refused_before(resident_cache_obj *pool, zend_string *key, zend_long digest)
{
	zval known;
	if (!resident_fetch(pool, key, &known)) {
		zend_clear_exception();
		return false;
	}
	bool same = Z_TYPE(known) == IS_LONG && Z_LVAL(known) == digest;
	zval_ptr_dtor(&known);
	return same;
}

/* What was just stored becomes the baseline: the item's value now, and the
 * digest it was stored with (ctx: the snapshot's digests). */
static void rebase_item(ros_unit *u, zend_property_info *prop, zend_op_array *method, zend_string *var, void *ctx)
{
	zval *cur = item_current(u->ce, prop, method, var);
	if (!cur) {
		return;
	}
	ZVAL_DEREF(cur);
	zend_string *name = ros_item_name(prop, method, var);
	zval held;
	ZVAL_COPY(&held, cur);
	zend_hash_update(&u->baseline, name, &held);
	zval *d = zend_hash_find(Z_ARRVAL_P((zval *)ctx), name);
	if (d) {
		zend_hash_update(&u->digests, name, d);
	} else {
		zend_hash_del(&u->digests, name);
	}
	zend_string_release(name);
}

int ros_publish_unit(resident_cache_obj *pool, ros_unit *u, bool rebase)
{
	int outcome = 0;
	if (u->graph && rv_lazy_graph_failed(u->graph)) {
		/* Objects of the snapshot could not come back (see restore_unit()):
		 * their statics are not whole. */
		rs_delete(resident_store(), pool->pool, ZSTR_VAL(u->key), ZSTR_LEN(u->key));
		return -1;
	}
	publish_ctx p = { .changed = false };
	array_init(&p.props);
	array_init(&p.statics);
	array_init(&p.digests);
	ros_each_item(u, check_item, &p);
	if (p.changed) {
		zval snap;
		array_init(&snap);
		add_assoc_str(&snap, "file", ros_file_identity(u->ce));
		add_assoc_str(&snap, "layout", ros_unit_layout(u));
		add_assoc_zval(&snap, "props", &p.props);
		add_assoc_zval(&snap, "statics", &p.statics);
		add_assoc_zval(&snap, "digests", &p.digests);
		ZVAL_UNDEF(&p.props);
		ZVAL_UNDEF(&p.statics);
		ZVAL_UNDEF(&p.digests);
		zend_string *refused = refused_key(u);
		zend_long digest = (zend_long)rv_digest(&snap);
		if (refused_before(pool, refused, digest)) {
			zend_string_release(refused);
			zval_ptr_dtor(&snap);
			outcome = -1;
			goto done;
		}
		/* No PHP frame is running to throw into: refusals come back as text. */
		zend_string *why = NULL;
		RV_CTX->error_sink = &why;
		/* A snapshot is compared by digest, which cannot see inside a
		 * closure: statics keep none. */
		RV_CTX->code_refused = true;
		int stored = resident_store_value(pool, u->key, &snap, 0, 0, false, 0);
		RV_CTX->code_refused = false;
		RV_CTX->error_sink = NULL;
		if (stored <= 0 || EG(exception)) {
			zend_clear_exception();
			outcome = -1;
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
			if (why) {
				/* Refused for what it holds (not for want of room, which
				 * can change): remembered. */
				zval d;
				ZVAL_LONG(&d, digest);
				RV_CTX->error_sink = &why;
				resident_store_value(pool, refused, &d, 0, 0, false, 0);
				RV_CTX->error_sink = NULL;
				zend_clear_exception();
			}
		} else {
			rs_delete(resident_store(), pool->pool, ZSTR_VAL(refused), ZSTR_LEN(refused));
			outcome = 1;
			if (rebase) {
				ros_each_item(u, rebase_item, zend_hash_str_find(Z_ARRVAL(snap), "digests", 7));
				u->restored = true;
			}
		}
		if (why) {
			zend_string_release(why);
		}
		zend_string_release(refused);
		zval_ptr_dtor(&snap);
	}
done:
	zval_ptr_dtor(&p.props);
	zval_ptr_dtor(&p.statics);
	zval_ptr_dtor(&p.digests);
	return outcome;
}
