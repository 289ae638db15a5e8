/* SPDX-License-Identifier: MIT */
/*
 * Laying a value out in a store entry (see writer.h).
 *
 * Strings become interned strings with their hash precomputed; arrays
 * become immutable arrays (refcount 2, static keys, compacted), exactly
 * the form OPcache gives literals, so the engine separates on write and
 * never touches them. Interned strings are never flagged permanent: they
 * are freed once no request can see them, and PCRE must not keep them as
 * cache keys.
 */
#include "php.h"
#include "writer.h"

static const uint32_t rv_uninitialized_bucket[2] = { HT_INVALID_IDX, HT_INVALID_IDX };

/* Past the end of a guessed reservation: the rest of the walk writes into
 * chunks of its own, chained from w->spill, and is thrown away. */
void *rv_spill(rv_writer *w, size_t size)
{
	if (!w->may_overflow) {
		/* The plan pass sized this exact walk; getting here is a bug, and
		 * writing on would corrupt the segment. Dying (rather than a
		 * bailout) lets the robust lock recover if we hold it. */
		fprintf(stderr, "Resident: value encoding exceeds its planned size\n");
		abort();
	}
	w->overflowed = true;
	/* Request memory: a value that can overflow (an object graph) is never
	 * written while the segment's lock is held, so running into
	 * memory_limit here only ends the request. The walk stops at its next
	 * step. */
	size_t cap = MAX(size, 8192);
	void **chunk = emalloc(ZEND_MM_ALIGNED_SIZE(sizeof(void *)) + cap);
	*chunk = w->spill;
	w->spill = chunk;
	char *p = (char *)chunk + ZEND_MM_ALIGNED_SIZE(sizeof(void *));
	w->cur = p + size;
	w->end = p + cap;
	return p;
}

void rv_writer_release(rv_writer *w)
{
	while (w->spill) {
		void **chunk = w->spill;
		w->spill = *chunk;
		efree(chunk);
	}
}

/* --- strings ------------------------------------------------------------------ */

/* Kept for the request rather than one store: they are few (lowercased
 * class names, time zone names and abbreviations) and every store of an
 * object asks for them again. */
static HashTable *temp_strings(rv_context *ctx)
{
	if (!ctx->temp_strings) {
		ALLOC_HASHTABLE(ctx->temp_strings);
		zend_hash_init(ctx->temp_strings, 16, NULL, ZVAL_PTR_DTOR, 0);
	}
	return ctx->temp_strings;
}

static zend_string *temp_string_lookup(HashTable *temps, const char *s, size_t len)
{
	zval *known = zend_hash_str_find(temps, s, len);
	if (known) {
		return Z_STR_P(known);
	}
	zval str;
	ZVAL_STRINGL(&str, s, len);
	zend_hash_str_add_new(temps, s, len, &str);
	return Z_STR(str);
}

zend_string *rv_temp_string(rv_context *ctx, const char *s, size_t len)
{
	/* The same few come back store after store (a time zone and its
	 * abbreviation): compare with the last ones before hashing. */
	zend_string **recent = ctx->recent_temps;
	for (int i = 0; i < RV_RECENT_TEMPS; i++) {
		if (recent[i] && ZSTR_LEN(recent[i]) == len && memcmp(ZSTR_VAL(recent[i]), s, len) == 0) {
			return recent[i];
		}
	}
	zend_string *found = temp_string_lookup(temp_strings(ctx), s, len);
	memmove(recent + 1, recent, (RV_RECENT_TEMPS - 1) * sizeof(*recent));
	memmove(ctx->recent_temp_srcs + 1, ctx->recent_temp_srcs, (RV_RECENT_TEMPS - 1) * sizeof(const char *));
	recent[0] = found;
	ctx->recent_temp_srcs[0] = NULL;
	return found;
}

zend_string *rv_temp_cstring(rv_context *ctx, const char *s)
{
	/* A C string of ext/date comes back from the same place store after
	 * store (timelib's zone cache, the time's own abbreviation): its
	 * address finds it without measuring it, and its bytes confirm. */
	zend_string **recent = ctx->recent_temps;
	const char **srcs = ctx->recent_temp_srcs;
	for (int i = 0; i < RV_RECENT_TEMPS; i++) {
		if (srcs[i] == s && recent[i] && strcmp(ZSTR_VAL(recent[i]), s) == 0) {
			return recent[i];
		}
	}
	zend_string *found = rv_temp_string(ctx, s, strlen(s));
	/* Now first among the recent ones: note where it came from. */
	for (int i = 0; i < RV_RECENT_TEMPS; i++) {
		if (recent[i] == found) {
			srcs[i] = s;
			break;
		}
	}
	return found;
}

size_t rv_string_plan(rv_context *ctx, zend_string *s)
{
	return rv_xlat_lookup(ctx, rv_xlat_str_slot(ctx, s), s, rv_xlat_same_string) ? 0 : rv_string_size(s);
}

zend_string *rv_copy_string(rv_writer *w, const zend_string *src)
{
	size_t len = ZSTR_LEN(src);
	zend_string *dst = rv_bump(w, rv_string_size(src));
	GC_SET_REFCOUNT(dst, 2);
	GC_TYPE_INFO(dst) = GC_STRING | ((IS_STR_INTERNED | (GC_FLAGS(src) & IS_STR_VALID_UTF8)) << GC_FLAGS_SHIFT);
	ZSTR_H(dst) = ZSTR_H(src);
	ZSTR_LEN(dst) = len;
	memcpy(ZSTR_VAL(dst), ZSTR_VAL(src), len + 1);
	return dst;
}

zend_string *rv_write_string_copy(rv_writer *w, rv_xlat_slot *slot, zend_string *src)
{
	/* Recorded once the copy is made: the write pass needs no marker. */
	zend_string *dst = rv_copy_string(w, src);
	slot->src = src;
	slot->dst = dst;
	slot->gen = w->ctx->xlat_gen;
	return dst;
}

/* --- arrays ----------------------------------------------------------------------- */

static void init_array_header(zend_array *dst, zend_long next_free)
{
	GC_SET_REFCOUNT(dst, 2);
	GC_TYPE_INFO(dst) = GC_ARRAY | ((IS_ARRAY_IMMUTABLE | GC_NOT_COLLECTABLE) << GC_FLAGS_SHIFT);
	dst->pDestructor = NULL;
	dst->nInternalPointer = 0;
	dst->nNextFreeElement = next_free;
}

zend_array *rv_write_empty_array(rv_writer *w, size_t *plan_size, zend_long next_free)
{
	if (!w) {
		*plan_size += RV_ALIGNED(sizeof(zend_array)) + RV_EMPTY_ARRAY_DATA_SIZE;
		return NULL;
	}
	zend_array *dst = rv_bump(w, RV_ALIGNED(sizeof(zend_array)));
	init_array_header(dst, next_free);
	HT_FLAGS(dst) = HASH_FLAG_UNINITIALIZED;
	dst->nTableMask = HT_MIN_MASK;
	dst->nTableSize = HT_MIN_SIZE;
	dst->nNumUsed = 0;
	dst->nNumOfElements = 0;
	void *data = rv_bump(w, RV_EMPTY_ARRAY_DATA_SIZE);
	memcpy(data, rv_uninitialized_bucket, sizeof(rv_uninitialized_bucket));
	HT_SET_DATA_ADDR(dst, data);
	return dst;
}

zend_array *rv_array_begin(rv_writer *w, size_t *plan_size, zend_array *src)
{
	if (!w) {
		*plan_size += RV_ALIGNED(sizeof(zend_array)) + rv_array_data_size(src);
		return NULL;
	}
	uint32_t count = zend_hash_num_elements(src);
	zend_array *dst = rv_bump(w, RV_ALIGNED(sizeof(zend_array)));
	init_array_header(dst, src->nNextFreeElement);
	void *data = rv_bump(w, rv_array_data_size(src));
	if (HT_IS_PACKED(src)) {
		HT_FLAGS(dst) = HASH_FLAG_PACKED | HASH_FLAG_STATIC_KEYS;
		dst->nTableMask = HT_MIN_MASK;
		dst->nNumUsed = src->nNumUsed;
		dst->nNumOfElements = count;
		dst->nTableSize = rv_table_size(src->nNumUsed);
		HT_SET_DATA_ADDR(dst, data);
		HT_HASH_RESET_PACKED(dst);
		return dst;
	}
	uint32_t size = rv_table_size(count);
	HT_FLAGS(dst) = HASH_FLAG_STATIC_KEYS;
	dst->nTableSize = size;
	dst->nTableMask = HT_SIZE_TO_MASK(size);
	dst->nNumUsed = dst->nNumOfElements = count;
	HT_SET_DATA_ADDR(dst, data);
	HT_HASH_RESET(dst);
	return dst;
}
