/* SPDX-License-Identifier: MIT */
/*
 * RequestOverStatic: which units of state a class has (the attribute on
 * the class or on its members, or resident.request_over_static_classes),
 * the items of a unit, and what a snapshot must match to be used: the
 * unit's layout and its class file's identity. Restore and publish ask
 * the same questions and must get the same answers, so they are answered
 * once, here.
 */
#include <stdatomic.h>
#include <sys/stat.h>
#include "php.h"
#include "php_resident.h"
#include "internal.h"
#include "runtime/class_list.h"
#include "zend_attributes.h"
#include "zend_smart_str.h"

zend_string *ros_attribute_lcname;
resident_class_list ros_listed_classes;  /* resident.request_over_static_classes */

/* --- which units a class has ------------------------------------------------------ */

static bool has_attribute(HashTable *attributes)
{
	return attributes && zend_get_attribute(attributes, ros_attribute_lcname);
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
 * on a property or a method (ROS_SEEN_MEMBER for a trait's, else
 * ROS_SEEN_MEMBER_OF and the class's name in member_classes), or on a
 * class (ROS_SEEN_CLASS): a linked class's members are looked at only if
 * it may be one of those classes (most of what the class-linked hook would
 * cost), and no request needs to see classes linked but for the listed ones
 * and those (lifecycle.c). Set
 * by the attribute's validator, which runs when such a script is
 * compiled, before any of its classes is linked, in whichever process
 * compiles it: so the flags live in a page shared by the master and its
 * workers, made at MINIT as OPcache's shared memory is, and gone with it.
 * The page also counts opcache_reset() and opcache_invalidate() calls
 * (deploys), which every worker must learn of (lifecycle.c, pool.c). */
ros_shared_page *ros_shared;
/* OPcache's file cache brings scripts back without compiling them. Set
 * once per process with the hooks (install_hooks()), when OPcache's
 * settings are known; PHP_INI_SYSTEM, so it cannot change after. */
bool ros_opcache_file_cache;

bool ros_members_may_carry_attribute(zend_class_entry *ce)
{
	uint8_t seen = atomic_load(&ros_shared->attribute_seen);
	if (ros_opcache_file_cache || (seen & ROS_SEEN_MEMBER)) {
		return true;
	}
	return (seen & ROS_SEEN_MEMBER_OF) && ros_member_classes_may_have(ZSTR_VAL(ce->name), ZSTR_LEN(ce->name));
}

ros_class *ros_units_of(zend_class_entry *ce)
{
	if (ce->type != ZEND_USER_CLASS || (ce->ce_flags & (ZEND_ACC_INTERFACE | ZEND_ACC_TRAIT))) {
		return NULL;
	}
	bool whole = has_attribute(ce->attributes) || resident_class_list_has(&ros_listed_classes, ce->name);
	if (!whole && !ros_members_may_carry_attribute(ce)) {
		return NULL;
	}
	uint32_t n = whole;
	zend_property_info *info;
	zend_function *fn;
	if (whole) {
		/* A class with no statics of its own has nothing to keep: no
		 * snapshot to look for, at every request, for nothing. */
		bool statics = false;
		if (ce->default_static_members_count) {
			ZEND_HASH_MAP_FOREACH_PTR(&ce->properties_info, info) {
				statics |= own_static_prop(ce, info);
			} ZEND_HASH_FOREACH_END();
		}
		if (!statics) {
			ZEND_HASH_MAP_FOREACH_PTR(&ce->function_table, fn) {
				statics |= own_method_with_statics(ce, fn);
			} ZEND_HASH_FOREACH_END();
		}
		if (!statics) {
			return NULL;
		}
	}
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

void ros_class_free(ros_class *rc)
{
	for (uint32_t i = 0; i < rc->nunits; i++) {
		zend_string_release(rc->units[i].key);
		zend_hash_destroy(&rc->units[i].baseline);
		zend_hash_destroy(&rc->units[i].digests);
	}
	efree(rc);
}

/* --- the items of a unit ------------------------------------------------------------ */

void ros_each_item(ros_unit *u, item_fn fn, void *ctx)
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

zend_string *ros_item_name(zend_property_info *prop, zend_op_array *method, zend_string *var)
{
	if (prop) {
		return zend_strpprintf(0, "p:%s", zend_get_unmangled_property_name(prop->name));
	}
	return zend_strpprintf(0, "m:%s:%s", ZSTR_VAL(method->function_name), ZSTR_VAL(var));
}

/* What a snapshot must match: the names of the unit's items, in order. */
static void layout_item(ros_unit *u, zend_property_info *prop, zend_op_array *method, zend_string *var, void *ctx)
{
	zend_string *name = ros_item_name(prop, method, var);
	smart_str_append((smart_str *)ctx, name);
	smart_str_appendc((smart_str *)ctx, ';');
	zend_string_release(name);
}

zend_string *ros_unit_layout(ros_unit *u)
{
	smart_str s = {0};
	ros_each_item(u, layout_item, &s);
	smart_str_0(&s);
	return s.s ? s.s : ZSTR_EMPTY_ALLOC();
}

zend_string *ros_stat_identity(zend_string *file, bool persistent)
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
 * stat()ed once per process, when they are first found (ros_preloaded_files:
 * file -> identity, persistent). Built whole before preloaded_known is
 * set, and never changed after: threads read it without the lock. A class
 * given units later (a pool's own list) is stat()ed per request. */
HashTable *ros_preloaded_files;

/* The class file's identity, stat()ed once per request (once per process
 * for a preloaded class; never where OPcache itself trusts files, see
 * deploy.c), with what opcache_reset() and opcache_invalidate() changed. */
zend_string *ros_file_identity(zend_class_entry *ce)
{
	zend_string *file = ce->info.user.filename;
	if (!file) {
		return ZSTR_EMPTY_ALLOC();
	}
	if ((ce->ce_flags & ZEND_ACC_PRELOADED) && ros_preloaded_files) {
		zend_string *known = zend_hash_find_ptr(ros_preloaded_files, file);
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
	uint32_t resets, invalidations;
	ros_file_generation(file, &resets, &invalidations);
	zend_string *id;
	if (ros_trust_opcache) {
		id = zend_strpprintf(0, "%s|opcache %016" PRIx64 " %u.%u", ZSTR_VAL(file), ros_shared->boot, resets, invalidations);
	} else if (resets || invalidations) {
		zend_string *stat_id = ros_stat_identity(file, false);
		id = zend_strpprintf(0, "%s|%u.%u", ZSTR_VAL(stat_id), resets, invalidations);
		zend_string_release(stat_id);
	} else {
		id = ros_stat_identity(file, false);
	}
	zval v;
	ZVAL_STR_COPY(&v, id);
	zend_hash_update(cache, file, &v);
	return id;
}
