/*
 * PHP value -> immutable shared-memory graph.
 *
 * Two passes over the value: plan (validate, and size the encoding exactly)
 * and write (lay it out in the reserved entry). Strings become interned
 * strings with their hash precomputed; arrays become immutable arrays
 * (refcount 2, static keys, compacted), exactly the form OPcache gives
 * literals, so the engine separates on write and never touches them.
 * Interned strings are never flagged permanent: they are freed once no
 * request can see them, and PCRE must not keep them as cache keys.
 *
 * Strings and arrays met twice (same pointer) are stored once. The lookup is
 * a small direct-mapped cache rather than a hash table: both passes walk the
 * value in the same order and make the same hit/miss decisions, and a miss
 * only costs space.
 */
#include "php.h"
#include "php_resident.h"
#include "value.h"
#include "internal.h"
#include "zend_closures.h"
#include "zend_exceptions.h"
#include "zend_generators.h"
#include "zend_smart_str.h"
#include "ext/standard/php_var.h"

#define ALIGNED(n) ZEND_MM_ALIGNED_SIZE(n)

static const uint32_t rv_uninitialized_bucket[2] = { HT_INVALID_IDX, HT_INVALID_IDX };

/* --- deduplication caches ------------------------------------------------------
 * Strings are matched by content (keys of config trees repeat endlessly),
 * arrays by pointer (an array can only be shared by refcount). */

static zend_always_inline bool dedupable_arr(const zend_array *a)
{
	return (GC_FLAGS(a) & IS_ARRAY_IMMUTABLE) || GC_REFCOUNT(a) > 1;
}

static zend_always_inline resident_xlat_slot *arr_slot(const void *p)
{
	uintptr_t h = (uintptr_t)p >> 3;
	h ^= h >> 11;
	return &RESIDENT_G(xlat_arr)[h & (RESIDENT_XLAT_SIZE - 1)];
}

static zend_always_inline resident_xlat_slot *str_slot(zend_string *s)
{
	return &RESIDENT_G(xlat_str)[zend_string_hash_val(s) & (RESIDENT_XLAT_SIZE - 1)];
}

/* Returns the destination recorded for an equal source (in the plan pass:
 * a non-NULL marker), or NULL after recording this source. */
static zend_always_inline void *xlat_lookup(resident_xlat_slot *slot, const void *src, bool (*same)(const void *, const void *))
{
	if (slot->gen == RESIDENT_G(xlat_gen) && (slot->src == src || (same && same(slot->src, src)))) {
		return slot->dst;
	}
	slot->src = src;
	slot->dst = (void *)src;
	slot->gen = RESIDENT_G(xlat_gen);
	return NULL;
}

static bool same_string(const void *a, const void *b)
{
	return zend_string_equal_content((zend_string *)a, (zend_string *)b);
}

/* --- sizes -------------------------------------------------------------------- */

static zend_always_inline size_t string_size(const zend_string *s)
{
	return ALIGNED(_ZSTR_STRUCT_SIZE(ZSTR_LEN(s)));
}

/* Table sizes are powers of two, as zend_hash keeps them, and never below
 * its 8 slots: a copy of the array (a fetch that builds it, a write to it)
 * keeps the size, and the engine's HT_HASH_RESET() writes a hash part of
 * 8 slots' size at least (PHP 8.3+ asserts it), also when a packed array
 * becomes a hash. */
static zend_always_inline uint32_t table_size(uint32_t n)
{
	return n <= HT_MIN_SIZE ? HT_MIN_SIZE : (uint32_t)1 << (32 - __builtin_clz(n - 1));
}

static size_t array_data_size(const zend_array *a)
{
	uint32_t count = zend_hash_num_elements(a);
	if (count == 0) {
		return ALIGNED(sizeof(rv_uninitialized_bucket));
	}
	if (HT_IS_PACKED(a)) {
		return ALIGNED(HT_HASH_SIZE(HT_MIN_MASK) + (size_t)a->nNumUsed * sizeof(zval));
	}
	return ALIGNED(HT_HASH_SIZE(HT_SIZE_TO_MASK(table_size(count))) + (size_t)count * sizeof(Bucket));
}

/* --- paths and errors ----------------------------------------------------- */

static void render_key(smart_str *out, const zend_string *key)
{
	size_t len = ZSTR_LEN(key) > 64 ? 64 : ZSTR_LEN(key);
	smart_str_appendc(out, '\'');
	for (size_t i = 0; i < len; i++) {
		char c = ZSTR_VAL(key)[i];
		if (c == '\'' || c == '\\') {
			smart_str_appendc(out, '\\');
		}
		if ((unsigned char)c < 0x20) {
			smart_str_append_printf(out, "\\x%02x", (unsigned char)c);
		} else {
			smart_str_appendc(out, c);
		}
	}
	if (len < ZSTR_LEN(key)) {
		smart_str_appends(out, "...");
	}
	smart_str_appendc(out, '\'');
}

static void render(smart_str *out, const rv_path *p)
{
	if (p->up) {
		render(out, p->up);
	}
	switch (p->kind) {
		case RV_PATH_ROOT:
			smart_str_appendc(out, '$');
			smart_str_appends(out, p->name);
			break;
		case RV_PATH_NAMED:
			smart_str_appends(out, p->name);
			break;
		case RV_PATH_INDEX:
			smart_str_append_printf(out, "[" ZEND_LONG_FMT "]", (zend_long)p->index);
			break;
		case RV_PATH_KEY:
			smart_str_appendc(out, '[');
			render_key(out, p->key);
			smart_str_appendc(out, ']');
			break;
		case RV_PATH_SERIALIZED:
			smart_str_appends(out, "->__serialize()");
			break;
		case RV_PATH_PROP: {
			const char *class_name, *prop;
			size_t prop_len;
			zend_unmangle_property_name_ex(p->key, &class_name, &prop, &prop_len);
			smart_str_appends(out, "->");
			smart_str_appendl(out, prop, prop_len);
			break;
		}
	}
}

zend_string *rv_path_render(const rv_path *path)
{
	smart_str out = {0};
	render(&out, path);
	smart_str_0(&out);
	return out.s;
}

static zend_result refuse(uint32_t arg_num, const rv_path *path, const char *what, const char *class_name)
{
	zend_string *where = rv_path_render(path);
	if (class_name) {
		rv_type_error(arg_num, "cannot be cached: %s is %s %s", ZSTR_VAL(where), what, class_name);
	} else {
		rv_type_error(arg_num, "cannot be cached: %s is %s", ZSTR_VAL(where), what);
	}
	zend_string_release(where);
	return FAILURE;
}

/* --- plan pass -------------------------------------------------------------------- */

typedef struct plan_ctx {
	size_t size;
	bool graph;           /* met an object or a shared reference */
	uint32_t depth;
	uint32_t arg_num;
} plan_ctx;

static zend_result plan_zval(plan_ctx *c, zval *zv, const rv_path *path);

static zend_result plan_array(plan_ctx *c, zend_array *a, const rv_path *path)
{
	if (dedupable_arr(a) && xlat_lookup(arr_slot(a), a, NULL)) {
		return SUCCESS;
	}
	c->size += ALIGNED(sizeof(zend_array)) + array_data_size(a);
	if (zend_hash_num_elements(a) == 0) {
		return SUCCESS;
	}
	if (++c->depth > RV_MAX_DEPTH) {
		rv_value_error(c->arg_num, "is nested deeper than %d levels", RV_MAX_DEPTH);
		return FAILURE;
	}
	zend_string *key;
	zend_ulong idx;
	zval *val;
	ZEND_HASH_FOREACH_KEY_VAL(a, idx, key, val) {
		/* Scalars need no path frame; this loop is the hot one. */
		if (Z_TYPE_P(val) <= IS_DOUBLE && !key) {
			continue;
		}
		if (key && !xlat_lookup(str_slot(key), key, same_string)) {
			c->size += string_size(key);
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
 * encoding (value/graph_persist.c), which takes over from here. */
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
			if (!xlat_lookup(str_slot(Z_STR_P(zv)), Z_STR_P(zv), same_string)) {
				c->size += string_size(Z_STR_P(zv));
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
			return refuse(c->arg_num, path, "a resource", NULL);
		default:
			return refuse(c->arg_num, path, "an internal value", NULL);
	}
}

zend_result rv_plan_value(rv_plan *plan, zval *value, const rv_path *path, uint32_t arg_num)
{
	memset(plan, 0, sizeof(*plan));
	plan->value = value;
	plan->path = path;
	plan->arg_num = arg_num;
	RESIDENT_G(xlat_gen)++;

	plan_ctx c = { .size = sizeof(zval), .arg_num = arg_num };
	if (plan_zval(&c, value, path) == SUCCESS) {
		plan->kind = RV_KIND_ZVAL;
		plan->size = c.size;
		return SUCCESS;
	}
	if (!c.graph) {
		return FAILURE;
	}
	plan->graph = rv_graph_plan_value(value, path, arg_num, &plan->size);
	if (!plan->graph) {
		return FAILURE;
	}
	plan->kind = RV_KIND_GRAPH;
	return SUCCESS;
}

void rv_plan_release(rv_plan *plan)
{
	if (plan->graph) {
		rv_graph_plan_free(plan->graph);
		plan->graph = NULL;
	}
}

/* --- write pass --------------------------------------------------------------- */

/* Past the end of a guessed reservation: the rest of the walk writes into
 * chunks of its own, chained from w->spill, and is thrown away. */
static zend_never_inline void *spill(rv_writer *w, size_t size)
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

void *rv_bump(rv_writer *w, size_t size)
{
	void *p = w->cur;
	if (UNEXPECTED(size > (size_t)(w->end - w->cur))) {
		return spill(w, size);
	}
	w->cur += size;
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

/* Kept for the request rather than one store: they are few (lowercased
 * class names, time zone names and abbreviations) and every store of an
 * object asks for them again. */
HashTable *rv_temp_strings(void)
{
	if (!RESIDENT_G(temp_strings)) {
		ALLOC_HASHTABLE(RESIDENT_G(temp_strings));
		zend_hash_init(RESIDENT_G(temp_strings), 16, NULL, ZVAL_PTR_DTOR, 0);
	}
	return RESIDENT_G(temp_strings);
}

static zend_string *rv_temp_string_lookup(HashTable *temps, const char *s, size_t len)
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

zend_string *rv_temp_string(HashTable *temps, const char *s, size_t len)
{
	/* The same few come back store after store (a time zone and its
	 * abbreviation): compare with the last ones before hashing. */
	zend_string **recent = RESIDENT_G(recent_temps);
	for (int i = 0; i < RESIDENT_RECENT_TEMPS; i++) {
		if (recent[i] && ZSTR_LEN(recent[i]) == len && memcmp(ZSTR_VAL(recent[i]), s, len) == 0) {
			return recent[i];
		}
	}
	zend_string *found = rv_temp_string_lookup(temps, s, len);
	memmove(recent + 1, recent, (RESIDENT_RECENT_TEMPS - 1) * sizeof(*recent));
	memmove(RESIDENT_G(recent_temp_srcs) + 1, RESIDENT_G(recent_temp_srcs), (RESIDENT_RECENT_TEMPS - 1) * sizeof(const char *));
	recent[0] = found;
	RESIDENT_G(recent_temp_srcs)[0] = NULL;
	return found;
}

zend_string *rv_temp_cstring(HashTable *temps, const char *s)
{
	/* A C string of ext/date comes back from the same place store after
	 * store (timelib's zone cache, the time's own abbreviation): its
	 * address finds it without measuring it, and its bytes confirm. */
	zend_string **recent = RESIDENT_G(recent_temps);
	const char **srcs = RESIDENT_G(recent_temp_srcs);
	for (int i = 0; i < RESIDENT_RECENT_TEMPS; i++) {
		if (srcs[i] == s && recent[i] && strcmp(ZSTR_VAL(recent[i]), s) == 0) {
			return recent[i];
		}
	}
	zend_string *found = rv_temp_string(temps, s, strlen(s));
	/* Now first among the recent ones: note where it came from. */
	for (int i = 0; i < RESIDENT_RECENT_TEMPS; i++) {
		if (recent[i] == found) {
			srcs[i] = s;
			break;
		}
	}
	return found;
}

size_t rv_string_plan(zend_string *s)
{
	return xlat_lookup(str_slot(s), s, same_string) ? 0 : string_size(s);
}

zend_string *rv_copy_string(rv_writer *w, const zend_string *src)
{
	size_t len = ZSTR_LEN(src);
	zend_string *dst = rv_bump(w, string_size(src));
	GC_SET_REFCOUNT(dst, 2);
	GC_TYPE_INFO(dst) = GC_STRING | ((IS_STR_INTERNED | (GC_FLAGS(src) & IS_STR_VALID_UTF8)) << GC_FLAGS_SHIFT);
	ZSTR_H(dst) = ZSTR_H(src);
	ZSTR_LEN(dst) = len;
	memcpy(ZSTR_VAL(dst), ZSTR_VAL(src), len + 1);
	return dst;
}

size_t rv_string_size(const zend_string *s)
{
	return string_size(s);
}

zend_string *rv_write_string(rv_writer *w, zend_string *src)
{
	resident_xlat_slot *slot = str_slot(src);
	zend_string *dst = xlat_lookup(slot, src, same_string);
	if (dst) {
		return dst;
	}
	dst = rv_copy_string(w, src);
	slot->dst = dst;
	return dst;
}

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
		*plan_size += ALIGNED(sizeof(zend_array)) + ALIGNED(sizeof(rv_uninitialized_bucket));
		return NULL;
	}
	zend_array *dst = rv_bump(w, ALIGNED(sizeof(zend_array)));
	init_array_header(dst, next_free);
	HT_FLAGS(dst) = HASH_FLAG_UNINITIALIZED;
	dst->nTableMask = HT_MIN_MASK;
	dst->nTableSize = HT_MIN_SIZE;
	dst->nNumUsed = 0;
	dst->nNumOfElements = 0;
	void *data = rv_bump(w, ALIGNED(sizeof(rv_uninitialized_bucket)));
	memcpy(data, rv_uninitialized_bucket, sizeof(rv_uninitialized_bucket));
	HT_SET_DATA_ADDR(dst, data);
	return dst;
}

zend_array *rv_array_begin(rv_writer *w, size_t *plan_size, zend_array *src)
{
	if (!w) {
		*plan_size += ALIGNED(sizeof(zend_array)) + array_data_size(src);
		return NULL;
	}
	uint32_t count = zend_hash_num_elements(src);
	zend_array *dst = rv_bump(w, ALIGNED(sizeof(zend_array)));
	init_array_header(dst, src->nNextFreeElement);
	void *data = rv_bump(w, array_data_size(src));
	if (HT_IS_PACKED(src)) {
		HT_FLAGS(dst) = HASH_FLAG_PACKED | HASH_FLAG_STATIC_KEYS;
		dst->nTableMask = HT_MIN_MASK;
		dst->nNumUsed = src->nNumUsed;
		dst->nNumOfElements = count;
		dst->nTableSize = table_size(src->nNumUsed);
		HT_SET_DATA_ADDR(dst, data);
		HT_HASH_RESET_PACKED(dst);
		return dst;
	}
	uint32_t size = table_size(count);
	HT_FLAGS(dst) = HASH_FLAG_STATIC_KEYS;
	dst->nTableSize = size;
	dst->nTableMask = HT_SIZE_TO_MASK(size);
	dst->nNumUsed = dst->nNumOfElements = count;
	HT_SET_DATA_ADDR(dst, data);
	HT_HASH_RESET(dst);
	return dst;
}

void rv_array_link(zend_array *dst, uint32_t pos)
{
	Bucket *q = dst->arData + pos;
	uint32_t n = (uint32_t)q->h | dst->nTableMask;
	Z_NEXT(q->val) = HT_HASH(dst, n);
	HT_HASH(dst, n) = HT_IDX_TO_HASH(pos);
}

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
	resident_xlat_slot *slot = NULL;
	zend_array *dst;
	if (dedupable_arr(src)) {
		slot = arr_slot(src);
		if ((dst = xlat_lookup(slot, src, NULL))) {
			return dst;
		}
	}
	bool empty = zend_hash_num_elements(src) == 0;
	dst = empty ? rv_write_empty_array(w, NULL, src->nNextFreeElement) : rv_array_begin(w, NULL, src);
	if (slot) {
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

zend_result rv_write(rv_plan *plan, void *area)
{
	if (plan->kind == RV_KIND_GRAPH) {
		return rv_graph_write(plan->graph, plan->value, plan->path, area, plan->size);
	}
	/* A fresh, empty dedup cache, as the plan pass had: the same walk makes
	 * the same decisions, so the layout fits the planned size exactly. */
	RESIDENT_G(xlat_gen)++;
	rv_writer w = { .cur = (char *)area + sizeof(zval), .end = (char *)area + plan->size };
	write_zval(&w, (zval *)area, plan->value);
	Z_EXTRA_P((zval *)area) = 0;
	/* Less only if a symbol table counted a deleted variable. */
	ZEND_ASSERT(w.cur <= w.end);
	return SUCCESS;
}

static void rv_error(zend_class_entry *ce, uint32_t arg_num, const char *fmt, va_list args)
{
	char *msg;
	zend_vspprintf(&msg, 0, fmt, args);
	zend_string **sink = RESIDENT_G(error_sink);
	if (sink) {
		if (!*sink) {
			*sink = zend_string_init(msg, strlen(msg), 0);
		}
	} else if (arg_num && EG(current_execute_data)) {
		zend_argument_error(ce, arg_num, "%s", msg);
	} else {
		zend_throw_error(ce, "Value %s", msg);
	}
	efree(msg);
}

void rv_type_error(uint32_t arg_num, const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	rv_error(zend_ce_type_error, arg_num, fmt, args);
	va_end(args);
}

void rv_value_error(uint32_t arg_num, const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	rv_error(zend_ce_value_error, arg_num, fmt, args);
	va_end(args);
}
