/* SPDX-License-Identifier: MIT */
/*
 * PHP values <-> their encoding in a store entry.
 *
 * RV_KIND_ZVAL: a zval followed by an immutable graph of strings and arrays
 * laid out the way OPcache lays out literals (interned strings, immutable
 * arrays with refcount 2), so a fetch can hand the zval to the engine as is.
 * RV_KIND_SERIALIZED: PHP's serializer format, for values holding objects or
 * PHP references (until object records exist).
 *
 * What the layer keeps between calls lives in a context (context.h) that
 * its caller holds and hands to every call that needs it.
 */
#ifndef RESIDENT_VALUE_H
#define RESIDENT_VALUE_H

#include "php.h"
#include "context.h"

#define RV_KIND_ZVAL 1
#define RV_KIND_SERIALIZED 2   /* PHP's serializer format (kept readable, not written any more) */
#define RV_KIND_GRAPH 3        /* objects and references: see graph.h */

/* The version of what a value area holds: the kinds above, the records of
 * graph.h, the codec states of date.c. Every segment and dump is stamped
 * with it (rs_config.encoding_version), and a build of another version
 * recreates or refuses them instead of misreading what is inside. Any
 * change to the stored encoding must bump it. Their definitions have the
 * encoding fingerprint bb435b597209033c: tests/phpt/065 recomputes it, and
 * fails when they change until the new one is recorded here (after a bump,
 * if what is stored changed). */
#define RV_ENCODING_VERSION 4

#if PHP_VERSION_ID >= 80300
# include "zend_call_stack.h"
#endif

/* How deep a value may be nested (levels of arrays and objects), which
 * bounds the C recursion of storing and fetching it. Where the engine
 * knows how much C stack is left (PHP 8.3+: zend_call_stack,
 * EG(stack_limit); 0 with zend.max_allowed_stack_size=-1), the stack
 * alone bounds it, as it bounds serialize() (rv_stack_exhausted(), checked
 * at every level by those walks); elsewhere, 1,024 levels. */
#define RV_MAX_DEPTH_UNCHECKED 1024u
static zend_always_inline uint32_t rv_max_depth(void)
{
#ifdef ZEND_CHECK_STACK_LIMIT
	if (EG(stack_limit)) {
		return INT32_MAX;
	}
#endif
	return RV_MAX_DEPTH_UNCHECKED;
}
#define RV_MAX_DEPTH rv_max_depth()

/* The C stack is about to run out: a Fiber's stack (fiber.stack_size) may
 * not hold RV_MAX_DEPTH levels. PHP 8.3 knows where the stack ends
 * (zend.max_allowed_stack_size, EG(stack_limit)), and its serialize() throws
 * there; PHP 8.2 has no such limit, and there serialize() and Resident alike
 * are bounded by depth only. */
static zend_always_inline bool rv_stack_exhausted(void)
{
#ifdef ZEND_CHECK_STACK_LIMIT
	return UNEXPECTED(zend_call_stack_overflowed(EG(stack_limit)));
#else
	return false;
#endif
}

/* A decode stopped there: the engine's Error, as unserialize() throws it,
 * counted (rv_context.stack_exhausted) so that UserCache makes a miss of
 * it that keeps the entry. */
static zend_always_inline zend_result rv_decode_stack_error(rv_context *ctx)
{
#ifdef ZEND_CHECK_STACK_LIMIT
	ctx->stack_exhausted++;
	zend_call_stack_size_error();
#else
	(void)ctx;
#endif
	return FAILURE;
}

/* Where a value sits inside the argument, for error messages. */
typedef struct rv_path {
	const struct rv_path *up;
	enum { RV_PATH_ROOT, RV_PATH_INDEX, RV_PATH_KEY, RV_PATH_PROP, RV_PATH_SERIALIZED, RV_PATH_NAMED } kind;
	zend_ulong index;
	zend_string *key;     /* KEY, PROP */
	const char *name;     /* ROOT: the argument's name; NAMED: an expression, as is */
	/* ROOT: the value sits in an array Resident wraps it in (keep()): the
	 * wrapper's key is not the user's, and messages leave it out. */
	bool wrapped;
} rv_path;

typedef struct rv_graph_plan rv_graph_plan;

typedef struct rv_plan {
	rv_context *ctx;
	zval *value;
	const rv_path *path;
	uint32_t arg_num;
	uint32_t kind;
	size_t size;              /* bytes of the value area */
	/* rv_plan_store(): size is an estimate (hooks ran while it was
	 * sized): rv_write() may take less, or fail for want of room, then
	 * rv_plan_exact() sizes it without running them again. */
	bool estimated;
	size_t used;              /* after rv_write(): bytes of the area the value took */
	rv_graph_plan *graph;     /* RV_KIND_GRAPH */
	/* rv_write() failed where the C stack ran out (PHP 8.3+: its frames do
	 * not start where the plan's did), and threw nothing: the caller may
	 * hold the store's lock. rv_refuse_out_of_stack() throws the refusal. */
	bool out_of_stack;
} rv_plan;

/* Checks a value and computes its encoded size. On a value that cannot be
 * cached it throws (TypeError naming the path, or ValueError for depth) and
 * returns FAILURE. `path` names the argument for messages. */
zend_result rv_plan_value(rv_context *ctx, rv_plan *plan, zval *value, const rv_path *path, uint32_t arg_num);
/* The same for a write that follows at once, with no PHP code run in
 * between: the size of a value whose hooks ran may be an estimate
 * (plan->estimated), which saves a pass over the graph. */
zend_result rv_plan_store(rv_context *ctx, rv_plan *plan, zval *value, const rv_path *path, uint32_t arg_num);
/* An estimated plan, sized exactly (FAILURE: thrown, as rv_plan_value()
 * would have). No hook runs twice; one that has not run yet (a hook put
 * its object where the walk had been) runs now. */
zend_result rv_plan_exact(rv_plan *plan);
/* Encodes the planned value into `area` (plan->size bytes, 16-byte aligned),
 * with the context it was planned with, and sets plan->used. Runs no PHP code. FAILURE: the value did not come
 * out as planned, or an estimated one did not fit (an exception may be pending); the area holds nothing to keep. */
zend_result rv_write(rv_plan *plan, void *area);
/* The ValueError of a value too deep for the stack left, once the lock is
 * released (rv_plan.out_of_stack). */
void rv_refuse_out_of_stack(rv_plan *plan);
void rv_plan_release(rv_plan *plan);

/* Storing without the sizing pass. A value whose root is an object of a
 * class stored before by this process probably takes what the last ones
 * took: rv_size_guess() says how much (0: no guess, plan it), and
 * rv_write_unplanned() encodes it in one pass into a reservation of at
 * least that size (cap bytes), of kind RV_KIND_GRAPH. Runs no PHP code. */
typedef enum {
	RV_WRITTEN,   /* *used bytes of the area hold the value */
	RV_REPLAN,    /* it did not fit, or a hook must run first: plan it */
	RV_FAILED     /* it cannot be cached (thrown, as rv_plan_value would) */
} rv_unplanned;
size_t rv_size_guess(rv_context *ctx, zval *value);
rv_unplanned rv_write_unplanned(rv_context *ctx, zval *value, const rv_path *path, uint32_t arg_num, void *area, size_t cap, size_t *used);
/* MINIT: learns how serialize() of this PHP writes an array met again
 * inside itself, for the graph encoding to do the same. */
void rv_graph_module_start(void);

/* A digest of the value's content, objects' insides included, the same in
 * every process for equal content (value/digest.c). */
uint64_t rv_digest(zval *v);
/* The value is or contains (outside shared-memory arrays) an object. */
bool rv_holds_objects(zval *v);

/* Decodes an entry. borrow: strings and arrays point into the segment and
 * must not outlive the caller's read section; otherwise a request-local
 * deep copy. Returns FAILURE (with a warning) on a corrupt encoding. */
zend_result rv_materialize(rv_context *ctx, zval *dst, uint32_t kind, const void *area, size_t size, bool borrow);

/* The same, for RequestOverStatic in a request that borrows: objects of
 * unchanged classes come back as shells, filled in when first used
 * (value/graph_lazy.c). The graph lives until the request ends. */
typedef struct rv_lazy_graph rv_lazy_graph;
/* fetched: made by Cache::fetch() (resident.lazy_objects), not by
 * RequestOverStatic: rv_lazy_release_fetched() may let go of it, and
 * nobody asks rv_lazy_graph_unchanged() of it. */
zend_result rv_graph_materialize_lazy(rv_context *ctx, zval *dst, const void *area, bool fetched, rv_lazy_graph **graph);
/* Every object the graph filled still holds what its record gave, and
 * nothing was made that only a digest could vouch for. */
bool rv_lazy_graph_unchanged(rv_lazy_graph *g);
/* A shell could not be filled (its class changed, a type no longer
 * accepts its value): the snapshot should go. */
bool rv_lazy_graph_failed(const rv_lazy_graph *g);
/* The graph in area runs no code when fetched (RV_GRAPH_RUNS_NO_CODE) and
 * holds no PHP reference (RV_GRAPH_NO_REFERENCES): restored lazily by a
 * fetch, it runs none either, whenever its objects are used, and nothing
 * it holds is shared with the graph's own table. */
bool rv_graph_fetchable_lazily(const void *area);
/* Fills every shell of the graphs Cache::fetch() made and lets go of
 * them, so that nothing of them reads the segment any more (a worker's
 * Cache::endOfRequest()); runs what filling runs (autoloaders, hooks).
 * FAILURE: a shell could not be filled (an exception is pending). */
zend_result rv_lazy_release_fetched(rv_context *ctx);
extern zend_object_handlers rv_shell_handlers;
/* Our handlers are on: a shell not filled yet, or filled with properties
 * still pending (made when first read). */
static zend_always_inline bool rv_is_shell(const zend_object *obj)
{
	return obj->handlers == &rv_shell_handlers;
}

/* Fills a shell from its record; on FAILURE an exception is pending. */
zend_result rv_shell_fill(zend_object *obj);
void rv_lazy_module_start(void);

/* The context's life (lifecycle.c). GINIT: an empty context, and the
 * module's answer to whether a class is listed in resident.direct_classes. */
void rv_context_init(rv_context *ctx, bool (*is_direct_class)(zend_class_entry *ce));
/* RSHUTDOWN, once statics are published: what was kept for the request
 * goes, the lazy graphs first. */
void rv_context_request_end(rv_context *ctx);
/* The scripts of the request (closure.c) go at its real end only: a
 * worker's quiescent points keep them, as its code stays loaded. */
void rv_context_scripts_end(rv_context *ctx);
/* GSHUTDOWN: what was kept for the process or thread goes too. */
void rv_context_free(rv_context *ctx);
/* At a request's start, before any decoder: the module's answer to
 * is_direct_class() changed (a php-fpm pool's resident.direct_classes,
 * applied in its worker after MINIT, or a request's PHP_ADMIN_VALUE,
 * which its worker keeps). What was kept for the process on the
 * strength of the old answers (resolved shapes: whether a class restores
 * through __wakeup() or __unserialize()) goes. */
void rv_context_profiles_changed(rv_context *ctx);

/* The integer an entry holds, for atomic updates in place (readers copy the
 * zval, so changing its lval is safe); NULL if it is not a plain integer. */
static inline zend_long *rv_long_slot(uint32_t kind, const void *area)
{
	zval *z = (zval *)area;
	return kind == RV_KIND_ZVAL && Z_TYPE_P(z) == IS_LONG ? &Z_LVAL_P(z) : NULL;
}

/* The PHP type name of an entry's value, for error messages. */
const char *rv_type_name(uint32_t kind, const void *area);

#endif
