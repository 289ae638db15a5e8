/* SPDX-License-Identifier: MIT */
/*
 * Argument checks shared by Resident's methods (arguments.c).
 */
#ifndef RESIDENT_API_ARGUMENTS_H
#define RESIDENT_API_ARGUMENTS_H

#include "php.h"

/* A key: 1 to RS_KEY_MAX bytes, no NUL byte; throws naming argument arg. */
zend_result resident_check_key(const zend_string *key, uint32_t arg);
/* Keys of array arguments: strings, or integers (as PHP's own array keys);
 * NULL with an exception thrown. */
zend_string *resident_key_from_zval(zval *zv, uint32_t arg);
zend_string *resident_key_from_array_key(zend_string *key, zend_ulong idx, uint32_t arg);
/* ttl in seconds -> absolute expiry in ms (0 = none); throws on a bad ttl. */
zend_result resident_expiry(zend_long ttl, uint32_t arg, int64_t *expires_ms);

#endif
