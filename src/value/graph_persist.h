/* SPDX-License-Identifier: MIT */
/*
 * The graph encoding of a value holding objects or PHP references
 * (graph_persist.c), for the entry that plans and writes values (persist.c).
 */
#ifndef RESIDENT_VALUE_GRAPH_PERSIST_H
#define RESIDENT_VALUE_GRAPH_PERSIST_H

#include "php.h"
#include "value.h"

/* estimated: NULL for an exact size; else set if *size is a collecting
 * plan's estimate (see rv_plan_store()). */
rv_graph_plan *rv_graph_plan_value(rv_context *ctx, zval *value, const rv_path *path, uint32_t arg_num, size_t *size, bool *estimated);
/* Plans an estimated graph again, exactly: no hook runs again, but one
 * that has not run (its object put where the walk had been by another
 * hook) runs now. */
zend_result rv_graph_plan_exact(rv_graph_plan *g, zval *value, const rv_path *path, size_t *size);
/* FAILURE with *out_of_stack: the C stack ran out (PHP 8.3+), nothing
 * thrown. */
zend_result rv_graph_write(rv_graph_plan *g, zval *value, const rv_path *path, void *area, size_t size, size_t *used, bool *out_of_stack);
void rv_graph_plan_free(rv_graph_plan *g);

#endif
