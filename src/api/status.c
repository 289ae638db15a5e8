/* SPDX-License-Identifier: MIT */
/*
 * What Resident\Cache says about itself and the segment, and what it does
 * to the segment as a whole: info(), status(), metrics(), inspect(),
 * dump(), restore(), forgetStatics().
 */
#include "php.h"
#include "php_resident.h"
#include "api.h"
#include "cache/cache.h"
#include "inspect.h"
#include "metrics.h"
#include "ros/ros.h"
#include "runtime/dumps.h"
#include "runtime/segment.h"

#define THIS_CACHE() resident_cache_of(Z_OBJ_P(ZEND_THIS))

ZEND_METHOD(Resident_Cache, info)
{
	ZEND_PARSE_PARAMETERS_NONE();
	resident_cache_obj *c = THIS_CACHE();
	rs_pool_stats ps = {0};
	rs_store *st = resident_store();
	if (st) {
		rs_pool_stats_get(st, c->pool, &ps);
	}
	array_init(return_value);
	add_assoc_str(return_value, "name", zend_string_copy(c->name));
	add_assoc_bool(return_value, "pinned", ps.pinned);
	add_assoc_long(return_value, "entries", (zend_long)ps.entries);
	add_assoc_long(return_value, "memory", (zend_long)ps.bytes);
	add_assoc_long(return_value, "hits", (zend_long)ps.hits);
	add_assoc_long(return_value, "misses", (zend_long)ps.misses);
	add_assoc_long(return_value, "stores", (zend_long)ps.stores);
	add_assoc_long(return_value, "deletes", (zend_long)ps.deletes);
	add_assoc_long(return_value, "evictions", (zend_long)ps.evictions);
	add_assoc_long(return_value, "expirations", (zend_long)ps.expirations);
}

ZEND_METHOD(Resident_Cache, inspect)
{
	zend_long top = 20, cells = 256;
	ZEND_PARSE_PARAMETERS_START(0, 2)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(top)
		Z_PARAM_LONG(cells)
	ZEND_PARSE_PARAMETERS_END();
	if (top < 1 || top > 1000) {
		zend_argument_value_error(1, "must be between 1 and 1000");
		RETURN_THROWS();
	}
	if (cells < 1 || cells > 65536) {
		zend_argument_value_error(2, "must be between 1 and 65536");
		RETURN_THROWS();
	}
	rs_store *st = resident_store();
	if (!st) {
		array_init(return_value);
		return;
	}
	resident_inspect(st, top, cells, return_value);
}

ZEND_METHOD(Resident_Cache, dump)
{
	zend_string *file;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_PATH_STR(file)
	ZEND_PARSE_PARAMETERS_END();
	char err[512];
	rs_dump_stats ds;
	if (!resident_dump(ZSTR_VAL(file), &ds, err, sizeof(err))) {
		php_error_docref(NULL, E_WARNING, "%s", err);
		RETURN_FALSE;
	}
	RETURN_LONG((zend_long)ds.entries);
}

ZEND_METHOD(Resident_Cache, restore)
{
	zend_string *file;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_PATH_STR(file)
	ZEND_PARSE_PARAMETERS_END();
	char err[512];
	rs_dump_stats ds;
	if (!resident_restore(ZSTR_VAL(file), &ds, err, sizeof(err))) {
		php_error_docref(NULL, E_WARNING, "%s is refused: %s", ZSTR_VAL(file), err);
		RETURN_FALSE;
	}
	RETURN_LONG((zend_long)ds.entries);
}

ZEND_METHOD(Resident_Cache, metrics)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_STR(resident_metrics(resident_store()));
}

ZEND_METHOD(Resident_Cache, forgetStatics)
{
	zend_string *class_name = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(class_name)
	ZEND_PARSE_PARAMETERS_END();
	if (class_name && (ZSTR_LEN(class_name) == 0 || (ZSTR_LEN(class_name) == 1 && ZSTR_VAL(class_name)[0] == '\\'))) {
		zend_argument_value_error(1, "must be a class name or null");
		RETURN_THROWS();
	}
	RETURN_LONG(ros_forget(class_name));
}

ZEND_METHOD(Resident_Cache, status)
{
	ZEND_PARSE_PARAMETERS_NONE();
	array_init(return_value);
	rs_store *st = resident_store();
	add_assoc_bool(return_value, "available", st != NULL);
	add_assoc_string(return_value, "version", PHP_RESIDENT_VERSION);
	if (!st) {
		add_assoc_string(return_value, "reason", (char *)resident_unavailable_reason());
		return;
	}
	rs_segment_stats s;
	rs_segment_stats_get(st, &s);
	add_assoc_string(return_value, "zero_copy", RESIDENT_G(borrow_mode) ? "borrow" : "copy");
	if (resident_segment_path()) {
		add_assoc_string(return_value, "segment", (char *)resident_segment_path());
	} else {
		add_assoc_null(return_value, "segment");
	}
	add_assoc_long(return_value, "memory_size", (zend_long)s.total_bytes);
	add_assoc_long(return_value, "memory_heap", (zend_long)s.heap_bytes);
	add_assoc_long(return_value, "memory_used", (zend_long)s.used_bytes);
	add_assoc_long(return_value, "memory_live", (zend_long)s.live_bytes);
	add_assoc_long(return_value, "memory_free", (zend_long)s.free_bytes);
	add_assoc_long(return_value, "largest_free_block", (zend_long)s.largest_free);
	add_assoc_long(return_value, "free_blocks", (zend_long)s.free_blocks);
	add_assoc_double(return_value, "fragmentation", s.free_bytes ? 1.0 - (double)s.largest_free / (double)s.free_bytes : 0.0);
	add_assoc_long(return_value, "limbo_bytes", (zend_long)s.limbo_bytes);
	add_assoc_long(return_value, "limbo_entries", (zend_long)s.limbo_entries);
	add_assoc_long(return_value, "entries", (zend_long)s.entries);
	add_assoc_long(return_value, "hits", (zend_long)s.hits);
	add_assoc_long(return_value, "misses", (zend_long)s.misses);
	add_assoc_long(return_value, "stores", (zend_long)s.stores);
	add_assoc_long(return_value, "evictions", (zend_long)s.evictions);
	add_assoc_long(return_value, "expirations", (zend_long)s.expirations);
	add_assoc_long(return_value, "lock_waits", (zend_long)s.lock_waits);
	add_assoc_long(return_value, "reader_waits", (zend_long)s.reader_waits);
	add_assoc_long(return_value, "recoveries", (zend_long)s.recoveries);
	add_assoc_long(return_value, "dead_slots_cleared", (zend_long)s.dead_slots);
	add_assoc_long(return_value, "slots_used", (zend_long)s.slots_used);
	add_assoc_long(return_value, "slots_total", (zend_long)s.slots_total);
	add_assoc_long(return_value, "pools", (zend_long)s.pools);
	add_assoc_long(return_value, "buckets", (zend_long)s.buckets);
	zval ros;
	ros_status(&ros);
	add_assoc_zval(return_value, "request_over_static", &ros);
	if (resident_restored_entries() >= 0) {
		add_assoc_long(return_value, "restored_at_start", (zend_long)resident_restored_entries());
	} else {
		add_assoc_null(return_value, "restored_at_start");
	}
}

/* #[Resident\RequestOverStatic(publish: ...)] as ReflectionAttribute::
 * newInstance() makes it; the compiler checks the same (ros/immediate.c). */
ZEND_METHOD(Resident_RequestOverStatic, __construct)
{
	zend_string *publish = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR(publish)
	ZEND_PARSE_PARAMETERS_END();
	if (publish && !zend_string_equals_literal(publish, "request-end") && !zend_string_equals_literal(publish, "immediate")) {
		zend_argument_value_error(1, "must be \"request-end\" or \"immediate\", \"%s\" given", ZSTR_VAL(publish));
		RETURN_THROWS();
	}
	zval value;
	ZVAL_STR(&value, publish ? zend_string_copy(publish) : zend_string_init("request-end", sizeof("request-end") - 1, 0));
	zend_update_property(Z_OBJCE_P(ZEND_THIS), Z_OBJ_P(ZEND_THIS), "publish", sizeof("publish") - 1, &value);
	zval_ptr_dtor(&value);
}
