/*
 * Resident\Testing: hooks for the test suite, registered only when
 * resident.testing=1 (PHP_INI_SYSTEM, so no production code can turn it on).
 */
#include "php.h"
#include "php_resident.h"

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
