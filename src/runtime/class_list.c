/* SPDX-License-Identifier: MIT */
/*
 * Class lists from ini settings: "Foo\Bar, Vendor\*" (see class_list.h).
 */
#include "class_list.h"

void resident_class_list_parse(resident_class_list *l, const char *setting)
{
	const char *p = setting ? setting : "";
	l->source = pestrdup(p, 1);
	l->prefixes = NULL;
	l->nprefixes = 0;
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
		} else {
			zend_hash_add_empty_element(&l->names, lc);
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
	l->prefixes = NULL;
	l->nprefixes = 0;
	pefree(l->source, 1);
	l->source = NULL;
}

bool resident_class_list_is(const resident_class_list *l, const char *setting)
{
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
	if (resident_class_list_empty(l)) {
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
