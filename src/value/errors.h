/* SPDX-License-Identifier: MIT */
/*
 * Why a value cannot be cached, said with where it sits in the argument.
 */
#ifndef RESIDENT_VALUE_ERRORS_H
#define RESIDENT_VALUE_ERRORS_H

#include "php.h"
#include "value.h"

/* Renders a path like $value['a'][3]->prop. */
zend_string *rv_path_render(const rv_path *path);

/* A TypeError/ValueError about argument arg_num of the running function, or,
 * with arg_num 0, about "Value". With ctx->error_sink set (no PHP frame to
 * throw into), the first message goes there instead. */
void rv_type_error(rv_context *ctx, uint32_t arg_num, const char *fmt, ...) ZEND_ATTRIBUTE_FORMAT(printf, 3, 4);
void rv_value_error(rv_context *ctx, uint32_t arg_num, const char *fmt, ...) ZEND_ATTRIBUTE_FORMAT(printf, 3, 4);
/* The ValueError of a value nested too deeply: past RV_MAX_DEPTH levels,
 * or (PHP 8.3+) deeper than the C stack left allows. */
void rv_too_deep_error(rv_context *ctx, uint32_t arg_num, bool past_max_depth);

#endif
