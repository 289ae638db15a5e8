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
/* Shapes kept under one layout fingerprint: the same class with different
 * dynamic properties, or classes laid out alike. Past this, a shape is
 * resolved by each decoder, as before it was kept. */
#define SAME_LAYOUT_MAX 8

/* A resolution, and a copy of what in a stored shape it follows from (the
 * class by its name, the layout, which slot each property goes to, its
 * flags), to tell another value's shape with the same. */
typedef struct kept_shape {
	struct kept_shape *next;            /* the same layout fingerprint; replaced ones (ctx->replaced_shapes) */
	/* The stored shape last found equal, and its value's stamp: while the
	 * value is the same, its shape is found again without comparing. */
	const rv_shape *seen;
	uint64_t seen_stamp;
	/* Of a class OPcache holds: its print when resolved (0 for a class that
	 * lasts the process), and the request it was last found the same in. */
	uint64_t print;
	uint64_t checked;
	uint32_t nprops;
	uint32_t name_len;
	int32_t *slots;
	uint8_t *prop_flags;
	char *lc_class_name;
	resolved_shape r;                   /* r.info, r.direct, then the copies, past the struct */
} kept_shape;

static void kept_chain_free(kept_shape *k, bool persistent)
{
	for (kept_shape *next; k; k = next) {
		next = k->next;
		pefree(k, persistent);
	}
}

static void kept_free(zval *zv)
{
	kept_chain_free(Z_PTR_P(zv), true);
}

static void kept_for_request_free(zval *zv)
{
	kept_chain_free(Z_PTR_P(zv), false);
}

static void accepted_free(zval *zv)
{
	pefree(Z_PTR_P(zv), 1);
}

static zend_always_inline bool same_shape(const kept_shape *k, const rv_shape *shape)
{
	return k->nprops == shape->nprops && k->name_len == ZSTR_LEN(shape->lc_class_name)
		&& memcmp(k->lc_class_name, ZSTR_VAL(shape->lc_class_name), k->name_len) == 0
		&& memcmp(k->slots, shape->slots, sizeof(int32_t) * k->nprops) == 0
		&& memcmp(k->prop_flags, shape->prop_flags, k->nprops) == 0;
}

/* A shape of a class OPcache holds, resolved in an earlier request: its
 * class is still the one of that name this request, where it was, and
 * resolves it alike (the same print). The class is looked up once. */
static zend_never_inline bool still_resolved_so(rv_context *ctx, kept_shape *k, const rv_shape *shape, rv_class_lookup *lookup)
{
	if (!lookup->done) {
		lookup->ce = rv_find_class(shape->class_name, shape->lc_class_name);
		lookup->done = true;
	}
	if (lookup->ce != k->r.ce || EG(exception) || rv_class_print(ctx, lookup->ce) != k->print) {
		return false;
	}
	k->checked = ctx->request_no;
	return true;
}

static zend_always_inline resolved_shape *find_in(rv_context *ctx, HashTable *t, const rv_shape *shape, uint64_t stamp, rv_class_lookup *lookup)
{
	if (!t) {
		return NULL;
	}
	/* Keyed by the class's layout fingerprint, which code decides, not
	 * user input; a key holds at most SAME_LAYOUT_MAX shapes. */
	for (kept_shape *k = zend_hash_index_find_ptr(t, (zend_ulong)shape->layout); k; k = k->next) {
		if (!(k->seen == shape && k->seen_stamp == stamp)) {
			if (!same_shape(k, shape)) {
				continue;
			}
			k->seen = shape;
			k->seen_stamp = stamp;
		}
		/* One shape's content is kept once per table: no other matches. */
		return !k->print || k->checked == ctx->request_no || still_resolved_so(ctx, k, shape, lookup) ? &k->r : NULL;
	}
	return NULL;
}

/* The resolution kept for this very shape of this very value. */
static resolved_shape *find_exact(HashTable *t, const rv_shape *shape, uint64_t stamp)
{
	/* Keyed by address: a table of shapes, not of user input. */
	kept_shape *k = t ? zend_hash_index_find_ptr(t, (zend_ulong)(uintptr_t)shape) : NULL;
	return k && k->seen == shape && k->seen_stamp == stamp ? &k->r : NULL;
}

resolved_shape *rv_shape_cache_find(rv_context *ctx, const rv_shape *shape, uint64_t stamp, rv_class_lookup *lookup)
{
	resolved_shape *r = NULL;
	if (shape->layout) {
		r = find_in(ctx, ctx->lasting_shapes, shape, stamp, lookup);
		if (!r) {
			r = find_in(ctx, ctx->request_shapes, shape, stamp, lookup);
		}
	}
	if (!r) {
		r = find_exact(ctx->lasting_exact_shapes, shape, stamp);
	}
	return r ? r : find_exact(ctx->request_exact_shapes, shape, stamp);
}

/* A copy of r and of what it follows from, in memory of the process or of
 * the request. */
static kept_shape *kept_copy(const rv_shape *shape, uint64_t stamp, const resolved_shape *r, bool persistent)
{
	uint32_t n = shape->nprops;
	size_t info = rv_resolved_props_size(n);
	size_t slots_at = ZEND_MM_ALIGNED_SIZE(sizeof(kept_shape) + info);
	size_t size = zend_safe_address_guarded(n, sizeof(int32_t) + 1, slots_at + ZSTR_LEN(shape->lc_class_name));
	kept_shape *k = pemalloc(size, persistent);
	k->next = NULL;
	k->seen = shape;
	k->seen_stamp = stamp;
	k->print = 0;
	k->checked = 0;
	k->nprops = n;
	k->name_len = (uint32_t)ZSTR_LEN(shape->lc_class_name);
	k->r = *r;
	k->r.info = (zend_property_info **)(k + 1);
	k->r.accepted = r->accepted ? (zend_class_entry **)(k->r.info + n) : NULL;
	k->r.direct = (uint8_t *)((zend_class_entry **)(k->r.info + n) + n);
	/* r->accepted and r->direct follow r->info as here. */
	memcpy(k->r.info, r->info, info);
	k->slots = (int32_t *)((char *)k + slots_at);
	memcpy(k->slots, shape->slots, sizeof(int32_t) * n);
	k->prop_flags = (uint8_t *)(k->slots + n);
	memcpy(k->prop_flags, shape->prop_flags, n);
	k->lc_class_name = (char *)(k->prop_flags + n);
	memcpy(k->lc_class_name, ZSTR_VAL(shape->lc_class_name), k->name_len);
	return k;
}

/* Whether key (a layout fingerprint, a shape's address) was met before in
 * the request, noting that it is. Modulo: a key may pass for another. */
static bool met_before(rv_context *ctx, uint64_t key)
{
	uint64_t bit = (uint64_t)1 << (key & 63);
	uint64_t *met = &ctx->shapes_met[(key >> 6) % (sizeof(ctx->shapes_met) / sizeof(ctx->shapes_met[0]))];
	if (*met & bit) {
		return true;
	}
	*met |= bit;
	return false;
}

/* A shape whose content does not say its resolution (listed by name: the
 * declarations were found by name; laid out otherwise since the store):
 * kept for this shape of this value only. Of a class that lasts the
 * process, for later requests, as a kept application fetched by every
 * request meets it again; else, once met again, for the rest of the
 * request (the same key fetched in a loop, as the harness reads). */
static void keep_exact(rv_context *ctx, const rv_shape *shape, uint64_t stamp, const resolved_shape *r)
{
	if (!rv_class_lasting(r->ce)) {
		if (!met_before(ctx, (uint64_t)(uintptr_t)shape >> 3)) {
			return;
		}
		HashTable *t = rv_context_table(&ctx->request_exact_shapes, false, kept_for_request_free);
		/* Already there: another value's shape at this address (the key
		 * stored again meanwhile), which a decoder may still hold. */
		if (zend_hash_num_elements(t) < SHAPE_CACHE_MAX && !zend_hash_index_exists(t, (zend_ulong)(uintptr_t)shape)) {
			zend_hash_index_add_new_ptr(t, (zend_ulong)(uintptr_t)shape, kept_copy(shape, stamp, r, false));
		}
		return;
	}
	HashTable *t = rv_context_table(&ctx->lasting_exact_shapes, true, kept_free);
	if (zend_hash_num_elements(t) >= SHAPE_CACHE_MAX) {
		return;
	}
	kept_shape *k = kept_copy(shape, stamp, r, true);
	zval *was = zend_hash_index_find(t, (zend_ulong)(uintptr_t)shape);
	if (was) {
		/* Another value's shape was there: a decoder of this request may
		 * still use it, so it goes when the request ends. */
		kept_shape *old = Z_PTR_P(was);
		old->next = ctx->replaced_shapes;
		ctx->replaced_shapes = old;
		Z_PTR_P(was) = k;
	} else {
		zend_hash_index_add_new_ptr(t, (zend_ulong)(uintptr_t)shape, k);
	}
}

void rv_shape_cache_keep(rv_context *ctx, const rv_shape *shape, uint64_t stamp, const resolved_shape *r)
{
	ZEND_ASSERT(r->complete);
	zend_class_entry *ce = r->ce;
	/* The wakeup and unserialize flags follow the class's hooks, which
	 * stay as they are while it does, and its profile, which a change of
	 * resident.direct_classes changes: rv_context_profiles_changed()
	 * drops what was kept for the process then. */
	if (!ce) {
		return;
	}
	/* Only a class laid out as when the value was stored: then the slots
	 * and flags say all the resolution follows from (declarations by
	 * slot, not by name). */
	if (!r->same_layout) {
		keep_exact(ctx, shape, stamp, r);
		return;
	}
	/* Where the class lasts as long as the process, for later requests;
	 * where OPcache holds it, for later requests too, found again by its
	 * print; else for the rest of this one: a class declared stays as it
	 * is until the request ends, so a value fetched again, or another
	 * value of the same shape (entries of one class under many keys),
	 * does not resolve it again. */
	bool lasting = rv_class_lasting(ce);
	uint64_t print = 0;
	if (!lasting && rv_class_printable(ce)) {
		print = rv_class_print(ctx, ce);
	}
	if (!lasting && !print) {
		/* A value fetched once per request (a kept application) meets
		 * each of its shapes once: copying them would be all cost. A
		 * shape is kept when a shape of its layout is resolved again in
		 * the request (the same value fetched again, another value
		 * alike), which then costs one resolution more. */
		if (!met_before(ctx, shape->layout)) {
			return;
		}
	}
	bool persistent = lasting || print;
	HashTable *t = persistent ? rv_context_table(&ctx->lasting_shapes, true, kept_free)
		: rv_context_table(&ctx->request_shapes, false, kept_for_request_free);
	if (zend_hash_num_elements(t) >= SHAPE_CACHE_MAX) {
		return;
	}
	zval *first = zend_hash_index_find(t, (zend_ulong)shape->layout);
	uint32_t alike = 0;
	bool replaced = false;
	for (kept_shape **link = first ? (kept_shape **)&Z_PTR_P(first) : NULL; link && *link; alike++) {
		kept_shape *k = *link;
		if (!same_shape(k, shape)) {
			link = &k->next;
			continue;
		}
		if (!k->print || k->checked == ctx->request_no) {
			return;
		}
		/* Resolved in an earlier request for a class no longer the one of
		 * its name (OPcache restarted, the class changed): replaced. No
		 * decoder of this request holds it (none found it the same); it
		 * goes when the request ends all the same. */
		*link = k->next;
		k->next = ctx->replaced_shapes;
		ctx->replaced_shapes = k;
		replaced = true;
		break;
	}
	if (!replaced && alike >= SAME_LAYOUT_MAX) {
		return;
	}
	/* Resolutions already kept stay where they are: a decoder may hold
	 * one until the request ends. */
	kept_shape *k = kept_copy(shape, stamp, r, persistent);
	k->print = print;
	k->checked = ctx->request_no;
	if (first) {
		k->next = Z_PTR_P(first);
		Z_PTR_P(first) = k;
	} else {
		zend_hash_index_add_new_ptr(t, (zend_ulong)shape->layout, k);
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
	HashTable *t = rv_context_table(&ctx->lasting_types, true, accepted_free);
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
	kept_chain_free(ctx->replaced_shapes, true);
	ctx->replaced_shapes = NULL;
	memset(ctx->shapes_met, 0, sizeof(ctx->shapes_met));
	if (ctx->request_shapes) {
		zend_hash_destroy(ctx->request_shapes);
		efree(ctx->request_shapes);
		ctx->request_shapes = NULL;
	}
	if (ctx->request_exact_shapes) {
		zend_hash_destroy(ctx->request_exact_shapes);
		efree(ctx->request_exact_shapes);
		ctx->request_exact_shapes = NULL;
	}
	if (ctx->lasting_shapes && zend_hash_num_elements(ctx->lasting_shapes) >= SHAPE_CACHE_MAX) {
		zend_hash_clean(ctx->lasting_shapes);
	}
	if (ctx->lasting_exact_shapes && zend_hash_num_elements(ctx->lasting_exact_shapes) >= SHAPE_CACHE_MAX) {
		zend_hash_clean(ctx->lasting_exact_shapes);
	}
}
