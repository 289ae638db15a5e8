/* SPDX-License-Identifier: MIT */
/*
 * What kind of server this process runs under, as far as Resident's
 * choices depend on it: whether a request ends (borrowing needs it to),
 * and whether a request's settings can replace the process's.
 */
#ifndef RESIDENT_RUNTIME_SAPI_H
#define RESIDENT_RUNTIME_SAPI_H

#include <stdbool.h>

/* SAPIs where one "request" is the whole process lifetime. */
bool resident_sapi_is_cli_like(void);
/* FrankenPHP's worker mode: the process serves request after request
 * without ending one for PHP. */
bool resident_sapi_is_frankenphp_worker(void);
/* This process serves one request at a time, so that a setting its
 * requests carry (a php-fpm pool's php_admin_value) can replace what the
 * process holds: php-fpm's workers are processes, also in a thread-safe
 * PHP; other thread-safe SAPIs serve requests of different settings from
 * threads of one process. Known from MINIT on. */
bool resident_sapi_one_worker_per_process(void);
void resident_sapi_startup(void);

/* resident.zero_copy, parsed whenever it is set (also when php-fpm applies
 * a pool's php_admin_value in its workers): warns and keeps auto for a
 * value it does not know. */
void resident_zero_copy_set(const char *value);
/* Whether this request borrows values rather than copying them. */
bool resident_request_borrows(void);

#endif
