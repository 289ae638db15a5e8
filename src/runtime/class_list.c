/* SPDX-License-Identifier: MIT */
/*
 * Class lists from ini settings: "Foo\Bar, Vendor\*" (see class_list.h).
 */
#include "class_list.h"

void resident_class_list_parse(resident_class_list *l, const char *setting)
{
	const char *p = setting ? setting : "";
	l->source = pestrdup(p, 1);
	l->parsed_from = setting;
	l->prefixes = NULL;
	l->nprefixes = 0;
	l->prefixes_filter = NULL;
	memset(l->names_filter, 0, sizeof(l->names_filter));
	zend_hash_init(&l->names, 8, NULL, NULL, 1);
	while (*p) {
		while (*p == ',' || *p == ' ' || *p == '\t' || *p == '\\') {
			p++;
		}
		const char *start = p;
		while (*p && *p != ',') {
			p++;
		}
		const char *end = p;
		while (end > start && (end[-1] == ' ' || end[-1] == '\t')) {
			end--;
		}
		if (end == start) {
			continue;
		}
		zend_string *lc = zend_string_init(start, end - start, 1);
		zend_str_tolower(ZSTR_VAL(lc), ZSTR_LEN(lc));
		if (ZSTR_LEN(lc) >= 2 && ZSTR_VAL(lc)[ZSTR_LEN(lc) - 1] == '*') {
			l->prefixes = perealloc(l->prefixes, (l->nprefixes + 1) * sizeof(zend_string *), 1);
			l->prefixes[l->nprefixes++] = zend_string_init(ZSTR_VAL(lc), ZSTR_LEN(lc) - 1, 1);
			if (!l->prefixes_filter) {
				l->prefixes_filter = pecalloc(65536 / 64, sizeof(uint64_t), 1);
			}
			if (ZSTR_LEN(lc) >= 3) {
				uint32_t k = resident_class_prefix_key(ZSTR_VAL(lc), 2);
				l->prefixes_filter[k >> 6] |= 1ULL << (k & 63);
			} else {
				/* "A*": any second byte. */
				for (uint32_t second = 0; second < 256; second++) {
					uint32_t k = (((uint32_t)(unsigned char)ZSTR_VAL(lc)[0] | 0x20) << 8) | (second | 0x20);
					l->prefixes_filter[k >> 6] |= 1ULL << (k & 63);
				}
			}
		} else {
			zend_hash_add_empty_element(&l->names, lc);
			uint32_t f = resident_class_fingerprint(ZSTR_VAL(lc), ZSTR_LEN(lc));
			l->names_filter[f >> 6] |= 1ULL << (f & 63);
		}
		zend_string_release_ex(lc, 1);
	}
}

void resident_class_list_free(resident_class_list *l)
{
	if (!l->source) {
		return;
	}
	zend_hash_destroy(&l->names);
	for (uint32_t i = 0; i < l->nprefixes; i++) {
		zend_string_release_ex(l->prefixes[i], 1);
	}
	if (l->prefixes) {
		pefree(l->prefixes, 1);
	}
	if (l->prefixes_filter) {
		pefree(l->prefixes_filter, 1);
		l->prefixes_filter = NULL;
	}
	memset(l->names_filter, 0, sizeof(l->names_filter));
	l->prefixes = NULL;
	l->nprefixes = 0;
	pefree(l->source, 1);
	l->source = NULL;
	l->parsed_from = NULL;
}

bool resident_class_list_is(const resident_class_list *l, const char *setting)
{
	/* Asked at every request start: the same setting is the same string. */
	if (l->source && setting == l->parsed_from) {
		return true;
	}
	return l->source && strcmp(l->source, setting ? setting : "") == 0;
}

bool resident_class_list_update(resident_class_list *l, const char *setting)
{
	if (resident_class_list_is(l, setting)) {
		return false;
	}
	resident_class_list_free(l);
	resident_class_list_parse(l, setting);
	return true;
}

bool resident_class_list_empty(const resident_class_list *l)
{
	return !l->source || (zend_hash_num_elements(&l->names) == 0 && l->nprefixes == 0);
}

bool resident_class_list_has(const resident_class_list *l, const zend_string *class_name)
{
	if (!resident_class_list_may_have(l, ZSTR_VAL(class_name), ZSTR_LEN(class_name))) {
		return false;
	}
	zend_string *lc = zend_string_tolower((zend_string *)class_name);
	bool listed = zend_hash_exists(&l->names, lc);
	for (uint32_t i = 0; !listed && i < l->nprefixes; i++) {
		listed = ZSTR_LEN(lc) > ZSTR_LEN(l->prefixes[i])
			&& memcmp(ZSTR_VAL(lc), ZSTR_VAL(l->prefixes[i]), ZSTR_LEN(l->prefixes[i])) == 0;
	}
	zend_string_release(lc);
	return listed;
}
