/* SPDX-License-Identifier: MIT */
/*
 * RequestOverStatic: the hidden pool that holds the snapshots, and what
 * Resident\Cache asks of it: forgetStatics() and status()'s section. Apart
 * from restore and publish, which go one unit at a time: this takes the
 * pool as a whole, by key and by count.
 */
#include "php.h"
#include "php_resident.h"
#include "internal.h"
#include "ros.h"
#include "zend_exceptions.h"

bool ros_pool_handle(resident_cache_obj *pool)
{
	rs_store *st = resident_store();
	memset(pool, 0, sizeof(*pool));
	if (!st || rs_pool_open(st, RESIDENT_ROS_POOL, false, &pool->pool) != RS_OK) {
		return false;
	}
	pool->name = ZSTR_EMPTY_ALLOC();
	return true;
}

/* A key of a property or method unit of the class: "prop:<class>::..."
 * or "method:<class>::...". */
static bool member_key_of(const zend_string *lc, const char *key, size_t len)
{
	const char *sep = memchr(key, ':', len);
	if (!sep || strncmp(key, "class:", 6) == 0) {
		return false;
	}
	size_t rest = len - (size_t)(sep + 1 - key);
	return rest > ZSTR_LEN(lc) + 2 && memcmp(sep + 1, ZSTR_VAL(lc), ZSTR_LEN(lc)) == 0
		&& sep[1 + ZSTR_LEN(lc)] == ':' && sep[2 + ZSTR_LEN(lc)] == ':';
}

zend_long ros_forget(zend_string *class_name)
{
	resident_cache_obj pool;
	if (!ros_pool_handle(&pool)) {
		return 0;
	}
	rs_store *st = resident_store();
	if (!class_name) {
		rs_pool_stats ps;
		rs_pool_stats_get(st, pool.pool, &ps);
		rs_clear(st, pool.pool);
		return (zend_long)ps.entries;
	}
	zend_string *lc = zend_string_tolower(class_name);
	if (ZSTR_LEN(lc) && ZSTR_VAL(lc)[0] == '\\') {
		zend_string *trimmed = zend_string_init(ZSTR_VAL(lc) + 1, ZSTR_LEN(lc) - 1, 0);
		zend_string_release(lc);
		lc = trimmed;
	}
	zend_long dropped = 0;
	zend_string *exact = zend_strpprintf(0, "class:%s", ZSTR_VAL(lc));
	dropped += rs_delete(st, pool.pool, ZSTR_VAL(exact), ZSTR_LEN(exact)) == RS_OK;
	zend_string_release(exact);
	/* What was refused for the class goes too (not counted: no snapshot). */
	exact = zend_strpprintf(0, ROS_REFUSED_PREFIX "class:%s", ZSTR_VAL(lc));
	rs_delete(st, pool.pool, ZSTR_VAL(exact), ZSTR_LEN(exact));
	zend_string_release(exact);
	/* Property and method units: every key under "prop:<class>::" or
	 * "method:<class>::". */
	/* Copied out of the segment first, then deleted one by one (each
	 * delete takes the lock). */
	rs_key_batch keys = {0};
	uint64_t buckets = rs_bucket_count(st);
	for (uint64_t b = 0; b < buckets;) {
		rs_key_batch_clear(&keys);
		bool complete = rs_keys_collect(st, pool.pool, &b, 1024, &keys);
		rs_key_ref k;
		for (size_t pos = 0; rs_key_batch_next(&keys, &pos, &k);) {
			bool refusal = k.len > sizeof(ROS_REFUSED_PREFIX) - 1
				&& memcmp(k.key, ROS_REFUSED_PREFIX, sizeof(ROS_REFUSED_PREFIX) - 1) == 0;
			size_t skip = refusal ? sizeof(ROS_REFUSED_PREFIX) - 1 : 0;
			if (member_key_of(lc, k.key + skip, k.len - skip)) {
				bool gone = rs_delete(st, pool.pool, k.key, k.len) == RS_OK;
				dropped += gone && !refusal;
			}
		}
		if (!complete) {
			zend_throw_error(NULL, "Resident\\Cache::forgetStatics(): out of memory while copying keys");
			break;
		}
	}
	rs_key_batch_free(&keys);
	zend_string_release(lc);
	return dropped;
}

void ros_status(zval *out)
{
	array_init(out);
	add_assoc_bool(out, "active", RESIDENT_G(ros_active));
	resident_cache_obj pool;
	rs_pool_stats ps = {0};
	if (ros_pool_handle(&pool)) {
		rs_pool_stats_get(resident_store(), pool.pool, &ps);
	}
	add_assoc_long(out, "snapshots", (zend_long)ps.entries);
	add_assoc_long(out, "memory", (zend_long)ps.bytes);
	add_assoc_long(out, "restores", (zend_long)ps.hits);
	add_assoc_long(out, "publishes", (zend_long)ps.stores);
	/* This request's own: what restoring cost it so far, including what ran
	 * before the script (preloaded classes are restored when the request starts). */
	add_assoc_long(out, "restore_us_this_request", (zend_long)(RESIDENT_G(ros_restore_ns) / 1000));
	/* Objects come back as shells, filled in when first used. */
	add_assoc_long(out, "shells_this_request", (zend_long)RV_CTX->shells_made);
	add_assoc_long(out, "shells_filled_this_request", (zend_long)RV_CTX->shells_filled);
}
