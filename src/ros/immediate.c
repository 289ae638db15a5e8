/* SPDX-License-Identifier: MIT */
/*
 * RequestOverStatic, publish: 'immediate'. A static property marked
 * #[Resident\RequestOverStatic(publish: 'immediate')] is published during
 * the request, not only at its end: before each built-in function the
 * request calls, the property is compared with what was last compared, and
 * a change is published at once (publish.c, the same snapshot request end
 * would store), so that other workers restore it from then on.
 *
 * Why before built-in calls. An extension cannot see a write to a static
 * property or into the array it holds: the engine writes the slot itself,
 * and an opcode handler (which would see it) turns the JIT off. What it
 * can see is zend_execute_internal, through which the engine (and the
 * JIT, which reads it when it compiles) calls every built-in function. A
 * request can only let another process learn anything (a file, a socket, a
 * database, a lock, a sleep; output aside) by calling one, so a write is in
 * the pool before anything the request does after it can be seen
 * elsewhere. On PHP 8.4 a hook there also keeps the compiler from making
 * frameless calls, which would bypass it. Hooked
 * at module start, as the JIT needs, and only when
 * resident.request_over_static_immediate is on: the hook costs every
 * built-in call a few instructions, in every request, which the default
 * (publish at request end) must not pay.
 *
 * What it costs a request that has such a property: before each built-in
 * call, a comparison by identity (an array that was written to is a new
 * array: we hold the one compared), and a digest of the objects when the
 * property holds objects (they change inside). A write then costs a copy
 * of the array (the one we hold is separated) and a publish.
 *
 * Safety: never while a restore or a compile runs (the statics are being
 * written), nor within itself (publishing can run __serialize(), which
 * calls built-in functions), nor once the request failed (a fatal error
 * or an uncaught exception: the shutdown functions that still run must
 * not publish the half-done state, as request end does not). Publishing
 * runs no code under the store's lock (cache/write.c). Nothing published
 * before a fatal error is taken back: that is what request end, the
 * default, is for (docs).
 *
 * This file also reads and checks the attribute's publish argument.
 */
#include "php.h"
#include "php_resident.h"
#include "internal.h"
#include "zend_attributes.h"
#include "zend_exceptions.h"

static void (*orig_execute_internal)(zend_execute_data *, zval *);
static bool hooked;

/* --- the attribute's argument ---------------------------------------------------- */

#define PUBLISH_IMMEDIATE "immediate"
#define PUBLISH_REQUEST_END "request-end"

/* The publish argument (named, or the first), NULL if there is none. */
static zval *publish_argument(zend_attribute *attr, bool *other)
{
	zval *found = NULL;
	*other = false;
	for (uint32_t i = 0; attr && i < attr->argc; i++) {
		zend_string *name = attr->args[i].name;
		if ((!name && i == 0) || (name && zend_string_equals_literal(name, "publish"))) {
			found = &attr->args[i].value;
		} else {
			*other = true;
		}
	}
	return found;
}

bool ros_attribute_immediate(zend_attribute *attr)
{
	bool other;
	zval *v = publish_argument(attr, &other);
	return v && Z_TYPE_P(v) == IS_STRING && zend_string_equals_literal(Z_STR_P(v), PUBLISH_IMMEDIATE);
}

zend_string *ros_attribute_arguments_error(zend_attribute *attr, uint32_t target)
{
	bool other;
	zval *v = publish_argument(attr, &other);
	if (other) {
		return zend_strpprintf(0, "takes one argument, publish: '" PUBLISH_REQUEST_END "' or '" PUBLISH_IMMEDIATE "'");
	}
	if (!v) {
		return NULL;
	}
	if (Z_TYPE_P(v) != IS_STRING || (!zend_string_equals_literal(Z_STR_P(v), PUBLISH_IMMEDIATE)
			&& !zend_string_equals_literal(Z_STR_P(v), PUBLISH_REQUEST_END))) {
		if (Z_TYPE_P(v) == IS_STRING) {
			return zend_strpprintf(0, "publish must be '" PUBLISH_REQUEST_END "' or '" PUBLISH_IMMEDIATE "', '%s' given", ZSTR_VAL(Z_STR_P(v)));
		}
		return zend_strpprintf(0, "publish must be the literal string '" PUBLISH_REQUEST_END "' or '" PUBLISH_IMMEDIATE "', %s given",
			Z_TYPE_P(v) == IS_CONSTANT_AST ? "a constant expression" : zend_zval_type_name(v));
	}
	if (target != ZEND_ATTRIBUTE_TARGET_PROPERTY && zend_string_equals_literal(Z_STR_P(v), PUBLISH_IMMEDIATE)) {
		return zend_strpprintf(0, "publish: '" PUBLISH_IMMEDIATE "' applies to a static property only");
	}
	return NULL;
}

/* --- the watch ------------------------------------------------------------------- */

void ros_immediate_watch(ros_unit *u)
{
	if (!hooked) {
		return;
	}
	HashTable *units = RESIDENT_G(ros_immediate);
	if (!units) {
		ALLOC_HASHTABLE(units);
		zend_hash_init(units, 4, NULL, NULL, 0);
		RESIDENT_G(ros_immediate) = units;
	}
	zval *cur = ros_prop_current(u);
	zval_ptr_dtor(&u->seen);
	if (cur) {
		ZVAL_COPY(&u->seen, cur);
		u->seen_objects = rv_holds_objects(cur);
	} else {
		ZVAL_UNDEF(&u->seen);
	}
	zend_hash_next_index_insert_ptr(units, u);
}

void ros_immediate_request_end(void)
{
	HashTable *units = RESIDENT_G(ros_immediate);
	if (units) {
		RESIDENT_G(ros_immediate) = NULL;
		zend_hash_destroy(units);
		FREE_HASHTABLE(units);
	}
	RESIDENT_G(ros_polling) = false;
}

static void publish_changed(HashTable *units)
{
	resident_cache_obj pool;
	bool have_pool = false;
	ros_unit *u;
	ZEND_HASH_FOREACH_PTR(units, u) {
		zval *cur = ros_prop_current(u);
		if (!cur || (Z_TYPE(u->seen) != IS_UNDEF && !u->seen_objects && ros_same_value(cur, &u->seen))) {
			continue;
		}
		if (!have_pool && !(have_pool = ros_pool_handle(&pool))) {
			return;
		}
		int outcome = ros_publish_unit(&pool, u, true);
		zend_clear_exception();
		/* Compared with this from now on, stored or not. A state that could
		 * not be stored is offered again once the property holds another
		 * value, and at request end (which has its baseline still), not
		 * at every built-in call: changes inside its objects are not looked
		 * for until then, as each look would walk them and try again. */
		cur = ros_prop_current(u);
		zval_ptr_dtor(&u->seen);
		if (cur) {
			ZVAL_COPY(&u->seen, cur);
			u->seen_objects = outcome >= 0 && rv_holds_objects(cur);
		} else {
			ZVAL_UNDEF(&u->seen);
		}
	} ZEND_HASH_FOREACH_END();
}

/* Whether PHP code runs below the call: else the engine makes it (an
 * uncaught exception turned into a string before it is reported), not
 * the request's code. */
static bool called_by_php_code(zend_execute_data *call)
{
	for (zend_execute_data *ex = call->prev_execute_data; ex; ex = ex->prev_execute_data) {
		if (ex->func && ZEND_USER_CODE(ex->func->type)) {
			return true;
		}
	}
	return false;
}

static void ros_execute_internal(zend_execute_data *call, zval *ret)
{
	HashTable *units = RESIDENT_G(ros_immediate);
	if (UNEXPECTED(units != NULL) && called_by_php_code(call) && !RESIDENT_G(ros_polling) && RESIDENT_G(ros_active)
		&& !RESIDENT_G(ros_restore_depth) && !RESIDENT_G(ros_compiling) && !CG(in_compilation)
		&& !RESIDENT_G(ros_pending) && ros_request_ok()) {
		RESIDENT_G(ros_polling) = true;
		/* The frame of the built-in function is not running yet: what
		 * publishing may call (hooks) runs above the caller's. */
		zend_execute_data *frame = EG(current_execute_data);
		EG(current_execute_data) = call->prev_execute_data;
		zend_try {
			publish_changed(units);
		} zend_catch {
			/* A fatal error in a hook: the engine's state as it was. */
			EG(current_execute_data) = frame;
			RESIDENT_G(ros_polling) = false;
			zend_bailout();
		} zend_end_try();
		EG(current_execute_data) = frame;
		RESIDENT_G(ros_polling) = false;
	}
	if (orig_execute_internal) {
		orig_execute_internal(call, ret);
	} else {
		execute_internal(call, ret);
	}
}

void ros_immediate_module_start(void)
{
	orig_execute_internal = zend_execute_internal;
	zend_execute_internal = ros_execute_internal;
	hooked = true;
}

void ros_immediate_module_end(void)
{
	if (hooked && zend_execute_internal == ros_execute_internal) {
		zend_execute_internal = orig_execute_internal;
	}
	hooked = false;
}
