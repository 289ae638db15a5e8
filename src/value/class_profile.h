/* SPDX-License-Identifier: MIT */
/*
 * What storing an object of a given class involves, worked out once per
 * class and request rather than for every object: how it is encoded, which
 * native codec copies its C state, where Carbon keeps its translator, and
 * the shape its objects share when every declared property is set, laid
 * out ahead so that a value takes a copy of it (one memcpy) instead of
 * writing the class and property names again.
 */
#ifndef RESIDENT_VALUE_CLASS_PROFILE_H
#define RESIDENT_VALUE_CLASS_PROFILE_H

#include "php.h"
#include "context.h"
#include "graph.h"
#include "writer.h"

typedef enum {
	RV_ENC_PROPS,        /* properties, as serialize() sees them */
	RV_ENC_SLEEP,        /* the properties __sleep() names */
	RV_ENC_UNSERIALIZE,  /* __serialize() data, for __unserialize() */
	RV_ENC_SERIALIZED,   /* Serializable: PHP's serializer format */
	RV_ENC_ENUM,
	RV_ENC_HEAP          /* SplHeap / SplPriorityQueue items */
} rv_encoding;

typedef struct rv_class_profile {
	zend_class_entry *ce;
	rv_encoding enc;
	uint32_t native;          /* RV_NATIVE_* */
	uint32_t mode;            /* RV_OBJ_* of its shapes */
	bool direct;              /* listed in resident.direct_classes */
	int32_t translator_slot;  /* Carbon's localTranslator, or -1 */
	zend_function *sleep_fn;  /* its __sleep(), once looked up (RV_ENC_SLEEP) */
	/* The shared shape, or NULL (a slot without a declaration). It holds
	 * its own pointers: rv_class_shape_copy() moves them with it. */
	char *image;
	uint32_t image_size;
	/* The copy in the value being walked (walk_gen: that pass), so the
	 * objects of one value share it. */
	uint64_t walk_gen;
	rv_shape *walk_shape;
	/* About the bytes a value stored with an object of this class at its
	 * root takes, from the last ones, in this request or an earlier one of
	 * this process; 0 if unknown or if a hook had to run for it. A value
	 * like them is written without a sizing pass (rv_write_unplanned). */
	size_t root_size;
} rv_class_profile;

/* Kept until the request ends (ctx->class_profiles). */
rv_class_profile *rv_class_profile_of(rv_context *ctx, zend_class_entry *ce);

/* A value whose root is an object of the profile's class took `size`
 * bytes (0: it needed a hook run, and so will the next, probably); kept
 * for the process or thread too (ctx->root_sizes). */
void rv_class_note_root_size(rv_context *ctx, rv_class_profile *p, size_t size);

/* Lays a copy of the profile's shape out with w. */
rv_shape *rv_class_shape_copy(const rv_class_profile *p, rv_writer *w);

#endif
