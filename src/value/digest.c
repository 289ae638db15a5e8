/* SPDX-License-Identifier: MIT */
/*
 * Whether RequestOverStatic's statics changed: a digest of their content
 * (digest_walk.c), with the objects a lazy restore left as shells filled
 * in first, and whether a value holds objects at all (else a comparison
 * of the value itself tells).
 */
#include "php.h"
#include "value.h"
#include "digest_walk.h"

static void fill_if_shell(zend_object *obj)
{
	if (rv_is_shell(obj)) {
		rv_shell_fill(obj);
	}
}

uint64_t rv_digest(zval *v)
{
	return rv_digest_walk(v, fill_if_shell);
}

bool rv_holds_objects(zval *v)
{
	ZVAL_DEREF(v);
	if (Z_TYPE_P(v) == IS_OBJECT) {
		return true;
	}
	if (Z_TYPE_P(v) != IS_ARRAY || (GC_FLAGS(Z_ARR_P(v)) & GC_IMMUTABLE)) {
		/* A shared-memory array holds no objects: objects are never
		 * stored inside a zero-copy array. */
		return false;
	}
	if (rv_stack_exhausted()) {
		/* Nested deeper than the C stack left lets us look (PHP 8.3+): as
		 * if it held objects, whose digest, bounded in depth, then tells
		 * whether it changed. */
		return true;
	}
	zval *el;
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(v), el) {
		if (rv_holds_objects(el)) {
			return true;
		}
	} ZEND_HASH_FOREACH_END();
	return false;
}
