/* SPDX-License-Identifier: MIT */
/*
 * The process's hold on the segment (see segment.h).
 */
#include <ctype.h>
#include <limits.h>
#include <fcntl.h>
#include <unistd.h>
#include <pthread.h>
#include <syslog.h>
#include "php.h"
#include "SAPI.h"
#include "zend_extensions.h"
#include "php_resident.h"
#include "segment.h"
#include "sapi.h"
#include "value/value.h"

rs_store resident_segment;
static char unavailable_reason[256] = "the extension has not started";
static bool disabled_by_config;

const char *resident_unavailable_reason(void)
{
	return unavailable_reason;
}

bool resident_disabled_by_config(void)
{
	return disabled_by_config;
}

rs_store *resident_store(void)
{
	rs_store *st = &RESIDENT_G(store);
	if (EXPECTED(st->hdr)) {
		return st;
	}
	if (!resident_segment.hdr) {
		return NULL;
	}
	/* A thread's (or the process's) own handle on the shared mapping. */
	rs_handle_share(st, &resident_segment);
	return st;
}

static void fork_prepare(void)
{
	if (resident_segment.hdr && RESIDENT_G(store).hdr) {
		rs_fork_prepare(&RESIDENT_G(store));
	}
}

static void fork_child(void)
{
	if (resident_segment.hdr && RESIDENT_G(store).hdr) {
		rs_fork_child(&RESIDENT_G(store));
	}
}

static char segment_path[PATH_MAX];

const char *resident_segment_path(void)
{
	return segment_path[0] ? segment_path : NULL;
}

/* The pool php-fpm runs this worker for: its process title, which
 * /proc/self/cmdline shows, is "php-fpm: pool NAME". */
static bool fpm_pool_name(char *out, size_t len)
{
	char buf[512];
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		return false;
	}
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0) {
		return false;
	}
	buf[n] = '\0';
	const char *p = strstr(buf, "pool ");
	if (!p) {
		return false;
	}
	p += 5;
	size_t i = 0;
	while (p[i] && p[i] != ' ' && i + 1 < len) {
		out[i] = p[i];
		i++;
	}
	out[i] = '\0';
	return i > 0;
}

/* resident.segment: a path, or a name for a file under /dev/shm; %pool%
 * stands for the php-fpm pool's name. */
static bool resolve_segment_path(const char *setting)
{
	segment_path[0] = '\0';
	if (!setting || !*setting) {
		return true;
	}
	char expanded[PATH_MAX];
	const char *placeholder = strstr(setting, "%pool%");
	if (placeholder) {
		char pool[128];
		if (!fpm_pool_name(pool, sizeof(pool))) {
			snprintf(unavailable_reason, sizeof(unavailable_reason),
				"resident.segment \"%s\" names the php-fpm pool, and this process is not a php-fpm worker", setting);
			return false;
		}
		snprintf(expanded, sizeof(expanded), "%.*s%s%s", (int)(placeholder - setting), setting, pool, placeholder + 6);
		setting = expanded;
	}
	if (strchr(setting, '/')) {
		if (setting[0] != '/' || strlen(setting) >= sizeof(segment_path)) {
			snprintf(unavailable_reason, sizeof(unavailable_reason),
				"resident.segment must be a name or an absolute path, \"%s\" given", setting);
			return false;
		}
		snprintf(segment_path, sizeof(segment_path), "%s", setting);
		return true;
	}
	for (const char *p = setting; *p; p++) {
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' && *p != '.') {
			snprintf(unavailable_reason, sizeof(unavailable_reason),
				"resident.segment names may only hold letters, digits, '-', '_' and '.', \"%s\" given", setting);
			return false;
		}
	}
	snprintf(segment_path, sizeof(segment_path), "/dev/shm/resident-%s", setting);
	return true;
}

static void register_fork_handlers(void)
{
	static bool registered = false;
	if (!registered) {
		pthread_atfork(fork_prepare, NULL, fork_child);
		registered = true;
	}
}

#define RESIDENT_BUILD_ID PHP_VERSION " " ZEND_EXTENSION_BUILD_ID
#define RS_ALIGN_UP_4K(n) (((n) + 4095) & ~(size_t)4095)

/* resident.restore_on_start: the dump to load into a segment this process
 * creates, before anything is served from it. Its header says where the
 * segment must be mapped. */
static int open_restore_file(rs_config *cfg, size_t memory)
{
	const char *file = RESIDENT_G(restore_on_start);
	if (!file || !*file) {
		return -1;
	}
	char err[512];
	rs_dump_info info;
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		php_error_docref(NULL, E_WARNING, "Resident: resident.restore_on_start: cannot open %s: %s; starting empty", file, strerror(errno));
		return -1;
	}
	if (rs_dump_trusted(fd, err, sizeof(err)) != RS_OK || rs_dump_peek(fd, cfg, &info, err, sizeof(err)) != RS_OK) {
		php_error_docref(NULL, E_WARNING, "Resident: resident.restore_on_start: %s is refused: %s; starting empty", file, err);
		close(fd);
		return -1;
	}
	if (info.total_size != (uint64_t)RS_ALIGN_UP_4K(memory)) {
		php_error_docref(NULL, E_WARNING, "Resident: resident.restore_on_start: %s was taken from a segment of %llu bytes, "
			"resident.memory asks for %zu; starting empty", file, (unsigned long long)info.total_size, memory);
		close(fd);
		return -1;
	}
	cfg->address = info.base_address;
	return fd;
}

static long long restored_entries = -1;

long long resident_restored_entries(void)
{
	return restored_entries;
}

static void restore_on_start(int fd, bool fresh)
{
	const char *file = RESIDENT_G(restore_on_start);
	char err[512];
	rs_dump_stats ds;
	if (!fresh) {
		/* A named segment that outlived the server: already warm. */
	} else if (rs_restore(&resident_segment, fd, &ds, err, sizeof(err)) != RS_OK) {
		php_error_docref(NULL, E_WARNING, "Resident: resident.restore_on_start: %s is refused: %s; starting empty", file, err);
	} else {
		restored_entries = (long long)ds.entries;
		if (resident_sapi_is_cli_like()) {
			/* A CLI script asks status()['restored_at_start']; a server's log tells the operator. */
			close(fd);
			return;
		}
		char msg[PATH_MAX + 128];
		snprintf(msg, sizeof(msg), "Resident: restored %llu entries (%llu bytes) from %s",
			(unsigned long long)ds.entries, (unsigned long long)ds.bytes, file);
		php_log_err_with_severity(msg, LOG_NOTICE);
	}
	close(fd);
}

/* resident.memory: a size of at least 1M; false, with the reason set,
 * naming what was given. */
static bool memory_setting(size_t *bytes)
{
	const char *given = RESIDENT_G(memory) ? RESIDENT_G(memory) : "";
	zend_string *value = zend_string_init(given, strlen(given), 0);
	zend_string *problem = NULL;
	zend_long n = zend_ini_parse_quantity(value, &problem);
	zend_string_release(value);
	if (problem) {
		zend_string_release(problem);
		snprintf(unavailable_reason, sizeof(unavailable_reason),
			"resident.memory must be a size such as 64M (a number of bytes, optionally followed by K, M or G), \"%s\" given", given);
		return false;
	}
	if (n < (zend_long)RS_MIN_SEGMENT_SIZE) {
		snprintf(unavailable_reason, sizeof(unavailable_reason), "resident.memory must be at least 1M, \"%s\" given", given);
		return false;
	}
	*bytes = (size_t)n;
	return true;
}

static zend_result create_segment(void)
{
	size_t bytes;
	if (!memory_setting(&bytes)) {
		php_error_docref(NULL, E_WARNING, "Resident is disabled: %s", unavailable_reason);
		return FAILURE;
	}

	char err[512];
	rs_config cfg = {
		.size = (size_t)bytes,
		.build_id = RESIDENT_BUILD_ID,
		.encoding_version = RV_ENCODING_VERSION,
	};
	if (!resolve_segment_path(RESIDENT_G(segment))) {
		php_error_docref(NULL, E_WARNING, "Resident is disabled: %s", unavailable_reason);
		return FAILURE;
	}
	int restore_fd = open_restore_file(&cfg, (size_t)bytes);
	rs_status rc;
	bool fresh = true;
	if (segment_path[0]) {
		/* A server may replace a stale file nobody uses; a CLI tool attaches
		 * to what is there and never drops it. */
		rc = rs_open_named(&resident_segment, segment_path, &cfg, !resident_sapi_is_cli_like(), &fresh, err, sizeof(err));
	} else {
		rc = rs_create(&resident_segment, &cfg, err, sizeof(err));
	}
	if (rc != RS_OK) {
		if (restore_fd >= 0) {
			close(restore_fd);
		}
		snprintf(unavailable_reason, sizeof(unavailable_reason), "cannot create the segment: %s", err);
		php_error_docref(NULL, E_WARNING, "Resident is disabled: %s", unavailable_reason);
		return FAILURE;
	}
	if (restore_fd >= 0) {
		restore_on_start(restore_fd, fresh);
	}
	if (segment_path[0]) {
		/* Formatted and filled: other processes may attach now. */
		rs_named_ready(&resident_segment);
	}
	unavailable_reason[0] = '\0';
	return SUCCESS;
}

/* The resident.segment the current mapping was opened for. */
static char opened_setting[PATH_MAX];
static pid_t checked_pid;

static bool per_pool_setting(const char *setting)
{
	return setting && strstr(setting, "%pool%") != NULL;
}

/* php-fpm applies a pool's php_admin_value settings in its workers, after
 * they fork from the master, and %pool% is only known there. A worker whose
 * pool names another segment than the master mapped drops the inherited
 * mapping (it must not see other pools' memory) and opens its pool's own,
 * before its first request touches the cache. */
void resident_segment_request_start(void)
{
	pid_t pid = getpid();
	if (EXPECTED(checked_pid == pid)) {
		return;
	}
	checked_pid = pid;
	const char *setting = RESIDENT_G(segment) ? RESIDENT_G(segment) : "";
	if (disabled_by_config || (!per_pool_setting(setting) && strcmp(setting, opened_setting) == 0)) {
		return;
	}
	if (!resident_sapi_one_worker_per_process()) {
		php_error_docref(NULL, E_WARNING, "Resident: a per-request resident.segment needs php-fpm or a non-thread-safe PHP; keeping the process's segment");
		return;
	}
	if (resident_segment.hdr) {
		rs_destroy(&resident_segment);
	}
	rs_handle_init(&RESIDENT_G(store));
	snprintf(opened_setting, sizeof(opened_setting), "%s", setting);
	create_segment();
}

void resident_segment_startup(void)
{
	if (!RESIDENT_G(enable)) {
		snprintf(unavailable_reason, sizeof(unavailable_reason), "resident.enable is off");
		disabled_by_config = true;
		return;
	}
	if (resident_sapi_is_cli_like() && !RESIDENT_G(enable_cli)) {
		snprintf(unavailable_reason, sizeof(unavailable_reason), "resident.enable_cli is off for the %s SAPI", sapi_module.name);
		disabled_by_config = true;
		return;
	}
	snprintf(opened_setting, sizeof(opened_setting), "%s", RESIDENT_G(segment) ? RESIDENT_G(segment) : "");
	if (per_pool_setting(RESIDENT_G(segment)) && strcmp(sapi_module.name, "fpm-fcgi") == 0) {
		/* Each worker opens its pool's segment (resident_segment_request_start). */
		snprintf(unavailable_reason, sizeof(unavailable_reason), "the pool's segment opens in its workers");
		register_fork_handlers();
		return;
	}
	if (create_segment() == SUCCESS) {
		register_fork_handlers();
	}
}

void resident_segment_thread_end(rs_store *thread_handle)
{
	if (resident_segment.hdr && thread_handle->hdr) {
		rs_slot_release(thread_handle);
	}
	thread_handle->hdr = NULL;
}

void resident_segment_shutdown(void)
{
	if (resident_segment.hdr) {
		if (RESIDENT_G(store).hdr) {
			rs_slot_release(&RESIDENT_G(store));
			RESIDENT_G(store).hdr = NULL;
		}
		rs_destroy(&resident_segment);
	}
}
