/* SPDX-License-Identifier: MIT */
/*
 * Deep, request-local copies of immutable strings and arrays (copy.c).
 */
#ifndef RESIDENT_VALUE_COPY_H
#define RESIDENT_VALUE_COPY_H

#include "php.h"

void rv_copy_zval(zval *dst, const zval *src);
zend_array *rv_copy_array(zend_array *src);

#endif
