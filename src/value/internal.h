/*
 * Shared by the files of value/: the layout primitives of the immutable
 * encoding (persist.c) that the graph encoding (graph_persist.c) and the
 * codecs (date.c) build on.
 */
#ifndef RESIDENT_VALUE_INTERNAL_H
#define RESIDENT_VALUE_INTERNAL_H

#include "php.h"
#include "value.h"

typedef struct rv_writer {
	char *cur;
	char *end;
	/* A write into a reservation of a guessed size (see
	 * rv_write_unplanned) may not fit: then the bytes past the end go
	 * to memory of their own (spill) and the write is thrown away. Planned
	 * writes fit by construction; a graph's is allowed to overflow all the
	 * same, so that a disagreement between its passes refuses the value
	 * instead of ending the process. */
	bool may_overflow;
	bool overflowed;
	void *spill;
} rv_writer;

/* The next `size` bytes (a multiple of 8) of the entry. */
void *rv_bump(rv_writer *w, size_t size);
/* Frees what an overflowing write spilled. */
void rv_writer_release(rv_writer *w);

/* Strings: bytes a string adds to the plan (0 if an equal one is already
 * planned), and its interned copy in the entry. Both consult the same
 * dedup cache, so call them in the same order in both passes. */
size_t rv_string_plan(zend_string *s);
zend_string *rv_write_string(rv_writer *w, zend_string *s);

/* The same copy without the dedup cache (for layouts prepared ahead of a
 * value, see class_profile.c), and the bytes it takes. The source's hash
 * must be computed. */
zend_string *rv_copy_string(rv_writer *w, const zend_string *s);
size_t rv_string_size(const zend_string *s);

/* A string made while encoding (a lowercase class name, a C string of
 * ext/date), kept alive in `temps` until the value is written: the dedup
 * cache compares by pointer first, so a freed string whose memory comes
 * back as another string would be taken for it. */
zend_string *rv_temp_string(HashTable *temps, const char *s, size_t len);
/* The same for a NUL-terminated C string. */
zend_string *rv_temp_cstring(HashTable *temps, const char *s);
HashTable *rv_temp_strings(void);

/* Arrays: with w == NULL, add the bytes to *plan_size and return NULL.
 * rv_array_begin lays out the header and the data area of an array shaped
 * like src (compacted); the caller fills packed elements, or hash buckets
 * in order, linking each with rv_array_link. */
zend_array *rv_write_empty_array(rv_writer *w, size_t *plan_size, zend_long next_free);
zend_array *rv_array_begin(rv_writer *w, size_t *plan_size, zend_array *src);
void rv_array_link(zend_array *dst, uint32_t pos);

/* Graph encoding (graph_persist.c). */
/* A TypeError/ValueError about argument arg_num of the running function, or,
 * with arg_num 0, about "Value". With RESIDENT_G(error_sink) set (no PHP
 * frame to throw into), the first message goes there instead. */
void rv_type_error(uint32_t arg_num, const char *fmt, ...) ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);
void rv_value_error(uint32_t arg_num, const char *fmt, ...) ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);

rv_graph_plan *rv_graph_plan_value(zval *value, const rv_path *path, uint32_t arg_num, size_t *size);
zend_result rv_graph_write(rv_graph_plan *g, zval *value, const rv_path *path, void *area, size_t size);
void rv_graph_plan_free(rv_graph_plan *g);

#endif
