/* SPDX-License-Identifier: MIT */
/*
 * The walk behind every digest of a value's content (digest_walk.c).
 */
#ifndef RESIDENT_VALUE_DIGEST_WALK_H
#define RESIDENT_VALUE_DIGEST_WALK_H

#include "php.h"

/* The digest of a live value. make_whole sees every object with handlers
 * of its own before its slots are read: a shell of a lazy graph is filled
 * there. A pointer rather than a call: the lazy graphs sit above this walk
 * (they decode through class layouts, which digest property defaults). */
uint64_t rv_digest_walk(zval *v, void (*make_whole)(zend_object *obj));
/* The same for a constant (a property default): cheaper, no object table,
 * and no shell can be met. */
uint64_t rv_digest_constant(zval *v);

#endif
