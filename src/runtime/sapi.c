/* SPDX-License-Identifier: MIT */
/*
 * What kind of server this process runs under (see sapi.h).
 */
#include "php.h"
#include "SAPI.h"
#include "sapi.h"

enum { ZERO_COPY_AUTO, ZERO_COPY_ON, ZERO_COPY_OFF };
static int zero_copy_setting = ZERO_COPY_AUTO;
static bool one_worker_per_process;

/* The SAPI's name does not change in a process: compared once (-1: not
 * yet), not at every request. Threads racing here store the same value. */
static _Atomic int8_t cli_like = -1, frankenphp = -1;

bool resident_sapi_is_cli_like(void)
{
	if (UNEXPECTED(cli_like < 0)) {
		const char *name = sapi_module.name;
		cli_like = strcmp(name, "cli") == 0 || strcmp(name, "phpdbg") == 0 || strcmp(name, "embed") == 0;
	}
	return cli_like;
}

bool resident_sapi_is_frankenphp_worker(void)
{
	if (UNEXPECTED(frankenphp < 0)) {
		frankenphp = strcmp(sapi_module.name, "frankenphp") == 0;
	}
	return frankenphp && getenv("FRANKENPHP_WORKER");
}

void resident_sapi_startup(void)
{
#ifdef ZTS
	one_worker_per_process = strcmp(sapi_module.name, "fpm-fcgi") == 0;
#else
	one_worker_per_process = true;
#endif
}

bool resident_sapi_one_worker_per_process(void)
{
	return one_worker_per_process;
}

void resident_zero_copy_set(const char *v)
{
	if (!strcasecmp(v, "auto")) {
		zero_copy_setting = ZERO_COPY_AUTO;
	} else if (!strcasecmp(v, "1") || !strcasecmp(v, "on") || !strcasecmp(v, "yes") || !strcasecmp(v, "true")) {
		zero_copy_setting = ZERO_COPY_ON;
	} else if (!strcasecmp(v, "0") || !strcasecmp(v, "off") || !strcasecmp(v, "no") || !strcasecmp(v, "false")) {
		zero_copy_setting = ZERO_COPY_OFF;
	} else {
		php_error_docref(NULL, E_WARNING, "resident.zero_copy must be auto, 1 or 0; \"%s\" is treated as auto", v);
		zero_copy_setting = ZERO_COPY_AUTO;
	}
}

/* Borrowing pins memory until the request ends: right for request-scoped
 * SAPIs, wrong where the request never ends (CLI daemons, FrankenPHP's
 * worker mode). */
bool resident_request_borrows(void)
{
	switch (zero_copy_setting) {
		case ZERO_COPY_ON:
			return true;
		case ZERO_COPY_OFF:
			return false;
		default:
			return !resident_sapi_is_cli_like() && !resident_sapi_is_frankenphp_worker();
	}
}
