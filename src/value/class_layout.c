/* SPDX-License-Identifier: MIT */
/*
 * A class's property layout as a fingerprint (see class_layout.h).
 */
#include "php.h"
#include "class_layout.h"
#include "digest_walk.h"

/* A property's default as a word: its type and its value (a string's
 * hash, an array's digest). */
static zend_always_inline uint64_t default_word(zval *d)
{
	uint64_t x = Z_TYPE_P(d);
	if (Z_TYPE_P(d) == IS_LONG || Z_TYPE_P(d) == IS_DOUBLE) {
		x ^= (uint64_t)Z_LVAL_P(d) << 8;
	} else if (Z_TYPE_P(d) == IS_STRING) {
		x ^= (uint64_t)zend_string_hash_val(Z_STR_P(d)) << 8;
	} else if (Z_TYPE_P(d) == IS_ARRAY) {
		x ^= rv_digest_constant(d) << 8;
	}
	return x;
}

uint64_t rv_class_layout(rv_context *ctx, zend_class_entry *ce)
{
	/* Keyed by address: a table of classes, not of user input. */
	HashTable *cache = rv_class_lasting(ce) ? rv_context_table(&ctx->lasting_layouts, true, NULL)
		: rv_context_table(&ctx->layouts, false, NULL);
	zval *known = zend_hash_index_find(cache, (zend_ulong)(uintptr_t)ce);
	if (known) {
		return (uint64_t)Z_LVAL_P(known);
	}
	if ((ce->ce_flags & ZEND_ACC_HAS_AST_PROPERTIES) && ZEND_MAP_PTR(ce->mutable_data)
		&& !ZEND_MAP_PTR_GET_IMM(ce->mutable_data)) {
		/* A class OPcache holds keeps the defaults it evaluates from
		 * constant expressions per request, in a table made when the
		 * request first uses the class: a fetch can come first. This is
		 * what instantiating does (a store always has an instance, so it
		 * never gets here); it may autoload or throw, and then the layout
		 * is unknown (0, matching no record) and not remembered. */
		if (zend_update_class_constants(ce) == FAILURE) {
			return 0;
		}
	}
	/* Which slot holds which (mangled) name: enough to place values; their
	 * types are checked as they are written. */
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)ce->default_properties_count;
	zval *defaults = CE_DEFAULT_PROPERTIES_TABLE(ce);
	for (int i = 0; i < ce->default_properties_count; i++) {
		zend_property_info *info = ce->properties_info_table[i];
		uint64_t x = info ? zend_string_hash_val(info->name) : 0;
		h = (h ^ x ^ ((uint64_t)i << 32)) * 0x100000001b3ULL;
		h ^= h >> 29;
		/* The defaults a record may leave out (see rv_shape.defaults). */
		h = (h ^ default_word(&defaults[i])) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	if (h == 0) {
		h = 1;
	}
	zval v;
	ZVAL_LONG(&v, (zend_long)h);
	zend_hash_index_add_new(cache, (zend_ulong)(uintptr_t)ce, &v);
	return h;
}

uint64_t rv_class_print(rv_context *ctx, zend_class_entry *ce)
{
	/* Class entries are a few hundred bytes apart. */
	uintptr_t a = (uintptr_t)ce;
	rv_print_slot *slot = &ctx->prints[((a >> 6) ^ (a >> 13)) % RV_PRINT_SLOTS];
	if (slot->ce == ce && slot->request_no == ctx->request_no) {
		return slot->print;
	}
	/* What rv_class_layout() follows from (the names by slot, the
	 * defaults), what resolve_new() and complete_shape() read of the class
	 * (its flags, object constructor, declarations by address, their types,
	 * flags and offsets), and what its profile (class_profile.c) follows
	 * from besides resident.direct_classes, whose change drops what was
	 * kept: in one pass, once per class and request, as cheap as it can be
	 * (an FNV-like product; the layout's finer mixing is what a stored
	 * value records, this is compared within the process only). */
	const uint64_t p = 0x100000001b3ULL;
	uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)ce->default_properties_count;
	h = (h ^ ce->ce_flags) * p;
	h = (h ^ (uintptr_t)ce->create_object) * p;
	h = (h ^ (uintptr_t)ce->parent) * p;
	h = (h ^ (uintptr_t)ce->__serialize) * p;
	h = (h ^ (uintptr_t)ce->__unserialize) * p;
	h = (h ^ (uintptr_t)ce->serialize) * p;
	h = (h ^ (uintptr_t)ce->properties_info_table) * p;
	h = (h ^ (uint64_t)rv_class_has_wakeup(ce)) * p;
	zval *defaults = CE_DEFAULT_PROPERTIES_TABLE(ce);
	for (int i = 0; i < ce->default_properties_count; i++) {
		zend_property_info *info = ce->properties_info_table[i];
		h = (h ^ (uintptr_t)info) * p;
		if (info) {
			h = (h ^ zend_string_hash_val(info->name)) * p;
			h = (h ^ ZEND_TYPE_FULL_MASK(info->type)) * p;
			h = (h ^ (uintptr_t)info->type.ptr) * p;
			h = (h ^ (((uint64_t)info->flags << 32) | (uint32_t)info->offset)) * p;
		}
		h = (h ^ default_word(&defaults[i])) * p;
	}
	h ^= h >> 29;
	if (h == 0) {
		h = 1;
	}
	slot->ce = ce;
	slot->request_no = ctx->request_no;
	slot->print = h;
	return h;
}
