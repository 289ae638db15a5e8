/* SPDX-License-Identifier: MIT */
/*
 * PHP value -> store entry: where storing begins.
 *
 * Two passes over the value: plan (validate, and size the encoding exactly)
 * and write (lay it out in the reserved entry, see writer.h). A plain value
 * (strings, arrays, scalars) is laid out here as one immutable graph; a
 * value holding objects or PHP references goes to the graph encoding
 * (graph_persist.c) as soon as the plan meets one.
 */
#include "php.h"
#include "zend_fibers.h"
#include "ext/standard/basic_functions.h"
#include "value.h"
#include "writer.h"
#include "errors.h"
#include "graph_persist.h"

static zend_always_inline bool dedupable_arr(const zend_array *a)
{
	return (GC_FLAGS(a) & IS_ARRAY_IMMUTABLE) || GC_REFCOUNT(a) > 1;
}

/* --- plan pass -------------------------------------------------------------------- */

typedef struct plan_ctx {
	rv_context *ctx;
	size_t size;
	bool graph;           /* met an object or a shared reference */
	uint32_t depth;
	uint32_t arg_num;
} plan_ctx;

static zend_result refuse(plan_ctx *c, const rv_path *path, const char *what)
{
	zend_string *where = rv_path_render(path);
	rv_type_error(c->ctx, c->arg_num, "cannot be cached: %s is %s", ZSTR_VAL(where), what);
	zend_string_release(where);
	return FAILURE;
}

static zend_result plan_zval(plan_ctx *c, zval *zv, const rv_path *path);

/* A list: no keys, and its scalars need nothing planned. A loop of its
 * own, the hot one for lists of numbers. */
static zend_never_inline zend_result plan_list(plan_ctx *c, zend_array *a, const rv_path *path)
{
	zval *val = a->arPacked, *end = val + a->nNumUsed;
	for (; val != end; val++) {
		if (Z_TYPE_P(val) <= IS_DOUBLE) {
			continue;
		}
		rv_path here = { .up = path, .kind = RV_PATH_INDEX, .index = (zend_ulong)(val - a->arPacked) };
		if (plan_zval(c, val, &here) == FAILURE) {
			return FAILURE;
		}
	}
	c->depth--;
	return SUCCESS;
}

static zend_result plan_array(plan_ctx *c, zend_array *a, const rv_path *path)
{
	rv_context *ctx = c->ctx;
	if (dedupable_arr(a) && rv_xlat_lookup(ctx, rv_xlat_arr_slot(ctx, a), a, NULL)) {
		return SUCCESS;
	}
	c->size += RV_ALIGNED(sizeof(zend_array)) + rv_array_data_size(a);
	if (zend_hash_num_elements(a) == 0) {
		return SUCCESS;
	}
	if (++c->depth > RV_MAX_DEPTH || rv_stack_exhausted()) {
		rv_too_deep_error(ctx, c->arg_num, c->depth > RV_MAX_DEPTH);
		return FAILURE;
	}
	if (HT_IS_PACKED(a)) {
		return plan_list(c, a, path);
	}
	zend_string *key;
	zend_ulong idx;
	zval *val;
	ZEND_HASH_MAP_FOREACH_KEY_VAL(a, idx, key, val) {
		/* Scalars need no path frame; this loop is the hot one. */
		if (Z_TYPE_P(val) <= IS_DOUBLE && !key) {
			continue;
		}
		if (key && !rv_xlat_lookup(ctx, rv_xlat_str_slot(ctx, key), key, rv_xlat_same_string)) {
			c->size += rv_string_size(key);
		}
		if (Z_TYPE_P(val) <= IS_DOUBLE) {
			continue;
		}
		rv_path here = { .up = path, .kind = key ? RV_PATH_KEY : RV_PATH_INDEX, .index = idx, .key = key };
		if (plan_zval(c, val, &here) == FAILURE) {
			return FAILURE;
		}
	} ZEND_HASH_FOREACH_END();
	c->depth--;
	return SUCCESS;
}

/* FAILURE with c->graph set (and no exception): the value needs the graph
 * encoding (graph_persist.c), which takes over from here. */
static zend_result plan_zval(plan_ctx *c, zval *zv, const rv_path *path)
{
again:
	switch (Z_TYPE_P(zv)) {
		case IS_UNDEF:
		case IS_NULL:
		case IS_FALSE:
		case IS_TRUE:
		case IS_LONG:
		case IS_DOUBLE:
			return SUCCESS;
		case IS_STRING:
			if (!rv_xlat_lookup(c->ctx, rv_xlat_str_slot(c->ctx, Z_STR_P(zv)), Z_STR_P(zv), rv_xlat_same_string)) {
				c->size += rv_string_size(Z_STR_P(zv));
			}
			return SUCCESS;
		case IS_ARRAY:
			return plan_array(c, Z_ARR_P(zv), path);
		case IS_REFERENCE:
			/* A reference nobody else holds is a plain value (serialize()
			 * agrees); a shared one is part of the value's identity. An
			 * array behind one may contain itself: the graph encoding
			 * handles that as serialize() does. */
			if (Z_REFCOUNT_P(zv) > 1 || Z_TYPE_P(Z_REFVAL_P(zv)) == IS_ARRAY) {
				c->graph = true;
				return FAILURE;
			}
			zv = Z_REFVAL_P(zv);
			goto again;
		case IS_INDIRECT:
			zv = Z_INDIRECT_P(zv);
			goto again;
		case IS_OBJECT:
			c->graph = true;
			return FAILURE;
		case IS_RESOURCE:
			return refuse(c, path, "a resource");
		default:
			return refuse(c, path, "an internal value");
	}
}

/* The objects' hooks run while a graph is planned (__serialize(),
 * __sleep(), a Serializable's serialize()): as serialize() runs them,
 * under BG(serialize_lock), so that a serialize() they call starts a
 * context of its own instead of continuing the one of a serialize() this
 * store runs inside; and, as at a fetch, without a Fiber switch in the
 * middle (the context's tables are this plan's until it ends). A fatal
 * error in a hook gives both back (hooks_done()) before it goes on. */
static void hooks_may_run(void)
{
	zend_fiber_switch_block();
	BG(serialize_lock)++;
}

static void hooks_done(void)
{
	BG(serialize_lock)--;
	zend_fiber_switch_unblock();
}

static zend_result plan_value(rv_context *ctx, rv_plan *plan, zval *value, const rv_path *path, uint32_t arg_num, bool estimate)
{
	memset(plan, 0, sizeof(*plan));
	plan->ctx = ctx;
	plan->value = value;
	plan->path = path;
	plan->arg_num = arg_num;
	ctx->xlat_gen++;

	plan_ctx c = { .ctx = ctx, .size = sizeof(zval), .arg_num = arg_num };
	if (plan_zval(&c, value, path) == SUCCESS) {
		plan->kind = RV_KIND_ZVAL;
		plan->size = c.size;
		return SUCCESS;
	}
	if (!c.graph) {
		return FAILURE;
	}
	rv_graph_plan *volatile graph = NULL;
	hooks_may_run();
	zend_try {
		graph = rv_graph_plan_value(ctx, value, path, arg_num, &plan->size, estimate ? &plan->estimated : NULL);
	} zend_catch {
		hooks_done();
		zend_bailout();
	} zend_end_try();
	hooks_done();
	plan->graph = graph;
	if (!plan->graph) {
		return FAILURE;
	}
	plan->kind = RV_KIND_GRAPH;
	return SUCCESS;
}

zend_result rv_plan_value(rv_context *ctx, rv_plan *plan, zval *value, const rv_path *path, uint32_t arg_num)
{
	return plan_value(ctx, plan, value, path, arg_num, false);
}

zend_result rv_plan_store(rv_context *ctx, rv_plan *plan, zval *value, const rv_path *path, uint32_t arg_num)
{
	return plan_value(ctx, plan, value, path, arg_num, true);
}

zend_result rv_plan_exact(rv_plan *plan)
{
	ZEND_ASSERT(plan->estimated && plan->graph);
	plan->estimated = false;
	/* No hook runs again, but one whose object a hook put where the walk
	 * had been runs now; the walk fills lazily restored objects, as the
	 * first one did, under the same guards. */
	volatile zend_result rc = FAILURE;
	hooks_may_run();
	zend_try {
		rc = rv_graph_plan_exact(plan->graph, plan->value, plan->path, &plan->size);
	} zend_catch {
		hooks_done();
		zend_bailout();
	} zend_end_try();
	hooks_done();
	return rc;
}

void rv_plan_release(rv_plan *plan)
{
	if (plan->graph) {
		rv_graph_plan_free(plan->graph);
		plan->graph = NULL;
	}
}

/* --- write pass --------------------------------------------------------------- */

/* Every byte written to the segment is defined, padding included: other
 * processes read it, and tools like valgrind cannot follow writes across
 * processes, so they must never see an undefined byte there. */
static zend_always_inline void copy_scalar(zval *dst, const zval *src)
{
	dst->value.lval = Z_TYPE_P(src) >= IS_LONG ? src->value.lval : 0;
	Z_TYPE_INFO_P(dst) = Z_TYPE_P(src);
}

static zend_array *write_array(rv_writer *w, zend_array *src);

static void write_zval(rv_writer *w, zval *dst, zval *src)
{
again:
	switch (Z_TYPE_P(src)) {
		case IS_STRING:
			ZVAL_INTERNED_STR(dst, rv_write_string(w, Z_STR_P(src)));
			return;
		case IS_ARRAY:
			Z_ARR_P(dst) = write_array(w, Z_ARR_P(src));
			Z_TYPE_INFO_P(dst) = IS_ARRAY;
			return;
		case IS_REFERENCE:
			src = Z_REFVAL_P(src);
			goto again;
		case IS_INDIRECT:
			src = Z_INDIRECT_P(src);
			goto again;
		default:
			copy_scalar(dst, src);
			return;
	}
}

static zend_array *write_array(rv_writer *w, zend_array *src)
{
	rv_xlat_slot *slot = NULL;
	zend_array *dst;
	if (dedupable_arr(src)) {
		slot = rv_xlat_arr_slot(w->ctx, src);
		if ((dst = rv_xlat_lookup(w->ctx, slot, src, NULL))) {
			return dst;
		}
	}
	bool empty = zend_hash_num_elements(src) == 0;
	if (!empty && rv_stack_exhausted()) {
		w->out_of_stack = true;
		empty = true;
	}
	dst = empty ? rv_write_empty_array(w, NULL, src->nNextFreeElement) : rv_array_begin(w, NULL, src);
	if (slot && !w->out_of_stack) {
		slot->dst = dst;
	}
	if (empty) {
		return dst;
	}
	if (HT_IS_PACKED(src)) {
		zval *from = src->arPacked, *to = dst->arPacked;
		for (uint32_t i = 0; i < src->nNumUsed; i++) {
			if (Z_TYPE(from[i]) > IS_DOUBLE) {
				write_zval(w, &to[i], &from[i]);
			} else {
				copy_scalar(&to[i], &from[i]);
			}
			Z_EXTRA(to[i]) = 0;
		}
		return dst;
	}
	uint32_t i = 0;
	Bucket *p = src->arData, *end = p + src->nNumUsed;
	for (; p != end; p++) {
		zval *val = &p->val;
		if (Z_TYPE_P(val) == IS_INDIRECT) {
			val = Z_INDIRECT_P(val);
		}
		if (Z_TYPE_P(val) == IS_UNDEF) {
			continue;
		}
		Bucket *q = dst->arData + i;
		q->h = p->h;
		q->key = p->key ? rv_write_string(w, p->key) : NULL;
		write_zval(w, &q->val, val);
		rv_array_link(dst, i);
		i++;
	}
	/* Symbol tables can count a deleted variable still. */
	dst->nNumUsed = dst->nNumOfElements = i;
	return dst;
}

void rv_refuse_out_of_stack(rv_plan *plan)
{
	rv_too_deep_error(plan->ctx, plan->arg_num, false);
}

zend_result rv_write(rv_plan *plan, void *area)
{
	plan->out_of_stack = false;
	if (plan->kind == RV_KIND_GRAPH) {
		return rv_graph_write(plan->graph, plan->value, plan->path, area, plan->size, &plan->used, &plan->out_of_stack);
	}
	plan->used = plan->size;
	/* A fresh, empty dedup cache, as the plan pass had: the same walk makes
	 * the same decisions, so the layout fits the planned size exactly. */
	plan->ctx->xlat_gen++;
	rv_writer w = { .cur = (char *)area + sizeof(zval), .end = (char *)area + plan->size, .ctx = plan->ctx };
	write_zval(&w, (zval *)area, plan->value);
	Z_EXTRA_P((zval *)area) = 0;
	if (w.out_of_stack) {
		/* Thrown by rv_refuse_out_of_stack(): the store's lock is held. */
		plan->out_of_stack = true;
		return FAILURE;
	}
	/* Less only if a symbol table counted a deleted variable. */
	ZEND_ASSERT(w.cur <= w.end);
	return SUCCESS;
}
