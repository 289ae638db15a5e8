/* SPDX-License-Identifier: MIT */
/*
 * Request-local deep copies of the immutable strings and arrays of an
 * entry: what a fetch that does not borrow hands out, owning nothing in
 * the segment, keys included.
 */
#include "php.h"
#include "copy.h"
#include "value.h"

static zend_string *copy_string(const zend_string *src)
{
	zend_string *s = zend_string_init(ZSTR_VAL(src), ZSTR_LEN(src), 0);
	ZSTR_H(s) = ZSTR_H(src);
	return s;
}

static bool copy_zval(zval *dst, const zval *src);

/* A copy that stops (false: the C stack ran out, PHP 8.3+) leaves the
 * elements it did not reach as the segment's immutable values, which
 * destroying the array leaves alone. */
static bool copy_array(zend_array **out, zend_array *src)
{
	/* For an immutable source this is a flat memcpy of the buckets; what
	 * still points into the segment is replaced below. */
	zend_array *ht = zend_array_dup(src);
	*out = ht;
	if (zend_hash_num_elements(ht) == 0) {
		return true;
	}
	if (HT_IS_PACKED(ht)) {
		zval *zv = ht->arPacked, *end = zv + ht->nNumUsed;
		for (; zv != end; zv++) {
			if ((Z_TYPE_P(zv) == IS_STRING || Z_TYPE_P(zv) == IS_ARRAY) && !copy_zval(zv, zv)) {
				return false;
			}
		}
		return true;
	}
	bool ok = true;
	bool string_keys = false;
	Bucket *p = ht->arData, *end = p + ht->nNumUsed;
	for (; ok && p != end; p++) {
		if (Z_TYPE(p->val) == IS_UNDEF) {
			continue;
		}
		if (p->key) {
			p->key = copy_string(p->key);
			string_keys = true;
		}
		if (Z_TYPE(p->val) == IS_STRING || Z_TYPE(p->val) == IS_ARRAY) {
			ok = copy_zval(&p->val, &p->val);
		}
	}
	if (string_keys) {
		/* The keys copied are the array's to release (the segment's, left
		 * where a copy stopped, are interned: releasing them does nothing). */
		HT_FLAGS(ht) &= ~HASH_FLAG_STATIC_KEYS;
	}
	return ok;
}

static bool copy_zval(zval *dst, const zval *src)
{
	switch (Z_TYPE_P(src)) {
		case IS_STRING:
			ZVAL_STR(dst, copy_string(Z_STR_P(src)));
			return true;
		case IS_ARRAY: {
			if (rv_stack_exhausted()) {
				ZVAL_COPY_VALUE(dst, src);
				return false;
			}
			zend_array *ht;
			bool ok = copy_array(&ht, Z_ARR_P(src));
			ZVAL_ARR(dst, ht);
			return ok;
		}
		default:
			ZVAL_COPY_VALUE(dst, src);
			return true;
	}
}

bool rv_copy_array_within_stack(zend_array **out, zend_array *src)
{
	if (rv_stack_exhausted()) {
		*out = NULL;
		return false;
	}
	return copy_array(out, src);
}

bool rv_copy_zval_within_stack(zval *dst, const zval *src)
{
	return copy_zval(dst, src);
}
