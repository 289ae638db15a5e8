/* SPDX-License-Identifier: MIT */
/*
 * Shapes resolved once per process: a decoder resolves each shape of a
 * value it meets (its class, declarations, whether its records fill the
 * slots in order), per request. Where the class lives as long as the
 * process (class_layout.h: internal, preloaded), the next request that
 * reads a value with the same shape (a kept application, fetched by every
 * request) finds it here; what depends on resident.direct_classes (whether
 * the class restores through __wakeup() or __unserialize()) is dropped
 * when that changes (rv_context_profiles_changed()).
 *
 * So are shapes of classes OPcache holds (class_layout.h:
 * rv_class_printable()), which a request declares again at the same
 * address until OPcache restarts, after which another class may be there:
 * such a resolution is found again in a request only once the class of its
 * name is at the same address and has the same print (rv_class_print():
 * everything the resolution follows from), checked once per request.
 *
 * Kept by what the resolution follows from, not by where the shape is
 * stored: the class's name, its layout fingerprint as stored, which slot
 * each property goes to and its flags; only where the class is still laid
 * out so (the slots then say which declaration each property has). Values
 * of one class under many keys share it. A shape that does not say so
 * (listed by name, or laid out otherwise since) is kept by its address and
 * its value's stamp: for the same value only.
 *
 * Type checks likewise: whether a declared property type accepts objects
 * of a class, where both classes last (an interface or a parent type made
 * every property written check the class's ancestry again).
 */
#ifndef RESIDENT_VALUE_SHAPE_CACHE_H
#define RESIDENT_VALUE_SHAPE_CACHE_H

#include "php.h"
#include "context.h"
#include "graph_decode.h"

/* The resolution an earlier decoder kept for a shape like this one, or
 * NULL; stamp, of the value the shape belongs to, finds the same value's
 * shape again without comparing. Valid until the request ends. Shapes of
 * other classes are kept too, for the rest of the request only: a class
 * declared stays as it is until the request ends, so a value fetched again
 * in the request (a key read in a loop, by several services) does not
 * resolve them again. Where the class had to be looked up (autoloaded if
 * need be) to tell, lookup says what was found, for the caller to resolve
 * the shape with. */
resolved_shape *rv_shape_cache_find(rv_context *ctx, const rv_shape *shape, uint64_t stamp, rv_class_lookup *lookup);
/* Keeps r, complete, for later requests, where its class and what it says
 * hold as long as the process, else for later decoders of this request. */
void rv_shape_cache_keep(rv_context *ctx, const rv_shape *shape, uint64_t stamp, const resolved_shape *r);
/* Whether the declared type of info was found to accept objects of ce
 * before, in this process; both classes live as long as it (the object's
 * whose property it is, and ce). */
bool rv_type_cache_accepts(rv_context *ctx, zend_property_info *info, zend_class_entry *ce);
/* Notes that it does. */
void rv_type_cache_keep(rv_context *ctx, zend_property_info *info, zend_class_entry *ce);
/* At the end of a request, once no decoder is left: empties the cache
 * past its size. Its tables go with the
 * context (rv_context_free()). */
void rv_shape_cache_request_end(rv_context *ctx);

#endif
