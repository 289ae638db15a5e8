/* SPDX-License-Identifier: MIT */
#ifndef RESIDENT_CLASS_LIST_H
#define RESIDENT_CLASS_LIST_H

#include "php.h"

/* A list of classes from an ini setting ("Foo\Bar, Vendor\*"): exact names
 * and Namespace\* prefixes, matched case-insensitively. Used by
 * resident.direct_classes and resident.request_over_static_classes.
 *
 * Asked about every class a request links, so the answer for a class not
 * listed must cost a few instructions: two bitmaps, set when the list is
 * parsed, rule most names out without lowercasing them or walking the
 * list (resident_class_list_may_have()); only a name they let through is
 * looked up exactly. */
#define RESIDENT_CLASS_FILTER_BITS 12                      /* exact names: 4096 bits */
typedef struct resident_class_list {
	HashTable names;           /* lowercase exact names */
	zend_string **prefixes;    /* lowercase, without the '*' */
	uint32_t nprefixes;
	char *source;              /* the setting it was parsed from; NULL before */
	const char *parsed_from;   /* where that setting was (an ini value, which stays put while it is set) */
	uint64_t names_filter[(1u << RESIDENT_CLASS_FILTER_BITS) / 64];  /* by resident_class_fingerprint() */
	uint64_t *prefixes_filter; /* 65536 bits, by the first two bytes folded; NULL without prefixes */
} resident_class_list;

/* The same for two names that are equal but for the case of ASCII letters:
 * the last 8 bytes (all of a shorter name) with bit 0x20 set in each, and
 * the length, hashed. */
static zend_always_inline uint32_t resident_class_fingerprint(const char *name, size_t len)
{
	uint64_t w = 0;
	memcpy(&w, len >= 8 ? name + len - 8 : name, len >= 8 ? 8 : len);
	w = (w | 0x2020202020202020ULL) ^ (uint64_t)len;
	return (uint32_t)((w * 0x9e3779b97f4a7c15ULL) >> (64 - RESIDENT_CLASS_FILTER_BITS));
}

static zend_always_inline uint32_t resident_class_prefix_key(const char *name, size_t len)
{
	return len >= 2 ? (((uint32_t)(unsigned char)name[0] | 0x20) << 8) | ((unsigned char)name[1] | 0x20)
		: (((uint32_t)(unsigned char)name[0] | 0x20) << 8);
}

/* False: the class is not listed. True: it may be (resident_class_list_has() tells). */
static zend_always_inline bool resident_class_list_may_have(const resident_class_list *l, const char *name, size_t len)
{
	uint32_t f = resident_class_fingerprint(name, len);
	if (l->names_filter[f >> 6] & (1ULL << (f & 63))) {
		return true;
	}
	if (EXPECTED(!l->prefixes_filter) || len == 0) {
		return false;
	}
	uint32_t k = resident_class_prefix_key(name, len);
	return (l->prefixes_filter[k >> 6] >> (k & 63)) & 1;
}

void resident_class_list_parse(resident_class_list *l, const char *setting);
void resident_class_list_free(resident_class_list *l);
/* Parses again when the setting differs from the one it was parsed from
 * (a php-fpm pool's php_admin_value, applied in its workers after MINIT).
 * True when it did. */
bool resident_class_list_update(resident_class_list *l, const char *setting);
/* Whether it was parsed from that setting. */
bool resident_class_list_is(const resident_class_list *l, const char *setting);
bool resident_class_list_empty(const resident_class_list *l);
bool resident_class_list_has(const resident_class_list *l, const zend_string *class_name);

#endif
