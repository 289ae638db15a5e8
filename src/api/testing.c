/* SPDX-License-Identifier: MIT */
/*
 * Resident\Testing: hooks for the test suite, registered only when
 * resident.testing=1 (PHP_INI_SYSTEM, so no production code can turn it on).
 */
#include "php.h"
#include "php_resident.h"
#include "runtime/segment.h"
#include "api.h"
#include "value/value.h"

static const struct { const char *name; int point; } crash_points[] = {
	{ "holding_lock", RS_CRASH_HOLDING_LOCK },
	{ "after_alloc", RS_CRASH_AFTER_ALLOC },
	{ "after_link", RS_CRASH_AFTER_LINK },
	{ "after_unlink", RS_CRASH_AFTER_UNLINK },
	{ "in_free", RS_CRASH_IN_FREE },
};

ZEND_METHOD(Resident_Testing, crashAt)
{
	zend_string *point;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(point)
	ZEND_PARSE_PARAMETERS_END();

	rs_store *st = resident_store();
	if (!st) {
		zend_throw_error(NULL, "Resident is not available: %s", resident_unavailable_reason());
		RETURN_THROWS();
	}
	for (size_t i = 0; i < sizeof(crash_points) / sizeof(crash_points[0]); i++) {
		if (zend_string_equals_cstr(point, crash_points[i].name, strlen(crash_points[i].name))) {
			rs_test_set_crash_point(st, crash_points[i].point);
			return;
		}
	}
	zend_argument_value_error(1, "must be one of holding_lock, after_alloc, after_link, after_unlink, in_free");
	RETURN_THROWS();
}

ZEND_METHOD(Resident_Testing, check)
{
	ZEND_PARSE_PARAMETERS_NONE();
	rs_store *st = resident_store();
	if (!st) {
		RETURN_STRING("Resident is not available");
	}
	const char *problem = rs_check(st);
	if (problem) {
		RETURN_STRING(problem);
	}
	RETURN_NULL();
}

ZEND_METHOD(Resident_Testing, fetchLazily)
{
	zval *cache;
	zend_string *key;

	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_OBJECT_OF_CLASS(cache, resident_cache_ce)
		Z_PARAM_STR(key)
	ZEND_PARSE_PARAMETERS_END();

	rv_lazy_graph *graph;
	if (!resident_fetch_lazy(resident_cache_of(Z_OBJ_P(cache)), key, return_value, &graph)) {
		if (EG(exception)) {
			RETURN_THROWS();
		}
		RETURN_NULL();
	}
}

ZEND_METHOD(Resident_Testing, isShell)
{
	zend_object *obj;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJ(obj)
	ZEND_PARSE_PARAMETERS_END();

	RETURN_BOOL(rv_is_shell(obj));
}

ZEND_METHOD(Resident_Testing, lazyUnchanged)
{
	ZEND_PARSE_PARAMETERS_NONE();
	if (!RV_CTX->lazy_graphs) {
		RETURN_NULL();
	}
	RETURN_BOOL(rv_lazy_graph_unchanged(RV_CTX->lazy_graphs));
}
