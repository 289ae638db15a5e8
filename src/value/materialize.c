/* SPDX-License-Identifier: MIT */
/*
 * Store entry -> PHP value: where fetching begins, by the entry's kind.
 *
 * A plain value borrowed is O(1): the stored zval already describes an
 * interned string or an immutable array, which the engine shares without
 * refcounting and separates on the first write. Copying (CLI, long-running
 * workers, limbo over its cap) builds a request-local deep copy (copy.c).
 * A graph goes to its decoder (graph_materialize.c); RequestOverStatic's
 * lazy graphs start further on, at graph_lazy.c.
 */
#include "php.h"
#include "value.h"
#include "graph.h"
#include "copy.h"
#include "graph_decode.h"
#include "ext/standard/php_var.h"
#include "ext/standard/basic_functions.h"

static zend_result unserialize_into(zval *dst, const char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)buf;
	php_unserialize_data_t var_hash;
	/* A context of its own, not the one of an unserialize() running this fetch. */
	BG(serialize_lock)++;
	PHP_VAR_UNSERIALIZE_INIT(var_hash);
	bool ok = php_var_unserialize(dst, &p, p + len, &var_hash);
	PHP_VAR_UNSERIALIZE_DESTROY(var_hash);
	BG(serialize_lock)--;
	if (!ok) {
		zval_ptr_dtor(dst);
		ZVAL_NULL(dst);
		if (!EG(exception)) {
			php_error_docref(NULL, E_WARNING, "Cached value could not be decoded");
		}
		return FAILURE;
	}
	return SUCCESS;
}

zend_result rv_materialize(rv_context *ctx, zval *dst, uint32_t kind, const void *area, size_t size, bool borrow)
{
	switch (kind) {
		case RV_KIND_ZVAL:
			if (borrow) {
				ZVAL_COPY_VALUE(dst, (const zval *)area);
			} else if (!rv_copy_zval_within_stack(dst, (const zval *)area)) {
				zval_ptr_dtor(dst);
				ZVAL_NULL(dst);
				return rv_decode_stack_error(ctx);
			}
			return SUCCESS;
		case RV_KIND_SERIALIZED:
			return unserialize_into(dst, area, size);
		case RV_KIND_GRAPH:
			return rv_graph_materialize(ctx, dst, area, borrow);
		default:
			php_error_docref(NULL, E_WARNING, "Cached value has an unknown encoding %u", kind);
			ZVAL_NULL(dst);
			return FAILURE;
	}
}

const char *rv_type_name(uint32_t kind, const void *area)
{
	if (kind == RV_KIND_ZVAL) {
		return zend_zval_type_name((const zval *)area);
	}
	if (kind == RV_KIND_GRAPH) {
		const zval *root = &((const rv_graph_header *)area)->root;
		if (Z_TYPE_P(root) != IS_PTR) {
			return zend_zval_type_name(root);
		}
		uint32_t node = ((const rv_node *)Z_PTR_P(root))->kind;
		return node == RV_NODE_ARRAY ? "array" : node == RV_NODE_REF ? "reference" : "object";
	}
	/* Serialized values are objects, or arrays holding objects or references. */
	return *(const char *)area == 'a' ? "array" : "object";
}
