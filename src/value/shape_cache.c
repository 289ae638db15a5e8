/* SPDX-License-Identifier: MIT */
/*
 * Shapes resolved once per process (see shape_cache.h).
 */
#include "php.h"
#include "shape_cache.h"
#include "class_layout.h"

/* Shapes, not values: a kept application has tens of classes. Past this,
 * what is kept is dropped at the end of the request and found again. */
#define SHAPE_CACHE_MAX 4096

typedef struct kept_shape {
	uint64_t stamp;
	struct kept_shape *replaced_next;   /* ctx->replaced_shapes */
	resolved_shape r;                   /* r.info and r.direct point past the struct */
} kept_shape;

static void kept_free(zval *zv)
{
	pefree(Z_PTR_P(zv), 1);
}

static void kept_for_request_free(zval *zv)
{
	efree(Z_PTR_P(zv));
}

static resolved_shape *find_in(HashTable *t, const rv_shape *shape, uint64_t stamp)
{
	if (!t) {
		return NULL;
	}
	/* Keyed by address: a table of shapes, not of user input. */
	kept_shape *k = zend_hash_index_find_ptr(t, (zend_ulong)(uintptr_t)shape);
	return k && k->stamp == stamp ? &k->r : NULL;
}

resolved_shape *rv_shape_cache_find(rv_context *ctx, const rv_shape *shape, uint64_t stamp)
{
	resolved_shape *r = find_in(ctx->lasting_shapes, shape, stamp);
	return r ? r : find_in(ctx->request_shapes, shape, stamp);
}

/* A copy of r, in memory of the process or of the request. */
static kept_shape *kept_copy(const rv_shape *shape, uint64_t stamp, const resolved_shape *r, bool persistent)
{
	size_t info = rv_resolved_props_size(shape->nprops);
	kept_shape *k = pemalloc(zend_safe_address_guarded(1, sizeof(kept_shape), info), persistent);
	k->stamp = stamp;
	k->replaced_next = NULL;
	k->r = *r;
	k->r.info = (zend_property_info **)(k + 1);
	k->r.direct = (uint8_t *)(k->r.info + shape->nprops);
	/* r->direct follows r->info as here. */
	memcpy(k->r.info, r->info, info);
	return k;
}

/* For the rest of the request, where the class is laid out as when the
 * value was stored: a lazy decoder makes a shell of such an object whether
 * it finds the resolution complete or resolves it lightly itself, while one
 * of a class laid out otherwise it builds at once if complete (and fills
 * its shell property by property otherwise: graph_lazy.c). A shape's
 * address another value had earlier in the request keeps that value's
 * resolution: a decoder may still use it, and the new value resolves its
 * own. */
static void keep_for_request(rv_context *ctx, const rv_shape *shape, uint64_t stamp, const resolved_shape *r)
{
	if (!r->same_layout) {
		return;
	}
	HashTable *t = rv_context_table(&ctx->request_shapes, false, kept_for_request_free);
	if (zend_hash_num_elements(t) >= SHAPE_CACHE_MAX || zend_hash_index_exists(t, (zend_ulong)(uintptr_t)shape)) {
		return;
	}
	zend_hash_index_add_new_ptr(t, (zend_ulong)(uintptr_t)shape, kept_copy(shape, stamp, r, false));
}

void rv_shape_cache_keep(rv_context *ctx, const rv_shape *shape, uint64_t stamp, const resolved_shape *r)
{
	ZEND_ASSERT(r->complete);
	zend_class_entry *ce = r->ce;
	/* The wakeup and unserialize flags follow the class's profile, which
	 * resident.direct_classes may change from one request to the next. */
	if (!ce || r->wakeup || r->unserialize || ce->__unserialize
		|| zend_hash_exists(&ce->function_table, ZSTR_KNOWN(ZEND_STR_WAKEUP))) {
		return;
	}
	if (!rv_class_lasting(ce)) {
		keep_for_request(ctx, shape, stamp, r);
		return;
	}
	HashTable *t = rv_context_table(&ctx->lasting_shapes, true, kept_free);
	if (zend_hash_num_elements(t) >= SHAPE_CACHE_MAX) {
		return;
	}
	kept_shape *k = kept_copy(shape, stamp, r, true);
	zval *was = zend_hash_index_find(t, (zend_ulong)(uintptr_t)shape);
	if (was) {
		/* Another value's shape was there: a decoder of this request may
		 * still use it, so it goes when the request ends. */
		kept_shape *old = Z_PTR_P(was);
		old->replaced_next = ctx->replaced_shapes;
		ctx->replaced_shapes = old;
		Z_PTR_P(was) = k;
	} else {
		zend_hash_index_add_new_ptr(t, (zend_ulong)(uintptr_t)shape, k);
	}
}

/* The classes a declared type accepted: a property holds objects of one
 * class, or of a few. */
#define TYPE_CACHE_CLASSES 4

typedef struct accepted_classes {
	zend_class_entry *ce[TYPE_CACHE_CLASSES];
} accepted_classes;

bool rv_type_cache_accepts(rv_context *ctx, zend_property_info *info, zend_class_entry *ce)
{
	if (!ctx->lasting_types) {
		return false;
	}
	/* Keyed by address: declarations, not user input. */
	accepted_classes *a = zend_hash_index_find_ptr(ctx->lasting_types, (zend_ulong)(uintptr_t)info);
	if (a) {
		for (int i = 0; i < TYPE_CACHE_CLASSES; i++) {
			if (a->ce[i] == ce) {
				return true;
			}
		}
	}
	return false;
}

void rv_type_cache_keep(rv_context *ctx, zend_property_info *info, zend_class_entry *ce)
{
	HashTable *t = rv_context_table(&ctx->lasting_types, true, kept_free);
	accepted_classes *a = zend_hash_index_find_ptr(t, (zend_ulong)(uintptr_t)info);
	if (!a) {
		/* Bounded by the declarations of the classes that last. */
		a = pecalloc(1, sizeof(accepted_classes), 1);
		zend_hash_index_add_new_ptr(t, (zend_ulong)(uintptr_t)info, a);
	}
	for (int i = 0; i < TYPE_CACHE_CLASSES; i++) {
		if (!a->ce[i]) {
			a->ce[i] = ce;
			return;
		}
	}
}

void rv_shape_cache_request_end(rv_context *ctx)
{
	if (ctx->request_shapes) {
		zend_hash_destroy(ctx->request_shapes);
		efree(ctx->request_shapes);
		ctx->request_shapes = NULL;
	}
	for (kept_shape *k = ctx->replaced_shapes, *next; k; k = next) {
		next = k->replaced_next;
		pefree(k, 1);
	}
	ctx->replaced_shapes = NULL;
	if (ctx->lasting_shapes && zend_hash_num_elements(ctx->lasting_shapes) >= SHAPE_CACHE_MAX) {
		zend_hash_clean(ctx->lasting_shapes);
	}
}
