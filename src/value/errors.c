/* SPDX-License-Identifier: MIT */
/*
 * Why a value cannot be cached (see errors.h).
 */
#include "php.h"
#include "errors.h"
#include "zend_exceptions.h"
#include "zend_smart_str.h"

static void render_key(smart_str *out, const zend_string *key)
{
	size_t len = ZSTR_LEN(key) > 64 ? 64 : ZSTR_LEN(key);
	smart_str_appendc(out, '\'');
	for (size_t i = 0; i < len; i++) {
		char c = ZSTR_VAL(key)[i];
		if (c == '\'' || c == '\\') {
			smart_str_appendc(out, '\\');
		}
		if ((unsigned char)c < 0x20) {
			smart_str_append_printf(out, "\\x%02x", (unsigned char)c);
		} else {
			smart_str_appendc(out, c);
		}
	}
	if (len < ZSTR_LEN(key)) {
		smart_str_appends(out, "...");
	}
	smart_str_appendc(out, '\'');
}

static void render_step(smart_str *out, const rv_path *p)
{
	switch (p->kind) {
		case RV_PATH_ROOT:
			smart_str_appendc(out, '$');
			smart_str_appends(out, p->name);
			break;
		case RV_PATH_NAMED:
			smart_str_appends(out, p->name);
			break;
		case RV_PATH_INDEX:
			smart_str_append_printf(out, "[" ZEND_LONG_FMT "]", (zend_long)p->index);
			break;
		case RV_PATH_KEY:
			if (p->up && p->up->kind == RV_PATH_ROOT && p->up->wrapped) {
				break;
			}
			smart_str_appendc(out, '[');
			render_key(out, p->key);
			smart_str_appendc(out, ']');
			break;
		case RV_PATH_SERIALIZED:
			smart_str_appends(out, "->__serialize()");
			break;
		case RV_PATH_PROP: {
			const char *class_name, *prop;
			size_t prop_len;
			zend_unmangle_property_name_ex(p->key, &class_name, &prop, &prop_len);
			smart_str_appends(out, "->");
			smart_str_appendl(out, prop, prop_len);
			break;
		}
	}
}

zend_string *rv_path_render(const rv_path *path)
{
	/* From the root down, without recursion: the path is as long as the
	 * value is deep, and a refusal deep in a value is met where little C
	 * stack is left. */
	uint32_t n = 0;
	for (const rv_path *p = path; p; p = p->up) {
		n++;
	}
	const rv_path *few[64];
	const rv_path **steps = n <= 64 ? few : safe_emalloc(n, sizeof(*steps), 0);
	uint32_t i = n;
	for (const rv_path *p = path; p; p = p->up) {
		steps[--i] = p;
	}
	smart_str out = {0};
	for (i = 0; i < n; i++) {
		render_step(&out, steps[i]);
	}
	if (steps != few) {
		efree(steps);
	}
	smart_str_0(&out);
	return out.s;
}

static void rv_error(rv_context *ctx, zend_class_entry *ce, uint32_t arg_num, const char *fmt, va_list args)
{
	char *msg;
	zend_vspprintf(&msg, 0, fmt, args);
	zend_string **sink = ctx->error_sink;
	if (sink) {
		if (!*sink) {
			*sink = zend_string_init(msg, strlen(msg), 0);
		}
	} else if (arg_num && EG(current_execute_data)) {
		zend_argument_error(ce, arg_num, "%s", msg);
	} else {
		zend_throw_error(ce, "Value %s", msg);
	}
	efree(msg);
}

void rv_type_error(rv_context *ctx, uint32_t arg_num, const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	rv_error(ctx, zend_ce_type_error, arg_num, fmt, args);
	va_end(args);
}

void rv_value_error(rv_context *ctx, uint32_t arg_num, const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	rv_error(ctx, zend_ce_value_error, arg_num, fmt, args);
	va_end(args);
}

void rv_too_deep_error(rv_context *ctx, uint32_t arg_num, bool past_max_depth)
{
	if (past_max_depth) {
		rv_value_error(ctx, arg_num, "is nested deeper than %d levels", RV_MAX_DEPTH);
	} else {
		rv_value_error(ctx, arg_num, "is nested too deeply for the stack left (zend.max_allowed_stack_size)");
	}
}
