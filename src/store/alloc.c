/* SPDX-License-Identifier: MIT */
/*
 * Segregated-fit allocator over the segment heap, with boundary tags so
 * freed blocks merge with free neighbours. Small sizes have exact classes;
 * larger ones 8 classes per power of two (as in TLSF). A bitmap finds the
 * first non-empty class that fits in O(1). Large values are just large
 * blocks: there is no separate large-object area to run out of.
 *
 * Only the writer holding the segment lock calls these functions.
 */
#include "internal.h"
#include <string.h>

static inline uint32_t class_floor(uint64_t size)
{
	if (size < RS_SMALL_LIMIT) {
		return (uint32_t)(size / RS_ALIGN);
	}
	uint32_t fl = 63 - (uint32_t)__builtin_clzll(size);
	uint32_t sl = (uint32_t)(size >> (fl - RS_SUB_BITS)) & ((1u << RS_SUB_BITS) - 1);
	return RS_SMALL_CLASSES + (fl - 10) * (1u << RS_SUB_BITS) + sl;
}

/* The first class whose every block is at least `size` bytes. */
static inline uint32_t class_ceil(uint64_t size)
{
	if (size < RS_SMALL_LIMIT) {
		return (uint32_t)(size / RS_ALIGN);
	}
	uint32_t fl = 63 - (uint32_t)__builtin_clzll(size);
	uint64_t round = ((uint64_t)1 << (fl - RS_SUB_BITS)) - 1;
	return class_floor(size + round);
}

static inline rs_block *block_at(const rs_store *st, rs_off off) { return (rs_block *)(st->base + off); }
static inline rs_off heap_end(const rs_store *st) { return st->hdr->heap_off + st->hdr->heap_size; }

static void list_push(rs_store *st, rs_off off)
{
	rs_header *h = st->hdr;
	rs_free_block *fb = (rs_free_block *)block_at(st, off);
	uint32_t c = class_floor(rs_block_size(&fb->b));
	fb->prev_free = 0;
	fb->next_free = h->free_heads[c];
	if (fb->next_free) {
		((rs_free_block *)block_at(st, fb->next_free))->prev_free = off;
	}
	h->free_heads[c] = off;
	h->bitmap[c / 64] |= (uint64_t)1 << (c % 64);
}

static void list_remove(rs_store *st, rs_off off)
{
	rs_header *h = st->hdr;
	rs_free_block *fb = (rs_free_block *)block_at(st, off);
	uint32_t c = class_floor(rs_block_size(&fb->b));
	if (fb->prev_free) {
		((rs_free_block *)block_at(st, fb->prev_free))->next_free = fb->next_free;
	} else {
		h->free_heads[c] = fb->next_free;
		if (!fb->next_free) {
			h->bitmap[c / 64] &= ~((uint64_t)1 << (c % 64));
		}
	}
	if (fb->next_free) {
		((rs_free_block *)block_at(st, fb->next_free))->prev_free = fb->prev_free;
	}
}

static void set_prev_size_of_next(rs_store *st, rs_off off, uint64_t size)
{
	rs_off next = off + size;
	if (next < heap_end(st)) {
		block_at(st, next)->prev_size = size;
	}
}

uint64_t rs_alloc_round(uint64_t payload)
{
	uint64_t size = RS_ALIGN_UP(payload + sizeof(rs_block), RS_ALIGN);
	return size < RS_BLOCK_MIN ? RS_BLOCK_MIN : size;
}

void rs_alloc_init(rs_store *st)
{
	rs_header *h = st->hdr;
	memset(h->bitmap, 0, sizeof(h->bitmap));
	memset(h->free_heads, 0, sizeof(h->free_heads));
	rs_block *b = block_at(st, h->heap_off);
	b->size_flags = h->heap_size;
	b->prev_size = 0;
	h->used_bytes = 0;
	h->free_bytes = h->heap_size;
	list_push(st, h->heap_off);
}

static rs_off find_fit(rs_store *st, uint64_t size)
{
	rs_header *h = st->hdr;
	uint32_t c = class_ceil(size);
	if (c < RS_CLASSES) {
		uint32_t w = c / 64;
		uint64_t bits = h->bitmap[w] & (~(uint64_t)0 << (c % 64));
		while (!bits && ++w < RS_BITMAP_WORDS) {
			bits = h->bitmap[w];
		}
		if (bits) {
			return h->free_heads[w * 64 + (uint32_t)__builtin_ctzll(bits)];
		}
	}
	/* Blocks in the floor class may still fit (a value close to the size
	 * of the largest free block); look at a bounded number of them. */
	uint32_t f = class_floor(size);
	if (f >= RS_SMALL_CLASSES && f < RS_CLASSES) {
		int budget = 256;
		for (rs_off off = h->free_heads[f]; off && budget--; off = ((rs_free_block *)block_at(st, off))->next_free) {
			if (rs_block_size(block_at(st, off)) >= size) {
				return off;
			}
		}
	}
	return 0;
}

rs_off rs_alloc(rs_store *st, uint64_t size)
{
	rs_header *h = st->hdr;
	rs_off off = find_fit(st, size);
	if (!off) {
		return 0;
	}
	rs_block *b = block_at(st, off);
	uint64_t have = rs_block_size(b);
	list_remove(st, off);
	if (have - size >= RS_BLOCK_MIN) {
		/* The tail is written before the head shrinks, so a heap walk sees
		 * either one big block or two consistent ones. */
		rs_block *tail = block_at(st, off + size);
		tail->size_flags = have - size;
		tail->prev_size = size;
		set_prev_size_of_next(st, off + size, have - size);
		b->size_flags = size | RS_BLOCK_USED;
		list_push(st, off + size);
	} else {
		size = have;
		b->size_flags = size | RS_BLOCK_USED;
	}
	h->used_bytes += size;
	h->free_bytes -= size;
	return off;
}

void rs_free(rs_store *st, rs_off off)
{
	rs_header *h = st->hdr;
	rs_block *b = block_at(st, off);
	uint64_t size = rs_block_size(b);
	h->used_bytes -= size;
	h->free_bytes += size;
	b->size_flags = size;

	rs_off next = off + size;
	if (next < heap_end(st)) {
		rs_block *nb = block_at(st, next);
		if (!(nb->size_flags & RS_BLOCK_USED)) {
			list_remove(st, next);
			rs_crash_point(st, RS_CRASH_IN_FREE);
			size += rs_block_size(nb);
			b->size_flags = size;
		}
	}
	if (b->prev_size) {
		rs_off prev = off - b->prev_size;
		rs_block *pb = block_at(st, prev);
		if (!(pb->size_flags & RS_BLOCK_USED)) {
			list_remove(st, prev);
			rs_crash_point(st, RS_CRASH_IN_FREE);
			size += rs_block_size(pb);
			pb->size_flags = size;
			off = prev;
		}
	}
	set_prev_size_of_next(st, off, size);
	list_push(st, off);
}

void rs_alloc_shrink(rs_store *st, rs_off off, uint64_t size)
{
	rs_block *b = block_at(st, off);
	uint64_t have = rs_block_size(b);
	if (size < RS_BLOCK_MIN || have < size + RS_BLOCK_MIN) {
		return;
	}
	/* As in rs_alloc: the tail is written before the head shrinks. Dying
	 * between the two leaves one used block; dying before rs_free() ends,
	 * an unreachable used tail, which recovery collects. */
	rs_block *tail = block_at(st, off + size);
	tail->size_flags = (have - size) | RS_BLOCK_USED;
	tail->prev_size = size;
	set_prev_size_of_next(st, off + size, have - size);
	b->size_flags = size | RS_BLOCK_USED;
	/* Freeing the tail merges it with a free block after it. */
	rs_free(st, off + size);
}

uint64_t rs_largest_free(const rs_store *st)
{
	const rs_header *h = st->hdr;
	for (int w = RS_BITMAP_WORDS - 1; w >= 0; w--) {
		if (!h->bitmap[w]) {
			continue;
		}
		uint32_t c = (uint32_t)w * 64 + 63 - (uint32_t)__builtin_clzll(h->bitmap[w]);
		uint64_t best = 0;
		for (rs_off off = h->free_heads[c]; off; off = ((rs_free_block *)(st->base + off))->next_free) {
			uint64_t s = rs_block_size((rs_block *)(st->base + off));
			if (s > best) {
				best = s;
			}
		}
		return best;
	}
	return 0;
}

/* Recovery: rebuild free lists, counters and prev_size tags from a heap walk,
 * merging runs of free blocks. Used blocks are left as they are. */
void rs_alloc_rebuild(rs_store *st)
{
	rs_header *h = st->hdr;
	memset(h->bitmap, 0, sizeof(h->bitmap));
	memset(h->free_heads, 0, sizeof(h->free_heads));
	h->used_bytes = 0;
	h->free_bytes = 0;
	rs_off end = heap_end(st);
	uint64_t prev_size = 0;
	for (rs_off off = h->heap_off; off < end;) {
		rs_block *b = block_at(st, off);
		uint64_t size = rs_block_size(b);
		b->prev_size = prev_size;
		if (b->size_flags & RS_BLOCK_USED) {
			h->used_bytes += size;
		} else {
			while (off + size < end && !(block_at(st, off + size)->size_flags & RS_BLOCK_USED)) {
				size += rs_block_size(block_at(st, off + size));
			}
			b->size_flags = size;
			h->free_bytes += size;
			list_push(st, off);
		}
		prev_size = size;
		off += size;
	}
}

const char *rs_alloc_check(rs_store *st, uint64_t *free_blocks)
{
	rs_header *h = st->hdr;
	rs_off end = heap_end(st);
	uint64_t used = 0, freeb = 0, nfree = 0, prev_size = 0;
	bool prev_free = false;
	for (rs_off off = h->heap_off; off < end;) {
		rs_block *b = block_at(st, off);
		uint64_t size = rs_block_size(b);
		if (size < RS_BLOCK_MIN || off + size > end || (size % RS_ALIGN)) {
			return "heap walk: bad block size";
		}
		if (b->prev_size != prev_size) {
			return "heap walk: prev_size tag does not match";
		}
		if (b->size_flags & RS_BLOCK_USED) {
			used += size;
			prev_free = false;
		} else {
			if (prev_free) {
				return "heap walk: two adjacent free blocks";
			}
			freeb += size;
			nfree++;
			prev_free = true;
		}
		prev_size = size;
		off += size;
	}
	if (used != h->used_bytes || freeb != h->free_bytes) {
		return "allocator counters do not match the heap";
	}
	uint64_t listed = 0;
	for (uint32_t c = 0; c < RS_CLASSES; c++) {
		bool bit = (h->bitmap[c / 64] >> (c % 64)) & 1;
		if (bit != (h->free_heads[c] != 0)) {
			return "free bitmap does not match free lists";
		}
		rs_off prev = 0;
		for (rs_off off = h->free_heads[c]; off; off = ((rs_free_block *)block_at(st, off))->next_free) {
			rs_free_block *fb = (rs_free_block *)block_at(st, off);
			if (fb->b.size_flags & RS_BLOCK_USED) {
				return "used block on a free list";
			}
			if (class_floor(rs_block_size(&fb->b)) != c) {
				return "free block on the wrong class list";
			}
			if (fb->prev_free != prev) {
				return "free list back link broken";
			}
			prev = off;
			if (++listed > nfree) {
				return "free lists hold more blocks than the heap";
			}
		}
	}
	if (listed != nfree) {
		return "free block missing from the free lists";
	}
	if (free_blocks) {
		*free_blocks = nfree;
	}
	return NULL;
}
