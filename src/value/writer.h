/* SPDX-License-Identifier: MIT */
/*
 * Laying a value out in a store entry: interned strings and immutable
 * arrays, the way OPcache lays out literals, written by a bump writer.
 * The encoding of plain values (persist.c), of object graphs
 * (graph_persist.c), of class shapes (class_profile.c) and of C states
 * (date.c) all build on these.
 */
#ifndef RESIDENT_VALUE_WRITER_H
#define RESIDENT_VALUE_WRITER_H

#include "php.h"
#include "context.h"

#define RV_ALIGNED(n) ZEND_MM_ALIGNED_SIZE(n)

typedef struct rv_writer {
	char *cur;
	char *end;
	/* Whose deduplication cache the strings written consult. */
	rv_context *ctx;
	/* A write into a reservation of a guessed size (see
	 * rv_write_unplanned) may not fit: then the bytes past the end go
	 * to memory of their own (spill) and the write is thrown away. Planned
	 * writes fit by construction; a graph's is allowed to overflow all the
	 * same, so that a disagreement between its passes refuses the value
	 * instead of ending the process. */
	bool may_overflow;
	bool overflowed;
	/* A plain value's write stopped where the C stack ran out (PHP 8.3+):
	 * planning checked the stack at each level, but the write's frames
	 * need not be the same size. The value is refused as too deep. */
	bool out_of_stack;
	void *spill;
} rv_writer;

/* Past the end of the reservation (see rv_writer.may_overflow). */
void *rv_spill(rv_writer *w, size_t size);

/* The next `size` bytes (a multiple of 8) of the entry. Inline: every
 * string and array written asks for some. */
static zend_always_inline void *rv_bump(rv_writer *w, size_t size)
{
	void *p = w->cur;
	if (UNEXPECTED(size > (size_t)(w->end - w->cur))) {
		return rv_spill(w, size);
	}
	w->cur += size;
	return p;
}
/* Frees what an overflowing write spilled. */
void rv_writer_release(rv_writer *w);

/* --- the deduplication cache ------------------------------------------------------
 * Strings and arrays met twice are stored once. The lookup is a small
 * direct-mapped cache rather than a hash table: the plan and the write
 * pass walk a value in the same order, each from a fresh generation
 * (ctx->xlat_gen), and make the same hit/miss decisions; a miss only costs
 * space. Strings are matched by content (keys of config trees repeat
 * endlessly), arrays by pointer (an array can only be shared by refcount).
 * Inline: the plan pass of plain values asks for every string and array. */

static zend_always_inline rv_xlat_slot *rv_xlat_arr_slot(rv_context *ctx, const void *p)
{
	uintptr_t h = (uintptr_t)p >> 3;
	h ^= h >> 11;
	return &ctx->xlat_arr[h & (RV_XLAT_SIZE - 1)];
}

static zend_always_inline rv_xlat_slot *rv_xlat_str_slot(rv_context *ctx, zend_string *s)
{
	return &ctx->xlat_str[zend_string_hash_val(s) & (RV_XLAT_SIZE - 1)];
}

static zend_always_inline bool rv_xlat_same_string(const void *a, const void *b)
{
	return zend_string_equal_content((zend_string *)a, (zend_string *)b);
}

/* Returns the destination recorded for an equal source (in the plan pass:
 * a non-NULL marker), or NULL after recording this source. */
static zend_always_inline void *rv_xlat_lookup(rv_context *ctx, rv_xlat_slot *slot, const void *src,
                                               bool (*same)(const void *, const void *))
{
	uint64_t gen = ctx->xlat_gen;
	if (slot->gen == gen && (slot->src == src || (same && same(slot->src, src)))) {
		return slot->dst;
	}
	slot->src = src;
	slot->dst = (void *)src;
	slot->gen = gen;
	return NULL;
}

/* --- sizes ------------------------------------------------------------------------- */

static zend_always_inline size_t rv_string_size(const zend_string *s)
{
	return RV_ALIGNED(_ZSTR_STRUCT_SIZE(ZSTR_LEN(s)));
}

/* The data of an empty array: its two hash slots, both empty. */
#define RV_EMPTY_ARRAY_DATA_SIZE RV_ALIGNED(2 * sizeof(uint32_t))

/* Table sizes are powers of two, as zend_hash keeps them, and never below
 * its 8 slots: a copy of the array (a fetch that builds it, a write to it)
 * keeps the size, and the engine's HT_HASH_RESET() writes a hash part of
 * 8 slots' size at least (PHP 8.3+ asserts it), also when a packed array
 * becomes a hash. */
static zend_always_inline uint32_t rv_table_size(uint32_t n)
{
	return n <= HT_MIN_SIZE ? HT_MIN_SIZE : (uint32_t)1 << (32 - __builtin_clz(n - 1));
}

/* The bytes of an array's data (hash and elements), laid out compacted. */
static zend_always_inline size_t rv_array_data_size(const zend_array *a)
{
	uint32_t count = zend_hash_num_elements(a);
	if (count == 0) {
		return RV_EMPTY_ARRAY_DATA_SIZE;
	}
	if (HT_IS_PACKED(a)) {
		return RV_ALIGNED(HT_HASH_SIZE(HT_MIN_MASK) + (size_t)a->nNumUsed * sizeof(zval));
	}
	return RV_ALIGNED(HT_HASH_SIZE(HT_SIZE_TO_MASK(rv_table_size(count))) + (size_t)count * sizeof(Bucket));
}

/* --- strings ---------------------------------------------------------------------------- */

/* Bytes a string adds to the plan (0 if an equal one is already planned),
 * and its interned copy in the entry. Both consult the same dedup cache,
 * so call them in the same order in both passes. */
size_t rv_string_plan(rv_context *ctx, zend_string *s);
zend_string *rv_write_string_copy(rv_writer *w, rv_xlat_slot *slot, zend_string *src);
/* Inline for a string met before (most keys): only a new one is copied. */
static zend_always_inline zend_string *rv_write_string(rv_writer *w, zend_string *src)
{
	rv_context *ctx = w->ctx;
	rv_xlat_slot *slot = rv_xlat_str_slot(ctx, src);
	if (slot->gen == ctx->xlat_gen && (slot->src == src || rv_xlat_same_string(slot->src, src))) {
		return slot->dst;
	}
	return rv_write_string_copy(w, slot, src);
}

/* The same copy without the dedup cache (for layouts prepared ahead of a
 * value, see class_profile.c). The source's hash must be computed. */
zend_string *rv_copy_string(rv_writer *w, const zend_string *s);

/* A string made while encoding (a lowercase class name, a C string of
 * ext/date), kept alive until the request ends: the dedup cache compares
 * by pointer first, so a freed string whose memory comes back as another
 * string would be taken for it. */
zend_string *rv_temp_string(rv_context *ctx, const char *s, size_t len);
/* The same for a NUL-terminated C string. */
zend_string *rv_temp_cstring(rv_context *ctx, const char *s);

/* --- arrays ----------------------------------------------------------------------------- */

/* With w == NULL, add the bytes to *plan_size and return NULL.
 * rv_array_begin lays out the header and the data area of an array shaped
 * like src (compacted); the caller fills packed elements, or hash buckets
 * in order, linking each with rv_array_link. */
zend_array *rv_write_empty_array(rv_writer *w, size_t *plan_size, zend_long next_free);
zend_array *rv_array_begin(rv_writer *w, size_t *plan_size, zend_array *src);
static zend_always_inline void rv_array_link(zend_array *dst, uint32_t pos)
{
	Bucket *q = dst->arData + pos;
	uint32_t n = (uint32_t)q->h | dst->nTableMask;
	Z_NEXT(q->val) = HT_HASH(dst, n);
	HT_HASH(dst, n) = HT_IDX_TO_HASH(pos);
}

#endif
