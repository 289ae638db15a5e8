/* SPDX-License-Identifier: MIT */
#ifndef RESIDENT_INSPECT_H
#define RESIDENT_INSPECT_H

#include "php.h"
#include "store/store.h"

/* Cache::inspect(): ['memory_map' => cells, 'largest' => rows, 'hottest' => rows]. */
void resident_inspect(rs_store *st, zend_long top, zend_long cells, zval *return_value);

#endif
