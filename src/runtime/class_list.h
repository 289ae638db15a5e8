/* SPDX-License-Identifier: MIT */
#ifndef RESIDENT_CLASS_LIST_H
#define RESIDENT_CLASS_LIST_H

#include "php.h"

/* A list of classes from an ini setting ("Foo\Bar, Vendor\*"): exact names
 * and Namespace\* prefixes, matched case-insensitively. Used by
 * resident.direct_classes and resident.request_over_static_classes. */
typedef struct resident_class_list {
	HashTable names;           /* lowercase exact names */
	zend_string **prefixes;    /* lowercase, without the '*' */
	uint32_t nprefixes;
	char *source;              /* the setting it was parsed from; NULL before */
} resident_class_list;

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
