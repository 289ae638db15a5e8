/* SPDX-License-Identifier: MIT */
/*
 * Deep, request-local copies of immutable strings and arrays (copy.c).
 */
#ifndef RESIDENT_VALUE_COPY_H
#define RESIDENT_VALUE_COPY_H

#include "php.h"

/* A copy may be made where little C stack is left (a fetch in a Fiber,
 * endOfRequest() deep in calls), of a value nested as deep as the stack of
 * its store allowed (PHP 8.3+): false when the stack ran out. *dst is then
 * a value to destroy, and *out an array to destroy (NULL if none was
 * made), whose destruction leaves the source alone. On PHP 8.2 (no stack
 * limit known) values are at most 1,024 levels deep and a copy never
 * stops. */
bool rv_copy_zval_within_stack(zval *dst, const zval *src);
bool rv_copy_array_within_stack(zend_array **out, zend_array *src);

#endif
