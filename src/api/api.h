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
/* UserCache\Cache's classes (usercache.c, usercache_status.c), registered by compat.c. */
void resident_user_cache_setup(zend_class_entry *cache_ce);
void resident_user_cache_status_setup(zend_class_entry *status, zend_class_entry *pool_status, zend_class_entry *availability);
/* RSHUTDOWN: UserCache's pools and locks of the request go. */
void resident_user_cache_request_end(void);
void resident_key_iterator_create(zval *dst, uint16_t pool, zend_string *prefix);

void resident_remember(resident_cache_obj *c, zend_string *key, zend_fcall_info *fci, zend_fcall_info_cache *fcc,
                       int64_t expires_ms, int64_t stale_until_ms, zval *return_value);

/* Resident\Cache::keep() (keep.c); reset may be NULL. */
void resident_keep(resident_cache_obj *c, zend_string *key, zend_fcall_info *fci, zend_fcall_info_cache *fcc,
                   zend_fcall_info *reset, zend_fcall_info_cache *reset_cache, zval *return_value);
/* GSHUTDOWN: what keep() remembers per thread goes. */
void resident_keep_thread_end(void);

/* MINIT: registers Resident's classes (Resident\Testing only with
 * resident.testing=1). */
void resident_api_register(int module_number, bool testing);

#endif
