/* SPDX-License-Identifier: MIT */
/*
 * What the value layer keeps from one call to the next: caches that make
 * storing and fetching objects cheap, and RequestOverStatic's lazy graphs,
 * for the request; the sizes of values stored before, for the process or
 * thread. The module holds one context in its globals and hands it down to
 * every call that needs it: the value layer reads no module globals, and
 * asks the module only what the context's callbacks answer.
 *
 * A context filled with zeros is empty; rv_context_init() (value.h) sets
 * the callbacks, rv_context_request_end() and rv_context_free() empty it.
 */
#ifndef RESIDENT_VALUE_CONTEXT_H
#define RESIDENT_VALUE_CONTEXT_H

#include "php.h"

/* The deduplication cache of the encoding of one value (see writer.h): a
 * slot holds what the source at src became, if gen is the value's. */
#define RV_XLAT_SIZE 2048
typedef struct rv_xlat_slot {
	const void *src;
	void *dst;
	uint64_t gen;
} rv_xlat_slot;

#define RV_RECENT_TEMPS 4
#define RV_PRINT_SLOTS 64

/* A class's rv_class_print() in the request request_no (class_layout.c). */
typedef struct rv_print_slot {
	const zend_class_entry *ce;
	uint64_t request_no;
	uint64_t print;
} rv_print_slot;

struct rv_code_stamp;      /* graph.h */

/* A script of this request whose code declares closures (closure.c). */
typedef struct rv_closure_script {
	zend_string *file;
	zend_op_array **defs;
	uint32_t ndefs;
} rv_closure_script;

typedef struct rv_context {
	/* The module's answer: the class is listed in resident.direct_classes
	 * (copied as its state, without running its serialization hooks). */
	bool (*is_direct_class)(zend_class_entry *ce);
	/* Set: no PHP frame can take an exception, and the first refusal goes
	 * here as text instead (see rv_type_error()). */
	zend_string **error_sink;
	/* The module's answer: the code stamp of a file now (struct
	 * rv_code_stamp, graph.h), or why closures of it cannot be kept (when
	 * storing: OPcache not loaded or off, file_cache_only; the file gone),
	 * as a phrase. NULL: closures are refused. */
	const char *(*code_stamp)(zend_string *file, struct rv_code_stamp *out, bool storing);
	/* Set by a caller whose values must not hold code kept by reference
	 * (closures, instances of anonymous classes): RequestOverStatic, whose
	 * digests cannot see into a closure, and UserCache, as the proposal
	 * refuses them. */
	bool code_refused;
	/* Set by UserCache for its stores: an ArrayObject or ArrayIterator
	 * whose storage is an object is refused, as the proposal refuses it
	 * (its restore would run the deprecation of such a storage, and with
	 * it an error handler, in the middle of a fetch). */
	bool spl_object_storage_refused;
	/* Set by UserCache for its stores: a hook that runs only once the
	 * value was planned (its object put where the walk had been by another
	 * hook) and that grows the array the object sits in refuses the value,
	 * as the proposal's store() says false when what it writes no longer
	 * fits what it sized. Resident\Cache plans again and stores the value
	 * as the hooks left it. */
	bool late_growth_refused;
	/* Set by UserCache for the fetch it starts: an object stored by its
	 * properties whose class is, where it is read, an internal one that
	 * keeps its state in C and takes none from properties (a create_object
	 * of its own, neither __unserialize() nor __wakeup(): a name now an
	 * alias of IteratorIterator) is refused as the proposal refuses it,
	 * where unserialize() makes it and writes the properties as dynamic
	 * ones. The decoder takes it and clears it, so that a fetch a restore
	 * hook makes meanwhile (Resident\Cache's) does not inherit it. */
	bool internal_state_refused;

	/* Per request. */
	HashTable *temp_strings;     /* strings made while storing (rv_temp_string) */
	zend_string *recent_temps[RV_RECENT_TEMPS]; /* the last of them asked for */
	const char *recent_temp_srcs[RV_RECENT_TEMPS]; /* ... and the C strings they were made from (or NULL) */
	HashTable *tz_objects;       /* DateTimeZone objects made while decoding (date.c) */
	HashTable *layouts;          /* class entry -> rv_class_layout() */
	uint64_t request_no;         /* requests ended before this one, plus 1 (shape_cache.c) */
	/* rv_class_print() of the classes asked about in this request (an
	 * entry of an earlier one is stale), by address: a class is looked up
	 * in one slot, where another may have taken its place. */
	rv_print_slot prints[RV_PRINT_SLOTS];
	HashTable *class_profiles;   /* class entry -> rv_class_profile (class_profile.c) */
	struct rv_class_profile *last_profile; /* the one asked for last (class_profiles holds it) */
	struct rv_lazy_graph *lazy_graphs; /* RequestOverStatic graphs restored lazily (graph_lazy.c) */
	uint32_t shells_made;        /* ... the shells they made */
	uint32_t shells_filled;      /* ... and filled */
	uint64_t incomplete_made;    /* objects of classes that are gone (__PHP_Incomplete_Class) decoded, ever */
	uint64_t stale_decodes;      /* values that no longer decode as stored (an enum or case gone, a property name
	                              * unserialize() rejects): the decoder threw, ever */
	uint64_t stale_code;         /* closure records whose code changed since (a miss), ever */
	uint64_t changed_while_stored; /* stores refused as a hook changed what was sized already (an Error), ever */
	rv_closure_script *closure_scripts; /* scripts of this request that declare closures */
	uint32_t nclosure_scripts;
	uint32_t closure_scripts_cap;
	uint64_t uninstantiable_met; /* objects of classes that cannot be instantiated (abstract, interface, ...) met while decoding, ever */
	uint64_t stack_exhausted;    /* decodes that stopped where the C stack ends (PHP 8.3+): the engine's Error, ever */
	zend_class_entry *refused_anonymous; /* the anonymous class a value was last refused for (its name,
	                              * "Parent@anonymous", words UserCache's refusal) */

	/* Per process or thread: class name -> bytes of its last root values
	 * (class_profile.c), in persistent memory. */
	HashTable *root_sizes;
	/* ... and class entry -> rv_class_layout() of the classes that live as
	 * long as it (class_layout.c), in persistent memory. */
	HashTable *lasting_layouts;
	/* ... and shapes of their objects resolved (shape_cache.c): by what
	 * the resolution follows from, and, for shapes that does not tell
	 * (listed by name, or laid out otherwise since), by the stored
	 * shape's address and its value's stamp; what a request replaced in
	 * the latter goes when it ends (a decoder may still hold it). */
	HashTable *lasting_shapes;
	HashTable *lasting_exact_shapes;
	struct kept_shape *replaced_shapes;
	/* ... and the classes declared types accepted (shape_cache.c). */
	HashTable *lasting_types;
	/* Per request: shapes of objects of the other classes resolved
	 * (shape_cache.c), by content and exactly as for those that last,
	 * freed when it ends, and a bit per layout fingerprint or exact shape
	 * (modulo) resolved once already: only a shape met again is kept. */
	HashTable *request_shapes;
	HashTable *request_exact_shapes;
	uint64_t shapes_met[64];
	/* Per call: the stamp of the stored value being decoded (the cache
	 * layer's rs_entry_stamp()), 0 if none. */
	uint64_t value_stamp;

	/* The deduplication cache, per value encoded. */
	uint64_t xlat_gen;
	rv_xlat_slot xlat_str[RV_XLAT_SIZE];
	rv_xlat_slot xlat_arr[RV_XLAT_SIZE];
} rv_context;

/* A table of the context, made when first asked for (persistent: one kept
 * for the process or thread), and one freed with the context
 * (rv_context_free()). lifecycle.c. */
HashTable *rv_context_table(HashTable **at, bool persistent, dtor_func_t dtor);
void rv_context_table_free(HashTable **at);

#endif
