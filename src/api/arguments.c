/* SPDX-License-Identifier: MIT */
/*
 * The checks every method applies to the keys and TTLs it is given, with
 * the errors PHP users expect (ValueError/TypeError naming the argument).
 */
#include "php.h"
#include "php_resident.h"
#include "arguments.h"

zend_result resident_check_key(const zend_string *key, uint32_t arg)
{
	if (ZSTR_LEN(key) == 0) {
		zend_argument_value_error(arg, "must not be empty");
		return FAILURE;
	}
	if (ZSTR_LEN(key) > RS_KEY_MAX) {
		zend_argument_value_error(arg, "must not be longer than %d bytes", RS_KEY_MAX);
		return FAILURE;
	}
	if (memchr(ZSTR_VAL(key), '\0', ZSTR_LEN(key))) {
		zend_argument_value_error(arg, "must not contain NUL bytes");
		return FAILURE;
	}
	return SUCCESS;
}

/* Keys of array arguments: strings, or integers (as PHP's own array keys). */
zend_string *resident_key_from_zval(zval *zv, uint32_t arg)
{
	ZVAL_DEREF(zv);
	if (Z_TYPE_P(zv) == IS_LONG) {
		return zend_long_to_str(Z_LVAL_P(zv));
	}
	if (Z_TYPE_P(zv) != IS_STRING) {
		zend_argument_type_error(arg, "must contain only string keys, %s given", zend_zval_type_name(zv));
		return NULL;
	}
	if (resident_check_key(Z_STR_P(zv), arg) == FAILURE) {
		return NULL;
	}
	return zend_string_copy(Z_STR_P(zv));
}

/* An integer key is the key PHP prints for it: -1 is "-1", as in fetch('-1'). */
zend_string *resident_key_from_array_key(zend_string *key, zend_ulong idx, uint32_t arg)
{
	if (!key) {
		return zend_long_to_str((zend_long)idx);
	}
	if (resident_check_key(key, arg) == FAILURE) {
		return NULL;
	}
	return zend_string_copy(key);
}

zend_result resident_expiry(zend_long ttl, uint32_t arg, int64_t *expires)
{
	if (ttl < 0) {
		zend_argument_value_error(arg, "must be greater than or equal to 0");
		return FAILURE;
	}
	if (ttl == 0) {
		*expires = 0;
		return SUCCESS;
	}
	int64_t now = resident_now_ms();
	if (ttl > (INT64_MAX - now) / 1000) {
		zend_argument_value_error(arg, "is too large");
		return FAILURE;
	}
	*expires = now + (int64_t)ttl * 1000;
	return SUCCESS;
}
