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
}

static PHP_GSHUTDOWN_FUNCTION(resident)
{
	resident_segment_thread_end(&resident_globals->store);
	rv_context_free(&resident_globals->value);
}

static PHP_MINIT_FUNCTION(resident)
{
	REGISTER_INI_ENTRIES();
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
		/* A php-fpm pool's php_admin_value lists, set in its workers after MINIT. */
		resident_class_list_update(&direct_class_list, RESIDENT_G(direct_classes));
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
	ros_request_end();
	rv_context_request_end(RV_CTX);
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
