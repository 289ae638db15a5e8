/* SPDX-License-Identifier: MIT */
/*
 * Keyed hash of (pool, key): SipHash-1-3 with a random key per segment, so
 * that nobody can precompute keys that collide in the index (PHP's own
 * DJBX33A string hash is trivially floodable). And FNV-1a, the checksum of
 * segment and dump headers and of dump bodies.
 */
#include "internal.h"
#include <string.h>

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

#define SIPROUND do { \
		v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32); \
		v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2; \
		v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0; \
		v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32); \
	} while (0)

static inline uint64_t load64le(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static uint64_t siphash13(const uint64_t k[2], const unsigned char *in, size_t len)
{
	uint64_t v0 = 0x736f6d6570736575ULL ^ k[0];
	uint64_t v1 = 0x646f72616e646f6dULL ^ k[1];
	uint64_t v2 = 0x6c7967656e657261ULL ^ k[0];
	uint64_t v3 = 0x7465646279746573ULL ^ k[1];
	uint64_t b = ((uint64_t)len) << 56;
	const unsigned char *end = in + len - (len % 8);

	for (; in != end; in += 8) {
		uint64_t m = load64le(in);
		v3 ^= m;
		SIPROUND;
		v0 ^= m;
	}
	switch (len & 7) {
		case 7: b |= ((uint64_t)in[6]) << 48; /* fallthrough */
		case 6: b |= ((uint64_t)in[5]) << 40; /* fallthrough */
		case 5: b |= ((uint64_t)in[4]) << 32; /* fallthrough */
		case 4: b |= ((uint64_t)in[3]) << 24; /* fallthrough */
		case 3: b |= ((uint64_t)in[2]) << 16; /* fallthrough */
		case 2: b |= ((uint64_t)in[1]) << 8;  /* fallthrough */
		case 1: b |= ((uint64_t)in[0]); break;
		case 0: break;
	}
	v3 ^= b;
	SIPROUND;
	v0 ^= b;
	v2 ^= 0xff;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	return v0 ^ v1 ^ v2 ^ v3;
}

uint64_t rs_hash(const uint64_t seed[2], uint16_t pool, const char *key, size_t len)
{
	/* The pool is folded into the key so equal keys of two pools differ. */
	uint64_t k[2] = { seed[0] ^ ((uint64_t)pool * 0x9e3779b97f4a7c15ULL), seed[1] };
	return siphash13(k, (const unsigned char *)key, len);
}

/* Catches corruption, not an adversary: whoever can write the file can
 * recompute it. Every step is a bijection of the state, so a change in any
 * single byte always changes the result. */
uint64_t rs_fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++) {
		h = (h ^ c[i]) * 0x100000001b3ULL;
	}
	return h;
}
