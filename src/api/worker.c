/* SPDX-License-Identifier: MIT */
/*
 * What a long-running worker (RoadRunner, FrankenPHP's worker mode,
 * Workerman, a queue consumer) tells Resident: where its requests end.
 */
#include "php.h"
#include "php_resident.h"
#include "api.h"
#include "cache/cache.h"

ZEND_METHOD(Resident_Cache, endOfRequest)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(resident_end_of_request());
}
