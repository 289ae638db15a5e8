/* SPDX-License-Identifier: MIT */
/*
 * A fingerprint of a class's declared instance properties: names, slots,
 * constant defaults. A shape records the one of its class when stored
 * (rv_shape.layout), and a fetch that finds it unchanged places the
 * properties by slot, without looking their names up.
 */
#ifndef RESIDENT_VALUE_CLASS_LAYOUT_H
#define RESIDENT_VALUE_CLASS_LAYOUT_H

#include "php.h"
#include "context.h"

/* Cached for the request (ctx->layouts), or for the process where the
 * class lives as long as it (ctx->lasting_layouts). Never 0. */
uint64_t rv_class_layout(rv_context *ctx, zend_class_entry *ce);

/* What the layout follows from and everything else a resolved shape of
 * the class follows from (graph_decode.h's resolved_shape): its flags,
 * object constructor, parent and hooks, and per slot the declaration (by
 * address), its type, flags and offset. Remembered for the request
 * (ctx->prints). Never 0. Two classes with the same print at the same
 * address resolve a shape alike: a shape of a class OPcache holds is kept
 * for the process by it (shape_cache.h), where the class's address alone
 * would not do (after OPcache restarts, another class may be there). */
uint64_t rv_class_print(rv_context *ctx, zend_class_entry *ce);

/* A class OPcache holds (immutable, in its shared memory), whose defaults
 * are constants: the same in every request until OPcache restarts, when
 * its print tells (rv_class_print()). */
static zend_always_inline bool rv_class_printable(const zend_class_entry *ce)
{
	return (ce->ce_flags & (ZEND_ACC_IMMUTABLE | ZEND_ACC_HAS_AST_PROPERTIES)) == ZEND_ACC_IMMUTABLE;
}

/* The class lives as long as the process (or thread), laid out the same in
 * every request: an internal one, or one opcache.preload declared (it
 * stays, at its address, through OPcache restarts), whose defaults are
 * constants (a default computed from a constant expression is evaluated
 * per request). A kept application's classes are preloaded: what a
 * decoder derives from them is kept for the process (shape_cache.h). */
static zend_always_inline bool rv_class_lasting(const zend_class_entry *ce)
{
	return (ce->type == ZEND_INTERNAL_CLASS || (ce->ce_flags & ZEND_ACC_PRELOADED))
		&& !(ce->ce_flags & ZEND_ACC_HAS_AST_PROPERTIES);
}

/* The class has a __wakeup() (its own or inherited), found as unserialize()
 * finds it: by the known name, whose hash is computed once. */
static zend_always_inline bool rv_class_has_wakeup(const zend_class_entry *ce)
{
	return zend_hash_exists(&ce->function_table, ZSTR_KNOWN(ZEND_STR_WAKEUP));
}

#endif
