/* SPDX-License-Identifier: MIT */
/*
 * Object graphs in a store entry (RV_KIND_GRAPH).
 *
 * A value holding objects or PHP references is laid out like a pure value
 * (interned strings, immutable arrays), except that what must be built
 * again on every fetch is a *node*, reached through an IS_PTR zval:
 *
 *   - an array on the path to a node is an immutable *template* plus the
 *     positions of its IS_PTR elements; a fetch duplicates the template
 *     (a memcpy) and patches those positions; arrays off that path stay
 *     shared;
 *   - an object is a record: its class and property names (a shape shared
 *     by the objects of the same layout), and the values;
 *   - a PHP reference, an enum case, an object in PHP's serializer format
 *     (Serializable), the DateTime family (value/date.c) and a Closure
 *     (value/closure.c) have nodes of their own.
 *
 * Objects and references carry ids, so identity, cycles and references
 * inside one value survive exactly as with unserialize(); two fetches never
 * share an object.
 */
#ifndef RESIDENT_VALUE_GRAPH_H
#define RESIDENT_VALUE_GRAPH_H

#include "php.h"

enum {
	RV_NODE_ARRAY = 1,
	RV_NODE_OBJECT,
	RV_NODE_REF,
	RV_NODE_ENUM,
	RV_NODE_SERIALIZED,
	RV_NODE_CLOSURE,
};

/* Flags of an RV_NODE_OBJECT node, above its kind (RV_NODE_KIND()). */
enum {
	RV_OBJECT_EXT = 0x100,     /* an rv_object_ext comes first */
	RV_OBJECT_PACKED = 0x200   /* then a uint64_t mask of the shape's properties present,
	                            * and only their values (the others held their defaults);
	                            * their count is RV_OBJECT_PRESENT() */
};
#define RV_NODE_KIND(n) ((n)->kind & 0xff)
/* RV_OBJECT_PACKED: how many values the record holds (at most
 * RV_PACKED_MAX), kept beside the flags so that a reader finds the type
 * bytes without counting the mask's bits. */
#define RV_OBJECT_PRESENT_SHIFT 16
#define RV_OBJECT_PRESENT(kind) ((kind) >> RV_OBJECT_PRESENT_SHIFT)

/* Objects whose C state a codec of ours copies (value/date.c). */
enum {
	RV_NATIVE_NONE = 0,
	RV_NATIVE_DATE,        /* DateTime, DateTimeImmutable and subclasses */
	RV_NATIVE_TIMEZONE,
	RV_NATIVE_INTERVAL,
};

typedef struct rv_node {
	uint32_t kind;
	uint32_t id;           /* objects and references: 1..n; 0 for arrays */
} rv_node;

typedef struct rv_graph_header {
	uint32_t nids;         /* objects and references in the value */
	uint32_t flags;        /* RV_GRAPH_* */
	zval root;
} rv_graph_header;

/* The value holds no object whose fetch runs code (__wakeup(),
 * __unserialize(), Serializable, an SplHeap's insert(), Carbon's locale)
 * nor one with a destructor: a fetch may restore its objects lazily and
 * still run what an eager one runs when an eager one runs it. Unset in
 * what an older writer wrote. */
#define RV_GRAPH_RUNS_NO_CODE 1u
/* The value holds no PHP reference. A lazy fetch keeps what it made for
 * the rest of the request, so that a shell filled later meets the same
 * reference: a reference with a holder more than an eager fetch gives it
 * stays one when the array holding it is copied (an eager fetch's, held
 * once, is copied as a value), so writes through a copy would reach the
 * original. Unset in what an older writer wrote. */
#define RV_GRAPH_NO_REFERENCES 2u

typedef struct rv_array_node {
	rv_node n;
	zend_array *tmpl;
	uint32_t npatch;
	uint32_t patch[];      /* positions of IS_PTR elements (packed: index; hash: bucket) */
} rv_array_node;

/* What a fetch does with an object after its graph is complete. */
enum {
	RV_OBJ_PROPS = 0,      /* properties written into the object */
	RV_OBJ_WAKEUP = 1,     /* the same, then __wakeup() */
	RV_OBJ_UNSERIALIZE = 2,/* __unserialize(data) */
	RV_OBJ_HEAP = 3,       /* SplHeap / SplPriorityQueue: insert() the items in data */
	RV_OBJ_LOCALE = 4      /* (deferred only) Carbon: locale(data) */
};

/* Flags of one property in a shape. */
enum {
	RV_PROP_OBJECT_HASH = 1, /* held spl_object_hash() of its object: rewritten on fetch */
	RV_PROP_CARBON_LOCALE = 2/* Carbon's localTranslator, stored as its locale name */
};

typedef struct rv_shape {
	zend_string *class_name;     /* as declared */
	zend_string *lc_class_name;  /* lowercase, for the class table */
	uint32_t nprops;
	uint32_t mode;               /* RV_OBJ_* */
	/* The class's property layout when stored (rv_class_layout), 0 if
	 * unknown: if it still matches, slots[] place the properties without
	 * looking their names up. */
	uint64_t layout;
	zend_string **names;         /* mangled property names, nprops of them */
	int32_t *slots;              /* declared slot number, or -1 (dynamic) */
	uint8_t *prop_flags;         /* RV_PROP_*, nprops of them */
	/* The declared defaults (constants) when stored, nprops of them, or
	 * NULL: a property that held its default is left out of the object's
	 * record (UNDEF). If the layout still matches, instantiation already
	 * set that default; if not, it comes from here, as the value was. */
	zval *defaults;
} rv_shape;

/* Most objects need only their shape and properties: a restore of many
 * reads no more than that. */
typedef struct rv_object_node {
	rv_node n;                   /* RV_NODE_OBJECT | RV_OBJECT_* flags */
	rv_shape *shape;
	/* An rv_object_ext and the mask, if flagged, then the property values
	 * in shape order, all nprops of them, or with RV_OBJECT_PACKED only
	 * those present (rv_object_count()): first each one's zend_value
	 * (rv_object_values()), then each one's type, a byte (rv_object_types()),
	 * padded to 8 bytes. A type is a zval's whole type_info: what the
	 * writer writes has no flags (interned strings, immutable arrays,
	 * nodes as IS_PTR), so it fits; IS_UNDEF: held its default. Nine
	 * bytes a property instead of a zval's sixteen; a fetch writes value
	 * and type into the slot as they are. */
	uint64_t body[];
} rv_object_node;

/* What a native codec or a hook needs (RV_OBJECT_EXT). */
typedef struct rv_object_ext {
	uint32_t native;             /* RV_NATIVE_* */
	uint32_t _pad;
	const void *native_state;    /* the codec's copy of the C state */
	zval data;                   /* RV_OBJ_UNSERIALIZE, RV_OBJ_HEAP: the data */
} rv_object_ext;

/* Packing pays for objects with some properties at their defaults, up to
 * this many properties. */
#define RV_PACKED_MAX 64

static inline rv_object_ext *rv_object_ext_of(const rv_object_node *o)
{
	return (o->n.kind & RV_OBJECT_EXT) ? (rv_object_ext *)(void *)((rv_object_node *)o)->body : NULL;
}

static inline uint64_t *rv_object_mask(const rv_object_node *o)
{
	char *p = (char *)((rv_object_node *)o)->body + ((o->n.kind & RV_OBJECT_EXT) ? sizeof(rv_object_ext) : 0);
	return (o->n.kind & RV_OBJECT_PACKED) ? (uint64_t *)(void *)p : NULL;
}

/* How many values the record holds. */
static inline uint32_t rv_object_count(const rv_object_node *o)
{
	return (o->n.kind & RV_OBJECT_PACKED) ? RV_OBJECT_PRESENT(o->n.kind) : o->shape->nprops;
}

static inline zend_value *rv_object_values(const rv_object_node *o)
{
	char *p = (char *)((rv_object_node *)o)->body + ((o->n.kind & RV_OBJECT_EXT) ? sizeof(rv_object_ext) : 0)
		+ ((o->n.kind & RV_OBJECT_PACKED) ? sizeof(uint64_t) : 0);
	return (zend_value *)(void *)p;
}

static inline uint8_t *rv_object_types(const rv_object_node *o)
{
	return (uint8_t *)(rv_object_values(o) + rv_object_count(o));
}

/* The bytes the values of a record of count of them take. */
static inline size_t rv_object_values_size(uint32_t count)
{
	return (size_t)count * sizeof(zend_value) + (((size_t)count + 7) & ~(size_t)7);
}

typedef struct rv_ref_node {
	rv_node n;
	zval value;
} rv_ref_node;

typedef struct rv_enum_node {
	rv_node n;
	zend_string *lc_class_name;
	zend_string *class_name;
	zend_string *case_name;
} rv_enum_node;

typedef struct rv_serialized_node {
	rv_node n;
	zend_string *data;           /* serialize() of this one object */
} rv_serialized_node;

/* Which code a closure record's op_array pointer is valid for (closure.c, ros/code.c):
 * the OPcache instance (processes forked from one that started it share
 * its memory) and the declaring file's deploy generation
 * (opcache_reset()/opcache_invalidate() calls, and its mtime and size where
 * OPcache stat()s files). Zeroed before filled: compared whole. */
typedef struct rv_code_stamp {
	uint64_t instance;
	uint32_t resets;
	uint32_t invalidations;
	int64_t mtime;
	int64_t size;
} rv_code_stamp;

/* What an op_array of OPcache's was: after an OPcache restart its memory
 * may hold other code, which matches this only if it is the same code
 * again (closure.c). The pointers first: only where they match are the
 * opcodes and literals read, at the addresses they had. */
typedef struct rv_code_print {
	const zend_op *opcodes;
	const zval *literals;
	const void *filename;
	const void *dynamic_func_defs;
	uint32_t last;
	uint32_t last_literal;
	uint32_t line_start;
	uint32_t num_dynamic_func_defs;
	uint64_t hash;               /* the opcodes (less their handlers, which the JIT changes) and the literals */
} rv_code_print;

/* Flags of an RV_NODE_CLOSURE node. */
enum {
	RV_CLOSURE_FAKE = 1,        /* a first-class callable: `function` names its function */
	RV_CLOSURE_BOUND = 2,       /* this_obj holds the object it is bound to */
	RV_CLOSURE_STATIC_FN = 4    /* `static function` / `static fn` (never bound) */
};

/* A Closure: its code by reference, what it holds as values. A user
 * closure's code is the op_array OPcache keeps for it (the one
 * ZEND_DECLARE_LAMBDA_FUNCTION makes closures from), valid where `stamp`
 * still matches (above); a first-class callable's, its function's name.
 * Scope and called scope by name; $this and the static and `use`
 * variables are members of the same graph (identity and cycles kept). */
typedef struct rv_closure_node {
	rv_node n;
	uint32_t flags;              /* RV_CLOSURE_* */
	uint32_t map_ptr_need;       /* run-time cache slots its code (nested closures too) needs */
	const zend_op_array *code;   /* a user closure's (not FAKE) */
	rv_code_print print;         /* ... what it was, compared before use */
	rv_code_stamp stamp;
	zend_string *file;           /* the declaring file (NULL: internal function) */
	zend_string *function;       /* FAKE: the function or method name, lowercase */
	zend_string *scope;          /* NULL: none */
	zend_string *lc_scope;
	zend_string *called;         /* NULL: none */
	zend_string *lc_called;
	zval this_obj;               /* BOUND: the object */
	uint32_t nstatics;
	uint32_t _pad;
	uint64_t keep_mask;          /* statics left as the code declares them */
	uint64_t ref_mask;           /* statics that are bound references */
	zval statics[];              /* nstatics, in the order the code declares them */
} rv_closure_node;

/* php_spl_object_hash(obj), written without allocating: since PHP 8.1
 * (the random mask was dropped) it is the handle in 16 hex digits, then 16
 * zeros, on every version Resident supports. */
#define RV_OBJECT_HASH_LEN 32
static inline void rv_object_hash(const zend_object *obj, char out[RV_OBJECT_HASH_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";
	/* A handle has 32 bits: the first 8 of the 16 digits are zeros. */
	uint32_t h = obj->handle;
	memset(out, '0', RV_OBJECT_HASH_LEN);
	for (int i = 15; i >= 8; i--) {
		out[i] = hex[h & 0xf];
		h >>= 4;
	}
	out[RV_OBJECT_HASH_LEN] = '\0';
}

#endif
