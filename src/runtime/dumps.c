/* SPDX-License-Identifier: MIT */
/*
 * Dumps and restores named by the user (see dumps.h).
 */
#include <fcntl.h>
#include <unistd.h>
#include "php.h"
#include "php_resident.h"
#include "dumps.h"
#include "segment.h"

bool resident_dump(const char *file, rs_dump_stats *ds, char *err, size_t errlen)
{
	rs_store *st = resident_store();
	if (!st) {
		snprintf(err, errlen, "Resident is not available: %s", resident_unavailable_reason());
		return false;
	}
	return rs_dump_file(st, file, PHP_RESIDENT_VERSION, ds, err, errlen) == RS_OK;
}

bool resident_restore(const char *file, rs_dump_stats *ds, char *err, size_t errlen)
{
	rs_store *st = resident_store();
	if (!st) {
		snprintf(err, errlen, "Resident is not available: %s", resident_unavailable_reason());
		return false;
	}
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", file, strerror(errno));
		return false;
	}
	bool ok = rs_dump_trusted(fd, err, errlen) == RS_OK && rs_restore(st, fd, ds, err, errlen) == RS_OK;
	close(fd);
	return ok;
}
