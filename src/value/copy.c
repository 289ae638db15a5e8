/* SPDX-License-Identifier: MIT */
/*
 * Request-local deep copies of the immutable strings and arrays of an
 * entry: what a fetch that does not borrow hands out, owning nothing in
 * the segment, keys included.
 */
#include "php.h"
#include "copy.h"

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
