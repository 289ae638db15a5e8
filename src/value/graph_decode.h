/* SPDX-License-Identifier: MIT */
/*
 * The decoder of graph encodings (graph_materialize.c), for the entry of
 * fetches (materialize.c) and for lazy graphs (graph_lazy.c), which keep
 * one for the rest of the request to fill their shells with.
 */
#ifndef RESIDENT_VALUE_GRAPH_DECODE_H
#define RESIDENT_VALUE_GRAPH_DECODE_H

#include "php.h"
#include "context.h"
#include "graph.h"

typedef struct resolved_shape {
	zend_class_entry *ce;          /* NULL: the class is gone (incomplete class) */
	/* Only ce, plain and wakeup are set until complete (decoder.light). */
	bool complete;
	bool same_layout;              /* as stored: left-out properties hold their defaults already */
	bool plain;                    /* a user class ready to instantiate directly */
	bool dense;                    /* ... and the record holds its slots in order, all declared */
	/* ... or, listed by name (a __sleep() selection), some of its slots
	 * in declaration order: the others take their defaults (fill_subset()) */
	bool subset;
	/* dense, and filling the slots is all there is to do (no hook to run,
	 * a class serialize() takes): decode_object()'s short way. */
	bool fills_only;
	bool wakeup;                   /* the class as it is now restores through __wakeup(), as unserialize() would */
	bool unserialize;              /* ... through __unserialize() (not a class listed in resident.direct_classes) */
	zend_property_info **info;     /* per property: its declaration, or NULL (dynamic) */
	/* per property: the class of the last object its declared type was
	 * found to accept, where both that class and the object's last the
	 * process (as the type cache, shape_cache.h), else NULL: a property
	 * holds objects of one class most of the time. After info's nprops;
	 * NULL for a class that does not last the process. */
	zend_class_entry **accepted;
	/* per property (complete only): a bit per type (1 << IS_NULL ...
	 * IS_ARRAY) of the record's values that go into the slot as they are:
	 * the declaration takes them and the shape flags the property for
	 * nothing more. Past accepted's nprops pointers. */
	uint8_t *direct;
} resolved_shape;

/* The bytes resolved_shape.info, .accepted and .direct take, in that order. */
static zend_always_inline size_t rv_resolved_props_size(uint32_t nprops)
{
	return zend_safe_address_guarded(nprops, sizeof(zend_property_info *) + sizeof(zend_class_entry *) + sizeof(uint8_t), 0);
}

typedef struct deferred {
	zend_object *obj;
	uint32_t mode;
	zval data;
} deferred;

#define RECENT_SHAPES 4

typedef struct decoder decoder;

struct decoder {
	bool borrow;
	/* A lazy graph's (graph_lazy.c): ids holds a reference to each object
	 * and PHP reference made, and objects of unchanged classes come back
	 * as shells, which make_shell makes (o->n.id's, of r->dense). The lazy
	 * graph hands it down: it sits above this decoder, which fills its
	 * shells. */
	bool lazy;
	/* lazy: made something that comparing the objects filled with their
	 * records cannot vouch for (an object built at once, a PHP reference). */
	bool opaque;
	/* lazy: a shape met is resolved only as far as making a shell needs
	 * (its class) until an object of it is built or filled; Cache::fetch()'s
	 * graphs once the fetch returned, for which nothing compares filled
	 * objects with their records (rv_lazy_graph_unchanged()). */
	bool light;
	/* rv_context.internal_state_refused, taken when the decoder was made. */
	bool internal_state_refused;
	zend_object *(*make_shell)(decoder *d, resolved_shape *r, const rv_object_node *o);
	rv_context *ctx;               /* class layouts and time zones, for the request */
	/* The stamp of the stored value decoded (rv_context.value_stamp), 0 if
	 * none: its shapes may be resolved by an earlier request already
	 * (shape_cache.h). */
	uint64_t stamp;
	zval *ids;                     /* id -> object or reference made so far */
	uint32_t nids;
	struct resolved_chunk *chunks; /* where the resolved shapes are */
	const rv_shape *first_shape;   /* most values have objects of one shape: */
	resolved_shape *first_resolved;/* ... the table is made for a second one */
	HashTable resolved;            /* rv_shape* -> resolved_shape*, past the first */
	bool table;
	/* Objects of a few classes alternate (a descriptor and its wrapper):
	 * the shapes met last are found without the table. */
	const rv_shape *recent_shape[RECENT_SHAPES];
	resolved_shape *recent_resolved[RECENT_SHAPES];
	uint32_t recent_next;
	deferred *defer;
	uint32_t ndefer;
	uint32_t cap;
};

/* Walks a record in shape order: the value of each property, or that it
 * was left out as it held its default. */
typedef struct record_reader {
	const zend_value *values;
	const uint8_t *types;
	uint64_t mask;          /* RV_OBJECT_PACKED: the properties present */
	bool packed;
} record_reader;

static zend_always_inline void record_open(record_reader *rr, const rv_object_node *o)
{
	const uint64_t *mask = rv_object_mask(o);
	rr->values = rv_object_values(o);
	rr->packed = mask != NULL;
	rr->mask = mask ? *mask : 0;
	rr->types = (const uint8_t *)(rr->values + (mask ? RV_OBJECT_PRESENT(o->n.kind) : o->shape->nprops));
}

/* Property i's value and type, or false if it was left out. */
static zend_always_inline bool record_next(record_reader *rr, uint32_t i, bool packed, const zend_value **value, uint8_t *type)
{
	if (packed) {
		if (!((rr->mask >> i) & 1)) {
			return false;
		}
		*value = rr->values++;
		*type = *rr->types++;
		return true;
	}
	*value = &rr->values[i];
	*type = rr->types[i];
	return *type != IS_UNDEF;
}

/* A value of the record as a zval, for what takes one. Written as value
 * and type, it must not be read back as 16 bytes at once (a store
 * forwarding stall): what writes a slot with the value as it is takes
 * value and type from the record. */
static zend_always_inline void record_zval(const zend_value *value, uint8_t type, zval *out)
{
	out->value = *value;
	Z_TYPE_INFO_P(out) = type;
}

/* The i-th property of the record as a zval in *stored, or NULL for one
 * left out as it held its default: for the paths that take a zval (the
 * dense fill writes value and type into the slot itself). */
static zend_always_inline const zval *record_next_zval(record_reader *rr, uint32_t i, zval *stored)
{
	const zend_value *value;
	uint8_t type;
	if (!record_next(rr, i, rr->packed, &value, &type)) {
		return NULL;
	}
	record_zval(value, type, stored);
	return stored;
}

/* The class of that name, linked (autoloaded if need be; an anonymous
 * class once its script is loaded), or NULL. */
zend_class_entry *rv_find_class(zend_string *name, zend_string *lc);

/* A shape's class, looked up at most once while its resolution is looked
 * for (an autoloader runs once): done, and what rv_find_class() gave. */
typedef struct rv_class_lookup {
	zend_class_entry *ce;
	bool done;
} rv_class_lookup;
/* The class and declarations a shape stands for in this request. */
resolved_shape *rv_decoder_resolve(decoder *d, const rv_shape *shape);
/* The same, from what resolving it as far as a shell needs gave (r). */
resolved_shape *rv_decoder_complete(decoder *d, resolved_shape *r, const rv_shape *shape);
/* Writes a dense record into an object made without
 * object_properties_init(), whose slots are UNDEF, except the properties
 * among the first 64 whose values decoding would make (objects, arrays
 * holding them, not made yet): those stay UNDEF, with marker as their
 * value, and their bits are set in *pending. A borrowing decoder's (a
 * lazy graph's) only. */
zend_result rv_decoder_fill_dense(decoder *d, zend_object *obj, const rv_object_node *o, resolved_shape *r,
                                  uint64_t *pending, void *marker);
/* Writes the record into a shell whose class no longer lays its slots out
 * as the record has them (resolved_shape.dense false): defaults first, then
 * each property by its declaration, as an object built at once gets them. */
zend_result rv_decoder_fill_loose(decoder *d, zend_object *obj, const rv_object_node *o, resolved_shape *r);
/* Writes the i-th property of the record, left pending before. */
zend_result rv_decoder_fill_slot(decoder *d, zend_object *obj, const rv_object_node *o, resolved_shape *r, uint32_t i);
/* Runs the hooks deferred since `from` (__unserialize(), __wakeup()) and
 * forgets them; after a failure (rc), only forgets them. */
zend_result rv_decoder_finish(decoder *d, uint32_t from, zend_result rc);
/* Decodes the graph at area into dst, with a decoder set up by the caller
 * (ctx, borrow, lazy, and ids for the header's nids + 1). */
zend_result rv_graph_decode(decoder *d, zval *dst, const void *area);
/* Frees the decoder's tables (not ids). */
void rv_decoder_free(decoder *d);

/* Decodes RV_KIND_GRAPH at once, with a decoder of its own; may run PHP
 * code (autoloading, __unserialize, __wakeup). */
zend_result rv_graph_materialize(rv_context *ctx, zval *dst, const void *area, bool borrow);

#endif
