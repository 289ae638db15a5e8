/* SPDX-License-Identifier: MIT */
/*
 * Resident\KeyIterator: the live keys of a pool, collected a few hundred
 * buckets at a time inside short read sections, so iterating never blocks
 * writers and never holds on to shared memory between steps.
 */
#include "php.h"
#include "php_resident.h"
#include "runtime/segment.h"
#include "api.h"

#define BUCKETS_PER_STEP 512

typedef struct key_iter {
	uint16_t pool;
	zend_string *prefix;
	uint64_t next_bucket;
	HashTable batch;       /* the keys of the buckets read last, as a list (a table keyed by them could be flooded) */
	HashPosition pos;
	zend_long index;
	zend_object std;
} key_iter;

static zend_class_entry *key_iter_ce;
static zend_object_handlers key_iter_handlers;

static inline key_iter *iter_from(zend_object *obj)
{
	return (key_iter *)((char *)obj - XtOffsetOf(key_iter, std));
}

static zend_object *iter_create(zend_class_entry *ce)
{
	key_iter *it = zend_object_alloc(sizeof(key_iter), ce);
	zend_object_std_init(&it->std, ce);
	zend_hash_init(&it->batch, 16, NULL, ZVAL_PTR_DTOR, 0);
	it->std.handlers = &key_iter_handlers;
	return &it->std;
}

static void iter_free(zend_object *obj)
{
	key_iter *it = iter_from(obj);
	zend_hash_destroy(&it->batch);
	if (it->prefix) {
		zend_string_release(it->prefix);
	}
	zend_object_std_dtor(obj);
}

/* Reads buckets until some keys turn up or none are left. The keys are
 * copied out of the segment first: adding them to the batch allocates,
 * which must not happen inside a read section. */
static void fill(key_iter *it)
{
	zend_hash_clean(&it->batch);
	rs_store *st = resident_store();
	if (!st) {
		return;
	}
	uint64_t n = rs_bucket_count(st);
	rs_key_batch keys = {0};
	while (zend_hash_num_elements(&it->batch) == 0 && it->next_bucket < n) {
		rs_key_batch_clear(&keys);
		bool complete = rs_keys_collect(st, it->pool, &it->next_bucket, BUCKETS_PER_STEP, &keys);
		rs_key_ref k;
		for (size_t pos = 0; rs_key_batch_next(&keys, &pos, &k);) {
			if (k.len >= ZSTR_LEN(it->prefix) && memcmp(k.key, ZSTR_VAL(it->prefix), ZSTR_LEN(it->prefix)) == 0) {
				zval key;
				ZVAL_STRINGL(&key, k.key, k.len);
				zend_hash_next_index_insert_new(&it->batch, &key);
			}
		}
		if (!complete) {
			zend_throw_error(NULL, "Resident\\KeyIterator: out of memory while copying keys");
			break;
		}
	}
	rs_key_batch_free(&keys);
	zend_hash_internal_pointer_reset_ex(&it->batch, &it->pos);
}

void resident_key_iterator_create(zval *dst, uint16_t pool, zend_string *prefix)
{
	object_init_ex(dst, key_iter_ce);
	key_iter *it = iter_from(Z_OBJ_P(dst));
	it->pool = pool;
	it->prefix = zend_string_copy(prefix);
	fill(it);
}

#define THIS_ITER() iter_from(Z_OBJ_P(ZEND_THIS))

ZEND_METHOD(Resident_KeyIterator, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
}

ZEND_METHOD(Resident_KeyIterator, current)
{
	ZEND_PARSE_PARAMETERS_NONE();
	key_iter *it = THIS_ITER();
	zval *key = zend_hash_get_current_data_ex(&it->batch, &it->pos);
	if (!key) {
		zend_throw_error(NULL, "The iterator is past its last key");
		RETURN_THROWS();
	}
	RETURN_COPY(key);
}

ZEND_METHOD(Resident_KeyIterator, key)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG(THIS_ITER()->index);
}

ZEND_METHOD(Resident_KeyIterator, next)
{
	ZEND_PARSE_PARAMETERS_NONE();
	key_iter *it = THIS_ITER();
	if (zend_hash_get_current_data_ex(&it->batch, &it->pos) == NULL) {
		return;
	}
	it->index++;
	zend_hash_move_forward_ex(&it->batch, &it->pos);
	if (zend_hash_get_current_data_ex(&it->batch, &it->pos) == NULL) {
		fill(it);
	}
}

ZEND_METHOD(Resident_KeyIterator, rewind)
{
	ZEND_PARSE_PARAMETERS_NONE();
	key_iter *it = THIS_ITER();
	it->next_bucket = 0;
	it->index = 0;
	fill(it);
}

ZEND_METHOD(Resident_KeyIterator, valid)
{
	ZEND_PARSE_PARAMETERS_NONE();
	key_iter *it = THIS_ITER();
	RETURN_BOOL(zend_hash_get_current_data_ex(&it->batch, &it->pos) != NULL);
}

void resident_key_iterator_register(zend_class_entry *ce)
{
	key_iter_ce = ce;
	ce->create_object = iter_create;
	memcpy(&key_iter_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	key_iter_handlers.offset = XtOffsetOf(key_iter, std);
	key_iter_handlers.free_obj = iter_free;
	key_iter_handlers.clone_obj = NULL;
}
