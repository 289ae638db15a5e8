/* SPDX-License-Identifier: MIT */
/*
 * Direct codecs for the DateTime family: the C state of a DateTime,
 * DateTimeImmutable, DateTimeZone or DateInterval (or a subclass that keeps
 * the parent's own serialization) is copied as a struct, instead of going
 * through __serialize() and the date parser on every fetch.
 */
#ifndef RESIDENT_VALUE_DATE_H
#define RESIDENT_VALUE_DATE_H

#include "php.h"
#include "context.h"
#include "writer.h"

/* RV_NATIVE_* for objects of this class, or RV_NATIVE_NONE. `direct`: the class is
 * listed in resident.direct_classes (copy even if it overrides hooks). */
uint32_t rv_native_kind(zend_class_entry *ce, bool direct);

/* A property name the engine shows for the object's C state (a DateTime's
 * "date", a DateInterval's "y", ...): once read (var_dump(), json_encode())
 * it sits in the property table, but it is the state's, which the codec
 * copies; unserialize() does not write it as a property either. */
bool rv_native_state_property(uint32_t kind, const zend_string *name);

/* Whether the object's C state was made by its constructor (or a
 * restore): serialize() refuses one that was not (newInstanceWithoutConstructor()). */
bool rv_native_initialized(uint32_t kind, zend_object *obj);

/* Plan (plan_size != NULL: adds the bytes, returns NULL) or write the
 * object's C state; returns where it was written. Strings it makes are
 * kept for the request (see rv_temp_string). */
const void *rv_native_persist(rv_context *ctx, uint32_t kind, zend_object *obj, size_t *plan_size, rv_writer *w);

/* Restores the C state into a fresh object of the value's class. The time
 * zones it looks up are kept for the request (ctx->tz_objects). Fails with
 * an Error, counted in ctx->stale_decodes, when that class changed since
 * the value was stored: no longer of the state's family, or now with
 * userland __serialize()/__unserialize()/Serializable (and not listed in
 * resident.direct_classes). */
zend_result rv_native_restore(rv_context *ctx, uint32_t kind, zend_object *obj, const void *state);

#endif
