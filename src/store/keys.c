/* SPDX-License-Identifier: MIT */
/*
 * Key enumeration for callers that must not run their own code inside a
 * read section (PHP code can allocate and bail out, and a section without a
 * reader slot holds the write lock): the keys of a range of buckets are
 * copied out, with malloc, which never jumps, and handed over afterwards.
 */
#include "internal.h"
#include <stdlib.h>
#include <string.h>

typedef struct key_record {
	uint32_t len;
	uint32_t _pad;
	uint64_t value_size;
} key_record;

typedef struct collect_ctx {
	rs_key_batch *batch;
	size_t bucket_start;   /* where the current bucket's keys begin in the batch */
	bool out_of_memory;
} collect_ctx;

/* A key replaced while we walk its chain can be met twice (the new entry
 * is linked before the old one is unlinked); chains are short. */
static bool seen_in_bucket(const collect_ctx *c, const char *key, size_t len)
{
	const rs_key_batch *b = c->batch;
	for (size_t pos = c->bucket_start; pos < b->used;) {
		key_record rec;
		memcpy(&rec, b->buf + pos, sizeof(rec));
		if (rec.len == len && memcmp(b->buf + pos + sizeof(rec), key, len) == 0) {
			return true;
		}
		pos += sizeof(rec) + rec.len;
	}
	return false;
}

static void collect(collect_ctx *c, const rs_entry *e)
{
	rs_key_batch *b = c->batch;
	size_t len = e->key_len;
	size_t need = sizeof(key_record) + len;
	if (c->out_of_memory || seen_in_bucket(c, e->key, len)) {
		return;
	}
	if (b->used + need > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		while (cap < b->used + need) {
			cap *= 2;
		}
		char *grown = realloc(b->buf, cap);
		if (!grown) {
			c->out_of_memory = true;
			return;
		}
		b->buf = grown;
		b->cap = cap;
	}
	key_record rec = { .len = (uint32_t)len, .value_size = e->value_size };
	memcpy(b->buf + b->used, &rec, sizeof(rec));
	memcpy(b->buf + b->used + sizeof(rec), e->key, len);
	b->used += need;
	b->count++;
}

static bool collect_range(rs_store *st, uint16_t pool, bool with_expired, uint64_t *bucket, uint64_t nbuckets,
                          rs_key_batch *batch)
{
	collect_ctx c = { .batch = batch };
	uint64_t end = *bucket + nbuckets;
	if (end > st->hdr->nbuckets || end < *bucket) {
		end = st->hdr->nbuckets;
	}
	rs_read_begin(st);
	int64_t now = (int64_t)rs_now_ms();
	for (; *bucket < end && !c.out_of_memory; ++*bucket) {
		c.bucket_start = batch->used;
		rs_off off = atomic_load_explicit(&rs_buckets(st)[*bucket], memory_order_acquire);
		while (off) {
			const rs_entry *e = rs_entry_at(st, off);
			if (e->pool == pool && (with_expired || !rs_entry_expired(e, now))) {
				collect(&c, e);
			}
			off = atomic_load_explicit(&e->next, memory_order_acquire);
		}
	}
	rs_read_end(st);
	return !c.out_of_memory;
}

bool rs_keys_collect(rs_store *st, uint16_t pool, uint64_t *bucket, uint64_t nbuckets, rs_key_batch *batch)
{
	return collect_range(st, pool, false, bucket, nbuckets, batch);
}

bool rs_keys_collect_stored(rs_store *st, uint16_t pool, uint64_t *bucket, uint64_t nbuckets, rs_key_batch *batch)
{
	return collect_range(st, pool, true, bucket, nbuckets, batch);
}

bool rs_key_batch_next(const rs_key_batch *batch, size_t *pos, rs_key_ref *out)
{
	if (*pos >= batch->used) {
		return false;
	}
	key_record rec;
	memcpy(&rec, batch->buf + *pos, sizeof(rec));
	out->key = batch->buf + *pos + sizeof(rec);
	out->len = rec.len;
	out->value_size = rec.value_size;
	*pos += sizeof(rec) + rec.len;
	return true;
}

void rs_key_batch_clear(rs_key_batch *batch)
{
	batch->used = 0;
	batch->count = 0;
}

void rs_key_batch_free(rs_key_batch *batch)
{
	free(batch->buf);
	memset(batch, 0, sizeof(*batch));
}
