/* SPDX-License-Identifier: MIT */
/*
 * The end of RequestOverStatic's lazy graphs (graph_lazy.c), for the
 * context's lifecycle (lifecycle.c); what the rest of Resident asks of
 * them is in value.h.
 */
#ifndef RESIDENT_VALUE_GRAPH_LAZY_H
#define RESIDENT_VALUE_GRAPH_LAZY_H

#include "php.h"
#include "context.h"

/* The request's graphs go, their objects released without destructors. */
void rv_lazy_request_end(rv_context *ctx);

#endif
