/* SPDX-License-Identifier: MIT */
/*
 * #[Resident\RequestOverStatic]: static state that survives the request.
 *
 * A unit of state is a class (all its static properties and the static
 * variables of its methods), one static property, or one method's static
 * variables. Each unit is one snapshot in a hidden pool.
 *
 * Restore: when the engine links a class (the class-linked observer, PHP
 * 8.2+), before any code can read its statics: properties are written into
 * the class's static slots, method statics become the method's static
 * variable table (as references, which 8.3+ requires). While the engine is
 * compiling, nothing may autoload, so classes linked then are restored as
 * soon as the outermost compile returns (zend_compile_file is wrapped at the
 * first request, outside OPcache, so a cache hit cannot bypass it).
 *
 * Publish: in RSHUTDOWN (the last point where statics and objects are
 * intact), and only if something changed; a property marked publish:
 * 'immediate' also before each built-in call (immediate.c). Whatever was restored is held
 * until then, so a changed string or array is a different pointer (an array
 * we hold is separated on its first write). Objects can change inside: a
 * snapshot carries the digest of each object graph it holds
 * (value/digest.c), compared with the graph's digest at the end. Nothing is published after a fatal error or a timeout. A
 * snapshot remembers its class file (path, mtime, size) and the unit's
 * layout; any difference drops it. Concurrent requests: the last to end
 * wins, and each snapshot is written whole.
 *
 * No opcode handler and no zend_execute_ex: the JIT stays on.
 *
 * The files, each asking only those listed after it:
 *   lifecycle.c  where the engine and the module call in, and so when the
 *                rest runs: class linked, the compile hooks, the
 *                attribute's validator, request and module start and end
 *   restore.c    a linked class's snapshots written back into its statics
 *   publish.c    at request end, what changed stored as new snapshots
 *   units.c      which units a class has, the items of a unit, and what a
 *                snapshot must match (layout, class file)
 *   pool.c       the hidden pool of snapshots; forgetStatics(), status()
 *   deploy.c     opcache_reset() and opcache_invalidate(), and whether a
 *                class file is stat()ed
 *   immediate.c  publish: 'immediate' properties, published before each
 *                built-in function call rather than at request end
 * This header holds what they share.
 */
#ifndef RESIDENT_ROS_INTERNAL_H
#define RESIDENT_ROS_INTERNAL_H

#include <stdatomic.h>
#include "php.h"
#include "zend_attributes.h"
#include "cache/cache.h"
#include "runtime/segment.h"
#include "runtime/class_list.h"
#include "value/value.h"

enum { ROS_CLASS, ROS_PROP, ROS_METHOD };

typedef struct ros_unit {
	uint8_t scope;
	bool restored;                 /* a snapshot was applied this request */
	zend_class_entry *ce;
	zend_property_info *prop;      /* ROS_PROP */
	zend_op_array *method;         /* ROS_METHOD */
	zend_string *key;
	HashTable baseline;            /* item -> what was restored (held until the end) */
	HashTable digests;             /* item -> digest its objects were published with */
	rv_lazy_graph *graph;          /* the snapshot restored lazily, or NULL */
	bool immediate;                /* ROS_PROP marked publish: 'immediate' (immediate.c) */
	bool seen_objects;             /* seen holds objects, which change inside */
	zval seen;                     /* the value immediate.c last compared (held) */
} ros_unit;

typedef struct ros_class {
	zend_class_entry *ce;
	uint32_t nunits;
	ros_unit units[];
} ros_class;

/* units.c. The class's units, NULL if it has none; to give back with
 * ros_class_free(). */
ros_class *ros_units_of(zend_class_entry *ce);
void ros_class_free(ros_class *rc);
/* Calls fn for every static property and method static variable of the unit. */
typedef void (*item_fn)(ros_unit *u, zend_property_info *prop, zend_op_array *method, zend_string *var, void *ctx);
void ros_each_item(ros_unit *u, item_fn fn, void *ctx);
/* An item's name in a snapshot: "p:<prop>" or "m:<method>:<var>". */
zend_string *ros_item_name(zend_property_info *prop, zend_op_array *method, zend_string *var);
/* What a snapshot must match: the names of the unit's items in order, and
 * its class file's identity ("path|mtime|size", "path|?" when stat()
 * fails), which a preloaded class's file keeps for the process. */
zend_string *ros_unit_layout(ros_unit *u);
zend_string *ros_file_identity(zend_class_entry *ce);

/* Kept in units.c, which reads them; set up by lifecycle.c (at module
 * start, at the first request, for a pool's own list): the attribute's
 * lowercase name, resident.request_over_static_classes, the shared flags
 * the attribute's validator raises (ROS_SEEN_*, see units.c), whether
 * OPcache has a file cache, the identities of preloaded classes' files. */
extern zend_string *ros_attribute_lcname;
extern resident_class_list ros_listed_classes;
/* ROS_SEEN_MEMBER: on a member of a trait (any class using it may have
 * units; also assumed without a shared page); ROS_SEEN_MEMBER_OF: on a
 * member of a class whose name is in member_classes; ROS_SEEN_CLASS: on a
 * class. */
enum { ROS_SEEN_MEMBER = 1, ROS_SEEN_CLASS = 2, ROS_SEEN_MEMBER_OF = 4 };
#define ROS_INVALIDATION_SLOTS 256
typedef struct ros_shared_page {
	_Atomic uint8_t attribute_seen;  /* ROS_SEEN_* */
	_Atomic uint32_t member_classes_added; /* bits set in member_classes */
	/* By resident_class_fingerprint() of the class's name. */
	_Atomic uint64_t member_classes[(1u << RESIDENT_CLASS_FILTER_BITS) / 64];
	_Atomic uint32_t deploys;        /* opcache_reset() and opcache_invalidate() calls that changed code */
	uint64_t boot;                   /* random, made at MINIT: this master's OPcache */
	_Atomic uint32_t resets;         /* opcache_reset() calls */
	_Atomic uint32_t invalidations[ROS_INVALIDATION_SLOTS]; /* opcache_invalidate() calls, by file (hashed) */
} ros_shared_page;
extern ros_shared_page *ros_shared;
extern bool ros_opcache_file_cache;
extern HashTable *ros_preloaded_files;

/* The key, in the hidden pool, of the digest of a unit's snapshot that was
 * refused (publish.c): "refused|" and the unit's key. */
#define ROS_REFUSED_PREFIX "refused|"

/* deploy.c: opcache_reset() and opcache_invalidate() (see there). Whether
 * OPcache runs without stat()ing files (opcache.validate_timestamps=0):
 * then a class file's identity is not stat()ed either. */
extern bool ros_trust_opcache;
void ros_deploy_settings(bool opcache_running);
void ros_deploy_hooks(void);
/* The counts of opcache_reset() calls and of opcache_invalidate() calls
 * for the file (or one sharing its slot) that a snapshot must match. */
void ros_file_generation(zend_string *file, uint32_t *resets, uint32_t *invalidations);

/* units.c: whether the class's members may carry the attribute (else
 * they are not looked at), and whether its name is among those of the
 * classes whose members were seen with it (member_classes). */
bool ros_members_may_carry_attribute(zend_class_entry *ce);
static zend_always_inline bool ros_member_classes_may_have(const char *name, size_t len)
{
	uint32_t f = resident_class_fingerprint(name, len);
	return (atomic_load_explicit(&ros_shared->member_classes[f >> 6], memory_order_relaxed) >> (f & 63)) & 1;
}

/* lifecycle.c: no fatal error, uncaught exception or timeout so far (the
 * statics may be half updated after one: nothing is published). */
bool ros_request_ok(void);

/* pool.c: a handle on the hidden pool; false when there is no store. */
bool ros_pool_handle(resident_cache_obj *pool);

/* restore.c: restores every unit of the class from its snapshot. */
void ros_restore_class(ros_class *rc);

/* publish.c: stores the unit's snapshot again if any item of it changed.
 * rebase: what it stored becomes what the rest of the request is compared
 * with (immediate.c publishes again later in the same request). Returns 1
 * when it stored one, 0 when nothing changed, -1 when it could not (the
 * state refused, now or before, or the store failed). */
int ros_publish_unit(resident_cache_obj *pool, ros_unit *u, bool rebase);
/* Whether a static still holds the value compared with: identity for
 * arrays and objects, content for the rest. */
bool ros_same_value(zval *c, zval *b);
/* The unit's property value this request, NULL before its statics exist. */
zval *ros_prop_current(ros_unit *u);

/* immediate.c. Whether the attribute asks for publish: 'immediate'
 * (checked by the validator: only ever on a static property). */
bool ros_attribute_immediate(zend_attribute *attr);
/* The attribute's arguments, checked at compile time: NULL if fine, else
 * what is wrong (to give back). */
zend_string *ros_attribute_arguments_error(zend_attribute *attr, uint32_t target);
/* Module start, when resident.request_over_static_immediate is on. */
void ros_immediate_module_start(void);
void ros_immediate_module_end(void);
/* A restored unit marked publish: 'immediate' is watched from now on. */
void ros_immediate_watch(ros_unit *u);
/* The request ends: nothing is watched any more. */
void ros_immediate_request_end(void);

#endif
