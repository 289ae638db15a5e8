/*
 * Module glue: ini, segment creation in MINIT (before php-fpm forks its
 * workers, so every worker maps it at the same address), request hooks.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <ctype.h>
#include <limits.h>
#include <fcntl.h>
#include <unistd.h>
#include <pthread.h>
#include <syslog.h>
#include "php.h"
#include "php_ini.h"
#include "SAPI.h"
#include "ext/standard/info.h"
#include "zend_extensions.h"
#include "php_resident.h"
#include "runtime/class_list.h"
#include "api/api.h"
#include "value/value.h"
#include "ros/ros.h"

ZEND_DECLARE_MODULE_GLOBALS(resident)

rs_store resident_segment;
static char unavailable_reason[256] = "the extension has not started";
static bool disabled_by_config;

enum { ZERO_COPY_AUTO, ZERO_COPY_ON, ZERO_COPY_OFF };
static int zero_copy_setting = ZERO_COPY_AUTO;
static int parse_zero_copy(const char *v);

/* Parsed whenever it is set, also when php-fpm applies a pool's
 * php_admin_value in its workers, after MINIT. */
static ZEND_INI_MH(OnUpdateZeroCopy)
{
	if (OnUpdateString(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage) == FAILURE) {
		return FAILURE;
	}
	zero_copy_setting = parse_zero_copy(ZSTR_VAL(new_value));
	return SUCCESS;
}

PHP_INI_BEGIN()
	STD_PHP_INI_BOOLEAN("resident.enable", "1", PHP_INI_SYSTEM, OnUpdateBool, enable, zend_resident_globals, resident_globals)
	STD_PHP_INI_BOOLEAN("resident.enable_cli", "0", PHP_INI_SYSTEM, OnUpdateBool, enable_cli, zend_resident_globals, resident_globals)
	STD_PHP_INI_ENTRY("resident.memory", "64M", PHP_INI_SYSTEM, OnUpdateString, memory, zend_resident_globals, resident_globals)
	STD_PHP_INI_ENTRY("resident.restore_on_start", "", PHP_INI_SYSTEM, OnUpdateString, restore_on_start, zend_resident_globals, resident_globals)
	STD_PHP_INI_ENTRY("resident.segment", "", PHP_INI_SYSTEM, OnUpdateString, segment, zend_resident_globals, resident_globals)
	STD_PHP_INI_ENTRY("resident.zero_copy", "auto", PHP_INI_SYSTEM, OnUpdateZeroCopy, zero_copy, zend_resident_globals, resident_globals)
	STD_PHP_INI_ENTRY("resident.direct_classes", "", PHP_INI_SYSTEM, OnUpdateString, direct_classes, zend_resident_globals, resident_globals)
	STD_PHP_INI_BOOLEAN("resident.request_over_static", "1", PHP_INI_SYSTEM, OnUpdateBool, request_over_static, zend_resident_globals, resident_globals)
	STD_PHP_INI_ENTRY("resident.request_over_static_classes", "", PHP_INI_SYSTEM, OnUpdateString, request_over_static_classes, zend_resident_globals, resident_globals)
	STD_PHP_INI_BOOLEAN("resident.testing", "0", PHP_INI_SYSTEM, OnUpdateBool, testing, zend_resident_globals, resident_globals)
PHP_INI_END()

/* resident.direct_classes. */
static resident_class_list direct_class_list;

bool resident_is_direct_class(zend_class_entry *ce)
{
	/* Asked once per class and request (value/class_profile.c keeps it). */
	return !resident_class_list_empty(&direct_class_list) && resident_class_list_has(&direct_class_list, ce->name);
}

const char *resident_unavailable_reason(void)
{
	return unavailable_reason;
}

bool resident_disabled_by_config(void)
{
	return disabled_by_config;
}

/* SAPIs where one "request" is the whole process lifetime. */
static bool sapi_is_cli_like(void)
{
	const char *name = sapi_module.name;
	return strcmp(name, "cli") == 0 || strcmp(name, "phpdbg") == 0 || strcmp(name, "embed") == 0;
}

static bool frankenphp_worker(void)
{
	return strcmp(sapi_module.name, "frankenphp") == 0 && getenv("FRANKENPHP_WORKER");
}

static int parse_zero_copy(const char *v)
{
	if (!strcasecmp(v, "auto")) {
		return ZERO_COPY_AUTO;
	}
	if (!strcasecmp(v, "1") || !strcasecmp(v, "on") || !strcasecmp(v, "yes") || !strcasecmp(v, "true")) {
		return ZERO_COPY_ON;
	}
	if (!strcasecmp(v, "0") || !strcasecmp(v, "off") || !strcasecmp(v, "no") || !strcasecmp(v, "false")) {
		return ZERO_COPY_OFF;
	}
	php_error_docref(NULL, E_WARNING, "resident.zero_copy must be auto, 1 or 0; \"%s\" is treated as auto", v);
	return ZERO_COPY_AUTO;
}

/* Borrowing pins memory until the request ends: right for request-scoped
 * SAPIs, wrong where the request never ends (CLI daemons, FrankenPHP's
 * worker mode). */
static bool request_borrows(void)
{
	switch (zero_copy_setting) {
		case ZERO_COPY_ON:
			return true;
		case ZERO_COPY_OFF:
			return false;
		default:
			if (sapi_is_cli_like()) {
				return false;
			}
			if (frankenphp_worker()) {
				return false;
			}
			return true;
	}
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
	memset(st, 0, sizeof(*st));
	st->hdr = resident_segment.hdr;
	st->base = resident_segment.base;
	st->lock_fd = resident_segment.lock_fd;
	st->slot = -1;
	st->fork_slot = -1;
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
		if (sapi_is_cli_like()) {
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
		rc = rs_open_named(&resident_segment, segment_path, &cfg, !sapi_is_cli_like(), &fresh, err, sizeof(err));
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

/* Whether this process serves one request at a time, so that a setting
 * its requests carry can replace what the process holds: php-fpm's workers
 * are processes, also in a thread-safe PHP; other thread-safe SAPIs serve
 * requests of different settings from threads of one process. */
static bool one_worker_per_process;

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
static void open_pool_segment(void)
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
	if (!one_worker_per_process) {
		php_error_docref(NULL, E_WARNING, "Resident: a per-request resident.segment needs php-fpm or a non-thread-safe PHP; keeping the process's segment");
		return;
	}
	if (resident_segment.hdr) {
		rs_destroy(&resident_segment);
	}
	memset(&RESIDENT_G(store), 0, sizeof(RESIDENT_G(store)));
	RESIDENT_G(store).slot = -1;
	RESIDENT_G(store).fork_slot = -1;
	RESIDENT_G(store).lock_fd = -1;
	snprintf(opened_setting, sizeof(opened_setting), "%s", setting);
	create_segment();
}

static PHP_GINIT_FUNCTION(resident)
{
#if defined(ZTS) && defined(COMPILE_DL_RESIDENT)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	memset(resident_globals, 0, sizeof(*resident_globals));
	resident_globals->store.slot = -1;
	resident_globals->store.fork_slot = -1;
	resident_globals->store.lock_fd = -1;
	rv_context_init(&resident_globals->value, resident_is_direct_class);
}

static PHP_GSHUTDOWN_FUNCTION(resident)
{
	/* A thread going away gives its reader slot back. */
	if (resident_segment.hdr && resident_globals->store.hdr) {
		rs_slot_release(&resident_globals->store);
	}
	resident_globals->store.hdr = NULL;
	rv_context_free(&resident_globals->value);
}

static PHP_MINIT_FUNCTION(resident)
{
	REGISTER_INI_ENTRIES();
#ifdef ZTS
	one_worker_per_process = strcmp(sapi_module.name, "fpm-fcgi") == 0;
#else
	one_worker_per_process = true;
#endif
	resident_class_list_parse(&direct_class_list, RESIDENT_G(direct_classes));
	resident_api_register(module_number, RESIDENT_G(testing));
	rv_lazy_module_start();
	rv_graph_module_start();

	resident_compat_register();
	bool runs = RESIDENT_G(enable) && (!sapi_is_cli_like() || RESIDENT_G(enable_cli));
	ros_module_start(resident_request_over_static_ce, RESIDENT_G(request_over_static_classes),
		runs && RESIDENT_G(request_over_static));
	if (!RESIDENT_G(enable)) {
		snprintf(unavailable_reason, sizeof(unavailable_reason), "resident.enable is off");
		disabled_by_config = true;
		return SUCCESS;
	}
	if (sapi_is_cli_like() && !RESIDENT_G(enable_cli)) {
		snprintf(unavailable_reason, sizeof(unavailable_reason), "resident.enable_cli is off for the %s SAPI", sapi_module.name);
		disabled_by_config = true;
		return SUCCESS;
	}
	snprintf(opened_setting, sizeof(opened_setting), "%s", RESIDENT_G(segment) ? RESIDENT_G(segment) : "");
	if (per_pool_setting(RESIDENT_G(segment)) && strcmp(sapi_module.name, "fpm-fcgi") == 0) {
		/* Each worker opens its pool's segment (open_pool_segment). */
		snprintf(unavailable_reason, sizeof(unavailable_reason), "the pool's segment opens in its workers");
		register_fork_handlers();
		return SUCCESS;
	}
	if (create_segment() == SUCCESS) {
		register_fork_handlers();
	}
	return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(resident)
{
	ros_module_end();
	UNREGISTER_INI_ENTRIES();
	resident_class_list_free(&direct_class_list);
	if (resident_segment.hdr) {
		if (RESIDENT_G(store).hdr) {
			rs_slot_release(&RESIDENT_G(store));
			RESIDENT_G(store).hdr = NULL;
		}
		rs_destroy(&resident_segment);
	}
	return SUCCESS;
}

/* A thread-safe PHP, not php-fpm: a pool's (a virtual host's) own class
 * lists cannot replace the process's. Said once per process. */
static void warn_request_class_lists(void)
{
	static _Atomic pid_t warned_pid;  /* threads of one process race here */
	pid_t pid = getpid();
	if (EXPECTED(warned_pid == pid)) {
		return;
	}
	warned_pid = pid;
	if (!resident_class_list_is(&direct_class_list, RESIDENT_G(direct_classes))
		|| !ros_listed_classes_are(RESIDENT_G(request_over_static_classes))) {
		php_error_docref(NULL, E_WARNING, "Resident: a per-request resident.direct_classes or resident.request_over_static_classes "
			"needs php-fpm or a non-thread-safe PHP; keeping the lists of php.ini");
	}
}

static PHP_RINIT_FUNCTION(resident)
{
#if defined(ZTS) && defined(COMPILE_DL_RESIDENT)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	open_pool_segment();
	if (EXPECTED(one_worker_per_process)) {
		/* A php-fpm pool's php_admin_value lists, set in its workers after MINIT. */
		resident_class_list_update(&direct_class_list, RESIDENT_G(direct_classes));
		ros_listed_classes_update(RESIDENT_G(request_over_static_classes));
	} else {
		warn_request_class_lists();
	}
	RESIDENT_G(borrowing) = false;
	RESIDENT_G(borrow_mode) = request_borrows();
	/* Nothing ends between a FrankenPHP worker's requests: its statics
	 * already live on, and a snapshot would go stale behind its back. */
	ros_request_start(resident_store() && RESIDENT_G(request_over_static) && !frankenphp_worker()
		&& !(CG(compiler_options) & ZEND_COMPILE_PRELOAD));
	return SUCCESS;
}

/* Objects and tables kept for the request go while the executor is alive. */
static PHP_RSHUTDOWN_FUNCTION(resident)
{
	rs_store *st = &RESIDENT_G(store);
	if (st->hdr) {
		/* Every store call closes what it opened, also when PHP code it
		 * runs ends in a fatal error; should one ever miss, the request
		 * still ends with nothing of the segment held but its own
		 * borrowing section (what it borrowed is alive until the engine
		 * destroys it). */
		rs_unwind(st, RESIDENT_G(borrowing) ? 1 : 0);
	}
	ros_request_end();
	rv_context_request_end(RV_CTX);
	for (uint32_t i = 0; i < RS_MAX_POOLS; i++) {
		if (RESIDENT_G(lookups)[i]) {
			zend_hash_destroy(RESIDENT_G(lookups)[i]);
			FREE_HASHTABLE(RESIDENT_G(lookups)[i]);
			RESIDENT_G(lookups)[i] = NULL;
		}
	}
	return SUCCESS;
}

/* After the engine destroyed every request value: nothing can still point
 * at what this request borrowed, so its read section ends here. */
static ZEND_MODULE_POST_ZEND_DEACTIVATE_D(resident)
{
	rs_store *st = &RESIDENT_G(store);
	if (st->hdr) {
		rs_unwind(st, 0);
		RESIDENT_G(borrowing) = false;
		rs_stats_flush(st);
	}
	return SUCCESS;
}

static PHP_MINFO_FUNCTION(resident)
{
	php_info_print_table_start();
	php_info_print_table_row(2, "Resident support", resident_segment.hdr ? "enabled" : "disabled");
	php_info_print_table_row(2, "Version", PHP_RESIDENT_VERSION);
	if (!resident_segment.hdr) {
		php_info_print_table_row(2, "Reason", unavailable_reason);
	} else {
		rs_segment_stats s;
		char buf[64];
		rs_segment_stats_get(resident_store(), &s);
		snprintf(buf, sizeof(buf), "%" PRIu64 " bytes", s.total_bytes);
		php_info_print_table_row(2, "Segment size", buf);
		if (resident_segment_path()) {
			snprintf(buf, sizeof(buf), "%p", (void *)resident_segment.base);
			php_info_print_table_row(2, "Segment file", resident_segment_path());
			php_info_print_table_row(2, "Segment address", buf);
		} else {
			php_info_print_table_row(2, "Segment mapping", "anonymous, shared with forked workers");
		}
		snprintf(buf, sizeof(buf), "%" PRIu64 " bytes", s.used_bytes);
		php_info_print_table_row(2, "Memory used", buf);
		snprintf(buf, sizeof(buf), "%" PRIu64, s.entries);
		php_info_print_table_row(2, "Entries", buf);
		php_info_print_table_row(2, "Zero-copy reads", request_borrows() ? "borrow" : "copy");
		php_info_print_table_row(2, "RequestOverStatic", !RESIDENT_G(request_over_static) ? "off"
			: frankenphp_worker() ? "off (FrankenPHP worker mode)" : "on");
	}
	php_info_print_table_end();
	DISPLAY_INI_ENTRIES();
}

static const zend_module_dep resident_deps[] = {
	ZEND_MOD_REQUIRED("standard")
	ZEND_MOD_END
};

zend_module_entry resident_module_entry = {
	STANDARD_MODULE_HEADER_EX,
	NULL,
	resident_deps,
	"resident",
	NULL,
	PHP_MINIT(resident),
	PHP_MSHUTDOWN(resident),
	PHP_RINIT(resident),
	PHP_RSHUTDOWN(resident),
	PHP_MINFO(resident),
	PHP_RESIDENT_VERSION,
	PHP_MODULE_GLOBALS(resident),
	PHP_GINIT(resident),
	PHP_GSHUTDOWN(resident),
	ZEND_MODULE_POST_ZEND_DEACTIVATE_N(resident),
	STANDARD_MODULE_PROPERTIES_EX
};

#ifdef COMPILE_DL_RESIDENT
#ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
#endif
ZEND_GET_MODULE(resident)
#endif
