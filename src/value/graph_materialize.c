/* SPDX-License-Identifier: MIT */
/*
 * Graph encoding -> fresh PHP objects (see graph.h).
 *
 * Objects are made the way unserialize() makes them: no constructor, the
 * properties written straight into their slots (readonly and visibility do
 * not apply; declared types are checked), dynamic ones into the property
 * table; a missing class gives __PHP_Incomplete_Class. __unserialize() and
 * __wakeup() run once the whole graph exists, children before parents, as
 * unserialize() orders them. Strings and arrays off the path to an object
 * are still shared with the segment when the request borrows.
 */
#include "php.h"
#include "value.h"
#include "graph.h"
#include "graph_decode.h"
#include "closure.h"
#include "class_layout.h"
#include "shape_cache.h"
#include "copy.h"
#include "date.h"
#include "class_profile.h"
#include "zend_enum.h"
#include "zend_interfaces.h"
#include "zend_exceptions.h"
#include "ext/standard/php_var.h"
#include "ext/standard/php_incomplete_class.h"
#include "ext/standard/basic_functions.h"

/* On FAILURE (an exception is pending) dst holds nothing. */
static zend_result decode(decoder *d, zval *dst, const zval *src);
/* The same, for what an IS_PTR value points at. */
static zend_result decode_ptr(decoder *d, zval *dst, const rv_node *n);

static zend_result fail(zval *dst)
{
	zval_ptr_dtor(dst);
	ZVAL_UNDEF(dst);
	return FAILURE;
}

static void defer(decoder *d, zend_object *obj, uint32_t mode, zval *data)
{
	if (d->ndefer == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 16;
		d->defer = erealloc(d->defer, d->cap * sizeof(deferred));
	}
	deferred *e = &d->defer[d->ndefer++];
	e->obj = obj;
	e->mode = mode;
	if (data) {
		ZVAL_COPY_VALUE(&e->data, data);
	} else {
		ZVAL_UNDEF(&e->data);
	}
}

/* --- classes and properties -------------------------------------------------- */

zend_class_entry *rv_find_class(zend_string *name, zend_string *lc)
{
	zend_class_entry *ce = zend_hash_find_ptr(EG(class_table), lc);
	if (ce && (ce->ce_flags & ZEND_ACC_LINKED)) {
		return ce;
	}
	if (UNEXPECTED(rv_is_anonymous_class_name(name))) {
		/* There once its declaring script is loaded (by restoring an
		 * object of the class declaring it, which comes first in the
		 * graph that holds it); no autoloader knows the name. */
		return rv_anonymous_class_link(ce, lc);
	}
	return zend_lookup_class(name);
}

/* The declaration a stored (mangled) property name lands in, as
 * unserialize() would find it: the same name and visibility, a parent's
 * private property, or the same name with another visibility. */
static zend_property_info *declaration_of(zend_class_entry *ce, zend_string *mangled)
{
	const char *class_name, *prop;
	size_t prop_len;
	if (zend_unmangle_property_name_ex(mangled, &class_name, &prop, &prop_len) == FAILURE) {
		return NULL;
	}
	zend_property_info *info = zend_hash_str_find_ptr(&ce->properties_info, prop, prop_len);
	if (class_name && class_name[0] != '*' && class_name[0]) {
		/* Private to class_name: that class's slot, if it is an ancestor. */
		for (zend_class_entry *p = ce; p; p = p->parent) {
			if (strcmp(ZSTR_VAL(p->name), class_name) == 0) {
				zend_property_info *own = zend_hash_str_find_ptr(&p->properties_info, prop, prop_len);
				if (own && own->ce == p && (own->flags & ZEND_ACC_PRIVATE)) {
					info = own;
				}
				break;
			}
		}
	}
	if (info && (info->flags & ZEND_ACC_STATIC)) {
		return NULL;
	}
#if PHP_VERSION_ID >= 80400
	/* Property hooks (8.4): a virtual property has no slot. */
	if (info && (info->flags & ZEND_ACC_VIRTUAL)) {
		return NULL;
	}
#endif
	return info;
}

/* Resolved shapes live as long as their decoder, in chunks it frees
 * together: one allocation for many shapes, none freed one by one. */
#define RESOLVED_CHUNK 2048

typedef struct resolved_chunk {
	struct resolved_chunk *next;
	size_t used;
	size_t size;
} resolved_chunk;

static void *resolved_alloc(decoder *d, size_t size)
{
	size = ZEND_MM_ALIGNED_SIZE(size);
	resolved_chunk *c = d->chunks;
	size_t header = ZEND_MM_ALIGNED_SIZE(sizeof(resolved_chunk));
	if (!c || c->size - c->used < size) {
		size_t want = MAX(RESOLVED_CHUNK, header + size);
		c = emalloc(want);
		c->next = d->chunks;
		c->used = header;
		c->size = want;
		d->chunks = c;
	}
	void *p = (char *)c + c->used;
	c->used += size;
	return p;
}

/* A record listed by name (no slots stored: a __sleep() selection; or its
 * class laid out otherwise since): written into the slots in one pass if
 * its properties are declared ones in declaration order, all of them
 * (dense) or some (subset: the other slots take their defaults, as
 * instantiation leaves them for unserialize()). r->info is complete. */
static zend_never_inline void fills_by_names(resolved_shape *r, const rv_shape *shape)
{
	uint32_t count = (uint32_t)r->ce->default_properties_count, next = 0;
	if (shape->nprops > count) {
		return;
	}
	for (uint32_t i = 0; i < shape->nprops; i++) {
		zend_property_info *info = r->info[i];
		uint32_t slot = info ? (uint32_t)OBJ_PROP_TO_NUM(info->offset) : 0;
		if (!info || slot < next || slot >= count || r->ce->properties_info_table[slot] != info) {
			return;
		}
		next = slot + 1;
	}
	r->dense = shape->nprops == count;
	r->subset = !r->dense;
}

/* What a shape needs beyond its class (resolved_shape.complete): the
 * class's layout this request, the declarations, dense. */
static void complete_shape(decoder *d, resolved_shape *r, const rv_shape *shape)
{
	r->complete = true;
	r->same_layout = r->ce && shape->layout && shape->layout == rv_class_layout(d->ctx, r->ce);
	if (r->same_layout) {
		/* The class is laid out as when the value was stored. */
		for (uint32_t i = 0; i < shape->nprops; i++) {
			r->info[i] = shape->slots[i] >= 0 ? r->ce->properties_info_table[shape->slots[i]] : NULL;
		}
	} else {
		for (uint32_t i = 0; i < shape->nprops; i++) {
			r->info[i] = r->ce ? declaration_of(r->ce, shape->names[i]) : NULL;
		}
	}
	/* A class that object_init_ex() would refuse stays for it to refuse
	 * (its constants are updated now if the layout needed them). */
	r->plain = r->ce && !(r->ce->ce_flags & (ZEND_ACC_INTERFACE | ZEND_ACC_TRAIT | ZEND_ACC_IMPLICIT_ABSTRACT_CLASS
		| ZEND_ACC_EXPLICIT_ABSTRACT_CLASS | ZEND_ACC_ENUM)) && !r->ce->create_object
		&& (r->ce->ce_flags & ZEND_ACC_CONSTANTS_UPDATED);
	/* Dense: the record holds every declared slot, in order. Known from
	 * the layout for a record read straight from the object; from the
	 * declarations its names found for one listed by name (a __sleep()
	 * selection naming every property in declaration order), whose
	 * records leave nothing out (no defaults kept: shape->defaults). */
	bool fills = r->plain && r->ce->type == ZEND_USER_CLASS && !r->unserialize;
	bool dense = fills && r->same_layout && shape->nprops == (uint32_t)r->ce->default_properties_count;
	for (uint32_t i = 0; i < shape->nprops; i++) {
		zend_property_info *info = r->info[i];
		dense = dense && info && shape->slots[i] == (int32_t)i;
		r->direct[i] = !info || shape->prop_flags[i] ? 0
			: (uint8_t)((ZEND_TYPE_IS_SET(info->type) ? ZEND_TYPE_FULL_MASK(info->type) : MAY_BE_ANY) & 0xfe);
	}
	r->dense = dense;
	r->subset = false;
	if (UNEXPECTED(fills && !r->same_layout && !shape->defaults)) {
		fills_by_names(r, shape);
	}
	r->fills_only = r->dense && !r->wakeup && (shape->mode == RV_OBJ_PROPS || shape->mode == RV_OBJ_WAKEUP)
		&& !(r->ce->ce_flags & ZEND_ACC_NOT_SERIALIZABLE);
	if (d->stamp && r->ce) {
		rv_shape_cache_keep(d->ctx, shape, d->stamp, r);
	}
}

/* lookup: the class, if looked up already. Only the class and what a
 * shell needs to know of it are resolved unless complete (decoder.light). */
static resolved_shape *resolve_new(decoder *d, const rv_shape *shape, const rv_class_lookup *lookup, bool complete)
{
	resolved_shape *r = resolved_alloc(d, sizeof(resolved_shape) + rv_resolved_props_size(shape->nprops));
	r->info = (zend_property_info **)(r + 1);
	r->accepted = (zend_class_entry **)(r->info + shape->nprops);
	r->direct = (uint8_t *)(r->accepted + shape->nprops);
	r->ce = lookup->done ? lookup->ce : rv_find_class(shape->class_name, shape->lc_class_name);
	r->complete = false;
	/* Only a class that lasts the process keeps what its types accepted. */
	if (r->ce && rv_class_lasting(r->ce)) {
		memset(r->accepted, 0, sizeof(zend_class_entry *) * shape->nprops);
	} else {
		r->accepted = NULL;
	}
	/* As complete_shape() says, but for the constants, which it may update. */
	r->plain = r->ce && !(r->ce->ce_flags & (ZEND_ACC_INTERFACE | ZEND_ACC_TRAIT | ZEND_ACC_IMPLICIT_ABSTRACT_CLASS
		| ZEND_ACC_EXPLICIT_ABSTRACT_CLASS | ZEND_ACC_ENUM)) && !r->ce->create_object
		&& (r->ce->ce_flags & ZEND_ACC_CONSTANTS_UPDATED);
	r->dense = false;
	r->subset = false;
	r->fills_only = false;
	r->same_layout = false;
	/* unserialize() calls the __wakeup() the class has when the value is
	 * read, not the one it had when it was stored (a deploy in between).
	 * A class that gained __unserialize() gets the properties through it
	 * (decode_object()), unless it is copied directly (direct_classes).
	 * Profiles are looked at only for classes with such hooks: building
	 * one costs more than the fetch of most objects. */
	r->wakeup = r->ce && !r->ce->__unserialize && rv_class_has_wakeup(r->ce)
		&& rv_class_profile_of(d->ctx, r->ce)->mode == RV_OBJ_WAKEUP;
	r->unserialize = r->ce && r->ce->__unserialize && !rv_class_profile_of(d->ctx, r->ce)->direct;
	if (complete || !r->ce) {
		complete_shape(d, r, shape);
	}
	if (!d->first_shape) {
		d->first_shape = shape;
		d->first_resolved = r;
	} else {
		if (!d->table) {
			zend_hash_init(&d->resolved, 8, NULL, NULL, 0);
			d->table = true;
		}
		zend_hash_index_add_new_ptr(&d->resolved, (zend_ulong)(uintptr_t)shape, r);
	}
	return r;
}

static zend_always_inline void remember(decoder *d, const rv_shape *shape, resolved_shape *r)
{
	uint32_t at = d->recent_next++ % RECENT_SHAPES;
	d->recent_shape[at] = shape;
	d->recent_resolved[at] = r;
}

/* The shape if resolved among the last few, or NULL. */
static zend_always_inline resolved_shape *resolved_recently(decoder *d, const rv_shape *shape)
{
	for (uint32_t i = 0; i < RECENT_SHAPES; i++) {
		if (d->recent_shape[i] == shape) {
			return d->recent_resolved[i];
		}
	}
	return NULL;
}

/* The shape resolved already, not among the last few (by this decoder, or
 * for the same value by an earlier request: shape_cache.h), or NULL. */
static zend_always_inline resolved_shape *resolved_before(decoder *d, const rv_shape *shape, rv_class_lookup *lookup)
{
	if (shape == d->first_shape) {
		return d->first_resolved;
	}
	zval *known;
	if (d->table && (known = zend_hash_index_find(&d->resolved, (zend_ulong)(uintptr_t)shape))) {
		return Z_PTR_P(known);
	}
	return d->stamp && (d->ctx->lasting_shapes || d->ctx->request_shapes || d->ctx->lasting_exact_shapes || d->ctx->request_exact_shapes)
		? rv_shape_cache_find(d->ctx, shape, d->stamp, lookup) : NULL;
}

/* The shape's class, and at least what a shell needs (decoder.light). */
static zend_always_inline resolved_shape *resolve_light(decoder *d, const rv_shape *shape)
{
	resolved_shape *r = resolved_recently(d, shape);
	if (r) {
		return r;
	}
	rv_class_lookup lookup = { NULL, false };
	r = resolved_before(d, shape, &lookup);
	if (!r) {
		r = resolve_new(d, shape, &lookup, !d->light);
	}
	remember(d, shape, r);
	return r;
}

static zend_always_inline resolved_shape *completed(decoder *d, resolved_shape *r, const rv_shape *shape)
{
	if (UNEXPECTED(!r->complete)) {
		complete_shape(d, r, shape);
	}
	return r;
}

static zend_always_inline resolved_shape *resolve(decoder *d, const rv_shape *shape)
{
	return completed(d, resolve_light(d, shape), shape);
}

/* A shell of an object of this shape can be made before the shape is
 * complete: what completing it tells (the class's layout is as stored)
 * is checked when the shell is filled, which fills it slot by slot
 * otherwise (rv_decoder_fill_loose()). */
static zend_always_inline bool shell_candidate(const resolved_shape *r, const rv_shape *shape)
{
	return r->ce && r->plain && !r->wakeup && !r->unserialize && r->ce->type == ZEND_USER_CLASS && shape->layout
		&& r->ce->default_properties_count && shape->nprops == (uint32_t)r->ce->default_properties_count;
}

/* The name under which unserialize() writes a property its class declares
 * but that has no slot (a static one): the declaration's, with no check
 * for dynamic properties. NULL for a name the class does not declare. */
static zend_string *declared_name(zend_class_entry *ce, zend_string *name)
{
	if (!zend_hash_num_elements(&ce->properties_info)) {
		return NULL;
	}
	const char *class_name, *prop;
	size_t prop_len;
	if (zend_unmangle_property_name_ex(name, &class_name, &prop, &prop_len) == FAILURE) {
		return NULL;
	}
	zend_property_info *info = NULL;
	if (!class_name) {
		info = zend_hash_find_ptr(&ce->properties_info, name);
	} else if (strcmp(class_name, "*") == 0 || strcasecmp(class_name, ZSTR_VAL(ce->name)) == 0) {
		info = zend_hash_str_find_ptr(&ce->properties_info, prop, prop_len);
	}
	return info ? info->name : NULL;
}

static zend_result write_dynamic(zend_object *obj, zend_string *name, zval *value)
{
	zend_class_entry *ce = obj->ce;
	zend_string *declared = ce != php_ce_incomplete_class ? declared_name(ce, name) : NULL;
	if (declared) {
		zend_hash_update(zend_std_get_properties(obj), declared, value);
		return SUCCESS;
	}
	if (ce != php_ce_incomplete_class) {
		if (ce->ce_flags & ZEND_ACC_NO_DYNAMIC_PROPERTIES) {
			zend_throw_error(NULL, "Cannot create dynamic property %s::$%s", ZSTR_VAL(ce->name), zend_get_unmangled_property_name(name));
			return FAILURE;
		}
		if (!(ce->ce_flags & ZEND_ACC_ALLOW_DYNAMIC_PROPERTIES)) {
			zend_error(E_DEPRECATED, "Creation of dynamic property %s::$%s is deprecated", ZSTR_VAL(ce->name), zend_get_unmangled_property_name(name));
			if (EG(exception)) {
				return FAILURE;
			}
		}
	}
	zend_hash_update(zend_std_get_properties(obj), name, value);
	return SUCCESS;
}

/* The declared type, if any, takes the value (a reference becomes one of
 * its type sources); else a TypeError is thrown. obj: the object whose
 * property it is. */
static zend_always_inline bool type_accepts(decoder *d, zend_object *obj, zend_property_info *info, zval *value, zend_class_entry **memo)
{
	if (!ZEND_TYPE_IS_SET(info->type)) {
		return true;
	}
	if (Z_ISREF_P(value)) {
		if (!zend_verify_prop_assignable_by_ref(info, value, 1)) {
			return false;
		}
		ZEND_REF_ADD_TYPE_SOURCE(Z_REF_P(value), info);
		return true;
	}
	/* The fast tests cover a value of a declared scalar type, and an
	 * object of the very class the type names (one name: one class in the
	 * class table); the full check handles the rest, coercions and errors. */
	if (ZEND_TYPE_CONTAINS_CODE(info->type, Z_TYPE_P(value))) {
		return true;
	}
	if (Z_TYPE_P(value) != IS_OBJECT) {
		return zend_verify_property_type(info, value, 1);
	}
	zend_class_entry *ce = Z_OBJCE_P(value);
	if (memo && *memo == ce) {
		return true;
	}
	/* The declaration's name is most often the class's own interned one. */
	if (ZEND_TYPE_HAS_NAME(info->type) && (ZEND_TYPE_NAME(info->type) == ce->name
		|| zend_string_equals_ci(ZEND_TYPE_NAME(info->type), ce->name))) {
		return true;
	}
	/* An interface or a parent the type names, a union: what the full
	 * check answers for classes that live as long as the process holds
	 * for as long (shape_cache.h). */
	bool lasting = rv_class_lasting(obj->ce) && rv_class_lasting(ce);
	if (!lasting || !rv_type_cache_accepts(d->ctx, info, ce)) {
		if (!zend_verify_property_type(info, value, 1)) {
			return false;
		}
		if (lasting) {
			rv_type_cache_keep(d->ctx, info, ce);
		}
	}
	if (lasting && memo) {
		/* memo lives as long as obj's class does: so does ce. */
		*memo = ce;
	}
	return true;
}

static zend_always_inline zend_result write_declared(decoder *d, zend_object *obj, zend_property_info *info, zval *value)
{
	zval *slot = OBJ_PROP(obj, info->offset);
	if (!type_accepts(d, obj, info, value, NULL)) {
		return FAILURE;
	}
	if (Z_REFCOUNTED_P(slot)) {
		zval old;
		ZVAL_COPY_VALUE(&old, slot);
		ZVAL_COPY_VALUE(slot, value);
		zval_ptr_dtor(&old);
	} else {
		ZVAL_COPY_VALUE(slot, value);
	}
	return SUCCESS;
}

/* The value of the i-th property of a record, as it goes into the object. */
static zend_always_inline zend_result prop_value(decoder *d, zend_object *obj, const rv_shape *shape, uint32_t i, const zval *src, zval *v)
{
	if (Z_TYPE_P(src) != IS_PTR && d->borrow) {
		ZVAL_COPY_VALUE(v, src);
	} else if (decode(d, v, src) == FAILURE) {
		return FAILURE;
	}
	if (UNEXPECTED(shape->prop_flags[i])) {
		if (shape->prop_flags[i] & RV_PROP_OBJECT_HASH) {
			zval_ptr_dtor(v);
			zend_string *hash = zend_string_alloc(RV_OBJECT_HASH_LEN, 0);
			rv_object_hash(obj, ZSTR_VAL(hash));
			ZVAL_NEW_STR(v, hash);
		} else if (shape->prop_flags[i] & RV_PROP_CARBON_LOCALE) {
			/* The translator comes back through locale(), once the graph is
			 * complete (as Carbon's __unserialize() does it). */
			defer(d, obj, RV_OBJ_LOCALE, v);
			ZVAL_NULL(v);
		}
	}
	return SUCCESS;
}

/* The element of ht (the array's template or a copy of it) that the i-th
 * patch entry of a stands for. */
static zend_always_inline zval *patched_element(const zend_array *ht, const rv_array_node *a, uint32_t i)
{
	return HT_IS_PACKED(ht) ? &ht->arPacked[a->patch[i]] : &ht->arData[a->patch[i]].val;
}

/* A record's value that decoding would make: an object, an enum, a
 * closure, or an array holding one, not made yet. */
static zend_always_inline bool not_made(decoder *d, const zend_value *value, uint8_t type)
{
	if (type != IS_PTR) {
		return false;
	}
	const rv_node *n = value->ptr;
	return !n->id || Z_TYPE(d->ids[n->id]) == IS_UNDEF;
}

/* The record's value (value, type) of property i into its slot of an
 * object made without object_properties_init(), checked against the
 * declaration and with the flags instantiation would have left on the
 * slot. */
static zend_always_inline zend_result write_dense_slot(decoder *d, bool borrow, zend_object *obj, const rv_shape *shape, resolved_shape *r,
                                                       uint32_t i, const zend_value *value, uint8_t type, zval *slot, const zval *dflt)
{
	if ((r->direct[i] >> type) & 1) {
		/* A value of the record, of a type the declaration names: from the
		 * record straight into the slot, borrowed or a copy of it. Through
		 * a temporary zval copied whole, the 16-byte read of what had just
		 * been written as 8 and 4 bytes stalled store forwarding, most of
		 * the time a fetch of small objects took. */
		if (borrow || type < IS_STRING) {
			slot->value = *value;
			Z_TYPE_INFO_P(slot) = type;
		} else {
			zval src;
			record_zval(value, type, &src);
			if (UNEXPECTED(!rv_copy_zval_within_stack(slot, &src))) {
				/* Unset, as a slot decoding did not reach. */
				zval_ptr_dtor(slot);
				ZVAL_UNDEF(slot);
				return rv_decode_stack_error(d->ctx);
			}
		}
		Z_PROP_FLAG_P(slot) = Z_PROP_FLAG_P(dflt);
		return SUCCESS;
	}
	zval v;
	if (type == IS_PTR && !shape->prop_flags[i]) {
		/* An object, an array holding one, ...: made from its node. */
		if (decode_ptr(d, &v, value->ptr) == FAILURE) {
			return FAILURE;
		}
	} else {
		zval src;
		record_zval(value, type, &src);
		if (prop_value(d, obj, shape, i, &src, &v) == FAILURE) {
			return FAILURE;
		}
	}
	zend_property_info *info = r->info[i];
	if (!type_accepts(d, obj, info, &v, r->accepted ? &r->accepted[i] : NULL)) {
		zval_ptr_dtor(&v);
		return FAILURE;
	}
	/* Value and type as they were written (not the 16 bytes at once: see
	 * above), then the slot's flags. */
	ZVAL_COPY_VALUE(slot, &v);
	Z_PROP_FLAG_P(slot) = Z_PROP_FLAG_P(dflt);
	return SUCCESS;
}

static zend_always_inline void unset_slots(zval *slots, uint32_t from, uint32_t to)
{
	for (uint32_t i = from; i < to; i++) {
		Z_TYPE_INFO(slots[i]) = IS_UNDEF;
	}
}

/* A dense record (resolved_shape.dense) straight into the slots of an
 * object made without object_properties_init() (see decode_object()):
 * each slot is written once, with the record's value or, for one left
 * out, the class default as instantiation copies it. With pending (a
 * shell, see graph_lazy.c), a property whose value decoding would make
 * (an object or an array holding one, not made yet) is left UNDEF, with
 * marker as its value, and its bit set: made when first read.
 * unset_late (borrowing only): the slots hold what emalloc() left, and are
 * made UNDEF, those not written yet, just before a value that is not
 * written as it is: only making such a value may run code (an autoloader,
 * the collector), allocate (and bail out) or fail, which destroys the
 * object; a borrowed value written as it is does none of that. */
static zend_always_inline zend_result fill_dense_as(decoder *d, zend_object *obj, const rv_object_node *o, resolved_shape *r, bool packed,
                                                    bool borrow, bool unset_late, uint64_t *pending, void *marker)
{
	const rv_shape *shape = o->shape;
	uint32_t n = shape->nprops;
	zval *slots = obj->properties_table;
	const zval *defaults = CE_DEFAULT_PROPERTIES_TABLE(r->ce);
	bool unset_left = unset_late;
	ZEND_ASSERT(!unset_late || (borrow && !pending));
	record_reader rr;
	record_open(&rr, o);
	for (uint32_t i = 0; i < n; i++) {
		const zend_value *value;
		uint8_t type;
		if (!record_next(&rr, i, packed, &value, &type)) {
			ZVAL_COPY_PROP(&slots[i], &defaults[i]);
			continue;
		}
		if (pending && i < 64 && not_made(d, value, type)) {
			Z_TYPE_INFO(slots[i]) = IS_UNDEF;
			Z_PROP_FLAG_P(&slots[i]) = 0;
			slots[i].value.ptr = marker;
			*pending |= (uint64_t)1 << i;
			continue;
		}
		if (unset_late && unset_left && !((r->direct[i] >> type) & 1)) {
			unset_slots(slots, i, n);
			unset_left = false;
		}
		if (write_dense_slot(d, borrow, obj, shape, r, i, value, type, &slots[i], &defaults[i]) == FAILURE) {
			return FAILURE;
		}
	}
	return SUCCESS;
}

/* One loop for each record layout and fetch mode, each without a test of
 * them per property. unset_late: as fill_dense_as() says, where the fetch
 * borrows (a copying one's slots are unset before). */
static zend_always_inline zend_result fill_dense(decoder *d, zend_object *obj, const rv_object_node *o, resolved_shape *r, bool unset_late)
{
	if (d->borrow) {
		return (o->n.kind & RV_OBJECT_PACKED) ? fill_dense_as(d, obj, o, r, true, true, unset_late, NULL, NULL)
			: fill_dense_as(d, obj, o, r, false, true, unset_late, NULL, NULL);
	}
	return (o->n.kind & RV_OBJECT_PACKED) ? fill_dense_as(d, obj, o, r, true, false, false, NULL, NULL)
		: fill_dense_as(d, obj, o, r, false, false, false, NULL, NULL);
}

/* A record listed by name that holds some of the declared properties, in
 * declaration order (resolved_shape.subset), into the slots of an object
 * made as for fill_dense(): each listed one from the record, every other
 * slot its default, as instantiation copies it. */
static zend_result fill_subset(decoder *d, zend_object *obj, const rv_object_node *o, resolved_shape *r)
{
	const rv_shape *shape = o->shape;
	zval *slots = obj->properties_table;
	const zval *defaults = CE_DEFAULT_PROPERTIES_TABLE(r->ce);
	uint32_t count = (uint32_t)r->ce->default_properties_count, next = 0;
	record_reader rr;
	record_open(&rr, o);
	for (uint32_t i = 0; i < shape->nprops; i++) {
		uint32_t slot = (uint32_t)OBJ_PROP_TO_NUM(r->info[i]->offset);
		for (; next < slot; next++) {
			ZVAL_COPY_PROP(&slots[next], &defaults[next]);
		}
		next = slot + 1;
		const zend_value *value;
		uint8_t type;
		if (!record_next(&rr, i, rr.packed, &value, &type)) {
			/* Such records leave nothing out (no defaults kept): should
			 * one, the class's default, as for an unlisted one. */
			ZVAL_COPY_PROP(&slots[slot], &defaults[slot]);
			continue;
		}
		if (write_dense_slot(d, d->borrow, obj, shape, r, i, value, type, &slots[slot], &defaults[slot]) == FAILURE) {
			return FAILURE;
		}
	}
	for (; next < count; next++) {
		ZVAL_COPY_PROP(&slots[next], &defaults[next]);
	}
	return SUCCESS;
}

static zend_result fill_props(decoder *d, zend_object *obj, const rv_object_node *o, resolved_shape *r)
{
	const rv_shape *shape = o->shape;
	record_reader rr;
	record_open(&rr, o);
	for (uint32_t i = 0; i < shape->nprops; i++) {
		zval v, stored;
		const zval *src = record_next_zval(&rr, i, &stored);
		if (!src) {
			/* Left out as it held its default: instantiation set it, unless
			 * the class changed since. */
			if (r->same_layout) {
				continue;
			}
			src = &shape->defaults[i];
		}
		if (prop_value(d, obj, shape, i, src, &v) == FAILURE) {
			return FAILURE;
		}
		zend_result rc = r->info[i] ? write_declared(d, obj, r->info[i], &v) : write_dynamic(obj, shape->names[i], &v);
		if (rc == FAILURE) {
			zval_ptr_dtor(&v);
			return FAILURE;
		}
	}
	return SUCCESS;
}

/* A record of properties read by a class that now has __unserialize() (it
 * gained one, or the name is now an alias of an internal class): as
 * unserialize() does with such an "O:" value, the properties, under the
 * names they were stored by, are the array __unserialize() gets. */
static zend_result props_as_data(decoder *d, zend_object *obj, const rv_object_node *o, zval *data)
{
	const rv_shape *shape = o->shape;
	record_reader rr;
	record_open(&rr, o);
	array_init_size(data, shape->nprops);
	for (uint32_t i = 0; i < shape->nprops; i++) {
		zval v, stored;
		const zval *src = record_next_zval(&rr, i, &stored);
		if (!src) {
			src = &shape->defaults[i];
		}
		if (prop_value(d, obj, shape, i, src, &v) == FAILURE) {
			zval_ptr_dtor(data);
			ZVAL_UNDEF(data);
			return FAILURE;
		}
		/* A numeric name ("7") is an integer key there, as unserialize() makes it. */
		zend_symtable_update(Z_ARRVAL_P(data), shape->names[i], &v);
	}
	return SUCCESS;
}

/* An internal class whose objects keep their state in C (a create_object
 * of their own) and that takes none from properties: neither
 * __unserialize() nor __wakeup() rebuilds it. */
static bool internal_state_only(zend_class_entry *ce)
{
	return ce->type == ZEND_INTERNAL_CLASS && ce->create_object && !ce->__unserialize && !rv_class_has_wakeup(ce);
}

/* UserCache's refusal of such a class (rv_context.internal_state_refused). */
static zend_never_inline ZEND_COLD bool refuse_internal_state(decoder *d, zval *dst, const rv_object_node *o, resolved_shape *r, bool props_record)
{
	if (!props_record || !internal_state_only(r->ce)) {
		return false;
	}
	d->ctx->uninstantiable_met++;
	zend_throw_error(NULL, "A cached %s object cannot be restored: the name now stands for %s, whose state "
		"its properties cannot give", ZSTR_VAL(o->shape->class_name), ZSTR_VAL(r->ce->name));
	ZVAL_UNDEF(dst);
	return true;
}

/* --- nodes ---------------------------------------------------------------------- */

/* An object of a shape that fills_only (decode_object() for the most
 * common kind, without its tests of every other). Its slots are UNDEF
 * until written once, which the collector and the destructor accept if
 * decoding a child fails or runs the collector: from the start when
 * copying, when borrowing from the first value not written as it is
 * (fill_dense_as(), unset_late). */
static zend_always_inline zend_result build_filled(decoder *d, zval *dst, const rv_object_node *o, resolved_shape *r)
{
	zend_object *obj = zend_objects_new(r->ce);
	ZVAL_OBJ(dst, obj);
	ZVAL_OBJ(&d->ids[o->n.id], obj);
	if (!d->borrow) {
		unset_slots(obj->properties_table, 0, (uint32_t)r->ce->default_properties_count);
	}
	if (UNEXPECTED(fill_dense(d, obj, o, r, true) == FAILURE)) {
		if (o->shape->mode == RV_OBJ_WAKEUP) {
			/* Stored with __wakeup(), which will not run: as
			 * unserialize(), no destructor call. */
			GC_ADD_FLAGS(obj, IS_OBJ_DESTRUCTOR_CALLED);
		}
		return fail(dst);
	}
	return SUCCESS;
}

static zend_never_inline zend_result decode_object(decoder *d, zval *dst, const rv_object_node *o)
{
	resolved_shape *r = resolve_light(d, o->shape);
	if (!d->lazy && EXPECTED(r->fills_only) && !(o->n.kind & RV_OBJECT_EXT) && EXPECTED(!EG(exception))) {
		return build_filled(d, dst, o, r);
	}
	const rv_object_ext *x = rv_object_ext_of(o);
	if (!EG(exception) && !r->complete && !(!x && o->shape->mode == RV_OBJ_PROPS && shell_candidate(r, o->shape))) {
		complete_shape(d, r, o->shape);
	}
	if (EG(exception)) {
		ZVAL_UNDEF(dst);
		return FAILURE;
	}
	bool props_record = (o->shape->mode == RV_OBJ_PROPS || o->shape->mode == RV_OBJ_WAKEUP) && !(x && x->native);
	if (props_record && r->ce && (r->ce->ce_flags & (ZEND_ACC_NOT_SERIALIZABLE | ZEND_ACC_ANON_CLASS)) == ZEND_ACC_NOT_SERIALIZABLE) {
		/* The name now stands for a class that cannot be serialized (an
		 * alias of Closure, ...): refused as unserialize() refuses it. An
		 * anonymous class is flagged so for serialize()'s sake only
		 * (closure.c). */
		d->ctx->uninstantiable_met++;
		zend_throw_exception_ex(NULL, 0, "Unserialization of '%s' is not allowed", ZSTR_VAL(r->ce->name));
		ZVAL_UNDEF(dst);
		return FAILURE;
	}
	if (d->lazy && !x && o->shape->mode == RV_OBJ_PROPS && !r->wakeup && !r->unserialize && (r->complete ? r->dense : true)
		&& r->ce->default_properties_count) {
		/* Filled in when first used (graph_lazy.c). A class that gained
		 * __wakeup() or __unserialize() since the store is built now,
		 * below, for its hook to run, as for an eager fetch. */
		zend_object *obj = d->make_shell(d, r, o);
		ZVAL_OBJ(dst, obj);
		ZVAL_OBJ_COPY(&d->ids[o->n.id], obj);
		return SUCCESS;
	}
	if (r->dense || r->subset) {
		/* Its slots are written once, by fill_dense() or fill_subset(). Until then they are
		 * UNDEF, which the collector and the destructor accept if decoding
		 * a child fails or runs the collector. */
		zend_object *obj = zend_objects_new(r->ce);
		unset_slots(obj->properties_table, 0, (uint32_t)r->ce->default_properties_count);
		ZVAL_OBJ(dst, obj);
	} else if (r->plain) {
		/* What object_init_ex() does once its checks passed for this class. */
		zend_object *obj = zend_objects_new(r->ce);
		object_properties_init(obj, r->ce);
		ZVAL_OBJ(dst, obj);
	} else if (r->ce) {
		/* Neither dense nor plain: such a class has an object constructor
		 * of its own. */
		if (UNEXPECTED(d->internal_state_refused) && props_record && refuse_internal_state(d, dst, o, r, props_record)) {
			return FAILURE;
		}
		if (r->ce->ce_flags & (ZEND_ACC_INTERFACE | ZEND_ACC_TRAIT | ZEND_ACC_IMPLICIT_ABSTRACT_CLASS
				| ZEND_ACC_EXPLICIT_ABSTRACT_CLASS | ZEND_ACC_ENUM)) {
			/* object_init_ex() throws as unserialize() does; the caller
			 * may rather treat the value as one it cannot restore. */
			d->ctx->uninstantiable_met++;
		}
		if (object_init_ex(dst, r->ce) == FAILURE) {
			ZVAL_UNDEF(dst);
			return FAILURE;
		}
	} else {
		object_init_ex(dst, php_ce_incomplete_class);
		php_store_class_name(dst, o->shape->class_name);
		d->ctx->incomplete_made++;
	}
	zend_object *obj = Z_OBJ_P(dst);
	ZVAL_OBJ(&d->ids[o->n.id], obj);
	if (d->lazy) {
		GC_ADDREF(obj);
		d->opaque = true;
	}
	if (x && x->native && r->ce && rv_native_restore(d->ctx, x->native, obj, x->native_state) == FAILURE) {
		if (!EG(exception)) {
			zend_throw_error(NULL, "Cannot restore the state of a cached %s", ZSTR_VAL(r->ce->name));
		}
		return fail(dst);
	}
	if (o->shape->mode == RV_OBJ_UNSERIALIZE || o->shape->mode == RV_OBJ_HEAP) {
		zval data;
		if (!x) {
			zend_throw_error(NULL, "A cached %s lacks its data", ZSTR_VAL(o->shape->class_name));
			return fail(dst);
		}
		if (decode(d, &data, &x->data) == FAILURE) {
			if (o->shape->mode == RV_OBJ_UNSERIALIZE) {
				/* Never restored: as unserialize(), no destructor call. */
				GC_ADD_FLAGS(obj, IS_OBJ_DESTRUCTOR_CALLED);
			}
			return fail(dst);
		}
		if (r->ce) {
			defer(d, obj, o->shape->mode, &data);
		} else {
			/* unserialize() keeps the data of an unknown class as its
			 * properties; so do we. */
			zend_string *k;
			zval *v;
			ZEND_HASH_FOREACH_STR_KEY_VAL(Z_ARRVAL(data), k, v) {
				if (k) {
					Z_TRY_ADDREF_P(v);
					zend_hash_update(zend_std_get_properties(obj), k, v);
				}
			} ZEND_HASH_FOREACH_END();
			zval_ptr_dtor(&data);
		}
		return SUCCESS;
	}
	if (props_record && r->unserialize) {
		zval data;
		if (props_as_data(d, obj, o, &data) == FAILURE) {
			/* Never restored: as unserialize(), no destructor call. */
			GC_ADD_FLAGS(obj, IS_OBJ_DESTRUCTOR_CALLED);
			return fail(dst);
		}
		defer(d, obj, RV_OBJ_UNSERIALIZE, &data);
		return SUCCESS;
	}
	if ((r->dense ? fill_dense(d, obj, o, r, false) : r->subset ? fill_subset(d, obj, o, r) : fill_props(d, obj, o, r)) == FAILURE) {
		if (o->shape->mode == RV_OBJ_WAKEUP && r->ce) {
			/* Its __wakeup() will not run: as unserialize(), no destructor call. */
			GC_ADD_FLAGS(obj, IS_OBJ_DESTRUCTOR_CALLED);
		}
		return fail(dst);
	}
	if ((o->shape->mode == RV_OBJ_WAKEUP || o->shape->mode == RV_OBJ_PROPS) && r->wakeup) {
		defer(d, obj, RV_OBJ_WAKEUP, NULL);
	}
	return SUCCESS;
}

/* An enum whose class or case is gone (the code changed since the value was
 * stored) throws; ctx->stale_decodes tells a caller that treats stale
 * values as misses (UserCache) that it was this, not an autoloader's
 * exception. */
static zend_result decode_enum(rv_context *ctx, zval *dst, const rv_enum_node *e)
{
	zend_class_entry *ce = rv_find_class(e->class_name, e->lc_class_name);
	if (!ce) {
		if (!EG(exception)) {
			ctx->stale_decodes++;
			zend_throw_error(NULL, "Class '%s' not found", ZSTR_VAL(e->class_name));
		}
		return FAILURE;
	}
	if (!(ce->ce_flags & ZEND_ACC_ENUM)) {
		ctx->stale_decodes++;
		zend_throw_error(NULL, "Class '%s' is not an enum", ZSTR_VAL(e->class_name));
		return FAILURE;
	}
	zend_class_constant *c = zend_hash_find_ptr(CE_CONSTANTS_TABLE(ce), e->case_name);
	if (!c || !(ZEND_CLASS_CONST_FLAGS(c) & ZEND_CLASS_CONST_IS_CASE)) {
		ctx->stale_decodes++;
		zend_throw_error(NULL, "Undefined constant %s::%s", ZSTR_VAL(ce->name), ZSTR_VAL(e->case_name));
		return FAILURE;
	}
	zend_object *obj = zend_enum_get_case(ce, e->case_name);
	if (!obj) {
		return FAILURE;
	}
	ZVAL_OBJ_COPY(dst, obj);
	return SUCCESS;
}

static zend_result decode_serialized(zval *dst, const rv_serialized_node *s)
{
	const unsigned char *p = (const unsigned char *)ZSTR_VAL(s->data);
	php_unserialize_data_t var_hash;
	/* A context of its own, not the one of an unserialize() running this fetch. */
	BG(serialize_lock)++;
	PHP_VAR_UNSERIALIZE_INIT(var_hash);
	bool ok = php_var_unserialize(dst, &p, p + ZSTR_LEN(s->data), &var_hash);
	PHP_VAR_UNSERIALIZE_DESTROY(var_hash);
	BG(serialize_lock)--;
	if (!ok) {
		zval_ptr_dtor(dst);
		ZVAL_NULL(dst);
		if (!EG(exception)) {
			zend_throw_error(NULL, "A cached object could not be unserialized");
		}
		return FAILURE;
	}
	return SUCCESS;
}

/* Replaces what is left of IS_PTR elements (after a failure) so the array
 * can be destroyed. */
static void neutralize(zend_array *ht, const rv_array_node *a, uint32_t from)
{
	for (uint32_t i = from; i < a->npatch; i++) {
		zval *el = patched_element(ht, a, i);
		ZVAL_NULL(el);
	}
}

/* A list whose every element is a node (a list of objects): made
 * element by element, instead of copying the template's pointers to have
 * each one overwritten. */
static zend_result decode_list(decoder *d, zval *dst, const rv_array_node *a)
{
	const zend_array *t = a->tmpl;
	uint32_t n = t->nNumUsed;
	if (rv_stack_exhausted()) {
		/* The elements' test (decode_node()), once for all: an object met
		 * first is made without it, below. */
		ZVAL_UNDEF(dst);
		return rv_decode_stack_error(d->ctx);
	}
	zend_array *ht = zend_new_array(n);
	zend_hash_real_init_packed(ht);
	for (uint32_t i = 0; i < n; i++) {
		const zval *src = &t->arPacked[i];
		const rv_node *node = Z_PTR_P(src);
		zend_result rc = RV_NODE_KIND(node) == RV_NODE_OBJECT && (!node->id || Z_TYPE(d->ids[node->id]) == IS_UNDEF)
			? decode_object(d, &ht->arPacked[i], (const rv_object_node *)node) : decode(d, &ht->arPacked[i], src);
		if (rc == FAILURE) {
			/* What was made so far goes with the array; the caller drops
			 * what a failure leaves in dst. */
			ht->nNumUsed = ht->nNumOfElements = i;
			ht->nNextFreeElement = i;
			zend_array_destroy(ht);
			ZVAL_UNDEF(dst);
			return FAILURE;
		}
		ht->nNumUsed = ht->nNumOfElements = i + 1;
	}
	ht->nNextFreeElement = t->nNextFreeElement;
	ZVAL_ARR(dst, ht);
	return SUCCESS;
}

static zend_never_inline zend_result decode_array(decoder *d, zval *dst, const rv_array_node *a)
{
	const zend_array *t = a->tmpl;
	if (HT_IS_PACKED(t) && a->npatch == t->nNumUsed && t->nNumOfElements == t->nNumUsed && a->npatch >= 8) {
		return decode_list(d, dst, a);
	}
	zend_array *ht;
	if (d->borrow) {
		ht = zend_array_dup(a->tmpl);
	} else if (!rv_copy_array_within_stack(&ht, a->tmpl)) {
		if (ht) {
			neutralize(ht, a, 0);
			zend_array_destroy(ht);
		}
		ZVAL_UNDEF(dst);
		return rv_decode_stack_error(d->ctx);
	}
	for (uint32_t i = 0; i < a->npatch; i++) {
		zval *el = patched_element(ht, a, i);
		zval v;
		if (decode(d, &v, el) == FAILURE) {
			neutralize(ht, a, i);
			zend_array_destroy(ht);
			/* The caller drops what a failure leaves in dst. */
			ZVAL_UNDEF(dst);
			return FAILURE;
		}
		ZVAL_COPY_VALUE(el, &v);
	}
	ZVAL_ARR(dst, ht);
	return SUCCESS;
}

/* A Closure made again from its code (closure.c), then bound and given
 * its variables, which may lead back to it. */
static zend_never_inline zend_result decode_closure(decoder *d, zval *dst, const rv_closure_node *n)
{
	if (rv_closure_make(d->ctx, n, dst) == FAILURE) {
		return FAILURE;
	}
	ZVAL_OBJ(&d->ids[n->n.id], Z_OBJ_P(dst));
	if (d->lazy) {
		GC_ADDREF(Z_OBJ_P(dst));
		d->opaque = true;
	}
	if (n->flags & RV_CLOSURE_BOUND) {
		zval this_zv;
		if (decode(d, &this_zv, &n->this_obj) == FAILURE) {
			return fail(dst);
		}
		if (Z_TYPE(this_zv) == IS_OBJECT) {
			rv_closure_bind(dst, Z_OBJ(this_zv));
		}
		zval_ptr_dtor(&this_zv);
	}
	for (uint32_t i = 0; i < n->nstatics; i++) {
		if (n->keep_mask & ((uint64_t)1 << i)) {
			continue;
		}
		zval v;
		if (decode(d, &v, &n->statics[i]) == FAILURE) {
			return fail(dst);
		}
		rv_closure_set_static(dst, i, &v, (n->ref_mask >> i) & 1);
	}
	return SUCCESS;
}

static zend_always_inline zend_result decode_node(decoder *d, zval *dst, const rv_node *n)
{
	if (rv_stack_exhausted()) {
		ZVAL_UNDEF(dst);
		return rv_decode_stack_error(d->ctx);
	}
	if (n->id && Z_TYPE(d->ids[n->id]) != IS_UNDEF) {
		/* Met before in this value: the same object or reference. It may
		 * close a cycle, which only the collector can free once the value
		 * is dropped, and it finds only what was put in its root buffer:
		 * unserialize() puts its objects there too. */
		zval *seen = &d->ids[n->id];
		if (Z_TYPE_P(seen) == IS_OBJECT) {
			ZVAL_OBJ_COPY(dst, Z_OBJ_P(seen));
		} else {
			ZVAL_COPY(dst, seen);
		}
		gc_check_possible_root(Z_COUNTED_P(dst));
		return SUCCESS;
	}
	switch (RV_NODE_KIND(n)) {
		case RV_NODE_ARRAY:
			return decode_array(d, dst, (const rv_array_node *)n);
		case RV_NODE_OBJECT:
			return decode_object(d, dst, (const rv_object_node *)n);
		case RV_NODE_REF: {
			const rv_ref_node *r = (const rv_ref_node *)n;
			ZVAL_NEW_REF(dst, &EG(uninitialized_zval));
			ZVAL_REF(&d->ids[n->id], Z_REF_P(dst));
			if (d->lazy) {
				GC_ADDREF(Z_REF_P(dst));
				d->opaque = true;
			}
			zval v;
			if (decode(d, &v, &r->value) == FAILURE) {
				return fail(dst);
			}
			ZVAL_COPY_VALUE(Z_REFVAL_P(dst), &v);
			return SUCCESS;
		}
		case RV_NODE_ENUM:
			if (decode_enum(d->ctx, dst, (const rv_enum_node *)n) == FAILURE) {
				ZVAL_UNDEF(dst);
				return FAILURE;
			}
			ZVAL_OBJ(&d->ids[n->id], Z_OBJ_P(dst));
			if (d->lazy) {
				GC_ADDREF(Z_OBJ_P(dst));
			}
			return SUCCESS;
		case RV_NODE_CLOSURE:
			return decode_closure(d, dst, (const rv_closure_node *)n);
		case RV_NODE_SERIALIZED:
			if (decode_serialized(dst, (const rv_serialized_node *)n) == FAILURE) {
				ZVAL_UNDEF(dst);
				return FAILURE;
			}
			if (Z_TYPE_P(dst) == IS_OBJECT) {
				ZVAL_OBJ(&d->ids[n->id], Z_OBJ_P(dst));
				if (d->lazy) {
					GC_ADDREF(Z_OBJ_P(dst));
				}
			}
			if (d->lazy) {
				d->opaque = true;
			}
			return SUCCESS;
	}
	zend_throw_error(NULL, "A cached value has an unknown node kind %u", n->kind);
	ZVAL_UNDEF(dst);
	return FAILURE;
}

static zend_result decode(decoder *d, zval *dst, const zval *src)
{
	if (Z_TYPE_P(src) != IS_PTR) {
		if (d->borrow) {
			ZVAL_COPY_VALUE(dst, src);
		} else if (!rv_copy_zval_within_stack(dst, src)) {
			zval_ptr_dtor(dst);
			ZVAL_UNDEF(dst);
			return rv_decode_stack_error(d->ctx);
		}
		return SUCCESS;
	}
	return decode_node(d, dst, Z_PTR_P(src));
}

/* A call of its own: decode() keeps decode_node() inline for the
 * elements of arrays, and the loops filling slots stay small. */
static zend_never_inline zend_result decode_ptr(decoder *d, zval *dst, const rv_node *n)
{
	return decode_node(d, dst, n);
}

/* A heap gets its items back through insert(), with a queue's flags. */
static void refill_heap(zend_object *obj, zval *data)
{
	zval *flags = zend_hash_str_find(Z_ARRVAL_P(data), "flags", 5);
	zval *items = zend_hash_str_find(Z_ARRVAL_P(data), "items", 5);
	if (flags) {
		zend_call_method_with_1_params(obj, obj->ce, NULL, "setextractflags", NULL, flags);
	}
	zval *item;
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(items), item) {
		if (flags) {
			zend_call_method_with_2_params(obj, obj->ce, NULL, "insert", NULL,
				zend_hash_index_find(Z_ARRVAL_P(item), 0), zend_hash_index_find(Z_ARRVAL_P(item), 1));
		} else {
			zend_call_method_with_1_params(obj, obj->ce, NULL, "insert", NULL, item);
		}
		if (EG(exception)) {
			return;
		}
	} ZEND_HASH_FOREACH_END();
}

/* A class with __serialize() and no __unserialize(): unserialize() writes
 * the data into the object as its properties, by name. A name it cannot
 * unmangle fails the value, with unserialize()'s notice. */
static zend_result data_as_properties(decoder *d, zend_object *obj, HashTable *data)
{
	bool declared = obj->ce->default_properties_count > 0;
	zend_string *key;
	zend_ulong idx;
	zval *v;
	ZEND_HASH_FOREACH_KEY_VAL(data, idx, key, v) {
		zend_string *name = key ? zend_string_copy(key) : zend_long_to_str((zend_long)idx);
		zend_property_info *info = NULL;
		if (ZSTR_LEN(name) && ZSTR_VAL(name)[0] == '\0') {
			const char *class_name, *prop;
			size_t prop_len;
			if (zend_unmangle_property_name_ex(name, &class_name, &prop, &prop_len) == FAILURE && declared) {
				zend_error(E_NOTICE, "Illegal member variable name");
				d->ctx->stale_decodes++;
				zend_throw_error(NULL, "Cannot restore a cached %s: a property name is not valid", ZSTR_VAL(obj->ce->name));
				zend_string_release(name);
				return FAILURE;
			}
		}
		info = declaration_of(obj->ce, name);
		zval copy;
		ZVAL_COPY(&copy, v);
		zend_result rc = info ? write_declared(d, obj, info, &copy) : write_dynamic(obj, name, &copy);
		zend_string_release(name);
		if (rc == FAILURE) {
			zval_ptr_dtor(&copy);
			return FAILURE;
		}
	} ZEND_HASH_FOREACH_END();
	return SUCCESS;
}

/* The object's __wakeup(), if its class has one, found as unserialize()
 * finds it: by the known name, whose hash is computed once, instead of a
 * lowercased copy of the name hashed for every object (a third of what
 * the call cost). */
static void call_wakeup(zend_object *obj)
{
	zend_function *wakeup = zend_hash_find_ptr(&obj->ce->function_table, ZSTR_KNOWN(ZEND_STR_WAKEUP));
	if (wakeup) {
		zend_call_known_instance_method_with_0_params(wakeup, obj, NULL);
	}
}

/* __unserialize() and __wakeup(), in the order the objects were completed.
 * A hook may wake a shell of the same graph, which defers and runs hooks of
 * its own past `end`: the entries are read by index. As unserialize() runs
 * them: under BG(serialize_lock), so that serialize() or unserialize()
 * called by a hook starts a context of its own instead of continuing the
 * one of an unserialize() this fetch runs inside (a Serializable's
 * unserialize()); and once one failed, the object whose hook threw and
 * those whose hook did not run get no destructor call. */
zend_result rv_decoder_finish(decoder *d, uint32_t from, zend_result rc)
{
	uint32_t end = d->ndefer;
	for (uint32_t i = from; i < end; i++) {
		deferred *e = &d->defer[i];
		bool user_hook = e->mode == RV_OBJ_UNSERIALIZE || e->mode == RV_OBJ_WAKEUP;
		if (rc == SUCCESS && !EG(exception)) {
			BG(serialize_lock)++;
			switch (e->mode) {
				case RV_OBJ_UNSERIALIZE:
					if (e->obj->ce->__unserialize) {
						zend_call_known_instance_method_with_1_params(e->obj->ce->__unserialize, e->obj, NULL, &e->data);
					} else if (Z_TYPE(e->data) == IS_ARRAY && data_as_properties(d, e->obj, Z_ARRVAL(e->data)) == FAILURE) {
						rc = FAILURE;
					} else {
						/* __serialize() without __unserialize(): serialize()
						 * writes its array as the properties, and
						 * unserialize() calls __wakeup() on them. */
						call_wakeup(e->obj);
					}
					break;
				case RV_OBJ_HEAP:
					refill_heap(e->obj, &e->data);
					break;
				case RV_OBJ_LOCALE:
					zend_call_method_with_1_params(e->obj, e->obj->ce, NULL, "locale", NULL, &e->data);
					break;
				default:
					call_wakeup(e->obj);
			}
			BG(serialize_lock)--;
			if (EG(exception)) {
				rc = FAILURE;
				if (user_hook) {
					GC_ADD_FLAGS(e->obj, IS_OBJ_DESTRUCTOR_CALLED);
				}
			}
		} else if (user_hook) {
			GC_ADD_FLAGS(e->obj, IS_OBJ_DESTRUCTOR_CALLED);
		}
		zval_ptr_dtor(&d->defer[i].data);
	}
	d->ndefer = from;
	return rc;
}

/* For lazy graphs (graph_lazy.c). */
resolved_shape *rv_decoder_resolve(decoder *d, const rv_shape *shape)
{
	return resolve(d, shape);
}

resolved_shape *rv_decoder_complete(decoder *d, resolved_shape *r, const rv_shape *shape)
{
	return completed(d, r, shape);
}

zend_result rv_decoder_fill_dense(decoder *d, zend_object *obj, const rv_object_node *o, resolved_shape *r,
                                  uint64_t *pending, void *marker)
{
	/* A lazy graph's decoder, which borrows (graph_lazy.c). */
	ZEND_ASSERT(d->borrow);
	return (o->n.kind & RV_OBJECT_PACKED) ? fill_dense_as(d, obj, o, r, true, true, false, pending, marker)
		: fill_dense_as(d, obj, o, r, false, true, false, pending, marker);
}

zend_result rv_decoder_fill_loose(decoder *d, zend_object *obj, const rv_object_node *o, resolved_shape *r)
{
	/* Its slots are UNDEF: the defaults first, as instantiation sets them. */
	object_properties_init(obj, r->ce);
	return fill_props(d, obj, o, r);
}

zend_result rv_decoder_fill_slot(decoder *d, zend_object *obj, const rv_object_node *o, resolved_shape *r, uint32_t i)
{
	const uint64_t *mask = rv_object_mask(o);
	/* Left pending, so present in the record. */
	uint32_t at = mask ? (uint32_t)__builtin_popcountll(*mask & (((uint64_t)1 << i) - 1)) : i;
	/* Made aside: the object is a shell's, which code run while its value
	 * is made (an autoloader that reaches the object) may write. */
	zval v;
	ZVAL_UNDEF(&v);
	if (write_dense_slot(d, d->borrow, obj, o->shape, r, i, &rv_object_values(o)[at], rv_object_types(o)[at], &v,
			&CE_DEFAULT_PROPERTIES_TABLE(r->ce)[i]) == FAILURE) {
		return FAILURE;
	}
	zval *slot = OBJ_PROP_NUM(obj, i);
	if (Z_TYPE_P(slot) == IS_UNDEF) {
		ZVAL_COPY_VALUE_PROP(slot, &v);
	} else {
		/* It did: its value stays, as the pending ones fill() finds written. */
		zval_ptr_dtor(&v);
	}
	return SUCCESS;
}

void rv_decoder_free(decoder *d)
{
	if (d->defer) {
		efree(d->defer);
	}
	for (resolved_chunk *c = d->chunks, *next; c; c = next) {
		next = c->next;
		efree(c);
	}
	if (d->table) {
		zend_hash_destroy(&d->resolved);
	}
}

zend_result rv_graph_decode(decoder *d, zval *dst, const void *area)
{
	const rv_graph_header *h = area;
	d->nids = h->nids;
	for (uint32_t i = 0; i <= h->nids; i++) {
		ZVAL_UNDEF(&d->ids[i]);
	}
	/* The deferred hooks of a graph that is thrown away do not run. */
	zend_result rc = rv_decoder_finish(d, 0, decode(d, dst, &h->root));
	if (rc == FAILURE) {
		zval_ptr_dtor(dst);
		ZVAL_NULL(dst);
	}
	return rc;
}

zend_result rv_graph_materialize(rv_context *ctx, zval *dst, const void *area, bool borrow)
{
	const rv_graph_header *h = area;
	decoder d = { .ctx = ctx, .borrow = borrow, .stamp = ctx->value_stamp,
		.internal_state_refused = ctx->internal_state_refused };
	ctx->internal_state_refused = false;
	zval few_ids[8];
	d.ids = h->nids < 8 ? few_ids : safe_emalloc(h->nids + 1, sizeof(zval), 0);
	zend_result rc = rv_graph_decode(&d, dst, area);
	if (d.ids != few_ids) {
		efree(d.ids);
	}
	rv_decoder_free(&d);
	return rc;
}
