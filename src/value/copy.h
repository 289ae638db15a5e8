/* SPDX-License-Identifier: MIT */
/*
 * Deep, request-local copies of immutable strings and arrays (copy.c).
 */
#ifndef RESIDENT_VALUE_COPY_H
#define RESIDENT_VALUE_COPY_H

#include "php.h"

void rv_copy_zval(zval *dst, const zval *src);
zend_array *rv_copy_array(zend_array *src);

/* The same for a fetch, which may run where little C stack is left (a
 * Fiber's): false when the stack ran out (PHP 8.3+; values are nested as
 * deep as the stack of the store allowed). *dst is then a value to
 * destroy, and *out an array to destroy (NULL if none was made). */
bool rv_copy_zval_within_stack(zval *dst, const zval *src);
bool rv_copy_array_within_stack(zend_array **out, zend_array *src);

#endif
