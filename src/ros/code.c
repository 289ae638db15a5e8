/* SPDX-License-Identifier: MIT */
/*
 * The code stamp of closure records (value/closure.c, rv_code_stamp): a
 * record keeps the address of the op_array OPcache holds for its closure,
 * which is the same code only
 *  - in a process sharing that OPcache's memory: forked from the one that
 *    started it (ros_shared->boot is drawn there, before any fork);
 *  - while the declaring file is the one OPcache runs: a new version
 *    compiles elsewhere and leaves the old op_array where it was, so the
 *    file is held to what deploy.c holds class files to (opcache_reset()
 *    and opcache_invalidate() counts; its mtime and size where OPcache
 *    stat()s files);
 *  - until OPcache restarts on its own (out of memory, hash full), after
 *    which it reuses that memory: the record also keeps the op_array's
 *    pointers and a hash of its code (closure.c), which what the memory
 *    holds after a restart matches only if it is the same code again.
 */
#include "php.h"
#include "php_resident.h"
#include "internal.h"
#include "ros.h"
#include "value/graph.h"
#include "zend_extensions.h"
#include <sys/stat.h>

/* Why OPcache does not cache code for this request, or NULL. */
static const char *opcache_problem(void)
{
	if (!zend_get_extension("Zend OPcache")) {
		return "OPcache is not loaded";
	}
	if (!ros_opcache_enabled()) {
		return "OPcache is off";
	}
	if (zend_ini_long("opcache.file_cache_only", sizeof("opcache.file_cache_only") - 1, 0)) {
		return "OPcache keeps no shared memory (opcache.file_cache_only)";
	}
	return NULL;
}

const char *ros_code_stamp(zend_string *file, rv_code_stamp *out, bool storing)
{
	memset(out, 0, sizeof(*out));
	if (!file) {
		return "it has no file";
	}
	const char *problem = storing ? opcache_problem() : NULL;
	if (problem) {
		return problem;
	}
	out->instance = ros_shared->boot;
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
