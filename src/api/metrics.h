/* SPDX-License-Identifier: MIT */
#ifndef RESIDENT_METRICS_H
#define RESIDENT_METRICS_H

#include "php.h"
#include "store/store.h"

/* Prometheus text (format 0.0.4) of the segment's and pools' statistics;
 * st NULL: only resident_up 0. */
zend_string *resident_metrics(rs_store *st);

#endif
