/* SPDX-License-Identifier: MIT */
/*
 * Per-class facts for storing objects (see class_profile.h).
 */
#include "php.h"
#include "value.h"
#include "class_profile.h"
#include "class_layout.h"
#include "date.h"
#include "ext/spl/spl_heap.h"

#define ALIGNED(n) ZEND_MM_ALIGNED_SIZE(n)

static rv_encoding encoding_of(zend_class_entry *ce, bool direct, uint32_t native)
{
	if (ce->ce_flags & ZEND_ACC_ENUM) {
		return RV_ENC_ENUM;
	}
	if (native != RV_NATIVE_NONE || direct) {
		return RV_ENC_PROPS;
	}
	if (instanceof_function(ce, spl_ce_SplHeap) || instanceof_function(ce, spl_ce_SplPriorityQueue)) {
		/* serialize() keeps no heap content; the items are kept here. */
		return RV_ENC_HEAP;
	}
	if (ce->__serialize) {
		return RV_ENC_UNSERIALIZE;
	}
	if (ce->serialize) {
		return RV_ENC_SERIALIZED;
	}
	if (zend_hash_str_exists(&ce->function_table, "__sleep", sizeof("__sleep") - 1)) {
		return RV_ENC_SLEEP;
	}
	return RV_ENC_PROPS;
}

static uint32_t mode_of(zend_class_entry *ce, rv_encoding enc, bool direct, uint32_t native)
{
	switch (enc) {
		case RV_ENC_UNSERIALIZE:
			return RV_OBJ_UNSERIALIZE;
		case RV_ENC_HEAP:
			return RV_OBJ_HEAP;
		default:
			return !direct && native == RV_NATIVE_NONE
				&& rv_class_has_wakeup(ce)
				? RV_OBJ_WAKEUP : RV_OBJ_PROPS;
	}
}

/* Carbon keeps its translator object in localTranslator; its own
 * __serialize() keeps only the locale name, and so does a direct copy. */
static int32_t translator_slot(zend_class_entry *ce)
{
	zend_class_entry *carbon = zend_hash_str_find_ptr(EG(class_table), "carbon\\carboninterface", sizeof("carbon\\carboninterface") - 1);
	if (!carbon || !instanceof_function(ce, carbon)) {
		return -1;
	}
	zend_property_info *info = zend_hash_str_find_ptr(&ce->properties_info, "localTranslator", sizeof("localTranslator") - 1);
	if (!info || (info->flags & ZEND_ACC_STATIC) || info->offset == 0) {
		return -1;
	}
	return (int32_t)OBJ_PROP_TO_NUM(info->offset);
}

/* A constant array default (scalars, strings, arrays of them) laid out in
 * the image, or with w NULL sized into *size. false: it holds something
 * else (an enum case), and such a default is never left out. */
static bool const_array(rv_writer *w, size_t *size, zend_array *a, zend_array **out)
{
	if (!w && rv_stack_exhausted()) {
		/* Deeper than the C stack left lets us look (PHP 8.3+: a class
		 * profiled in a Fiber): as something else. The write that follows
		 * a sizing walks no deeper from the same place. */
		return false;
	}
	if (zend_hash_num_elements(a) == 0) {
		*out = rv_write_empty_array(w, size, a->nNextFreeElement);
		return true;
	}
	zend_array *dst = rv_array_begin(w, size, a);
	uint32_t pos = 0;
	for (uint32_t i = 0; i < a->nNumUsed; i++) {
		zval *v = HT_IS_PACKED(a) ? &a->arPacked[i] : &a->arData[i].val;
		zval *el = NULL;
		if (Z_TYPE_P(v) == IS_UNDEF) {
			if (!HT_IS_PACKED(a)) {
				continue;
			}
			if (dst) {
				el = &dst->arPacked[i];
				el->value.lval = 0;
				Z_TYPE_INFO_P(el) = IS_UNDEF;
				Z_EXTRA_P(el) = 0;
			}
			continue;
		}
		Bucket *b = NULL;
		if (dst) {
			if (HT_IS_PACKED(a)) {
				el = &dst->arPacked[i];
			} else {
				b = dst->arData + pos;
				el = &b->val;
			}
		}
		if (!HT_IS_PACKED(a) && a->arData[i].key) {
			zend_string *key = a->arData[i].key;
			zend_string_hash_val(key);
			if (w) {
				b->key = rv_copy_string(w, key);
				b->h = ZSTR_H(key);
			} else {
				*size += rv_string_size(key);
			}
		} else if (b) {
			b->key = NULL;
			b->h = a->arData[i].h;
		}
		if (Z_TYPE_P(v) == IS_STRING) {
			zend_string_hash_val(Z_STR_P(v));
			if (w) {
				ZVAL_INTERNED_STR(el, rv_copy_string(w, Z_STR_P(v)));
			} else {
				*size += rv_string_size(Z_STR_P(v));
			}
		} else if (Z_TYPE_P(v) == IS_ARRAY) {
			zend_array *inner;
			if (!const_array(w, size, Z_ARR_P(v), &inner)) {
				return false;
			}
			if (el) {
				ZVAL_ARR(el, inner);
				Z_TYPE_INFO_P(el) = IS_ARRAY;
			}
		} else if (Z_TYPE_P(v) <= IS_DOUBLE) {
			if (el) {
				el->value.lval = Z_TYPE_P(v) >= IS_LONG ? v->value.lval : 0;
				Z_TYPE_INFO_P(el) = Z_TYPE_P(v);
			}
		} else {
			return false;
		}
		if (el) {
			Z_EXTRA_P(el) = 0;
		}
		if (b) {
			rv_array_link(dst, pos);
		}
		pos++;
	}
	*out = dst;
	return true;
}

/* Moves the pointers of an array const_array() laid out. */
static void move_array(zend_array *a, uintptr_t from, uintptr_t to)
{
#define MOVED(ptr) ((void *)((uintptr_t)(ptr) - from + to))
	a->arData = MOVED(a->arData);
	if (zend_hash_num_elements(a) == 0) {
		return;
	}
	for (uint32_t i = 0; i < a->nNumUsed; i++) {
		zval *v = HT_IS_PACKED(a) ? &a->arPacked[i] : &a->arData[i].val;
		if (!HT_IS_PACKED(a) && a->arData[i].key) {
			a->arData[i].key = MOVED(a->arData[i].key);
		}
		if (Z_TYPE_P(v) == IS_STRING) {
			Z_STR_P(v) = MOVED(Z_STR_P(v));
		} else if (Z_TYPE_P(v) == IS_ARRAY) {
			Z_ARR_P(v) = MOVED(Z_ARR_P(v));
			move_array(Z_ARR_P(v), from, to);
		}
	}
#undef MOVED
}

/* The shape of an object of the class with every declared property set
 * (no properties at all for the hook modes), as the graph writer would lay
 * it out, with pointers into the image itself. */
static void build_image(rv_context *ctx, rv_class_profile *p)
{
	zend_class_entry *ce = p->ce;
	uint32_t n = 0;
	if (p->enc == RV_ENC_PROPS) {
		n = (uint32_t)ce->default_properties_count;
		for (uint32_t i = 0; i < n; i++) {
			if (!ce->properties_info_table[i]) {
				return;
			}
		}
	} else if (p->enc != RV_ENC_UNSERIALIZE && p->enc != RV_ENC_HEAP) {
		return;
	}
	zend_string *lc = zend_string_tolower(ce->name);
	zend_string_hash_val(lc);
	zend_string_hash_val(ce->name);
	uint32_t slots = n ? n : 1;
	zval *defaults = CE_DEFAULT_PROPERTIES_TABLE(ce);
	size_t size = ALIGNED(sizeof(rv_shape)) + ALIGNED(sizeof(zend_string *) * slots) + ALIGNED(sizeof(int32_t) * slots)
		+ ALIGNED(slots) + sizeof(zval) * slots + rv_string_size(ce->name) + rv_string_size(lc);
	for (uint32_t i = 0; i < n; i++) {
		size += rv_string_size(ce->properties_info_table[i]->name);
		if (Z_TYPE(defaults[i]) == IS_STRING) {
			zend_string_hash_val(Z_STR(defaults[i]));
			size += rv_string_size(Z_STR(defaults[i]));
		} else if (Z_TYPE(defaults[i]) == IS_ARRAY) {
			size_t array_size = 0;
			zend_array *unused;
			if (const_array(NULL, &array_size, Z_ARR(defaults[i]), &unused)) {
				size += array_size;
			}
		}
	}
	p->image = emalloc(size);
	p->image_size = (uint32_t)size;
	memset(p->image, 0, size);
	rv_writer w = { p->image, p->image + size };
	rv_shape *shape = rv_bump(&w, ALIGNED(sizeof(rv_shape)));
	shape->names = rv_bump(&w, ALIGNED(sizeof(zend_string *) * slots));
	shape->slots = rv_bump(&w, ALIGNED(sizeof(int32_t) * slots));
	shape->prop_flags = rv_bump(&w, ALIGNED(slots));
	shape->defaults = rv_bump(&w, sizeof(zval) * slots);
	shape->class_name = rv_copy_string(&w, ce->name);
	shape->lc_class_name = rv_copy_string(&w, lc);
	shape->nprops = n;
	shape->mode = p->mode;
	/* Slots are known only for objects read straight from their slots. */
	shape->layout = n ? rv_class_layout(ctx, ce) : 0;
	for (uint32_t i = 0; i < n; i++) {
		shape->names[i] = rv_copy_string(&w, ce->properties_info_table[i]->name);
		shape->slots[i] = (int32_t)i;
		/* Only constants can be left out (holds_default(), graph_persist.c);
		 * UNDEF marks a default that never is. */
		zval *d = &defaults[i], *kept = &shape->defaults[i];
		size_t unused = 0;
		zend_array *arr, *copy;
		if (Z_TYPE_P(d) == IS_STRING) {
			ZVAL_INTERNED_STR(kept, rv_copy_string(&w, Z_STR_P(d)));
		} else if (Z_TYPE_P(d) == IS_ARRAY && const_array(NULL, &unused, (arr = Z_ARR_P(d)), &copy)) {
			const_array(&w, NULL, arr, &copy);
			ZVAL_ARR(kept, copy);
			Z_TYPE_INFO_P(kept) = IS_ARRAY;
		} else if (Z_TYPE_P(d) <= IS_DOUBLE) {
			ZVAL_COPY_VALUE(kept, d);
		} else {
			ZVAL_UNDEF(kept);
		}
		Z_EXTRA_P(kept) = 0;
	}
	ZEND_ASSERT(w.cur == w.end);
	zend_string_release(lc);
}

static void profile_dtor(zval *zv)
{
	rv_class_profile *p = Z_PTR_P(zv);
	if (p->image) {
		efree(p->image);
	}
	efree(p);
}

/* Root sizes outlive the request (ctx->root_sizes, class name ->
 * size): a php-fpm worker stores the same kinds of values request after
 * request, so its first store of a kind in a request needs no sizing pass
 * either. A guess that is wrong costs a planned store. */
#define ROOT_SIZES_MAX 4096

static size_t remembered_root_size(rv_context *ctx, zend_class_entry *ce)
{
	HashTable *sizes = ctx->root_sizes;
	zval *known = sizes ? zend_hash_find(sizes, ce->name) : NULL;
	return known ? (size_t)Z_LVAL_P(known) : 0;
}

static void remember_root_size(rv_context *ctx, zend_class_entry *ce, size_t size)
{
	HashTable *sizes = ctx->root_sizes;
	if (!sizes) {
		sizes = pemalloc(sizeof(HashTable), 1);
		zend_hash_init(sizes, 32, NULL, NULL, 1);
		ctx->root_sizes = sizes;
	}
	if (zend_hash_num_elements(sizes) < ROOT_SIZES_MAX || zend_hash_exists(sizes, ce->name)) {
		zval v;
		ZVAL_LONG(&v, (zend_long)size);
		/* The key is copied into persistent memory. */
		zend_hash_str_update(sizes, ZSTR_VAL(ce->name), ZSTR_LEN(ce->name), &v);
	}
}

/* The guess follows the largest recent size, so values of two sizes in
 * turn fit (commit gives the rest back), but a value far smaller than the
 * guess takes over, so one large value does not make the later ones
 * reserve, and perhaps evict, much more than they need. */
void rv_class_note_root_size(rv_context *ctx, rv_class_profile *p, size_t size)
{
	if (size > p->root_size || size < p->root_size / 2) {
		p->root_size = size;
		remember_root_size(ctx, p->ce, size);
	}
}

rv_class_profile *rv_class_profile_of(rv_context *ctx, zend_class_entry *ce)
{
	/* Values of one class are often stored one after another. */
	rv_class_profile *last = ctx->last_profile;
	if (last && last->ce == ce) {
		return last;
	}
	HashTable *cache = ctx->class_profiles;
	if (!cache) {
		ALLOC_HASHTABLE(cache);
		zend_hash_init(cache, 16, NULL, profile_dtor, 0);
		ctx->class_profiles = cache;
	}
	zval *known = zend_hash_index_find(cache, (zend_ulong)(uintptr_t)ce);
	if (known) {
		ctx->last_profile = Z_PTR_P(known);
		return Z_PTR_P(known);
	}
	rv_class_profile *p = ecalloc(1, sizeof(*p));
	p->ce = ce;
	/* The module keeps the list; asked once per class and request. */
	p->direct = ctx->is_direct_class && ctx->is_direct_class(ce);
	p->native = (ce->ce_flags & ZEND_ACC_ENUM) ? RV_NATIVE_NONE : rv_native_kind(ce, p->direct);
	p->enc = encoding_of(ce, p->direct, p->native);
	p->mode = mode_of(ce, p->enc, p->direct, p->native);
	p->translator_slot = p->direct ? translator_slot(ce) : -1;
	p->root_size = remembered_root_size(ctx, ce);
	build_image(ctx, p);
	zend_hash_index_add_new_ptr(cache, (zend_ulong)(uintptr_t)ce, p);
	ctx->last_profile = p;
	return p;
}

rv_shape *rv_class_shape_copy(const rv_class_profile *p, rv_writer *w)
{
	rv_shape *shape = rv_bump(w, p->image_size);
	memcpy(shape, p->image, p->image_size);
	uintptr_t to = (uintptr_t)shape, from = (uintptr_t)p->image;
#define MOVED(ptr) ((void *)((uintptr_t)(ptr) - from + to))
	shape->class_name = MOVED(shape->class_name);
	shape->lc_class_name = MOVED(shape->lc_class_name);
	shape->names = MOVED(shape->names);
	shape->slots = MOVED(shape->slots);
	shape->prop_flags = MOVED(shape->prop_flags);
	shape->defaults = MOVED(shape->defaults);
	for (uint32_t i = 0; i < shape->nprops; i++) {
		shape->names[i] = MOVED(shape->names[i]);
		if (Z_TYPE(shape->defaults[i]) == IS_STRING) {
			Z_STR(shape->defaults[i]) = MOVED(Z_STR(shape->defaults[i]));
		} else if (Z_TYPE(shape->defaults[i]) == IS_ARRAY) {
			Z_ARR(shape->defaults[i]) = MOVED(Z_ARR(shape->defaults[i]));
			move_array(Z_ARR(shape->defaults[i]), from, to);
		}
	}
#undef MOVED
	return shape;
}
