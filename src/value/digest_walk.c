/* SPDX-License-Identifier: MIT */
/*
 * A 64-bit digest of a PHP value's content: everything reachable from it,
 * including the inside of objects, which can change without their handle
 * changing. RequestOverStatic compares the digest a snapshot was published
 * with against the value's digest at the end of a request that restored it.
 *
 * The digest depends on content only, never on addresses, so that a graph
 * and its copy materialized in another process digest the same: strings by
 * their bytes, arrays by keys and values (shared-memory ones too), objects
 * by class name, declared slots and dynamic properties, cycles by the order
 * in which objects are first met.
 *
 * This is the walk; its callers (rv_digest(), digest.c, and the class
 * layouts, class_layout.c) say what becomes of the objects met.
 */
#include "php.h"
#include "digest_walk.h"

typedef struct digest_ctx {
	uint32_t *order;      /* object handle -> order of first visit (0: not yet) */
	uint32_t capacity;
	uint32_t visited;
	void (*make_whole)(zend_object *obj);
} digest_ctx;

#define DIGEST_MAX_DEPTH 256
#define UNSET_SLOT 0x5bd1e995u

static inline uint64_t mix(uint64_t h, uint64_t x)
{
	x *= 0x9e3779b97f4a7c15ULL;
	x ^= x >> 32;
	return (h ^ x) * 0xff51afd7ed558ccdULL + 0x632be59bd9b4e019ULL;
}

/* The string's hash without writing it into a shared-memory string. */
static inline uint64_t string_hash(zend_string *s)
{
	zend_ulong h = ZSTR_H(s) ? ZSTR_H(s) : zend_inline_hash_func(ZSTR_VAL(s), ZSTR_LEN(s));
	return mix((uint64_t)h, ZSTR_LEN(s));
}

static uint64_t digest(digest_ctx *c, zval *v, uint32_t depth);

/* Room for the handle, and for the object store as it stands now. */
static void grow(digest_ctx *c, uint32_t handle)
{
	uint32_t want = MAX(handle + 1, EG(objects_store).top);
	want = MAX(want, c->capacity * 2);
	c->order = erealloc(c->order, want * sizeof(uint32_t));
	memset(c->order + c->capacity, 0, (want - c->capacity) * sizeof(uint32_t));
	c->capacity = want;
}

static uint64_t digest_table(digest_ctx *c, uint64_t h, HashTable *ht, uint32_t depth, bool skip_indirect)
{
	zend_string *key;
	zend_ulong idx;
	zval *el;
	ZEND_HASH_FOREACH_KEY_VAL(ht, idx, key, el) {
		if (Z_TYPE_P(el) == IS_INDIRECT) {
			if (skip_indirect) {
				/* A declared property, digested from its slot. */
				continue;
			}
			el = Z_INDIRECT_P(el);
			if (Z_ISUNDEF_P(el)) {
				continue;
			}
		}
		h = mix(h, key ? string_hash(key) : (uint64_t)idx);
		h = mix(h, digest(c, el, depth + 1));
	} ZEND_HASH_FOREACH_END();
	return mix(h, zend_hash_num_elements(ht));
}

static uint64_t digest_object(digest_ctx *c, zend_object *obj, uint32_t depth)
{
	if (UNEXPECTED(obj->handlers != &std_object_handlers) && c->make_whole) {
		/* Handlers of its own: it may be a shell, whose content is its
		 * record's, to be filled in first. */
		c->make_whole(obj);
	}
	uint64_t h = IS_OBJECT;
	if (c->order) {
		if (obj->handle >= c->capacity) {
			/* Made during the walk (a filled shell makes shells of what it
			 * holds): unmarked, a cycle among them is walked as a tree to
			 * DIGEST_MAX_DEPTH, which never ends for a ring. */
			grow(c, obj->handle);
		}
		if (c->order[obj->handle]) {
			return mix(h, c->order[obj->handle]);
		}
		c->order[obj->handle] = ++c->visited;
	}
	h = mix(h, string_hash(obj->ce->name));
	if (obj->handlers->get_properties == zend_std_get_properties) {
		/* Declared slots directly: asking for the properties table would
		 * build one for every object. */
		zval *slot = obj->properties_table;
		for (int i = 0; i < obj->ce->default_properties_count; i++, slot++) {
			h = mix(h, Z_ISUNDEF_P(slot) ? UNSET_SLOT : digest(c, slot, depth + 1));
		}
		return obj->properties ? digest_table(c, h, obj->properties, depth, true) : h;
	}
	/* Internal classes with state of their own (ArrayObject's storage,
	 * DateTime's time): what var_dump() shows. */
	zval zobj;
	ZVAL_OBJ(&zobj, obj);
	HashTable *props = zend_get_properties_for(&zobj, ZEND_PROP_PURPOSE_DEBUG);
	if (props) {
		h = digest_table(c, h, props, depth, false);
		zend_release_properties(props);
	}
	return h;
}

static uint64_t digest(digest_ctx *c, zval *v, uint32_t depth)
{
	ZVAL_DEREF(v);
	uint64_t h = Z_TYPE_P(v);
	if (depth > DIGEST_MAX_DEPTH) {
		return h;
	}
	switch (Z_TYPE_P(v)) {
		case IS_LONG:
			return mix(h, (uint64_t)Z_LVAL_P(v));
		case IS_DOUBLE: {
			uint64_t bits;
			memcpy(&bits, &Z_DVAL_P(v), sizeof(bits));
			return mix(h, bits);
		}
		case IS_STRING:
			return mix(h, string_hash(Z_STR_P(v)));
		case IS_ARRAY:
			return digest_table(c, h, Z_ARRVAL_P(v), depth, false);
		case IS_OBJECT:
			return digest_object(c, Z_OBJ_P(v), depth);
		default:
			return h;
	}
}

/* A constant expression (a property default) holds no cycles and no
 * object identity to track: no table of visited objects is needed. */
uint64_t rv_digest_constant(zval *v)
{
	if (Z_TYPE_P(v) == IS_ARRAY && zend_hash_num_elements(Z_ARRVAL_P(v)) == 0) {
		/* The most common array default, [], asked for each class a
		 * request fetches objects of (class_layout.c): what digest()
		 * gives it, without the walk. */
		return mix(IS_ARRAY, 0);
	}
	digest_ctx c = { .capacity = 0, .visited = 0, .order = NULL, .make_whole = NULL };
	return digest(&c, v, 0);
}

uint64_t rv_digest_walk(zval *v, void (*make_whole)(zend_object *obj))
{
	/* Every object the walk meets gets a mark, also those made during it
	 * (grow()): the table is never NULL here. */
	digest_ctx c = { .capacity = MAX(EG(objects_store).top, 1), .visited = 0, .make_whole = make_whole };
	c.order = ecalloc(c.capacity, sizeof(uint32_t));
	uint64_t d = digest(&c, v, 0);
	efree(c.order);
	return d;
}
