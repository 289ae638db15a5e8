/* SPDX-License-Identifier: MIT */
/*
 * PHP value with objects or references -> graph encoding (see graph.h).
 *
 * One walker, run over the value in passes:
 *   PLAN     validates and sizes the encoding; where an object needs one of
 *            the userland hooks (__serialize, __sleep, Serializable) run,
 *            a collecting PLAN runs each once, as it meets its object,
 *            keeping what they return; its size is then an estimate, as a
 *            hook may change what was sized before it ran;
 *   COLLECT  walks an array again within a collecting PLAN, for objects a
 *            hook put there (see walk_array());
 *   WRITE    lays it out in the reserved entry.
 * No PHP code runs during a PLAN that does not collect, nor during WRITE,
 * so both see the same graph and the layout fits the planned size. An
 * estimated size is checked by WRITE instead: it never writes past it, and
 * a value that did not fit is planned again (its hooks do not run again).
 * A hook may put an object with a hook of its own where the collecting
 * PLAN had walked already: the PLAN that sizes the value exactly (or
 * WRITE) meets an object whose hook has not run; that hook then runs in a
 * collecting PLAN of its own, and the value is planned again, until a
 * PLAN meets none (plan_settled(), at most LATE_ROUNDS times).
 * Should the value change in between anyway (storeMultiple() plans every
 * value before it writes any, and a later one's hook may change an earlier
 * one), WRITE never writes past the plan: it abandons the write, and the
 * caller plans the value again.
 */
#include "php.h"
#include "value.h"
#include "graph.h"
#include "graph_persist.h"
#include "writer.h"
#include "errors.h"
#include "date.h"
#include "class_profile.h"
#include "class_layout.h"
#include "closure.h"
#include "zend_closures.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"
#include "zend_enum.h"
#include "zend_generators.h"
#include "zend_smart_str.h"
#include "ext/standard/php_var.h"
#include "ext/spl/spl_heap.h"
#include "ext/spl/spl_array.h"

typedef enum { COLLECT, PLAN, WRITE } pass;

#define FIRST_IDS 8
#define INLINE_ID_SLOTS 16   /* room for FIRST_IDS ids at half load */
#define LAST_SHAPE_NAMES 16
#define SLEEP_NAMES 32

enum { VISITED, STATES, SHAPES, PLAIN_SHAPES, HOOKED, TABLES };

/* How many times a value is walked again to run the hooks of objects
 * that hooks put where the walk had been (see plan_settled()): each such
 * walk runs at least one hook, so only a chain of hooks each putting the
 * next object behind the walk goes on; past this many, the value is
 * refused as changed while it was cached. */
#define LATE_ROUNDS 8

/* An object's or reference's id (see id_of()). */
typedef struct id_slot {
	const void *p;
	uint32_t id;
} id_slot;

/* A shared array's encoding (see gctx.arrays). */
typedef struct array_slot {
	const zend_array *a;
	uint64_t v;
} array_slot;

typedef struct gctx {
	rv_context *ctx;
	/* ctx->spl_object_storage_refused when the walk began: a hook's own
	 * calls do not see the store's refusals (collect_hook()). */
	bool spl_object_storage_refused;
	bool late_growth_refused;  /* likewise, ctx->late_growth_refused */
	pass pass;
	uint32_t arg_num;
	uint32_t depth;
	uint32_t next_id;
	bool collected;         /* hooks ran (else PLAN stops at the first object that needs it) */
	/* PLAN runs each object's hook as it first meets it (see
	 * rv_graph_plan_value()); its size is then an estimate (a hook may
	 * change what was sized before it ran), which WRITE checks. */
	bool collecting;
	/* The collecting PLAN met, walking an array again, an object it had
	 * not planned (a hook put it there): its size is not to be trusted. */
	bool unsure;
	uint32_t hooks_run;     /* hooks run so far, by this walk */
	/* An exact PLAN met an object whose hook has not run (a hook put it
	 * where a collecting PLAN had walked already): plan_settled() runs it
	 * in another collecting PLAN (late_rounds counts them). */
	bool late;
	uint32_t late_rounds;
	/* The collecting PLAN holds the arrays of plain values (no object, no
	 * reference, at any depth) it planned as shared until it ends: one
	 * met again is then the same array, unchanged (held more than once,
	 * it is separated before any change), whatever a hook did since, and
	 * is not walked again (see walk_array()). Plain, they have no
	 * destructor to delay. */
	zend_array **held;
	uint32_t nheld;
	uint32_t held_cap;
	/* The objects whose hooks ran, held until the store ends, as
	 * serialize() holds every object it met: a hook that drops the last
	 * reference to its own object (or to one met before) would free what
	 * the walk still reads. Their destructors run when the store is done,
	 * as they run when serialize() returns. */
	zend_object **held_objects;
	uint32_t nheld_objects;
	uint32_t held_objects_cap;
	/* The handles of ArrayObjects and ArrayIterators whose states hold
	 * their live storage, which they write in place whoever else holds
	 * it: copied (copy_spl_storages()) before a hook that may write it
	 * runs, so that the state stays what it was when it was taken, as
	 * serialize() keeps it. Only then: a copy of every storage made the
	 * stores of SPL collections 1.46x as costly. */
	uint32_t *uncopied;
	uint32_t nuncopied;
	uint32_t uncopied_cap;
	/* Where the kept __sleep() selections are (keep_sleep_selection()):
	 * chunks freed with the context, as one is kept per object. */
	void *kept_chunks;
	char *kept_cur;
	char *kept_end;
	/* Arrays met where their encoding may depend on the way there: one
	 * written as null inside itself, one behind a reference nobody else
	 * holds (which can close a loop of plain values). An array whose walk
	 * counted one is encoded again wherever it is met, as serialize()
	 * writes it again; others are encoded once and shared. */
	uint32_t context_marks;
	bool need_collect;
	bool unplanned;         /* WRITE without PLAN, into a reservation of a guessed size */
	bool runs_code;         /* met an object whose fetch runs code (RV_GRAPH_RUNS_NO_CODE) */
	bool has_references;    /* met a PHP reference (RV_GRAPH_NO_REFERENCES) */
	size_t size;            /* PLAN: bytes needed */
	rv_writer w;            /* WRITE (w.ctx: ctx, in every pass) */
	uint32_t ready;         /* bit t: tables[t] is set up */
	/* PLAN/WRITE: object or reference -> id, open addressing by address
	 * (not user input), at most half full; few_ids until more come. */
	id_slot *ids;
	uint32_t ids_cap;
	id_slot few_ids[INLINE_ID_SLOTS];
	/* Arrays whose encoding serves wherever they are met -> PLAN: the
	 * elements leading to nodes, and hooks_run when it was planned (high
	 * 32 bits); WRITE: the node or array written. The same kind of table
	 * as ids; few_arrays until more come. */
	array_slot *arrays;
	uint32_t arrays_cap;
	uint32_t narrays;
	array_slot few_arrays[INLINE_ID_SLOTS];
	rv_class_profile *last_profile; /* runs of objects share a class */
	uint64_t gen;           /* this pass (class profiles note the shape they copied in it) */
	void **nodes;           /* WRITE: id -> node (few_nodes, until more ids come) */
	uint32_t nodes_cap;
	void *few_nodes[FIRST_IDS + 1];
	/* Set up on first use (tbl()): a value of one plain object needs none.
	 *   VISITED       COLLECT: objects/references seen (a collecting PLAN: those it did not plan)
	 *   STATES        handle -> what a hook returned (COLLECT fills); for
	 *                 __sleep(), IS_PTR to the properties it named with the
	 *                 values they had then (keep_sleep_selection())
	 *   HOOKED        the objects whose hooks ran (held_objects), once a
	 *                 collecting PLAN walks again (plan_settled())
	 *   SHAPES        shape key -> IS_PTR written shape (WRITE)
	 *   PLAIN_SHAPES  class ^ mode -> the same, for objects with every slot set
	 * Last: gctx_init() leaves them as they are until then. */
	HashTable tables[TABLES];
	/* The shape met last for an object whose properties are not its
	 * class's own (a __sleep() selection, dynamic properties): the next
	 * object of the same class, mode and names, in the same pass, takes it
	 * without making the SHAPES table's key. Names are the objects' own
	 * (or what COLLECT kept), alive for the whole store. */
	struct {
		uint64_t gen;
		zend_class_entry *ce;
		uint32_t mode;
		uint32_t n;
		bool slotted;
		rv_shape *shape;
		zend_string *names[LAST_SHAPE_NAMES];
		int32_t slots[LAST_SHAPE_NAMES];
	} last;
	/* The names the last __sleep() gave (held, so they cannot change),
	 * when they named declared properties only, each set: the next object
	 * of the class that returns the same names (the same array, as a
	 * literal returns, or the same strings in the same order), with those
	 * properties set, selects the same without looking its names up; its
	 * values are read from these slots. */
	struct {
		zend_class_entry *ce;
		zval names;
		zval keys;
		uint32_t n;
		int32_t slots[SLEEP_NAMES];
	} sleep;
} gctx;

/* Whether serialize() of this PHP writes null for an array met again
 * inside itself (GC_PROTECT_RECURSION in php_var_serialize_nested_data),
 * which PHP dropped with GH-19701 (8.4.14; on every later version it
 * writes such an array again). Asked of serialize() itself at startup
 * (rv_graph_module_start()), so a PHP updated under the extension agrees. */
static bool serialize_nulls_cycles = true;

/* -1 failure (an exception thrown; in WRITE, the write abandoned), 0 plain
 * value, 1 a node (or leads to one) */
static int walk(gctx *c, zval *dst, zval *src, const rv_path *path);
static zend_always_inline int walk_member(gctx *c, zval *dst, zval *val, zend_array *parent, bool guarded, const rv_path *path);
static int walk_array(gctx *c, zval *dst, zend_array *a, bool hook_data, const rv_path *path);
static int walk_elements_held(gctx *c, zend_array *a, zend_array *parent, bool guarded, const rv_path *path, uint32_t *found);

static void *take(gctx *c, size_t size)
{
	size = ZEND_MM_ALIGNED_SIZE(size);
	if (c->pass == PLAN) {
		c->size += size;
		return NULL;
	}
	return rv_bump(&c->w, size);
}

/* The properties a __sleep() named (a state of STATES), with the values
 * they had when it ran; the names are strings of keys (the names found).
 * In memory of the context's (kept_alloc()). */
typedef struct sleep_values {
	zval keys;
	uint32_t n;
	zend_string **names;
	zval *values;
} sleep_values;

static void state_free(zval *zv)
{
	if (Z_TYPE_P(zv) != IS_PTR) {
		zval_ptr_dtor(zv);
		return;
	}
	sleep_values *s = Z_PTR_P(zv);
	for (uint32_t i = 0; i < s->n; i++) {
		zval_ptr_dtor(&s->values[i]);
	}
	zval_ptr_dtor(&s->keys);
}

static HashTable *tbl(gctx *c, uint32_t t)
{
	if (!(c->ready & (1u << t))) {
		zend_hash_init(&c->tables[t], 8, NULL, t == STATES ? state_free : NULL, 0);
		c->ready |= 1u << t;
	}
	return &c->tables[t];
}

static void clean(gctx *c, uint32_t t)
{
	if (c->ready & (1u << t)) {
		zend_hash_clean(&c->tables[t]);
	}
}

static zend_always_inline zend_string *string_of(gctx *c, zend_string *s)
{
	if (c->pass == PLAN) {
		/* rv_string_plan(), inline: strings are most of what is planned. */
		if (!rv_xlat_lookup(c->ctx, rv_xlat_str_slot(c->ctx, s), s, rv_xlat_same_string)) {
			c->size += rv_string_size(s);
		}
		return NULL;
	}
	return rv_write_string(&c->w, s);
}

static zend_string *lower_name(gctx *c, zend_string *name)
{
	char buf[256];
	if (ZSTR_LEN(name) < sizeof(buf)) {
		zend_str_tolower_copy(buf, ZSTR_VAL(name), ZSTR_LEN(name));
		return rv_temp_string(c->ctx, buf, ZSTR_LEN(name));
	}
	zend_string *lc = zend_string_tolower(name);
	zend_string *kept = rv_temp_string(c->ctx, ZSTR_VAL(lc), ZSTR_LEN(lc));
	zend_string_release(lc);
	return kept;
}

/* --- identity ------------------------------------------------------------------ */

static zend_ulong identity_key(const void *p)
{
	return (zend_ulong)(uintptr_t)p;
}

static zend_always_inline uint32_t id_slot_of(const void *p, uint32_t cap)
{
	/* Addresses are aligned: their low bits say nothing; a multiply
	 * spreads the others. */
	uint64_t h = ((uintptr_t)p >> 3) * 0x9E3779B97F4A7C15ull;
	return (uint32_t)(h >> 32) & (cap - 1);
}

static zend_never_inline void ids_grow(gctx *c)
{
	uint32_t old_cap = c->ids_cap, cap = old_cap * 2;
	id_slot *old = c->ids;
	id_slot *ids = ecalloc(cap, sizeof(id_slot));
	for (uint32_t i = 0; i < old_cap; i++) {
		if (old[i].p) {
			uint32_t at = id_slot_of(old[i].p, cap);
			while (ids[at].p) {
				at = (at + 1) & (cap - 1);
			}
			ids[at] = old[i];
		}
	}
	if (old != c->few_ids) {
		efree(old);
	}
	c->ids = ids;
	c->ids_cap = cap;
}

/* Where p's id is, or the empty slot where it would go. */
static zend_always_inline id_slot *id_find(gctx *c, const void *p)
{
	uint32_t mask = c->ids_cap - 1;
	uint32_t at = id_slot_of(p, c->ids_cap);
	while (c->ids[at].p && c->ids[at].p != p) {
		at = (at + 1) & mask;
	}
	return &c->ids[at];
}

/* PLAN/WRITE: the id of an object or reference, assigning the next one on a
 * first visit (*first). The two passes visit in the same order. */
static zend_always_inline uint32_t id_of(gctx *c, const void *p, bool *first)
{
	id_slot *slot = id_find(c, p);
	if (slot->p) {
		*first = false;
		return slot->id;
	}
	uint32_t id = ++c->next_id;
	if (UNEXPECTED(id * 2 > c->ids_cap)) {
		ids_grow(c);
		slot = id_find(c, p);
	}
	slot->p = p;
	slot->id = id;
	*first = true;
	return id;
}

/* PLAN: whether an object or reference has an id already. */
static bool has_id(gctx *c, const void *p)
{
	return id_find(c, p)->p != NULL;
}

static zend_always_inline array_slot *array_find(gctx *c, const zend_array *a)
{
	uint32_t mask = c->arrays_cap - 1;
	uint32_t at = id_slot_of(a, c->arrays_cap);
	while (c->arrays[at].a && c->arrays[at].a != a) {
		at = (at + 1) & mask;
	}
	return &c->arrays[at];
}

static zend_never_inline void arrays_grow(gctx *c)
{
	uint32_t old_cap = c->arrays_cap, cap = old_cap * 2;
	array_slot *old = c->arrays;
	c->arrays = ecalloc(cap, sizeof(array_slot));
	c->arrays_cap = cap;
	for (uint32_t i = 0; i < old_cap; i++) {
		if (old[i].a) {
			*array_find(c, old[i].a) = old[i];
		}
	}
	if (old != c->few_arrays) {
		efree(old);
	}
}

static void array_note(gctx *c, const zend_array *a, uint64_t v)
{
	array_slot *slot = array_find(c, a);
	if (!slot->a) {
		if (UNEXPECTED(++c->narrays * 2 > c->arrays_cap)) {
			arrays_grow(c);
			slot = array_find(c, a);
		}
		slot->a = a;
	}
	slot->v = v;
}

/* COLLECT: whether an object or reference is met for the first time. In a
 * collecting PLAN, which walks an array again COLLECT's way when a hook
 * ran since it planned it (see walk_array()), what PLAN planned is known
 * by its id; anything else is new, and the size planned is not to be
 * trusted. */
static bool collect_first(gctx *c, const void *p)
{
	if (c->collecting) {
		if (has_id(c, p)) {
			return false;
		}
		c->unsure = true;
	}
	return zend_hash_index_add_empty_element(tbl(c, VISITED), identity_key(p)) != NULL;
}

/* Whether the object's hook ran in an earlier collecting PLAN of this
 * store (only once one walks again: plan_settled()). */
static bool hooked(gctx *c, const void *p)
{
	return c->late_rounds && zend_hash_index_exists(tbl(c, HOOKED), identity_key(p));
}

/* A collecting PLAN meets an object first: its hook is to run, unless
 * COLLECT's way of walking ran it already, or an earlier collecting PLAN
 * did. */
static bool hook_due(gctx *c, const void *p)
{
	if (!c->collecting) {
		return false;
	}
	if (c->late_rounds) {
		return !hooked(c, p);
	}
	return !(c->unsure && zend_hash_index_exists(tbl(c, VISITED), identity_key(p)));
}

static void node_at(gctx *c, uint32_t id, void *node)
{
	if (UNEXPECTED(id >= c->nodes_cap)) {
		uint32_t cap = MAX(c->nodes_cap * 2, 64);
		while (cap <= id) {
			cap *= 2;
		}
		/* Only the ids met so far are ever read back. */
		c->nodes = c->nodes == c->few_nodes ? memcpy(emalloc(cap * sizeof(void *)), c->few_nodes, sizeof(c->few_nodes))
			: erealloc(c->nodes, cap * sizeof(void *));
		c->nodes_cap = cap;
	}
	c->nodes[id] = node;
}

static void set_ptr(zval *dst, void *node)
{
	if (dst) {
		ZVAL_PTR(dst, node);
		Z_EXTRA_P(dst) = 0;
	}
}

/* PLAN/WRITE: an element or property that is a scalar or a string, without the walk
 * (the hot case: most elements of most arrays). */
static zend_always_inline void leaf(gctx *c, zval *dst, zval *src)
{
	if (Z_TYPE_P(src) == IS_STRING) {
		zend_string *s = string_of(c, Z_STR_P(src));
		if (dst) {
			ZVAL_INTERNED_STR(dst, s);
			Z_EXTRA_P(dst) = 0;
		}
		return;
	}
	if (dst) {
		dst->value.lval = Z_TYPE_P(src) >= IS_LONG ? src->value.lval : 0;
		Z_TYPE_INFO_P(dst) = Z_TYPE_P(src);
		Z_EXTRA_P(dst) = 0;
	}
}

/* --- refusals ---------------------------------------------------------------------- */

/* WRITE meets what PLAN did not (the value changed since): it abandons the
 * write rather than throw; planning the value again stores it as it is now
 * or says why not. */
static zend_result abandon(gctx *c)
{
	c->w.overflowed = true;
	return FAILURE;
}

static zend_result refuse(gctx *c, const rv_path *path, const char *what, const char *class_name)
{
	if (c->pass == WRITE) {
		return abandon(c);
	}
	zend_string *where = rv_path_render(path);
	if (class_name) {
		rv_type_error(c->ctx, c->arg_num, "cannot be cached: %s is %s %s", ZSTR_VAL(where), what, class_name);
	} else {
		rv_type_error(c->ctx, c->arg_num, "cannot be cached: %s is %s", ZSTR_VAL(where), what);
	}
	zend_string_release(where);
	return FAILURE;
}

static void throw_changed(gctx *c)
{
	c->ctx->changed_while_stored++;
	zend_throw_error(NULL, "The value changed while it was being cached (a __serialize() or __sleep() hook modified it)");
}

static zend_result changed(gctx *c)
{
	if (c->pass == WRITE) {
		return abandon(c);
	}
	if (c->collected && !c->collecting && c->late_rounds < LATE_ROUNDS) {
		/* What a hook returned is missing only where its hook has not
		 * run: another hook put the object where the collecting PLAN had
		 * been. plan_settled() runs it, and plans the value again. */
		c->late = true;
		return FAILURE;
	}
	throw_changed(c);
	return FAILURE;
}

static zend_result too_deep(gctx *c)
{
	if (c->pass == WRITE) {
		/* Past the plan's depth only where the stack ended (PHP 8.3+):
		 * the plan walked this far within it, but the write's frames do
		 * not start where the plan's did. Refused as too deep once the
		 * reservation is given back (rv_write()); an unplanned write is
		 * planned instead. Deeper than the plan's depth bound, the value
		 * changed since: planned again, as for any change. */
		c->w.out_of_stack = c->depth <= RV_MAX_DEPTH;
		return abandon(c);
	}
	rv_too_deep_error(c->ctx, c->arg_num, c->depth > RV_MAX_DEPTH);
	return FAILURE;
}

/* What serialize() throws for a date object its constructor never set up. */
static void uninitialized_native(zend_class_entry *ce)
{
	zend_class_entry *base = ce;
	while (base->parent) {
		base = base->parent;
	}
#if PHP_VERSION_ID >= 80300
	/* PHP 8.3 throws DateObjectError, naming the object's own class (ext/date's
	 * "more appropriate exceptions" RFC). */
	zend_class_entry *date_error = zend_hash_str_find_ptr(CG(class_table), "dateobjecterror", sizeof("dateobjecterror") - 1);
	if (base == ce) {
		zend_throw_exception_ex(date_error ? date_error : zend_ce_error, 0,
			"Object of type %s has not been correctly initialized by calling parent::__construct() in its constructor", ZSTR_VAL(ce->name));
	} else {
		zend_throw_exception_ex(date_error ? date_error : zend_ce_error, 0,
			"Object of type %s (inheriting %s) has not been correctly initialized by calling parent::__construct() in its constructor",
			ZSTR_VAL(ce->name), ZSTR_VAL(base->name));
	}
#else
	zend_throw_exception_ex(zend_ce_error, 0, "The %s object has not been correctly initialized by its constructor", ZSTR_VAL(base->name));
#endif
}

static zend_result check_class(gctx *c, zend_class_entry *ce, const rv_path *path)
{
	if (ce == zend_ce_closure) {
		return refuse(c, path, "a Closure", NULL);
	}
	if (ce == zend_ce_generator) {
		return refuse(c, path, "a Generator", NULL);
	}
	if (ce->ce_flags & ZEND_ACC_ANON_CLASS) {
		/* Flagged not serializable for serialize()'s sake only: its name
		 * finds it where OPcache cached its file (closure.c). */
		char why[512];
		const char *refusal = rv_anonymous_class_refusal(c->ctx, ce, why, sizeof(why));
		if (!refusal) {
			return SUCCESS;
		}
		c->ctx->refused_anonymous = ce;
		return refuse(c, path, refusal, NULL);
	}
	if (ce->ce_flags & ZEND_ACC_NOT_SERIALIZABLE) {
		return refuse(c, path, "an instance of", ZSTR_VAL(ce->name));
	}
	return SUCCESS;
}

/* --- how an object is encoded --------------------------------------------------- */

/* A heap's items in extraction order, taken from a clone:
 * ['flags' => extract flags (queues), 'items' => [item | [data, priority]]]. */
static zend_result heap_items(zend_object *obj, zval *state)
{
	bool queue = instanceof_function(obj->ce, spl_ce_SplPriorityQueue);
	zend_object *clone = obj->handlers->clone_obj(obj);
	if (EG(exception)) {
		if (clone) {
			OBJ_RELEASE(clone);
		}
		return FAILURE;
	}
	zval items, rv, arg;
	array_init(state);
	array_init(&items);
	if (queue) {
		zend_call_method_with_0_params(obj, obj->ce, NULL, "getextractflags", &rv);
		add_assoc_zval(state, "flags", &rv);
		ZVAL_LONG(&arg, 3); /* SplPriorityQueue::EXTR_BOTH */
		zend_call_method_with_1_params(clone, clone->ce, NULL, "setextractflags", NULL, &arg);
	}
	while (!EG(exception)) {
		zend_call_method_with_0_params(clone, clone->ce, NULL, "valid", &rv);
		if (Z_TYPE(rv) != IS_TRUE || EG(exception)) {
			break;
		}
		zend_call_method_with_0_params(clone, clone->ce, NULL, "extract", &rv);
		if (EG(exception)) {
			break;
		}
		if (queue && Z_TYPE(rv) == IS_ARRAY) {
			zval pair, *d = zend_hash_str_find(Z_ARRVAL(rv), "data", 4), *p = zend_hash_str_find(Z_ARRVAL(rv), "priority", 8);
			array_init_size(&pair, 2);
			Z_TRY_ADDREF_P(d);
			Z_TRY_ADDREF_P(p);
			add_next_index_zval(&pair, d);
			add_next_index_zval(&pair, p);
			zval_ptr_dtor(&rv);
			ZVAL_COPY_VALUE(&rv, &pair);
		}
		add_next_index_zval(&items, &rv);
	}
	OBJ_RELEASE(clone);
	add_assoc_zval(state, "items", &items);
	return EG(exception) ? FAILURE : SUCCESS;
}

/* Where a name __sleep() returned is in the object's properties table:
 * FOUND, UNINITIALIZED (a typed property never set, left out silently),
 * or ABSENT. */
typedef enum { SLEEP_FOUND, SLEEP_UNINITIALIZED, SLEEP_ABSENT } sleep_lookup;

static sleep_lookup sleep_find(zend_object *obj, HashTable *props, zend_string *key)
{
	zval *v = props ? zend_hash_find(props, key) : NULL;
	if (!v) {
		return SLEEP_ABSENT;
	}
	if (Z_TYPE_P(v) == IS_INDIRECT) {
		v = Z_INDIRECT_P(v);
		if (Z_TYPE_P(v) == IS_UNDEF) {
			return zend_get_typed_property_info_for_slot(obj, v) ? SLEEP_UNINITIALIZED : SLEEP_ABSENT;
		}
	}
	return SLEEP_FOUND;
}

/* COLLECT: the properties __sleep() names, as serialize() finds them: each
 * name as given (a public or dynamic property, or a name already mangled),
 * else as a private property of the object's class, else as a protected
 * one; with serialize()'s warnings for a name that is not a string, found
 * twice, or not found. *keys: the mangled names found, in order, once each. */
static zend_result sleep_keys(zend_object *obj, HashTable *names, zval *keys)
{
	zend_class_entry *ce = obj->ce;
	zval zobj, *name_val;
	ZVAL_OBJ(&zobj, obj);
	array_init_size(keys, zend_hash_num_elements(names));
	HashTable *props = zend_get_properties_for(&zobj, ZEND_PROP_PURPOSE_SERIALIZE);
	HashTable seen;
	zend_hash_init(&seen, zend_hash_num_elements(names), NULL, NULL, 0);
	zend_result rc = SUCCESS;
	ZEND_HASH_FOREACH_VAL_IND(names, name_val) {
		ZVAL_DEREF(name_val);
		if (Z_TYPE_P(name_val) != IS_STRING) {
			php_error_docref(NULL, E_WARNING, "%s::__sleep() should return an array only containing the names of instance-variables to serialize",
				ZSTR_VAL(ce->name));
		}
		zend_string *tmp;
		zend_string *name = zval_get_tmp_string(name_val, &tmp);
		if (EG(exception)) {
			zend_tmp_string_release(tmp);
			rc = FAILURE;
			break;
		}
		/* The mangled names are made only when the plain one is not found:
		 * most properties __sleep() names are public. */
		zend_string *candidates[3] = { zend_string_copy(name), NULL, NULL };
		sleep_lookup found = SLEEP_ABSENT;
		for (int i = 0; i < 3 && found == SLEEP_ABSENT; i++) {
			if (!candidates[i]) {
				candidates[i] = zend_mangle_property_name(i == 1 ? ZSTR_VAL(ce->name) : "*", i == 1 ? ZSTR_LEN(ce->name) : 1,
					ZSTR_VAL(name), ZSTR_LEN(name), ce->type & ZEND_INTERNAL_CLASS);
			}
			found = sleep_find(obj, props, candidates[i]);
			if (found != SLEEP_FOUND) {
				continue;
			}
			if (!zend_hash_add_empty_element(&seen, candidates[i])) {
				/* A notice until PHP 8.3 made serialize()'s notices warnings. */
				php_error_docref(NULL, PHP_VERSION_ID >= 80300 ? E_WARNING : E_NOTICE,
					"\"%s\" is returned from __sleep() multiple times", ZSTR_VAL(name));
				continue;
			}
			add_next_index_str(keys, zend_string_copy(candidates[i]));
		}
		if (found == SLEEP_ABSENT) {
			php_error_docref(NULL, E_WARNING, "\"%s\" returned as member variable from __sleep() but does not exist", ZSTR_VAL(name));
		}
		for (int i = 0; i < 3; i++) {
			if (candidates[i]) {
				zend_string_release(candidates[i]);
			}
		}
		zend_tmp_string_release(tmp);
		if (EG(exception)) {
			/* A warning turned into an exception by an error handler. */
			rc = FAILURE;
			break;
		}
	} ZEND_HASH_FOREACH_END();
	zend_hash_destroy(&seen);
	if (props) {
		zend_release_properties(props);
	}
	return rc;
}

static bool std_properties(zend_object *obj);

/* The object's class returned the names the last __sleep() did, from the
 * same literal, and the properties they select are set (see gctx.sleep). */
static bool same_names(HashTable *a, HashTable *b)
{
	if (a == b) {
		return true;
	}
	if (zend_hash_num_elements(a) != zend_hash_num_elements(b) || !HT_IS_PACKED(a) || !HT_IS_PACKED(b)
		|| !HT_IS_WITHOUT_HOLES(a) || !HT_IS_WITHOUT_HOLES(b)) {
		return false;
	}
	for (uint32_t i = 0; i < a->nNumUsed; i++) {
		zval *x = &a->arPacked[i], *y = &b->arPacked[i];
		if (Z_TYPE_P(x) != IS_STRING || Z_TYPE_P(y) != IS_STRING || Z_STR_P(x) != Z_STR_P(y)) {
			return false;
		}
	}
	return true;
}

static bool sleep_as_last(const gctx *c, zend_object *obj, HashTable *names)
{
	if (c->sleep.ce != obj->ce || !same_names(Z_ARR(c->sleep.names), names) || !std_properties(obj)) {
		return false;
	}
	for (uint32_t i = 0; i < c->sleep.n; i++) {
		if (Z_TYPE_P(OBJ_PROP_NUM(obj, c->sleep.slots[i])) == IS_UNDEF) {
			return false;
		}
	}
	return true;
}

static void remember_sleep(gctx *c, zend_object *obj, zval *returned, zval *keys)
{
	HashTable *names = Z_ARRVAL_P(returned);
	uint32_t n = zend_hash_num_elements(Z_ARRVAL_P(keys));
	if (n != zend_hash_num_elements(names) || n > SLEEP_NAMES || !std_properties(obj)) {
		return;
	}
	zend_class_entry *ce = obj->ce;
	int32_t slots[SLEEP_NAMES];
	uint32_t i = 0;
	zval *key;
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(keys), key) {
		slots[i] = -1;
		for (int s = 0; s < ce->default_properties_count; s++) {
			zend_property_info *info = ce->properties_info_table[s];
			if (info && zend_string_equals(info->name, Z_STR_P(key))) {
				slots[i] = s;
				break;
			}
		}
		if (slots[i] < 0) {
			return;      /* a dynamic property: looked up each time */
		}
		i++;
	} ZEND_HASH_FOREACH_END();
	zval_ptr_dtor(&c->sleep.keys);
	zval_ptr_dtor(&c->sleep.names);
	ZVAL_COPY(&c->sleep.keys, keys);
	ZVAL_COPY(&c->sleep.names, returned);
	c->sleep.ce = ce;
	c->sleep.n = n;
	memcpy(c->sleep.slots, slots, sizeof(int32_t) * n);
}

/* COLLECT: runs the object's hook and keeps what it returned (under
 * BG(serialize_lock): rv_plan_value()). */
static void hold_object(gctx *c, zend_object *obj);

/* The object's hook is PHP code of the application's (which may write
 * any ArrayObject), not one of PHP's own that only reads its object. */
static bool hook_runs_user_code(const zend_object *obj, const rv_class_profile *p)
{
	switch (p->enc) {
		case RV_ENC_UNSERIALIZE:
			return obj->ce->__serialize->type == ZEND_USER_FUNCTION;
		case RV_ENC_HEAP:
			/* A subclass's compare() runs as the items are extracted. */
			return obj->ce->type == ZEND_USER_CLASS;
		case RV_ENC_SLEEP:
		case RV_ENC_SERIALIZED:
			return true;
		default:
			return false;
	}
}

/* The storage an ArrayObject's or ArrayIterator's state holds (as
 * __serialize() gives it: flags, storage, members, ...), or NULL for an
 * object of another class. */
static zval *spl_storage(zend_object *obj, zval *state)
{
	if (!instanceof_function(obj->ce, spl_ce_ArrayObject) && !instanceof_function(obj->ce, spl_ce_ArrayIterator)) {
		return NULL;
	}
	return zend_hash_index_find(Z_ARRVAL_P(state), 1);
}

/* Such a state holds its storage itself: note it, to be copied before a
 * hook that may write it runs. */
static void note_spl_storage(gctx *c, zend_object *obj, zval *storage)
{
	if (Z_TYPE_P(storage) != IS_ARRAY || (GC_FLAGS(Z_ARR_P(storage)) & GC_IMMUTABLE)) {
		return;
	}
	/* A hook that writes it while a walk holds it (the walk of that
	 * storage) writes it in place, as ArrayObject does whoever holds it:
	 * a debug build's assertion would abort there. */
	HT_ALLOW_COW_VIOLATION(Z_ARR_P(storage));
	if (c->nuncopied == c->uncopied_cap) {
		c->uncopied_cap = MAX(c->uncopied_cap * 2, 8);
		c->uncopied = safe_erealloc(c->uncopied, c->uncopied_cap, sizeof(uint32_t), 0);
	}
	c->uncopied[c->nuncopied++] = obj->handle;
}

/* Before a hook that may write an ArrayObject runs: the states noted
 * (note_spl_storage()) get copies of the storages they hold. A walk may
 * be reading the state or the storage: it holds them, and reads on in
 * what it holds. */
static void copy_spl_storages(gctx *c)
{
	uint32_t n = c->nuncopied;
	c->nuncopied = 0;
	for (uint32_t i = 0; i < n; i++) {
		zval *state = zend_hash_index_find(tbl(c, STATES), c->uncopied[i]);
		if (!state || Z_TYPE_P(state) != IS_ARRAY) {
			continue;
		}
		SEPARATE_ARRAY(state);
		zval *storage = zend_hash_index_find(Z_ARRVAL_P(state), 1);
		if (!storage || Z_TYPE_P(storage) != IS_ARRAY) {
			continue;
		}
		zend_array *copy = zend_array_dup(Z_ARR_P(storage));
		zval_ptr_dtor(storage);
		ZVAL_ARR(storage, copy);
	}
}


static zend_result run_hook(gctx *c, zend_object *obj, rv_class_profile *p, const rv_path *path);

/* A store's refusals are UserCache's (rv_context.code_refused,
 * spl_object_storage_refused), not those of what the application's hook
 * calls: a Resident\Cache::store() a __serialize() makes stores what
 * Resident\Cache stores. */
static zend_result collect_hook(gctx *c, zend_object *obj, rv_class_profile *p, const rv_path *path)
{
	bool code_refused = c->ctx->code_refused, spl_refused = c->ctx->spl_object_storage_refused;
	bool growth_refused = c->ctx->late_growth_refused;
	c->ctx->code_refused = c->ctx->spl_object_storage_refused = c->ctx->late_growth_refused = false;
	zend_result rc = run_hook(c, obj, p, path);
	c->ctx->code_refused = code_refused;
	c->ctx->spl_object_storage_refused = spl_refused;
	c->ctx->late_growth_refused = growth_refused;
	return rc;
}

static zend_result run_hook(gctx *c, zend_object *obj, rv_class_profile *p, const rv_path *path)
{
	rv_encoding enc = p->enc;
	zval state, zobj;
	ZVAL_UNDEF(&state);
	ZVAL_OBJ(&zobj, obj);
	hold_object(c, obj);
	if (c->nuncopied && hook_runs_user_code(obj, p)) {
		copy_spl_storages(c);
	}
	switch (enc) {
		case RV_ENC_UNSERIALIZE:
			zend_call_known_instance_method_with_0_params(obj->ce->__serialize, obj, &state);
			if (EG(exception)) {
				zval_ptr_dtor(&state);
				return FAILURE;
			}
			if (Z_TYPE(state) != IS_ARRAY) {
				zend_type_error("%s::__serialize() must return an array", ZSTR_VAL(obj->ce->name));
				zval_ptr_dtor(&state);
				return FAILURE;
			}
			zval *storage = spl_storage(obj, &state);
			if (storage && Z_TYPE_P(storage) == IS_OBJECT && c->spl_object_storage_refused) {
				/* rv_context.spl_object_storage_refused */
				zend_type_error("The state of the %s object cannot be stored in the user cache", ZSTR_VAL(obj->ce->name));
				zval_ptr_dtor(&state);
				return FAILURE;
			}
			if (storage) {
				note_spl_storage(c, obj, storage);
			}
			break;
		case RV_ENC_SLEEP: {
			zval retval;
			/* The method found once per class and request (p->sleep_fn). */
			zend_call_method_with_0_params(obj, obj->ce, &p->sleep_fn, "__sleep", &retval);
			if (EG(exception)) {
				zval_ptr_dtor(&retval);
				return FAILURE;
			}
			if (Z_TYPE(retval) != IS_ARRAY) {
				/* serialize() notices and stores null; refuse instead. */
				zend_type_error("%s::__sleep() must return an array", ZSTR_VAL(obj->ce->name));
				zval_ptr_dtor(&retval);
				return FAILURE;
			}
			if (sleep_as_last(c, obj, Z_ARRVAL(retval))) {
				ZVAL_COPY(&state, &c->sleep.keys);
				zval_ptr_dtor(&retval);
				break;
			}
			zend_result rc = sleep_keys(obj, Z_ARRVAL(retval), &state);
			if (rc == SUCCESS && !EG(exception)) {
				remember_sleep(c, obj, &retval, &state);
			}
			zval_ptr_dtor(&retval);
			if (rc == FAILURE) {
				zval_ptr_dtor(&state);
				return FAILURE;
			}
			break;
		}
		case RV_ENC_SERIALIZED: {
			php_serialize_data_t var_hash;
			smart_str buf = {0};
			PHP_VAR_SERIALIZE_INIT(var_hash);
			php_var_serialize(&buf, &zobj, &var_hash);
			PHP_VAR_SERIALIZE_DESTROY(var_hash);
			if (EG(exception)) {
				smart_str_free(&buf);
				return FAILURE;
			}
			ZVAL_STR(&state, smart_str_extract(&buf));
			break;
		}
		case RV_ENC_HEAP:
			if (heap_items(obj, &state) == FAILURE) {
				zval_ptr_dtor(&state);
				return FAILURE;
			}
			break;
		default:
			return SUCCESS;
	}
	c->hooks_run++;
	zend_hash_index_update(tbl(c, STATES), obj->handle, &state);
	return SUCCESS;
}

/* --- properties ---------------------------------------------------------------------- */

/* The properties an object is stored with: declared slots in order, then
 * dynamic ones (what serialize() sees), or the __sleep() selection. */
#define PROPS_INLINE 24

typedef struct prop_list {
	uint32_t n;
	uint32_t cap;
	zend_string **names;
	zval **values;
	int32_t *slots;         /* declared slot, or -1 */
	bool plain;             /* all declared slots, no dynamic: the shape is the class's */
	bool slotted;           /* slots[] are known (read straight from the object) */
	bool kept;              /* values[] are a __sleep() selection's, kept (keep_sleep_selection()) */
	zval *state;            /* a __sleep() selection's: its STATES entry, until STATES changes */
	uint32_t left_out;      /* declared slots not listed: they hold their defaults
	                         * (plain objects whose class profile keeps a shape) */
	HashTable *release;     /* a properties table to give back */
	zend_string **owned;    /* names made here (integer keys) */
	uint32_t nowned;
	/* Room for the usual object, so listing it allocates nothing. */
	zend_string *names_inline[PROPS_INLINE];
	zval *values_inline[PROPS_INLINE];
	int32_t slots_inline[PROPS_INLINE];
} prop_list;

static void props_init(prop_list *l)
{
	memset(l, 0, offsetof(prop_list, names_inline));
	l->cap = PROPS_INLINE;
	l->names = l->names_inline;
	l->values = l->values_inline;
	l->slots = l->slots_inline;
}

static zend_never_inline void props_grow(prop_list *l)
{
	uint32_t cap = l->cap * 2;
	if (l->names == l->names_inline) {
		l->names = emalloc(cap * sizeof(*l->names));
		l->values = emalloc(cap * sizeof(*l->values));
		l->slots = emalloc(cap * sizeof(*l->slots));
		memcpy(l->names, l->names_inline, sizeof(l->names_inline));
		memcpy(l->values, l->values_inline, sizeof(l->values_inline));
		memcpy(l->slots, l->slots_inline, sizeof(l->slots_inline));
	} else {
		l->names = erealloc(l->names, cap * sizeof(*l->names));
		l->values = erealloc(l->values, cap * sizeof(*l->values));
		l->slots = erealloc(l->slots, cap * sizeof(*l->slots));
	}
	l->cap = cap;
}

static zend_always_inline void props_add(prop_list *l, zend_string *name, zval *value, int32_t slot)
{
	if (UNEXPECTED(l->n == l->cap)) {
		props_grow(l);
	}
	l->names[l->n] = name;
	l->values[l->n] = value;
	l->slots[l->n] = slot;
	l->n++;
}

/* A collecting PLAN of a late round (collect_late()) for UserCache
 * (late_growth_refused): an array in a property must not have grown by the
 * time its walk is done, which only a hook run meanwhile can do, a late
 * one (the others ran in the first round). */
static zend_always_inline bool growth_watched(const gctx *c)
{
	return c->late_growth_refused && c->late_rounds && c->collecting;
}

/* Whether the property l->values[i] of obj, an array of `before` elements
 * when its walk began, holds more now. The walk holds the properties
 * table it reads (l->release), so a hook's write to a dynamic property
 * separated it: the object's table then has what the hook left. */
static bool property_grew(zend_object *obj, const prop_list *l, uint32_t i, uint32_t before)
{
	zval *now = l->values[i];
	if (l->release && obj->properties && obj->properties != l->release) {
		now = zend_hash_find(obj->properties, l->names[i]);
		if (!now) {
			return false;
		}
	}
	ZVAL_DEINDIRECT(now);
	ZVAL_DEREF(now);
	return Z_TYPE_P(now) == IS_ARRAY && zend_hash_num_elements(Z_ARR_P(now)) > before;
}

static zend_always_inline int walk_member(gctx *c, zval *dst, zval *val, zend_array *parent, bool guarded, const rv_path *path);

/* The walk of property i of obj where growth_watched(), refused if it was
 * an array that a hook run meanwhile grew. */
static zend_never_inline int walk_property_watched(gctx *c, zval *dst, zend_object *obj, const prop_list *l, uint32_t i, bool guarded,
                                                   const rv_path *path)
{
	zval *v = l->values[i];
	bool array = Z_TYPE_P(v) == IS_ARRAY;
	uint32_t before = array ? zend_hash_num_elements(Z_ARR_P(v)) : 0;
	uint32_t hooks_run = c->hooks_run;
	int r = walk_member(c, dst, v, NULL, guarded, path);
	if (r >= 0 && array && c->hooks_run != hooks_run && property_grew(obj, l, i, before)) {
		throw_changed(c);
		return -1;
	}
	return r;
}

static void props_free(prop_list *l)
{
	if (l->names != l->names_inline) {
		efree(l->names);
		efree(l->values);
		efree(l->slots);
	}
	for (uint32_t i = 0; i < l->nowned; i++) {
		zend_string_release(l->owned[i]);
	}
	if (l->owned) {
		efree(l->owned);
	}
	if (l->release) {
		zend_release_properties(l->release);
	}
}

static bool std_properties(zend_object *obj)
{
	return obj->handlers->get_properties == zend_std_get_properties && !obj->handlers->get_properties_for;
}

/* The declared property holds the constant its class gives it by default
 * (null, a bool, a number, a string, or the default's own array). Such a
 * property is left out of the object's record: a fetch gets it from
 * instantiation, or from the shape's copy of the defaults if the class
 * changed since. */
static zend_always_inline bool holds_default(const rv_class_profile *p, const zval *defaults, int32_t slot, const zval *v)
{
	const zval *d = &defaults[slot];
	uint32_t type = Z_TYPE_P(v);
	if (type != Z_TYPE_P(d)) {
		return false;
	}
	if (type <= IS_TRUE) {
		return true;
	}
	/* The same bits: a number bit for bit (-0.0 and NaN payloads come back
	 * as stored), the same string, the same array. No branch per type:
	 * properties of every type follow one another. */
	if (v->value.lval == d->value.lval) {
		return type <= IS_STRING
			|| (type == IS_ARRAY && Z_TYPE(((const rv_shape *)p->image)->defaults[slot]) == IS_ARRAY);
	}
	return type == IS_STRING && zend_string_equal_content(Z_STR_P(v), Z_STR_P(d));
}

/* Declared slots in order, then dynamic properties, read straight from
 * the object (what serialize() sees for a plain object). */
static void raw_props(zend_object *obj, prop_list *l, const rv_class_profile *p, uint32_t native)
{
	zend_class_entry *ce = obj->ce;
	/* Only a shape laid out by the class profile keeps the defaults that
	 * a property left out needs if the class changes. */
	const zval *defaults = p && p->image ? CE_DEFAULT_PROPERTIES_TABLE(ce) : NULL;
	l->plain = true;
	l->slotted = true;
	/* Locals: the stores into l would otherwise make the compiler read
	 * them from the class again on every turn. */
	zend_property_info **infos = ce->properties_info_table;
	int count = ce->default_properties_count;
	for (int i = 0; i < count; i++) {
		zend_property_info *info = infos[i];
		zval *v = OBJ_PROP_NUM(obj, i);
		if (!info || Z_TYPE_P(v) == IS_UNDEF) {
			l->plain = false;
			continue;
		}
		if (defaults && holds_default(p, defaults, i, v)) {
			l->left_out++;
			continue;
		}
		props_add(l, info->name, v, i);
	}
	if (obj->properties) {
		zend_string *key;
		zval *v;
		ZEND_HASH_FOREACH_STR_KEY_VAL(obj->properties, key, v) {
			if (Z_TYPE_P(v) == IS_INDIRECT || !key || (native && rv_native_state_property(native, key))) {
				continue;
			}
			l->plain = false;
			props_add(l, key, v, -1);
		} ZEND_HASH_FOREACH_END();
	}
	if (!l->plain && l->left_out) {
		/* Not the class's shape after all: list every property. */
		l->n = 0;
		l->left_out = 0;
		raw_props(obj, l, NULL, native);
	}
}

/* Where the i-th listed property is in the object's shape. */
static zend_always_inline uint32_t shape_pos(const prop_list *l, uint32_t i)
{
	return l->left_out ? (uint32_t)l->slots[i] : i;
}

/* The record lists only the properties present, with a mask of them
 * (RV_OBJECT_PACKED). Else it has a value or UNDEF for each in the shape,
 * which is where the i-th listed property goes. */
static zend_always_inline bool packed(const prop_list *l)
{
	return l->left_out && l->n + l->left_out <= RV_PACKED_MAX;
}

static zend_result props_of(gctx *c, zend_object *obj, const rv_class_profile *p, bool raw, prop_list *l)
{
	props_init(l);
	zval zobj;
	ZVAL_OBJ(&zobj, obj);
	if (p->enc == RV_ENC_SLEEP) {
		/* The names sleep_keys() found, each read again now, unless their
		 * values were kept. */
		zval *keys = zend_hash_index_find(tbl(c, STATES), obj->handle);
		if (!keys) {
			return changed(c);
		}
		l->state = keys;
		if (Z_TYPE_P(keys) == IS_PTR) {
			sleep_values *s = Z_PTR_P(keys);
			for (uint32_t i = 0; i < s->n; i++) {
				props_add(l, s->names[i], &s->values[i], -1);
			}
			l->kept = true;
			return SUCCESS;
		}
		if (Z_TYPE(c->sleep.keys) == IS_ARRAY && Z_ARR_P(keys) == Z_ARR(c->sleep.keys) && obj->ce == c->sleep.ce
			&& std_properties(obj)) {
			/* The selection of gctx.sleep: its declared slots, read where
			 * they are (set when COLLECT chose it, unless changed since). */
			uint32_t i = 0;
			zval *key;
			ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(keys), key) {
				zval *v = OBJ_PROP_NUM(obj, c->sleep.slots[i++]);
				if (Z_TYPE_P(v) != IS_UNDEF) {
					props_add(l, Z_STR_P(key), v, -1);
				}
			} ZEND_HASH_FOREACH_END();
			return SUCCESS;
		}
		HashTable *props = zend_get_properties_for(&zobj, ZEND_PROP_PURPOSE_SERIALIZE);
		l->release = props;
		zval *key;
		ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(keys), key) {
			zval *v = props ? zend_hash_find(props, Z_STR_P(key)) : NULL;
			if (v && Z_TYPE_P(v) == IS_INDIRECT) {
				v = Z_INDIRECT_P(v);
			}
			if (v && Z_TYPE_P(v) != IS_UNDEF) {
				props_add(l, Z_STR_P(key), v, -1);
			}
		} ZEND_HASH_FOREACH_END();
		return SUCCESS;
	}
	if (raw || std_properties(obj)) {
		raw_props(obj, l, p, p ? p->native : RV_NATIVE_NONE);
		return SUCCESS;
	}
	HashTable *props = zend_get_properties_for(&zobj, ZEND_PROP_PURPOSE_SERIALIZE);
	l->release = props;
	if (props) {
		zend_string *key;
		zend_ulong idx;
		zval *v;
		ZEND_HASH_FOREACH_KEY_VAL(props, idx, key, v) {
			if (Z_TYPE_P(v) == IS_INDIRECT) {
				v = Z_INDIRECT_P(v);
			}
			if (Z_TYPE_P(v) == IS_UNDEF) {
				continue;
			}
			if (!key) {
				/* Property names are strings; integer keys become them. */
				key = zend_long_to_str((zend_long)idx);
				l->owned = erealloc(l->owned, (l->nowned + 1) * sizeof(zend_string *));
				l->owned[l->nowned++] = key;
			}
			props_add(l, key, v, -1);
		} ZEND_HASH_FOREACH_END();
	}
	return SUCCESS;
}

#define KEPT_CHUNK 4096

static void *kept_alloc(gctx *c, size_t size)
{
	size = ZEND_MM_ALIGNED_SIZE(size);
	if ((size_t)(c->kept_end - c->kept_cur) < size) {
		size_t room = MAX(size, KEPT_CHUNK - sizeof(void *));
		void **chunk = emalloc(sizeof(void *) + room);
		*chunk = c->kept_chunks;
		c->kept_chunks = chunk;
		c->kept_cur = (char *)(chunk + 1);
		c->kept_end = c->kept_cur + room;
	}
	void *p = c->kept_cur;
	c->kept_cur += size;
	return p;
}

/* Right after __sleep() ran: the properties it named (l), with the values
 * they have now, become the object's state (STATES), and l reads them
 * there. A later hook may clear, replace or write a property it named
 * (the object held in it may), and serialize() would have written the
 * values already. A reference nobody else holds is a value, as the walk
 * takes it. */
static void keep_sleep_selection(gctx *c, prop_list *l)
{
	zval *keys = l->state;
	if (l->kept || !keys || Z_TYPE_P(keys) != IS_ARRAY) {
		return;
	}
	sleep_values *s = kept_alloc(c, sizeof(sleep_values) + (sizeof(zval) + sizeof(zend_string *)) * l->n);
	s->n = l->n;
	s->values = (zval *)(s + 1);
	s->names = (zend_string **)(s->values + l->n);
	for (uint32_t k = 0; k < l->n; k++) {
		zval *v = l->values[k];
		if (Z_TYPE_P(v) == IS_REFERENCE && Z_REFCOUNT_P(v) == 1) {
			v = Z_REFVAL_P(v);
		}
		ZVAL_COPY(&s->values[k], v);
		s->names[k] = l->names[k];
		l->values[k] = &s->values[k];
	}
	/* The names are the keys' strings: s holds them. */
	ZVAL_COPY_VALUE(&s->keys, keys);
	ZVAL_PTR(keys, s);
	l->kept = true;
}

/* Carbon's translator object: a direct copy keeps its locale name instead,
 * as Carbon's own __serialize() does. */
static zend_always_inline bool is_translator(const rv_class_profile *p, const prop_list *l, uint32_t i, zval *value)
{
	ZVAL_DEREF(value);
	return p->translator_slot >= 0 && l->slotted && l->slots[i] == p->translator_slot && Z_TYPE_P(value) == IS_OBJECT;
}

/* COLLECT, direct classes: what stands in for a property (Carbon's
 * translator -> its locale), kept in states. */
static zend_result collect_direct(gctx *c, zend_object *obj, const rv_class_profile *p, prop_list *l)
{
	for (uint32_t i = 0; i < l->n; i++) {
		if (is_translator(p, l, i, l->values[i])) {
			zval *v = l->values[i];
			ZVAL_DEREF(v);
			if (c->nuncopied) {
				copy_spl_storages(c);
			}
			zval locale;
			zend_call_method_with_0_params(Z_OBJ_P(v), Z_OBJCE_P(v), NULL, "getlocale", &locale);
			c->hooks_run++;
			if (EG(exception)) {
				return FAILURE;
			}
			zend_hash_index_update(tbl(c, STATES), obj->handle, &locale);
		}
	}
	return SUCCESS;
}

/* --- shapes ------------------------------------------------------------------------- */

/* Objects of one class with every declared slot set share a shape keyed by
 * class and mode; others are keyed by their property names too. */
static zend_string *shape_key(zend_object *obj, uint32_t mode, const prop_list *l)
{
	smart_str key = {0};
	smart_str_append_long(&key, (zend_long)(uintptr_t)obj->ce);
	smart_str_appendc(&key, ':');
	smart_str_append_long(&key, mode);
	for (uint32_t i = 0; i < l->n; i++) {
		smart_str_appendc(&key, '\0');
		smart_str_append(&key, l->names[i]);
	}
	smart_str_0(&key);
	return smart_str_extract(&key);
}

static bool same_as_last_shape(const gctx *c, zend_class_entry *ce, uint32_t mode, const prop_list *l)
{
	if (c->last.gen != c->gen || c->last.ce != ce || c->last.mode != mode || c->last.n != l->n || c->last.slotted != l->slotted) {
		return false;
	}
	for (uint32_t i = 0; i < l->n; i++) {
		if ((c->last.names[i] != l->names[i] && !zend_string_equal_content(c->last.names[i], l->names[i]))
			|| (l->slotted && c->last.slots[i] != l->slots[i])) {
			return false;
		}
	}
	return true;
}

static void remember_last_shape(gctx *c, zend_class_entry *ce, uint32_t mode, const prop_list *l, rv_shape *shape)
{
	if (l->n > LAST_SHAPE_NAMES) {
		c->last.gen = 0;
		return;
	}
	c->last.gen = c->gen;
	c->last.ce = ce;
	c->last.mode = mode;
	c->last.n = l->n;
	c->last.slotted = l->slotted;
	c->last.shape = shape;
	memcpy(c->last.names, l->names, sizeof(zend_string *) * l->n);
	if (l->slotted) {
		memcpy(c->last.slots, l->slots, sizeof(int32_t) * l->n);
	}
}

static rv_shape *shape_of(gctx *c, zend_object *obj, rv_class_profile *p, const prop_list *l)
{
	uint32_t mode = p->mode;
	if (mode != RV_OBJ_PROPS || obj->ce->destructor) {
		/* A destructor too: the graph holds a lazily restored object
		 * until the request ends, so it would run later. */
		c->runs_code = true;
	}
	if (l->plain && p->image) {
		/* The class's own shape, laid out once for the request. */
		if (p->walk_gen != c->gen) {
			p->walk_gen = c->gen;
			if (c->pass == PLAN) {
				c->size += p->image_size;
				p->walk_shape = NULL;
			} else {
				p->walk_shape = rv_class_shape_copy(p, &c->w);
			}
		}
		return p->walk_shape;
	}
	zend_string *key = NULL;
	zval *known;
	zend_ulong ikey = (zend_ulong)(uintptr_t)obj->ce ^ mode;
	if (l->plain) {
		known = zend_hash_index_find(tbl(c, PLAIN_SHAPES), ikey);
	} else {
		if (same_as_last_shape(c, obj->ce, mode, l)) {
			return c->last.shape;
		}
		key = shape_key(obj, mode, l);
		known = zend_hash_find(tbl(c, SHAPES), key);
	}
	if (known) {
		if (key) {
			zend_string_release(key);
			remember_last_shape(c, obj->ce, mode, l, Z_PTR_P(known));
		}
		return Z_PTR_P(known);
	}
	uint32_t n = l->n ? l->n : 1;
	rv_shape *shape = take(c, sizeof(rv_shape));
	zend_string **names = take(c, sizeof(zend_string *) * n);
	int32_t *slots = take(c, sizeof(int32_t) * n);
	uint8_t *flags = take(c, n);
	zend_string *class_name = string_of(c, obj->ce->name);
	zend_string *lc_name = string_of(c, lower_name(c, obj->ce->name));
	for (uint32_t i = 0; i < l->n; i++) {
		zend_string *name = string_of(c, l->names[i]);
		if (names) {
			names[i] = name;
			slots[i] = l->slotted ? l->slots[i] : -1;
			flags[i] = 0;
		}
	}
	if (shape) {
		shape->class_name = class_name;
		shape->lc_class_name = lc_name;
		shape->nprops = l->n;
		shape->mode = mode;
		shape->layout = l->slotted ? rv_class_layout(c->ctx, obj->ce) : 0;
		shape->names = names;
		shape->slots = slots;
		shape->prop_flags = flags;
		shape->defaults = NULL;
	}
	zval ptr;
	ZVAL_PTR(&ptr, shape);
	if (key) {
		zend_hash_add_new(tbl(c, SHAPES), key, &ptr);
		zend_string_release(key);
		remember_last_shape(c, obj->ce, mode, l, shape);
	} else {
		zend_hash_index_add_new(tbl(c, PLAIN_SHAPES), ikey, &ptr);
	}
	return shape;
}

/* --- nodes ------------------------------------------------------------------------------ */

/* Objects of the class have a hook that COLLECT runs. */
static bool runs_hook(const rv_class_profile *p)
{
	return p->enc == RV_ENC_UNSERIALIZE || p->enc == RV_ENC_SLEEP || p->enc == RV_ENC_SERIALIZED || p->enc == RV_ENC_HEAP;
}

/* The object needs COLLECT to run PHP code (a hook, Carbon's getLocale())
 * before it can be planned. */
static bool needs_collect(zend_object *obj, const rv_class_profile *p)
{
	if (runs_hook(p)) {
		return true;
	}
	if (p->translator_slot >= 0) {
		zval *v = OBJ_PROP_NUM(obj, p->translator_slot);
		ZVAL_DEREF(v);
		return Z_TYPE_P(v) == IS_OBJECT;
	}
	return false;
}

/* flags: RV_OBJECT_*, with room made for what they add. Returns the
 * rv_object_ext, if any. */
static rv_object_ext *init_object_node(gctx *c, rv_object_node *o, uint32_t id, rv_shape *shape,
                                       uint32_t flags, uint32_t native, const void *state)
{
	o->n.kind = RV_NODE_OBJECT | flags;
	o->n.id = id;
	o->shape = shape;
	node_at(c, id, o);
	rv_object_ext *x = rv_object_ext_of(o);
	if (!x) {
		return NULL;
	}
	x->native = native;
	x->_pad = 0;
	x->native_state = state;
	ZVAL_NULL(&x->data);
	Z_EXTRA(x->data) = 0;
	return x;
}

/* The k-th value of the record o. */
static zend_always_inline void record_prop(rv_object_node *o, uint32_t k, const zval *prop)
{
	/* Nothing written has flags in its type_info (see rv_object_node). */
	ZEND_ASSERT(Z_TYPE_INFO_P(prop) <= 0xff);
	rv_object_values(o)[k] = prop->value;
	rv_object_types(o)[k] = (uint8_t)Z_TYPE_INFO_P(prop);
}

/* serialize() checks properties for arrays met inside themselves (see
 * serialize_nulls_cycles) when it lists them from a table: __sleep()'s,
 * or one the object has built or handlers of its own give; not when it
 * reads a plain object's slots, nor for __serialize(). */
static zend_always_inline bool props_guarded(const zend_object *obj, rv_encoding enc)
{
	if (EXPECTED(!obj->properties && obj->handlers == &std_object_handlers && enc == RV_ENC_PROPS)) {
		return false;
	}
	return serialize_nulls_cycles && (enc == RV_ENC_SLEEP || (!obj->ce->__serialize && (obj->properties
		|| obj->handlers->get_properties_for || obj->handlers->get_properties != zend_std_get_properties)));
}

/* A Closure (closure.c): its code by reference, its $this and its static
 * and `use` variables as members of the graph. */
static int walk_closure(gctx *c, zval *dst, zend_object *obj, const rv_path *path)
{
	rv_closure_info info;
	char why[512];
	const char *refusal = rv_closure_inspect(c->ctx, obj, &info, why, sizeof(why));
	if (refusal) {
		refuse(c, path, refusal, NULL);
		return -1;
	}
	rv_closure_node *n = NULL;
	if (c->pass == COLLECT) {
		if (!collect_first(c, obj)) {
			return 1;
		}
	} else {
		bool first;
		uint32_t id = id_of(c, obj, &first);
		if (!first) {
			set_ptr(dst, c->pass == WRITE ? c->nodes[id] : NULL);
			return 1;
		}
		n = take(c, sizeof(rv_closure_node) + sizeof(zval) * info.nstatics);
		const zend_function *f = info.func;
		zend_string *file = f->type == ZEND_USER_FUNCTION && f->op_array.filename ? string_of(c, f->op_array.filename) : NULL;
		zend_string *function = (info.flags & RV_CLOSURE_FAKE) ? string_of(c, lower_name(c, f->common.function_name)) : NULL;
		zend_string *scope = info.scope ? string_of(c, info.scope->name) : NULL;
		zend_string *lc_scope = info.scope ? string_of(c, lower_name(c, info.scope->name)) : NULL;
		zend_string *called = scope, *lc_called = lc_scope;
		if (info.called != info.scope) {
			called = info.called ? string_of(c, info.called->name) : NULL;
			lc_called = info.called ? string_of(c, lower_name(c, info.called->name)) : NULL;
		}
		if (n) {
			memset(n, 0, sizeof(rv_closure_node));
			n->n.kind = RV_NODE_CLOSURE;
			n->n.id = id;
			n->flags = info.flags;
			n->map_ptr_need = info.map_ptr_need;
			n->code = info.code;
			n->print = info.print;
			n->stamp = info.stamp;
			n->file = file;
			n->function = function;
			n->scope = scope;
			n->lc_scope = lc_scope;
			n->called = called;
			n->lc_called = lc_called;
			ZVAL_UNDEF(&n->this_obj);
			n->nstatics = info.nstatics;
			n->keep_mask = info.keep_mask;
			n->ref_mask = info.ref_mask;
			memset(n->statics, 0, sizeof(zval) * info.nstatics);
			node_at(c, id, n);
		}
		set_ptr(dst, n);
	}
	if (++c->depth > RV_MAX_DEPTH || rv_stack_exhausted()) {
		too_deep(c);
		return -1;
	}
	int rc = 1;
	if (info.this_obj) {
		zval this_zv;
		ZVAL_OBJ(&this_zv, info.this_obj);
		rv_path here = { .up = path, .kind = RV_PATH_NAMED, .name = "->{the Closure's $this}" };
		if (walk(c, n ? &n->this_obj : NULL, &this_zv, &here) < 0) {
			rc = -1;
		}
	}
	for (uint32_t i = 0; i < info.nstatics && rc > 0; i++) {
		if (info.keep_mask & ((uint64_t)1 << i)) {
			continue;
		}
		Bucket *b = &info.statics->arData[i];
		zval *v = &b->val;
		ZVAL_DEREF(v);
		char name[300];
		snprintf(name, sizeof(name), "->{the Closure's $%s}", b->key ? ZSTR_VAL(b->key) : "?");
		rv_path here = { .up = path, .kind = RV_PATH_NAMED, .name = name };
		if (walk(c, n ? &n->statics[i] : NULL, v, &here) < 0) {
			rc = -1;
		}
	}
	c->depth--;
	return rc;
}

static int walk_object(gctx *c, zval *dst, zend_object *obj, const rv_path *path)
{
	if (UNEXPECTED(rv_is_shell(obj))) {
		/* Restored lazily and not used yet. Filling it may run PHP code
		 * (an autoloader), which has no place inside a write into a
		 * reservation: the planned way fills it first. */
		if (c->unplanned || rv_shell_fill(obj) == FAILURE) {
			return -1;
		}
	}
	if (obj->ce == zend_ce_closure) {
		return walk_closure(c, dst, obj, path);
	}
	if (check_class(c, obj->ce, path) == FAILURE) {
		return -1;
	}
	rv_class_profile *p = c->last_profile && c->last_profile->ce == obj->ce ? c->last_profile : rv_class_profile_of(c->ctx, obj->ce);
	c->last_profile = p;
	rv_encoding enc = p->enc;
	uint32_t native = p->native;
	bool direct = p->direct;
	uint32_t id = 0;
	if (native && !rv_native_initialized(native, obj)) {
		if (c->pass == WRITE) {
			abandon(c);
		} else {
			uninitialized_native(obj->ce);
		}
		return -1;
	}

	bool run_hooks = c->pass == COLLECT;
	if (c->pass == COLLECT) {
		if (!collect_first(c, obj)) {
			return 1;
		}
		run_hooks = !hooked(c, obj);
		if (run_hooks && collect_hook(c, obj, p, path) == FAILURE) {
			return -1;
		}
	} else {
		bool first;
		id = id_of(c, obj, &first);
		if (!first) {
			set_ptr(dst, c->pass == WRITE ? c->nodes[id] : NULL);
			return 1;
		}
		if (hook_due(c, obj)) {
			run_hooks = true;
			if (collect_hook(c, obj, p, path) == FAILURE) {
				return -1;
			}
		} else if ((c->pass == PLAN || c->unplanned) && !c->collected && needs_collect(obj, p)) {
			/* A hook must run first: start over with COLLECT. */
			c->need_collect = true;
			return -1;
		}
		if (enc == RV_ENC_ENUM) {
			rv_enum_node *e = take(c, sizeof(rv_enum_node));
			zend_string *lcn = string_of(c, lower_name(c, obj->ce->name));
			zend_string *cn = string_of(c, obj->ce->name);
			zend_string *casen = string_of(c, Z_STR_P(zend_enum_fetch_case_name(obj)));
			if (e) {
				e->n.kind = RV_NODE_ENUM;
				e->n.id = id;
				e->lc_class_name = lcn;
				e->class_name = cn;
				e->case_name = casen;
				node_at(c, id, e);
			}
			set_ptr(dst, e);
			return 1;
		}
		if (enc == RV_ENC_SERIALIZED) {
			c->runs_code = true;
			zval *blob = zend_hash_index_find(tbl(c, STATES), obj->handle);
			if (!blob) {
				changed(c);
				return -1;
			}
			rv_serialized_node *s = take(c, sizeof(rv_serialized_node));
			zend_string *data = string_of(c, Z_STR_P(blob));
			if (s) {
				s->n.kind = RV_NODE_SERIALIZED;
				s->n.id = id;
				s->data = data;
				node_at(c, id, s);
			}
			set_ptr(dst, s);
			return 1;
		}
	}
	if (enc == RV_ENC_ENUM || enc == RV_ENC_SERIALIZED) {
		return 1;
	}

	if (++c->depth > RV_MAX_DEPTH || rv_stack_exhausted()) {
		too_deep(c);
		return -1;
	}
	int rc = 1;
	if (enc == RV_ENC_UNSERIALIZE || enc == RV_ENC_HEAP) {
		zval *data = zend_hash_index_find(tbl(c, STATES), obj->handle);
		if (!data) {
			changed(c);
			return -1;
		}
		rv_object_ext *x = NULL;
		if (c->pass != COLLECT) {
			rv_object_node *o = take(c, sizeof(rv_object_node) + sizeof(rv_object_ext));
			prop_list none;
			props_init(&none);
			none.plain = true;
			rv_shape *shape = shape_of(c, obj, p, &none);
			if (o) {
				x = init_object_node(c, o, id, shape, RV_OBJECT_EXT, RV_NATIVE_NONE, NULL);
			}
			set_ptr(dst, o);
		}
		rv_path here = { .up = path, .kind = RV_PATH_SERIALIZED };
		zval *into = x ? &x->data : NULL;
		if ((Z_TYPE_P(data) == IS_ARRAY ? walk_array(c, into, Z_ARR_P(data), true, &here) : walk(c, into, data, &here)) < 0) {
			rc = -1;
		}
		c->depth--;
		return rc;
	}

	/* Decided before props_of() builds a properties table. */
	bool guarded = props_guarded(obj, enc);
	prop_list l;
	if (props_of(c, obj, p, native != RV_NATIVE_NONE || direct, &l) == FAILURE) {
		return -1;
	}
	if (enc == RV_ENC_SLEEP && run_hooks) {
		keep_sleep_selection(c, &l);
	}
	if ((c->collecting || c->pass == COLLECT) && !l.release && obj->properties
		&& !(GC_FLAGS(obj->properties) & GC_IMMUTABLE)) {
		/* l reads dynamic properties where the table has them, and a
		 * hook run while they are walked may add more (resizing it) or
		 * unset them: held, the table is separated by such a write. */
		GC_ADDREF(obj->properties);
		l.release = obj->properties;
	}
	if (direct && run_hooks && collect_direct(c, obj, p, &l) == FAILURE) {
		props_free(&l);
		return -1;
	}
	rv_object_node *o = NULL;
	if (c->pass != COLLECT) {
		uint32_t nprops = l.n + l.left_out;
		uint32_t flags = (native != RV_NATIVE_NONE ? RV_OBJECT_EXT : 0)
			| (packed(&l) ? RV_OBJECT_PACKED | (l.n << RV_OBJECT_PRESENT_SHIFT) : 0);
		o = take(c, sizeof(rv_object_node) + ((flags & RV_OBJECT_EXT) ? sizeof(rv_object_ext) : 0)
			+ ((flags & RV_OBJECT_PACKED) ? sizeof(uint64_t) + rv_object_values_size(l.n) : rv_object_values_size(nprops)));
		rv_shape *shape = shape_of(c, obj, p, &l);
		const void *state = native ? rv_native_persist(c->ctx, native, obj, c->pass == PLAN ? &c->size : NULL, &c->w) : NULL;
		if (o) {
			init_object_node(c, o, id, shape, flags, native, state);
			if (flags & RV_OBJECT_PACKED) {
				/* The properties present; the others held their defaults. */
				uint64_t mask = 0;
				for (uint32_t i = 0; i < l.n; i++) {
					mask |= (uint64_t)1 << l.slots[i];
				}
				*rv_object_mask(o) = mask;
			}
			/* IS_UNDEF: left out as it held its default (see rv_shape.defaults);
			 * no byte of the record left as the segment had it. */
			memset(rv_object_values(o), 0, rv_object_values_size(rv_object_count(o)));
			/* spl_object_hash() values held by a directly copied object
			 * (Carbon's constructedObjectId) must name the fetched object. */
			if (direct) {
				char hash[RV_OBJECT_HASH_LEN + 1];
				bool hashed = false;
				for (uint32_t i = 0; i < l.n; i++) {
					zval *v = l.values[i];
					ZVAL_DEREF(v);
					if (Z_TYPE_P(v) != IS_STRING || Z_STRLEN_P(v) != RV_OBJECT_HASH_LEN) {
						continue;
					}
					if (!hashed) {
						rv_object_hash(obj, hash);
						hashed = true;
					}
					if (memcmp(Z_STRVAL_P(v), hash, RV_OBJECT_HASH_LEN) == 0) {
						shape->prop_flags[shape_pos(&l, i)] |= RV_PROP_OBJECT_HASH;
					}
				}
			}
		}
		set_ptr(dst, o);
	}
	/* Decided once: a late collecting round of a UserCache store only. */
	bool watched = growth_watched(c);
	for (uint32_t i = 0; i < l.n && rc > 0; i++) {
		zval *v = l.values[i];
		uint32_t at = shape_pos(&l, i);
		/* Written as a zval, then stored as its value and its type byte. */
		zval prop;
		uint32_t k = packed(&l) ? i : at;
		if (Z_TYPE_P(v) <= IS_STRING && c->pass != COLLECT && !direct) {
			leaf(c, o ? &prop : NULL, v);
			if (o) {
				record_prop(o, k, &prop);
			}
			continue;
		}
		rv_path here = { .up = path, .kind = RV_PATH_PROP, .key = l.names[i] };
		if (direct) {
			if (is_translator(p, &l, i, v)) {
				if (c->pass == COLLECT) {
					continue;    /* stands in as its locale name */
				}
				v = zend_hash_index_find(tbl(c, STATES), obj->handle);
				if (!v) {
					changed(c);
					rc = -1;
					break;
				}
				c->runs_code = true;
				if (o) {
					o->shape->prop_flags[at] |= RV_PROP_CARBON_LOCALE;
				}
			}
		}
		/* An array a kept selection holds is held once more for it only:
		 * walked as held as many times as before (where it is shared, and
		 * whether a hook's write separates it; a walk that runs hooks holds
		 * it while it walks it). */
		bool kept_array = l.kept && Z_TYPE_P(v) == IS_ARRAY && !(GC_FLAGS(Z_ARR_P(v)) & GC_IMMUTABLE);
		if (kept_array) {
			GC_DELREF(Z_ARR_P(v));
		}
		int r = UNEXPECTED(watched) ? walk_property_watched(c, o ? &prop : NULL, obj, &l, i, guarded, &here)
			: walk_member(c, o ? &prop : NULL, v, NULL, guarded, &here);
		if (kept_array) {
			GC_ADDREF(Z_ARR_P(v));
		}
		if (r < 0) {
			rc = -1;
		} else if (o) {
			record_prop(o, k, &prop);
		}
	}
	props_free(&l);
	c->depth--;
	return rc;
}

static int walk_reference(gctx *c, zval *dst, zend_reference *ref, const rv_path *path)
{
	if (c->pass == COLLECT) {
		if (!collect_first(c, ref)) {
			return 1;
		}
		return walk(c, NULL, &ref->val, path) < 0 ? -1 : 1;
	}
	c->has_references = true;
	bool first;
	uint32_t id = id_of(c, ref, &first);
	if (!first) {
		set_ptr(dst, c->pass == WRITE ? c->nodes[id] : NULL);
		return 1;
	}
	rv_ref_node *r = take(c, sizeof(rv_ref_node));
	if (r) {
		r->n.kind = RV_NODE_REF;
		r->n.id = id;
		node_at(c, id, r);
	}
	set_ptr(dst, r);
	return walk(c, r ? &r->value : NULL, &ref->val, path) < 0 ? -1 : 1;
}

/* --- arrays ------------------------------------------------------------------------------- */

/* An element of an array or a property. parent: the array holding it,
 * which serialize() writes as null where it contains itself (through a
 * reference nobody else holds). guarded: serialize() checks it for an
 * array met inside itself (see serialize_nulls_cycles): elements of
 * arrays, and properties listed from a table (not read from the slots of
 * a plain object, nor returned by __serialize()). */
static zend_never_inline int walk_member_array(gctx *c, zval *dst, zval *v, zend_array *parent, bool guarded, const rv_path *path)
{
	zend_array *a = Z_ARR_P(v);
	guarded = guarded && serialize_nulls_cycles;
	if (a == parent || (guarded && GC_IS_RECURSIVE(a))) {
		if (a != parent) {
			c->context_marks++;
		}
		if (dst) {
			dst->value.lval = 0;
			Z_TYPE_INFO_P(dst) = IS_NULL;
		}
		return 0;
	}
	if (UNEXPECTED(c->w.overflowed)) {
		return -1;      /* as walk() */
	}
	if (!guarded) {
		return walk_array(c, dst, a, false, path);
	}
	GC_PROTECT_RECURSION(a);
	int r = walk_array(c, dst, a, false, path);
	GC_UNPROTECT_RECURSION(a);
	return r;
}

static zend_always_inline int walk_member(gctx *c, zval *dst, zval *val, zend_array *parent, bool guarded, const rv_path *path)
{
	zval *v = val;
	if (Z_TYPE_P(v) == IS_REFERENCE && Z_REFCOUNT_P(v) == 1) {
		v = Z_REFVAL_P(v);
		if (Z_TYPE_P(v) == IS_ARRAY) {
			c->context_marks++;
		}
	}
	if (Z_TYPE_P(v) != IS_ARRAY || (GC_FLAGS(Z_ARR_P(v)) & GC_IMMUTABLE)) {
		return walk(c, dst, val, path);
	}
	return walk_member_array(c, dst, v, parent, guarded, path);
}

/* WRITE: the node of a template written already, listing its elements
 * that lead to nodes (IS_PTR). */
static rv_array_node *template_node(gctx *c, zend_array *out, uint32_t found)
{
	rv_array_node *node = take(c, sizeof(rv_array_node) + sizeof(uint32_t) * found);
	node->n.kind = RV_NODE_ARRAY;
	node->n.id = 0;
	node->npatch = 0;
	node->tmpl = out;
	for (uint32_t i = 0; i < out->nNumUsed; i++) {
		zval *el = HT_IS_PACKED(out) ? &out->arPacked[i] : &out->arData[i].val;
		if (Z_TYPE_P(el) == IS_PTR && node->npatch < found) {
			node->patch[node->npatch++] = i;
		}
	}
	return node;
}

/* The pass releases a (whose reference it was given) when it ends. */
static void keep_until_pass_ends(gctx *c, zend_array *a)
{
	if (c->nheld == c->held_cap) {
		c->held_cap = MAX(c->held_cap * 2, 16);
		c->held = erealloc(c->held, c->held_cap * sizeof(zend_array *));
	}
	c->held[c->nheld++] = a;
}

static void hold(gctx *c, zend_array *a)
{
	GC_ADDREF(a);
	keep_until_pass_ends(c, a);
}

static void hold_object(gctx *c, zend_object *obj)
{
	if (c->nheld_objects == c->held_objects_cap) {
		c->held_objects_cap = MAX(c->held_objects_cap * 2, 16);
		c->held_objects = safe_erealloc(c->held_objects, c->held_objects_cap, sizeof(zend_object *), 0);
	}
	GC_ADDREF(obj);
	c->held_objects[c->nheld_objects++] = obj;
	if (c->ready & (1u << HOOKED)) {
		zend_hash_index_add_empty_element(&c->tables[HOOKED], identity_key(obj));
	}
}

static void release_held(gctx *c)
{
	for (uint32_t i = 0; i < c->nheld; i++) {
		zend_array_release(c->held[i]);
	}
	c->nheld = 0;
	if (c->held) {
		efree(c->held);
		c->held = NULL;
		c->held_cap = 0;
	}
}

/* When the store is done with the graph (gctx_free()), not with a pass:
 * an object freed sooner gives its address and handle, which the tables
 * of objects met and of hook states are keyed by, to one its destructor
 * makes, which the passes that follow would take for it. */
static void release_held_objects(gctx *c)
{
	uint32_t n = c->nheld_objects;
	zend_object **objects = c->held_objects;
	c->nheld_objects = c->held_objects_cap = 0;
	c->held_objects = NULL;
	for (uint32_t i = 0; i < n; i++) {
		OBJ_RELEASE(objects[i]);
	}
	if (objects) {
		efree(objects);
	}
}

/* COLLECT, or a collecting PLAN (which has no layout to write: found
 * counts the elements leading to nodes): the elements of an array while
 * hooks run, which may write it. The array is held while it is walked,
 * so that a write separates it, or, where the write does not (an
 * ArrayObject writes its storage in place), the walk reads its slots
 * again at each step, as they are now: a hook may grow the array, free its
 * slots, make it a hash, and the walk never reads what it freed. One that
 * a hook dropped meanwhile is held until the pass ends (its address
 * must not come back as another array's). */
static int walk_elements_running_hooks(gctx *c, zend_array *a, zend_array *parent, bool guarded, const rv_path *path,
                                       uint32_t *found)
{
	bool counted = !(GC_FLAGS(a) & GC_IMMUTABLE);
	if (counted) {
		GC_ADDREF(a);
	}
	int rc = walk_elements_held(c, a, parent, guarded, path, found);
	if (counted && GC_DELREF(a) == 0) {
		GC_SET_REFCOUNT(a, 1);
		keep_until_pass_ends(c, a);
	}
	return rc;
}

static int walk_elements_held(gctx *c, zend_array *a, zend_array *parent, bool guarded, const rv_path *path,
                              uint32_t *found)
{
	for (uint32_t i = 0; i < a->nNumUsed; i++) {
		zval *val;
		zend_string *key = NULL;
		zend_ulong idx = i;
		if (HT_IS_PACKED(a)) {
			val = &a->arPacked[i];
		} else {
			Bucket *b = &a->arData[i];
			val = &b->val;
			key = b->key;
			idx = b->h;
		}
		if (Z_TYPE_P(val) == IS_INDIRECT) {
			val = Z_INDIRECT_P(val);
		}
		if (Z_TYPE_P(val) == IS_UNDEF) {
			continue;
		}
		if (found && key) {
			string_of(c, key);
		}
		if (Z_TYPE_P(val) <= IS_STRING) {
			if (found) {
				leaf(c, NULL, val);
			}
			continue;
		}
		rv_path here = { .up = path, .kind = key ? RV_PATH_KEY : RV_PATH_INDEX, .index = idx, .key = key };
		int r = walk_member(c, NULL, val, parent, guarded, &here);
		if (r < 0) {
			return -1;
		}
		if (found) {
			*found += r > 0;
		}
	}
	return 0;
}

/* hook_data: what __serialize() returned (or a heap's items), whose
 * elements serialize() writes as they are, unchecked. PLAN and WRITE make
 * the same decisions from what they met so far, each on its own: a
 * decision of PLAN read back by WRITE would be the last one PLAN made for
 * that array, not the one for this visit (an array met again inside
 * itself, through a reference, is encoded twice, differently). */
static int walk_array(gctx *c, zval *dst, zend_array *a, bool hook_data, const rv_path *path)
{
	uint32_t count = zend_hash_num_elements(a);
	/* Only an array held more than once can be met again by another way:
	 * one held once is met again only inside a container walked again (an
	 * array encoded wherever it is met), where encoding it again agrees.
	 * Not recording the many held once saves a table entry each. */
	bool sharable = !hook_data && c->pass != COLLECT && (GC_REFCOUNT(a) > 1 || (GC_FLAGS(a) & GC_IMMUTABLE));
	array_slot *known = sharable ? array_find(c, a) : NULL;
	if (known && !known->a) {
		known = NULL;
	}

	if (known) {
		/* Met before (a shared array): the same encoding serves again. */
		if (c->pass == PLAN) {
			uint64_t planned = known->v;
			if (c->collecting && (uint32_t)planned > 0 && (uint32_t)(planned >> 32) != c->hooks_run) {
				/* A hook ran since, and may have freed the array planned
				 * (not held: it holds objects), its memory now another's,
				 * holding an object whose own hook is to run: COLLECT's
				 * way finds it. */
				c->pass = COLLECT;
				int r = walk_array(c, NULL, a, false, path);
				c->pass = PLAN;
				if (r < 0) {
					return -1;
				}
			}
			return (uint32_t)planned > 0 ? 1 : 0;
		}
		rv_node *n = (rv_node *)(uintptr_t)known->v;
		if (n->kind == RV_NODE_ARRAY) {
			set_ptr(dst, n);
			return 1;
		}
		Z_ARR_P(dst) = (zend_array *)n;
		Z_TYPE_INFO_P(dst) = IS_ARRAY;
		Z_EXTRA_P(dst) = 0;
		return 0;
	}
	if (count == 0) {
		zend_array *e = rv_write_empty_array(c->pass == WRITE ? &c->w : NULL, &c->size, a->nNextFreeElement);
		if (dst) {
			Z_ARR_P(dst) = e;
			Z_TYPE_INFO_P(dst) = IS_ARRAY;
			Z_EXTRA_P(dst) = 0;
		}
		return 0;
	}
	if (++c->depth > RV_MAX_DEPTH || rv_stack_exhausted()) {
		too_deep(c);
		return -1;
	}
	zend_array *parent = hook_data ? NULL : a;
	bool guarded = !hook_data;

	if (c->pass == COLLECT) {
		if (walk_elements_running_hooks(c, a, parent, guarded, path, NULL) < 0) {
			return -1;
		}
		c->depth--;
		return 0;
	}

	uint32_t marks = c->context_marks;
	zend_array *out = rv_array_begin(c->pass == WRITE ? &c->w : NULL, &c->size, a);
	if (out) {
		out->nInternalPointer = 0;
	}
	uint32_t found = 0;
	uint32_t pos = 0;
	zend_string *key;
	zend_ulong idx;
	zval *val;
	if (c->collecting) {
		if (walk_elements_running_hooks(c, a, parent, guarded, path, &found) < 0) {
			return -1;
		}
	} else if (HT_IS_PACKED(a)) {
		for (uint32_t i = 0; i < a->nNumUsed; i++) {
			zval *el = out ? &out->arPacked[i] : NULL;
			val = &a->arPacked[i];
			if (Z_TYPE_P(val) == IS_UNDEF) {
				if (el) {
					ZVAL_UNDEF(el);
					el->value.lval = 0;
					Z_EXTRA_P(el) = 0;
				}
				continue;
			}
			if (Z_TYPE_P(val) <= IS_STRING) {
				leaf(c, el, val);
				continue;
			}
			rv_path here = { .up = path, .kind = RV_PATH_INDEX, .index = i };
			int r = walk_member(c, el, val, parent, guarded, &here);
			if (r < 0) {
				return -1;
			}
			if (el) {
				Z_EXTRA_P(el) = 0;
			}
			found += r > 0;
		}
	} else {
		ZEND_HASH_FOREACH_KEY_VAL_IND(a, idx, key, val) {
			Bucket *b = out ? out->arData + pos : NULL;
			zend_string *k = key ? string_of(c, key) : NULL;
			int r = 0;
			if (Z_TYPE_P(val) <= IS_STRING) {
				leaf(c, b ? &b->val : NULL, val);
			} else {
				rv_path here = { .up = path, .kind = key ? RV_PATH_KEY : RV_PATH_INDEX, .index = idx, .key = key };
				r = walk_member(c, b ? &b->val : NULL, val, parent, guarded, &here);
				if (r < 0) {
					return -1;
				}
			}
			if (b) {
				b->h = key ? ZSTR_H(key) : idx;
				b->key = k;
				rv_array_link(out, pos);
			}
			found += r > 0;
			pos++;
		} ZEND_HASH_FOREACH_END();
		if (out) {
			out->nNumUsed = out->nNumOfElements = pos;
		}
	}
	c->depth--;

	bool shared = sharable && c->context_marks == marks;
	uint64_t written;
	if (c->pass == PLAN) {
		if (found) {
			c->size += ZEND_MM_ALIGNED_SIZE(sizeof(rv_array_node) + sizeof(uint32_t) * (size_t)found);
		}
		written = ((uint64_t)c->hooks_run << 32) | found;
	} else if (found) {
		rv_array_node *node = template_node(c, out, found);
		written = (uintptr_t)node;
		set_ptr(dst, node);
	} else {
		written = (uintptr_t)out;
		Z_ARR_P(dst) = out;
		Z_TYPE_INFO_P(dst) = IS_ARRAY;
		Z_EXTRA_P(dst) = 0;
	}
	if (shared) {
		array_note(c, a, written);
		if (c->collecting && !found && !(GC_FLAGS(a) & GC_IMMUTABLE)) {
			hold(c, a);
		}
	}
	return found ? 1 : 0;
}

static int walk(gctx *c, zval *dst, zval *src, const rv_path *path)
{
	if (UNEXPECTED(c->w.overflowed)) {
		/* The guessed reservation is too small: stop; the value is planned. */
		return -1;
	}
again:
	switch (Z_TYPE_P(src)) {
		case IS_STRING:
			if (c->pass == COLLECT) {
				return 0;
			}
			{
				zend_string *s = string_of(c, Z_STR_P(src));
				if (dst) {
					ZVAL_INTERNED_STR(dst, s);
				}
			}
			return 0;
		case IS_ARRAY:
			return walk_array(c, dst, Z_ARR_P(src), false, path);
		case IS_OBJECT:
			return walk_object(c, dst, Z_OBJ_P(src), path);
		case IS_REFERENCE:
			if (Z_REFCOUNT_P(src) == 1) {
				src = Z_REFVAL_P(src);
				if (Z_TYPE_P(src) == IS_ARRAY) {
					c->context_marks++;
				}
				goto again;
			}
			return walk_reference(c, dst, Z_REF_P(src), path);
		case IS_INDIRECT:
			src = Z_INDIRECT_P(src);
			goto again;
		case IS_RESOURCE:
			refuse(c, path, "a resource", NULL);
			return -1;
		case IS_UNDEF:
		case IS_NULL:
		case IS_FALSE:
		case IS_TRUE:
		case IS_LONG:
		case IS_DOUBLE:
			if (dst) {
				dst->value.lval = Z_TYPE_P(src) >= IS_LONG ? src->value.lval : 0;
				Z_TYPE_INFO_P(dst) = Z_TYPE_P(src);
			}
			return 0;
		default:
			refuse(c, path, "an internal value", NULL);
			return -1;
	}
}

/* --- entry points -------------------------------------------------------------------------- */

void rv_graph_module_start(void)
{
	/* ['a' => ['r' => &(the array itself)]], the reference shared: inside
	 * the reference, the outer array meets its element again while that
	 * element is being written. */
	zval ref, inner;
	ZVAL_NEW_REF(&ref, &EG(uninitialized_zval));
	array_init(Z_REFVAL(ref));
	array_init(&inner);
	Z_ADDREF(ref);
	add_assoc_zval(&inner, "r", &ref);
	add_assoc_zval(Z_REFVAL(ref), "a", &inner);
	smart_str buf = {0};
	php_serialize_data_t var_hash;
	PHP_VAR_SERIALIZE_INIT(var_hash);
	php_var_serialize(&buf, Z_REFVAL(ref), &var_hash);
	PHP_VAR_SERIALIZE_DESTROY(var_hash);
	/* a:1:{s:1:"a";a:1:{s:1:"r";a:1:{s:1:"a";N;}}} where it writes null,
	 * else the element again, then R:3; for the reference. */
	serialize_nulls_cycles = buf.s && strstr(ZSTR_VAL(buf.s), "N;") != NULL;
	smart_str_free(&buf);
	/* Dropping the element drops the reference it held: no cycle is left. */
	zend_hash_str_del(Z_ARRVAL_P(Z_REFVAL(ref)), "a", 1);
	zval_ptr_dtor(&ref);
}


struct rv_graph_plan {
	gctx c;
	bool estimated;         /* sized by a collecting PLAN (see rv_graph_plan_value()) */
};

static void gctx_init(gctx *c, rv_context *ctx, uint32_t arg_num)
{
	memset(c, 0, offsetof(gctx, tables));
	c->ctx = ctx;
	c->w.ctx = ctx;
	c->spl_object_storage_refused = ctx->spl_object_storage_refused;
	c->late_growth_refused = ctx->late_growth_refused;
	c->arg_num = arg_num;
	c->nodes = c->few_nodes;
	c->nodes_cap = FIRST_IDS + 1;
	c->ids = c->few_ids;
	c->ids_cap = INLINE_ID_SLOTS;
	c->arrays = c->few_arrays;
	c->arrays_cap = INLINE_ID_SLOTS;
	c->last.gen = 0;
	c->sleep.ce = NULL;
	ZVAL_UNDEF(&c->sleep.names);
	ZVAL_UNDEF(&c->sleep.keys);
}

static void gctx_reset_pass(gctx *c, pass p)
{
	c->pass = p;
	c->depth = 0;
	c->next_id = 0;
	c->context_marks = 0;
	memset(c->ids, 0, sizeof(id_slot) * c->ids_cap);
	memset(c->arrays, 0, sizeof(array_slot) * c->arrays_cap);
	c->narrays = 0;
	clean(c, SHAPES);
	clean(c, PLAIN_SHAPES);
	c->gen = ++c->ctx->xlat_gen;
}

/* The class profile that remembers sizes for a value: that of its root
 * object. */
static rv_class_profile *root_profile(rv_context *ctx, zval *value)
{
	ZVAL_DEREF(value);
	return Z_TYPE_P(value) == IS_OBJECT ? rv_class_profile_of(ctx, Z_OBJCE_P(value)) : NULL;
}

/* PLAN after hooks ran: the exact size of the graph as it is now. */
static int plan_exact(gctx *c, zval *value, const rv_path *path)
{
	gctx_reset_pass(c, PLAN);
	c->size = sizeof(rv_graph_header);
	return walk(c, NULL, value, path);
}

/* A collecting PLAN again, which runs the hooks that have not run (those
 * of objects a hook put where the last one had walked), each once, as
 * serialize() would have run them had it met them. */
static int collect_late(gctx *c, zval *value, const rv_path *path)
{
	if (!(c->ready & (1u << HOOKED))) {
		HashTable *hooked_objects = tbl(c, HOOKED);
		for (uint32_t i = 0; i < c->nheld_objects; i++) {
			zend_hash_index_add_empty_element(hooked_objects, identity_key(c->held_objects[i]));
		}
	}
	c->late_rounds++;
	/* COLLECT's way walks into what the last collecting PLAN met again. */
	clean(c, VISITED);
	gctx_reset_pass(c, PLAN);
	c->size = sizeof(rv_graph_header);
	c->collecting = true;
	c->unsure = false;
	int rc = walk(c, NULL, value, path);
	c->collecting = false;
	release_held(c);
	return rc;
}

/* PLAN after hooks ran, exactly; where it meets an object whose hook has
 * not run, that hook runs (collect_late()) and the value is planned
 * again, until a PLAN meets none (or LATE_ROUNDS, see changed()). */
static int plan_settled(gctx *c, zval *value, const rv_path *path)
{
	for (;;) {
		c->late = false;
		int rc = plan_exact(c, value, path);
		if (rc >= 0 || !c->late) {
			return rc;
		}
		c->late = false;
		if (collect_late(c, value, path) < 0) {
			return -1;
		}
	}
}

rv_graph_plan *rv_graph_plan_value(rv_context *ctx, zval *value, const rv_path *path, uint32_t arg_num, size_t *size, bool *estimated)
{
	rv_graph_plan *g = emalloc(sizeof(*g));
	g->estimated = false;
	gctx *c = &g->c;
	gctx_init(c, ctx, arg_num);
	/* Most graphs run no PHP code: plan at once, and run hooks only when
	 * an object turns out to need one. A root whose class has a hook needs
	 * it at once: a planning pass would stop at the root, having done
	 * nothing but cost a walk. */
	rv_class_profile *root = root_profile(ctx, value);
	int rc = -1;
	if (root && runs_hook(root)) {
		c->need_collect = true;
	} else {
		c->pass = PLAN;
		c->size = sizeof(rv_graph_header);
		c->gen = ++ctx->xlat_gen;
		rc = walk(c, NULL, value, path);
	}
	if (rc < 0 && c->need_collect && !EG(exception)) {
		/* One walk runs the hooks, each as its object is first met, and
		 * sizes the graph as it goes. A hook may change what was sized
		 * before it ran: the size is exact only if none did, which a write
		 * that follows at once checks (it never writes past the size, and
		 * says what it took); else the graph is planned again, now that
		 * every hook ran. */
		gctx_reset_pass(c, PLAN);
		c->size = sizeof(rv_graph_header);
		c->collected = true;
		c->collecting = true;
		rc = walk(c, NULL, value, path);
		c->collecting = false;
		release_held(c);
		if (rc >= 0 && c->hooks_run && (!estimated || c->unsure)) {
			rc = plan_settled(c, value, path);
		} else if (rc >= 0 && c->hooks_run) {
			g->estimated = *estimated = true;
		}
	}
	if (rc < 0) {
		rv_graph_plan_free(g);
		return NULL;
	}
	*size = c->size;
	/* The next value of this root class is written without a plan, into
	 * a reservation of this size, unless an object needed a hook run (an
	 * unplanned write would stop at it). */
	if (root) {
		rv_class_note_root_size(ctx, root, c->collected ? 0 : c->size);
	}
	return g;
}

zend_result rv_graph_plan_exact(rv_graph_plan *g, zval *value, const rv_path *path, size_t *size)
{
	g->estimated = false;
	if (plan_settled(&g->c, value, path) < 0) {
		return FAILURE;
	}
	*size = g->c.size;
	return SUCCESS;
}

zend_result rv_graph_write(rv_graph_plan *g, zval *value, const rv_path *path, void *area, size_t size, size_t *used, bool *out_of_stack)
{
	gctx *c = &g->c;
	uint32_t nids = c->next_id;
	gctx_reset_pass(c, WRITE);
	rv_graph_header *h = area;
	h->nids = nids;
	h->flags = 0;
	c->w.cur = (char *)area + sizeof(rv_graph_header);
	c->w.end = (char *)area + size;
	/* The plan sized this very walk. Should the two ever disagree, what
	 * does not fit goes to memory of its own and the value is refused:
	 * never written past its entry, never an abort. An estimated size
	 * (a collecting PLAN's) may be too small or too large: what the walk
	 * took is what counts. */
	c->w.may_overflow = true;
	int rc = walk(c, &h->root, value, path);
	Z_EXTRA(h->root) = 0;
	if (g->estimated) {
		h->nids = c->next_id;
	}
	h->flags = (c->runs_code ? 0 : RV_GRAPH_RUNS_NO_CODE) | (c->has_references ? 0 : RV_GRAPH_NO_REFERENCES);
	bool fits = !c->w.overflowed && (g->estimated || c->next_id == nids);
	*used = fits ? (size_t)(c->w.cur - (char *)area) : 0;
	*out_of_stack = c->w.out_of_stack;
	rv_writer_release(&c->w);
	c->w.overflowed = false;
	c->w.out_of_stack = false;
	return rc < 0 || !fits ? FAILURE : SUCCESS;
}

static void gctx_free(gctx *c)
{
	release_held(c);
	for (uint32_t t = 0; t < TABLES; t++) {
		if (c->ready & (1u << t)) {
			zend_hash_destroy(&c->tables[t]);
		}
	}
	if (c->nodes != c->few_nodes) {
		efree(c->nodes);
	}
	if (c->ids != c->few_ids) {
		efree(c->ids);
	}
	if (c->arrays != c->few_arrays) {
		efree(c->arrays);
	}
	zval_ptr_dtor(&c->sleep.keys);
	zval_ptr_dtor(&c->sleep.names);
	if (c->uncopied) {
		efree(c->uncopied);
	}
	/* After STATES, whose kept selections are there. */
	while (c->kept_chunks) {
		void **chunk = c->kept_chunks;
		c->kept_chunks = *chunk;
		efree(chunk);
	}
	/* Last: a destructor run here may store again. */
	release_held_objects(c);
}

void rv_graph_plan_free(rv_graph_plan *g)
{
	gctx_free(&g->c);
	efree(g);
}

size_t rv_size_guess(rv_context *ctx, zval *value)
{
	rv_class_profile *p = root_profile(ctx, value);
	return p ? p->root_size : 0;
}

rv_unplanned rv_write_unplanned(rv_context *ctx, zval *value, const rv_path *path, uint32_t arg_num, void *area, size_t cap, size_t *used)
{
	gctx c;
	gctx_init(&c, ctx, arg_num);
	c.pass = WRITE;
	c.unplanned = true;
	c.gen = ++ctx->xlat_gen;
	rv_graph_header *h = area;
	h->flags = 0;
	c.w.cur = (char *)area + sizeof(rv_graph_header);
	c.w.end = (char *)area + cap;
	c.w.may_overflow = true;
	int rc = walk(&c, &h->root, value, path);
	Z_EXTRA(h->root) = 0;
	h->nids = c.next_id;
	h->flags = (c.runs_code ? 0 : RV_GRAPH_RUNS_NO_CODE) | (c.has_references ? 0 : RV_GRAPH_NO_REFERENCES);
	rv_unplanned out = RV_WRITTEN;
	if (rc < 0) {
		/* Did not fit, or an object needs a hook run (COLLECT) first: the
		 * planned way does both. Anything else was thrown. */
		out = EG(exception) ? RV_FAILED : RV_REPLAN;
	} else if (c.w.overflowed) {
		out = RV_REPLAN;
	}
	*used = (size_t)(c.w.cur - (char *)area);
	rv_writer_release(&c.w);
	gctx_free(&c);
	if (out == RV_WRITTEN) {
		rv_class_note_root_size(ctx, root_profile(ctx, value), *used);
	}
	return out;
}
