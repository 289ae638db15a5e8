/*
 * Store entry -> PHP value.
 *
 * Borrowing is O(1): the stored zval already describes an interned string or
 * an immutable array, which the engine shares without refcounting and
 * separates on the first write. Copying (CLI, long-running workers, limbo
 * over its cap) builds a request-local deep copy that owns nothing in the
 * segment, keys included.
 */
#include "php.h"
#include "value.h"
#include "graph.h"
#include "ext/standard/php_var.h"


static zend_string *copy_string(const zend_string *src)
{
	zend_string *s = zend_string_init(ZSTR_VAL(src), ZSTR_LEN(src), 0);
	ZSTR_H(s) = ZSTR_H(src);
	return s;
}

zend_array *rv_copy_array(zend_array *src)
{
	/* For an immutable source this is a flat memcpy of the buckets; what
	 * still points into the segment is replaced below. */
	zend_array *ht = zend_array_dup(src);
	if (zend_hash_num_elements(ht) == 0) {
		return ht;
	}
	if (HT_IS_PACKED(ht)) {
		zval *zv = ht->arPacked, *end = zv + ht->nNumUsed;
		for (; zv != end; zv++) {
			if (Z_TYPE_P(zv) == IS_STRING || Z_TYPE_P(zv) == IS_ARRAY) {
				rv_copy_zval(zv, zv);
			}
		}
		return ht;
	}
	bool string_keys = false;
	Bucket *p = ht->arData, *end = p + ht->nNumUsed;
	for (; p != end; p++) {
		if (Z_TYPE(p->val) == IS_UNDEF) {
			continue;
		}
		if (p->key) {
			p->key = copy_string(p->key);
			string_keys = true;
		}
		if (Z_TYPE(p->val) == IS_STRING || Z_TYPE(p->val) == IS_ARRAY) {
			rv_copy_zval(&p->val, &p->val);
		}
	}
	if (string_keys) {
		HT_FLAGS(ht) &= ~HASH_FLAG_STATIC_KEYS;
	}
	return ht;
}

void rv_copy_zval(zval *dst, const zval *src)
{
	switch (Z_TYPE_P(src)) {
		case IS_STRING:
			ZVAL_STR(dst, copy_string(Z_STR_P(src)));
			break;
		case IS_ARRAY:
			ZVAL_ARR(dst, rv_copy_array(Z_ARR_P(src)));
			break;
		default:
			ZVAL_COPY_VALUE(dst, src);
			break;
	}
}

static zend_result unserialize_into(zval *dst, const char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)buf;
	php_unserialize_data_t var_hash;
	PHP_VAR_UNSERIALIZE_INIT(var_hash);
	bool ok = php_var_unserialize(dst, &p, p + len, &var_hash);
	PHP_VAR_UNSERIALIZE_DESTROY(var_hash);
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

zend_result rv_materialize(zval *dst, uint32_t kind, const void *area, size_t size, bool borrow)
{
	switch (kind) {
		case RV_KIND_ZVAL:
			if (borrow) {
				ZVAL_COPY_VALUE(dst, (const zval *)area);
			} else {
				rv_copy_zval(dst, (const zval *)area);
			}
			return SUCCESS;
		case RV_KIND_SERIALIZED:
			return unserialize_into(dst, area, size);
		case RV_KIND_GRAPH:
			return rv_graph_materialize(dst, area, borrow);
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
