/* SPDX-License-Identifier: MIT */
/*
 * What a dashboard shows: where memory goes (a map of the heap by address),
 * the largest entries, and the most read ones. None of this is on a hot
 * path except rs_hot_note, which readers call on one hit in RS_HOT_SAMPLE.
 */
#include "internal.h"
#include <string.h>

/* --- memory map ------------------------------------------------------------- */

void rs_memory_map(rs_store *st, uint32_t ncells, uint64_t (*out)[4])
{
	memset(out, 0, sizeof(*out) * ncells);
	if (ncells == 0) {
		return;
	}
	rs_header *h = st->hdr;
	uint64_t cell = (h->heap_size + ncells - 1) / ncells;
	/* Blocks split and merge under the lock: walk them under it too. */
	rs_lock(st);
	rs_off end = h->heap_off + h->heap_size;
	for (rs_off off = h->heap_off; off < end; ) {
		const rs_block *b = RS_PTR(st, off);
		uint64_t size = b->size_flags & ~RS_BLOCK_FLAGS;
		if (size == 0) {
			break;
		}
		int state = 1;
		if (b->size_flags & RS_BLOCK_USED) {
			uint8_t s = ((const rs_entry *)b)->state;
			state = s == RS_ENTRY_LIMBO ? 2 : s == RS_ENTRY_RESERVED ? 3 : 0;
		}
		/* A block may span cells: credit each its part. */
		for (uint64_t pos = off - h->heap_off, left = size; left > 0; ) {
			uint64_t i = pos / cell;
			uint64_t in_cell = (i + 1) * cell - pos;
			uint64_t part = left < in_cell ? left : in_cell;
			if (i < ncells) {
				out[i][state] += part;
			}
			pos += part;
			left -= part;
		}
		off += size;
	}
	rs_unlock(st);
}

/* --- largest entries ------------------------------------------------------------ */

static void fill_info(rs_store *st, const rs_entry *e, rs_key_info *k)
{
	(void)st;
	k->pool = e->pool;
	k->bytes = e->value_size;
	k->block_bytes = rs_block_size(&e->block);
	k->expires_ms = e->expires_ms;
	k->key_len = e->key_len <= RS_KEY_MAX ? e->key_len : RS_KEY_MAX;
	memcpy(k->key, e->key, k->key_len);
	k->key[k->key_len] = '\0';
}

uint32_t rs_largest(rs_store *st, rs_key_info *out, uint32_t n)
{
	uint32_t have = 0;
	int64_t now = (int64_t)rs_now_ms();
	rs_read_begin(st);
	for (uint64_t b = 0; b < st->hdr->nbuckets; b++) {
		rs_off off = atomic_load_explicit(&rs_buckets(st)[b], memory_order_acquire);
		while (off) {
			const rs_entry *e = RS_PTR(st, off);
			if (e->state == RS_ENTRY_LIVE && (!e->expires_ms || e->expires_ms > now)
					&& (have < n || e->value_size > out[have - 1].bytes)) {
				/* Insertion into the sorted top n. */
				uint32_t i = have < n ? have++ : n - 1;
				while (i > 0 && out[i - 1].bytes < e->value_size) {
					out[i] = out[i - 1];
					i--;
				}
				fill_info(st, e, &out[i]);
			}
			off = atomic_load_explicit(&e->next, memory_order_acquire);
		}
	}
	rs_read_end(st);
	return have;
}

/* --- hottest entries ------------------------------------------------------------ */

static uint64_t hot_id(const rs_entry *e)
{
	uint64_t id = e->hash ^ ((uint64_t)e->pool << 48);
	return id ? id : 1;
}

void rs_hot_note(rs_store *st, const rs_entry *e)
{
	rs_hot *t = st->hdr->hot;
	uint64_t id = hot_id(e);
	uint32_t min_i = 0;
	uint64_t min_count = UINT64_MAX;
	for (uint32_t i = 0; i < RS_HOT_SLOTS; i++) {
		if (atomic_load_explicit(&t[i].id, memory_order_relaxed) == id) {
			atomic_store_explicit(&t[i].entry, RS_OFF(st, e), memory_order_relaxed);
			atomic_fetch_add_explicit(&t[i].count, RS_HOT_SAMPLE, memory_order_relaxed);
			return;
		}
		uint64_t c = atomic_load_explicit(&t[i].count, memory_order_relaxed);
		if (c < min_count) {
			min_count = c;
			min_i = i;
		}
	}
	/* Space-Saving: the new key takes the least counted slot and its count. */
	atomic_store_explicit(&t[min_i].id, id, memory_order_relaxed);
	atomic_store_explicit(&t[min_i].entry, RS_OFF(st, e), memory_order_relaxed);
	atomic_store_explicit(&t[min_i].count, min_count + RS_HOT_SAMPLE, memory_order_relaxed);
}

/* The slot's entry, if it is still a live entry with the slot's id: slots
 * are written without the lock, and entries move on. */
static const rs_entry *hot_entry(rs_store *st, const rs_hot *slot, uint64_t id)
{
	rs_off off = atomic_load_explicit(&slot->entry, memory_order_relaxed);
	rs_header *h = st->hdr;
	if (off < h->heap_off || off + sizeof(rs_entry) > h->heap_off + h->heap_size || off % RS_ALIGN) {
		return NULL;
	}
	const rs_entry *e = RS_PTR(st, off);
	if (!(e->block.size_flags & RS_BLOCK_USED) || e->state != RS_ENTRY_LIVE || hot_id(e) != id
			|| e->key_len > RS_KEY_MAX || off + sizeof(rs_entry) + e->key_len > h->heap_off + h->heap_size) {
		return NULL;
	}
	return e;
}

uint32_t rs_hottest(rs_store *st, rs_key_info *out, uint32_t n)
{
	rs_hot copy[RS_HOT_SLOTS];
	for (uint32_t i = 0; i < RS_HOT_SLOTS; i++) {
		copy[i].id = atomic_load_explicit(&st->hdr->hot[i].id, memory_order_relaxed);
		copy[i].entry = atomic_load_explicit(&st->hdr->hot[i].entry, memory_order_relaxed);
		copy[i].count = atomic_load_explicit(&st->hdr->hot[i].count, memory_order_relaxed);
	}
	uint32_t have = 0;
	int64_t now = (int64_t)rs_now_ms();
	rs_read_begin(st);
	for (uint32_t round = 0; round < RS_HOT_SLOTS && have < n; round++) {
		/* The next most counted slot not taken yet. */
		int best = -1;
		for (uint32_t i = 0; i < RS_HOT_SLOTS; i++) {
			if (copy[i].id && (best < 0 || copy[i].count > copy[best].count)) {
				best = (int)i;
			}
		}
		if (best < 0) {
			break;
		}
		const rs_entry *e = hot_entry(st, &copy[best], copy[best].id);
		if (e && (!e->expires_ms || e->expires_ms > now)) {
			fill_info(st, e, &out[have]);
			out[have].hits = copy[best].count;
			have++;
		}
		copy[best].id = 0;
	}
	rs_read_end(st);
	return have;
}
