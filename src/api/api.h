/* SPDX-License-Identifier: MIT */
/*
 * Shared between the files that implement Resident's PHP classes.
 */
#ifndef RESIDENT_API_H
#define RESIDENT_API_H

#include "php.h"
#include "php_resident.h"
#include "cache/cache.h"

extern zend_class_entry *resident_cache_ce;
extern zend_class_entry *resident_request_over_static_ce;

/* A new Resident\Cache object for the named pool (as Cache::pool()). */
zend_result resident_cache_for_pool(zval *dst, zend_string *name);

void resident_key_iterator_register(zend_class_entry *ce);

void resident_compat_register(void);
void resident_key_iterator_create(zval *dst, uint16_t pool, zend_string *prefix);

void resident_remember(resident_cache_obj *c, zend_string *key, zend_fcall_info *fci, zend_fcall_info_cache *fcc,
                       int64_t expires_ms, int64_t stale_until_ms, zval *return_value);

/* MINIT: registers Resident's classes (Resident\Testing only with
 * resident.testing=1). */
void resident_api_register(int module_number, bool testing);

#endif
