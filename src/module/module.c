/* SPDX-License-Identifier: MIT */
/*
 * Module glue: the ini settings, the module's lifecycle (MINIT, RINIT,
 * RSHUTDOWN, post-deactivate, GINIT/GSHUTDOWN) calling into each layer in
 * turn, and phpinfo().
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <unistd.h>
#include "php.h"
#include "php_ini.h"
#include "SAPI.h"
#include "ext/standard/info.h"
#include "zend_extensions.h"
#include "php_resident.h"
#include "runtime/class_list.h"
#include "runtime/sapi.h"
#include "runtime/segment.h"
#include "api/api.h"
#include "value/value.h"
#include "ros/ros.h"

ZEND_DECLARE_MODULE_GLOBALS(resident)

/* Parsed whenever it is set, also when php-fpm applies a pool's
 * php_admin_value in its workers, after MINIT. */
static ZEND_INI_MH(OnUpdateZeroCopy)
{
	if (OnUpdateString(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage) == FAILURE) {
		return FAILURE;
	}
	resident_zero_copy_set(ZSTR_VAL(new_value));
	return SUCCESS;
}

/* A debug build checks what a worker still holds at its quiescent points. */
#if ZEND_DEBUG
#define CHECK_BORROWED_DEFAULT "1"
#else
#define CHECK_BORROWED_DEFAULT "0"
#endif

/* ini warnings name the setting and say what is allowed. */
static void ini_warning(int stage, const char *fmt, ...) ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);
static void ini_warning(int stage, const char *fmt, ...)
{
	if (stage == ZEND_INI_STAGE_DEACTIVATE) {
		return;
	}
	va_list args;
	va_start(args, fmt);
	zend_string *msg = zend_vstrpprintf(0, fmt, args);
	va_end(args);
	php_error_docref(NULL, E_WARNING, "%s", ZSTR_VAL(msg));
	zend_string_release(msg);
}

/* A count or a number of seconds given as a PHP quantity, at least 0. */
static bool ini_quantity(zend_ini_entry *entry, zend_string *new_value, int stage, zend_long *out)
{
	zend_string *problem = NULL;
	zend_long n = zend_ini_parse_quantity(new_value, &problem);
	if (problem) {
		ini_warning(stage, "Invalid \"%s\" setting. %s", ZSTR_VAL(entry->name), ZSTR_VAL(problem));
		zend_string_release(problem);
	}
	if (n < 0) {
		ini_warning(stage, "%s must be greater than or equal to 0, " ZEND_LONG_FMT " given", ZSTR_VAL(entry->name), n);
		return false;
	}
	*out = n;
	return true;
}

/* lru (CLOCK), clear (drop what is not pinned), none (the store fails);
 * "" is none, as the ext-user_cache proposal has it. */
static bool eviction_policy(zend_ini_entry *entry, zend_string *new_value, int stage, zend_long *out)
{
	if (zend_string_equals_literal_ci(new_value, "lru")) {
		*out = RS_EVICT_CLOCK;
	} else if (zend_string_equals_literal_ci(new_value, "clear")) {
		*out = RS_EVICT_WIPE;
	} else if (ZSTR_LEN(new_value) == 0 || zend_string_equals_literal_ci(new_value, "none")) {
		*out = RS_EVICT_NONE;
	} else {
		ini_warning(stage, "%s must be one of \"lru\", \"clear\" or \"none\", \"%s\" given", ZSTR_VAL(entry->name), ZSTR_VAL(new_value));
		return false;
	}
	return true;
}

static ZEND_INI_MH(OnUpdateEvictionPolicy)
{
	return eviction_policy(entry, new_value, stage, &RESIDENT_G(eviction_policy)) ? SUCCESS : FAILURE;
}

static ZEND_INI_MH(OnUpdateLockLeaseMax)
{
	return ini_quantity(entry, new_value, stage, &RESIDENT_G(lock_lease_max)) ? SUCCESS : FAILURE;
}

static ZEND_INI_MH(OnUpdateEntriesHint)
{
	return ini_quantity(entry, new_value, stage, &RESIDENT_G(entries_hint)) ? SUCCESS : FAILURE;
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
	STD_PHP_INI_BOOLEAN("resident.request_over_static_immediate", "0", PHP_INI_SYSTEM, OnUpdateBool, request_over_static_immediate, zend_resident_globals, resident_globals)
	STD_PHP_INI_BOOLEAN("resident.check_borrowed", CHECK_BORROWED_DEFAULT, PHP_INI_ALL, OnUpdateBool, check_borrowed, zend_resident_globals, resident_globals)
	STD_PHP_INI_BOOLEAN("resident.lazy_objects", "0", PHP_INI_ALL, OnUpdateBool, lazy_objects, zend_resident_globals, resident_globals)
	STD_PHP_INI_BOOLEAN("resident.testing", "0", PHP_INI_SYSTEM, OnUpdateBool, testing, zend_resident_globals, resident_globals)
	PHP_INI_ENTRY("resident.eviction_policy", "lru", PHP_INI_SYSTEM, OnUpdateEvictionPolicy)
	PHP_INI_ENTRY("resident.lock_lease_max", "3600", PHP_INI_SYSTEM, OnUpdateLockLeaseMax)
	PHP_INI_ENTRY("resident.entries_hint", "0", PHP_INI_SYSTEM, OnUpdateEntriesHint)
PHP_INI_END()

/*
 * The ext-user_cache proposal's settings (docs/user-cache.md). Those that
 * mean what a Resident setting means set it, unless php.ini sets the
 * resident.* name too: Resident's own name wins. Given later (a php-fpm
 * pool's php_admin_value), they apply. Their default is left alone: an
 * alias only speaks when it is given.
 */
static bool alias_applies(zend_ini_entry *entry, const char *resident_name, int stage)
{
	switch (stage) {
		case ZEND_INI_STAGE_DEACTIVATE:
			return false;
		case ZEND_INI_STAGE_STARTUP:
			return cfg_get_entry(ZSTR_VAL(entry->name), ZSTR_LEN(entry->name)) != NULL
				&& cfg_get_entry(resident_name, strlen(resident_name)) == NULL;
		default:
			return true;
	}
}

static ZEND_INI_MH(OnUpdateUserCacheEnable)
{
	if (alias_applies(entry, "resident.enable", stage)) {
		RESIDENT_G(enable) = zend_ini_parse_bool(new_value);
	}
	return SUCCESS;
}

static ZEND_INI_MH(OnUpdateUserCacheEnableCli)
{
	if (alias_applies(entry, "resident.enable_cli", stage)) {
		RESIDENT_G(enable_cli) = zend_ini_parse_bool(new_value);
	}
	return SUCCESS;
}

static ZEND_INI_MH(OnUpdateUserCacheShmSize)
{
	zend_long size;
	if (!ini_quantity(entry, new_value, stage, &size)) {
		return FAILURE;
	}
	if (alias_applies(entry, "resident.memory", stage)) {
		RESIDENT_G(memory) = ZSTR_VAL(new_value);
		RESIDENT_G(memory_setting) = "user_cache.shm_size";
	}
	return SUCCESS;
}

static ZEND_INI_MH(OnUpdateUserCacheEvictionPolicy)
{
	zend_long policy;
	if (!eviction_policy(entry, new_value, stage, &policy)) {
		return FAILURE;
	}
	if (alias_applies(entry, "resident.eviction_policy", stage)) {
		RESIDENT_G(eviction_policy) = policy;
	}
	return SUCCESS;
}

static ZEND_INI_MH(OnUpdateUserCacheLockLeaseMax)
{
	zend_long seconds;
	if (!ini_quantity(entry, new_value, stage, &seconds)) {
		return FAILURE;
	}
	if (alias_applies(entry, "resident.lock_lease_max", stage)) {
		RESIDENT_G(lock_lease_max) = seconds;
	}
	return SUCCESS;
}

static ZEND_INI_MH(OnUpdateUserCacheEntriesHint)
{
	zend_long hint;
	if (!ini_quantity(entry, new_value, stage, &hint)) {
		return FAILURE;
	}
	if (alias_applies(entry, "resident.entries_hint", stage)) {
		RESIDENT_G(entries_hint) = hint;
		RESIDENT_G(entries_hint_setting) = "user_cache.entries_hint";
	}
	return SUCCESS;
}

/* Accepted and checked as the proposal checks it; Resident keeps no lock
 * file (its liveness locks are on an anonymous memfd). */
static ZEND_INI_MH(OnUpdateUserCacheLockfilePath)
{
	if (!IS_ABSOLUTE_PATH(ZSTR_VAL(new_value), ZSTR_LEN(new_value))) {
		ini_warning(stage, "user_cache.lockfile_path must be an absolute path, \"%s\" given", ZSTR_VAL(new_value));
		return FAILURE;
	}
	return SUCCESS;
}

/* The proposal's memory models of Linux are all accepted and none is
 * needed: Resident maps its segment as resident.segment says. */
static ZEND_INI_MH(OnUpdateUserCachePreferredMemoryModel)
{
	static const char *const models[] = { "", "mmap", "posix", "shm", "cgi" };
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		if (zend_string_equals_cstr(new_value, models[i], strlen(models[i]))) {
			return SUCCESS;
		}
	}
	ini_warning(stage, "user_cache.preferred_memory_model \"%s\" is not a memory model available on this platform (mmap, posix, shm or cgi)",
		ZSTR_VAL(new_value));
	return FAILURE;
}

static const zend_ini_entry_def user_cache_ini_entries[] = {
	PHP_INI_ENTRY("user_cache.enable", "1", PHP_INI_SYSTEM, OnUpdateUserCacheEnable)
	PHP_INI_ENTRY("user_cache.enable_cli", "0", PHP_INI_SYSTEM, OnUpdateUserCacheEnableCli)
	PHP_INI_ENTRY("user_cache.shm_size", "16M", PHP_INI_SYSTEM, OnUpdateUserCacheShmSize)
	PHP_INI_ENTRY("user_cache.entries_hint", "0", PHP_INI_SYSTEM, OnUpdateUserCacheEntriesHint)
	PHP_INI_ENTRY("user_cache.eviction_policy", "lru", PHP_INI_SYSTEM, OnUpdateUserCacheEvictionPolicy)
	PHP_INI_ENTRY("user_cache.lockfile_path", "/tmp", PHP_INI_SYSTEM, OnUpdateUserCacheLockfilePath)
	PHP_INI_ENTRY("user_cache.preferred_memory_model", "", PHP_INI_SYSTEM, OnUpdateUserCachePreferredMemoryModel)
	PHP_INI_ENTRY("user_cache.lock_lease_max", "3600", PHP_INI_SYSTEM, OnUpdateUserCacheLockLeaseMax)
	PHP_INI_END()

/* resident.direct_classes. */
static resident_class_list direct_class_list;

/* The value layer asks (rv_context's callback): the class is listed in
 * resident.direct_classes, copied as its state without running its
 * serialization hooks. */
static bool resident_is_direct_class(zend_class_entry *ce)
{
	/* Asked once per class and request (value/class_profile.c keeps it). */
	return !resident_class_list_empty(&direct_class_list) && resident_class_list_has(&direct_class_list, ce->name);
}

static PHP_GINIT_FUNCTION(resident)
{
#if defined(ZTS) && defined(COMPILE_DL_RESIDENT)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	memset(resident_globals, 0, sizeof(*resident_globals));
	rs_handle_init(&resident_globals->store);
	rv_context_init(&resident_globals->value, resident_is_direct_class);
	resident_globals->value.code_stamp = ros_code_stamp;
}

static PHP_GSHUTDOWN_FUNCTION(resident)
{
	resident_keep_thread_end();
	resident_segment_thread_end(&resident_globals->store);
	rv_context_free(&resident_globals->value);
}

static PHP_MINIT_FUNCTION(resident)
{
	REGISTER_INI_ENTRIES();
	/* After Resident's own: an alias given in php.ini overrides the
	 * default its target was just given. Not where the extension itself
	 * (a future PHP's ext-user_cache) registered them first. */
	if (!zend_hash_str_exists(EG(ini_directives), "user_cache.enable", sizeof("user_cache.enable") - 1)) {
		zend_register_ini_entries(user_cache_ini_entries, module_number);
	}
	resident_sapi_startup();
	resident_class_list_parse(&direct_class_list, RESIDENT_G(direct_classes));
	resident_api_register(module_number, RESIDENT_G(testing));
	rv_lazy_module_start();
	rv_graph_module_start();

	resident_compat_register();
	bool runs = RESIDENT_G(enable) && (!resident_sapi_is_cli_like() || RESIDENT_G(enable_cli));
	ros_module_start(resident_request_over_static_ce, RESIDENT_G(request_over_static_classes),
		runs && RESIDENT_G(request_over_static), runs && RESIDENT_G(request_over_static) && RESIDENT_G(request_over_static_immediate));
	resident_segment_startup();
	return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(resident)
{
	ros_module_end();
	UNREGISTER_INI_ENTRIES();
	resident_class_list_free(&direct_class_list);
	resident_segment_shutdown();
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
	resident_segment_request_start();
	if (EXPECTED(resident_sapi_one_worker_per_process())) {
		/* A php-fpm pool's php_admin_value lists, set in its workers after
		 * MINIT, and a request's PHP_ADMIN_VALUE, which its worker keeps. */
		if (resident_class_list_update(&direct_class_list, RESIDENT_G(direct_classes))) {
			rv_context_profiles_changed(RV_CTX);
		}
		ros_listed_classes_update(RESIDENT_G(request_over_static_classes));
	} else {
		warn_request_class_lists();
	}
	RESIDENT_G(borrowing) = false;
	RESIDENT_G(cache_calls) = 0;
	RESIDENT_G(borrow_mode) = resident_request_borrows();
	/* Nothing ends between a FrankenPHP worker's requests: its statics
	 * already live on, and a snapshot would go stale behind its back. */
	ros_request_start(resident_store() && RESIDENT_G(request_over_static) && !resident_sapi_is_frankenphp_worker()
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
	resident_user_cache_request_end();
	ros_request_end();
	rv_context_request_end(RV_CTX);
	rv_context_scripts_end(RV_CTX);
	resident_cache_request_end();
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
		if (st->pending_ops) {
			rs_stats_flush(st);
		}
		/* A request that found keys expired gives them back, also when it
		 * wrote nothing (writes scan for them as they go). */
		rs_expire_seen(st);
	}
	return SUCCESS;
}

static PHP_MINFO_FUNCTION(resident)
{
	php_info_print_table_start();
	php_info_print_table_row(2, "Resident support", resident_segment.hdr ? "enabled" : "disabled");
	php_info_print_table_row(2, "Version", PHP_RESIDENT_VERSION);
	if (!resident_segment.hdr) {
		php_info_print_table_row(2, "Reason", resident_unavailable_reason());
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
		php_info_print_table_row(2, "Zero-copy reads", resident_request_borrows() ? "borrow" : "copy");
		php_info_print_table_row(2, "RequestOverStatic", !RESIDENT_G(request_over_static) ? "off"
			: resident_sapi_is_frankenphp_worker() ? "off (FrankenPHP worker mode)" : "on");
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
