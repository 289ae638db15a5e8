/* SPDX-License-Identifier: MIT */
/*
 * The code stamp of closure records (value/closure.c, rv_code_stamp): a
 * record keeps the address of the op_array OPcache holds for its closure,
 * which is the same code only
 *  - in a process sharing that OPcache's memory: forked from the one that
 *    started it (ros_shared->boot is drawn there, before any fork);
 *  - until OPcache restarts (out of memory, hash full, opcache_reset()):
 *    it then reuses that memory. It restarts only at the start of a
 *    request, when no process runs one, and each restart moves
 *    opcache_get_status()'s last_restart_time on (by a second at least):
 *    read once per request, it stays true until the request ends;
 *  - while the declaring file is the one OPcache runs: a new version
 *    compiles elsewhere and leaves the old op_array where it was, so the
 *    file is held to what deploy.c holds class files to (opcache_reset()
 *    and opcache_invalidate() counts; its mtime and size where OPcache
 *    stat()s files).
 * Where OPcache's status cannot be read (OPcache off, file_cache_only,
 * opcache.restrict_api, the function disabled), closures are not kept.
 */
#include "php.h"
#include "php_resident.h"
#include "internal.h"
#include "ros.h"
#include "value/graph.h"
#include <sys/stat.h>

/* OPcache's last restart, from opcache_get_status(false); else why it
 * cannot be read. */
static const char *read_last_restart(int64_t *out)
{
	zend_function *fn = zend_hash_str_find_ptr(CG(function_table), "opcache_get_status", sizeof("opcache_get_status") - 1);
	if (!fn || fn->type != ZEND_INTERNAL_FUNCTION) {
		return "OPcache is not loaded";
	}
	zval rv, arg;
	ZVAL_FALSE(&arg);
	ZVAL_UNDEF(&rv);
	zend_call_known_function(fn, NULL, NULL, &rv, 1, &arg, NULL);
	const char *problem = "OPcache is off, or opcache_get_status() is not allowed here";
	if (Z_TYPE(rv) == IS_ARRAY && !EG(exception)) {
		zval *enabled = zend_hash_str_find(Z_ARRVAL(rv), "opcache_enabled", sizeof("opcache_enabled") - 1);
		zval *stats = zend_hash_str_find(Z_ARRVAL(rv), "opcache_statistics", sizeof("opcache_statistics") - 1);
		zval *when = stats && Z_TYPE_P(stats) == IS_ARRAY
			? zend_hash_str_find(Z_ARRVAL_P(stats), "last_restart_time", sizeof("last_restart_time") - 1) : NULL;
		if (!enabled || Z_TYPE_P(enabled) != IS_TRUE) {
			problem = "OPcache is off";
		} else if (!when || Z_TYPE_P(when) != IS_LONG) {
			problem = "OPcache keeps no shared memory (opcache.file_cache_only)";
		} else {
			*out = Z_LVAL_P(when);
			problem = NULL;
		}
	}
	zval_ptr_dtor(&rv);
	return problem;
}

const char *ros_code_stamp(zend_string *file, rv_code_stamp *out)
{
	memset(out, 0, sizeof(*out));
	if (!file) {
		return "it has no file";
	}
	if (!RESIDENT_G(code_restart_read)) {
		RESIDENT_G(code_restart_read) = true;
		RESIDENT_G(code_restart_problem) = read_last_restart(&RESIDENT_G(code_restart));
	}
	if (RESIDENT_G(code_restart_problem)) {
		return RESIDENT_G(code_restart_problem);
	}
	out->instance = ros_shared->boot;
	out->opcache_restart = RESIDENT_G(code_restart);
	ros_file_generation(file, &out->resets, &out->invalidations);
	if (!ros_trust_opcache) {
		struct stat sb;
		if (stat(ZSTR_VAL(file), &sb) != 0) {
			return "its file is gone";
		}
		out->mtime = (int64_t)sb.st_mtime;
		out->size = (int64_t)sb.st_size;
	}
	return NULL;
}

void ros_code_request_start(void)
{
	RESIDENT_G(code_restart_read) = false;
	RESIDENT_G(code_restart_problem) = NULL;
}
