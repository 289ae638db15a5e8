/* SPDX-License-Identifier: MIT */
/*
 * DateTime family codecs (see date.h).
 *
 * A timelib_time is copied whole: the exact instant survives, DST folds
 * included, with no re-parsing. Its two pointers are rebuilt on fetch: the
 * abbreviation is duplicated, and the zone's tzinfo comes from a
 * DateTimeZone made for that name in this request, so it is ext/date's own
 * (from its tz cache, honouring a custom tz database). Records are only
 * read by the PHP build that wrote them (the segment is stamped with it).
 */
#include "php.h"
#include "value.h"
#include "graph.h"
#include "date.h"
#include "class_profile.h"
#include "ext/date/php_date.h"

typedef struct date_state {
	uint32_t initialized;
	uint32_t _pad;
	timelib_time time;          /* tz_abbr and tz_info cleared */
	zend_string *tz_name;       /* TIMELIB_ZONETYPE_ID */
	zend_string *abbr;
} date_state;

typedef struct timezone_state {
	uint32_t initialized;
	int32_t type;
	timelib_sll utc_offset;     /* TIMELIB_ZONETYPE_OFFSET */
	timelib_sll abbr_offset;    /* TIMELIB_ZONETYPE_ABBR */
	int32_t abbr_dst;
	int32_t _pad;
	zend_string *abbr;
	zend_string *tz_name;       /* TIMELIB_ZONETYPE_ID */
} timezone_state;

typedef struct interval_state {
	uint32_t has_diff;
	int32_t civil_or_wall;
	uint32_t from_string;
	uint32_t initialized;
	timelib_rel_time diff;
	zend_string *date_string;
} interval_state;

/* The class keeps its parent's own (de)serialization: nothing in userland
 * would run for it. */
static bool keeps_internal_hooks(zend_class_entry *ce)
{
	return (!ce->__serialize || ce->__serialize->type == ZEND_INTERNAL_FUNCTION)
		&& (!ce->__unserialize || ce->__unserialize->type == ZEND_INTERNAL_FUNCTION)
		&& !ce->serialize;
}

uint32_t rv_native_kind(zend_class_entry *ce, bool direct)
{
	if (!direct && !keeps_internal_hooks(ce)) {
		return RV_NATIVE_NONE;
	}
	if (instanceof_function(ce, php_date_get_date_ce()) || instanceof_function(ce, php_date_get_immutable_ce())) {
		return RV_NATIVE_DATE;
	}
	if (instanceof_function(ce, php_date_get_timezone_ce())) {
		return RV_NATIVE_TIMEZONE;
	}
	if (instanceof_function(ce, php_date_get_interval_ce())) {
		return RV_NATIVE_INTERVAL;
	}
	return RV_NATIVE_NONE;
}

/* A C string as a planned or written interned string. */
static zend_string *cstring(rv_context *ctx, const char *s, size_t *plan_size, rv_writer *w)
{
	if (!s) {
		return NULL;
	}
	zend_string *tmp = rv_temp_cstring(ctx, s);
	if (plan_size) {
		*plan_size += rv_string_plan(ctx, tmp);
		return NULL;
	}
	return rv_write_string(w, tmp);
}

static zend_string *zstring(rv_context *ctx, zend_string *s, size_t *plan_size, rv_writer *w)
{
	if (!s) {
		return NULL;
	}
	if (plan_size) {
		*plan_size += rv_string_plan(ctx, s);
		return NULL;
	}
	return rv_write_string(w, s);
}

static void *take(size_t size, size_t *plan_size, rv_writer *w)
{
	size = ZEND_MM_ALIGNED_SIZE(size);
	if (plan_size) {
		*plan_size += size;
		return NULL;
	}
	void *p = rv_bump(w, size);
	memset(p, 0, size);
	return p;
}

static bool name_in(const zend_string *name, const char *const *names)
{
	for (; *names; names++) {
		if (zend_string_equals_cstr(name, *names, strlen(*names))) {
			return true;
		}
	}
	return false;
}

bool rv_native_state_property(uint32_t kind, const zend_string *name)
{
	static const char *const date[] = { "date", "timezone_type", "timezone", NULL };
	static const char *const timezone[] = { "timezone_type", "timezone", NULL };
	static const char *const interval[] = { "y", "m", "d", "h", "i", "s", "f", "invert", "days", "from_string",
		"date_string", "weekday", "weekday_behavior", "first_last_day_of", "special_type", "special_amount",
		"have_weekday_relative", "have_special_relative", NULL };
	switch (kind) {
		case RV_NATIVE_DATE:
			return name_in(name, date);
		case RV_NATIVE_TIMEZONE:
			return name_in(name, timezone);
		case RV_NATIVE_INTERVAL:
			return name_in(name, interval);
	}
	return false;
}

bool rv_native_initialized(uint32_t kind, zend_object *obj)
{
	switch (kind) {
		case RV_NATIVE_DATE:
			return php_date_obj_from_obj(obj)->time != NULL;
		case RV_NATIVE_TIMEZONE:
			return php_timezone_obj_from_obj(obj)->initialized;
		case RV_NATIVE_INTERVAL:
			return php_interval_obj_from_obj(obj)->initialized;
	}
	return true;
}

const void *rv_native_persist(rv_context *ctx, uint32_t kind, zend_object *obj, size_t *plan_size, rv_writer *w)
{
	switch (kind) {
		case RV_NATIVE_DATE: {
			php_date_obj *d = php_date_obj_from_obj(obj);
			date_state *st = take(sizeof(date_state), plan_size, w);
			const timelib_time *t = d->time;
			zend_string *tz = t && t->zone_type == TIMELIB_ZONETYPE_ID && t->tz_info ? cstring(ctx, t->tz_info->name, plan_size, w) : NULL;
			zend_string *abbr = t ? cstring(ctx, t->tz_abbr, plan_size, w) : NULL;
			if (st) {
				st->initialized = t != NULL;
				if (t) {
					st->time = *t;
					st->time.tz_abbr = NULL;
					st->time.tz_info = NULL;
				}
				st->tz_name = tz;
				st->abbr = abbr;
			}
			return st;
		}
		case RV_NATIVE_TIMEZONE: {
			php_timezone_obj *z = php_timezone_obj_from_obj(obj);
			timezone_state *st = take(sizeof(timezone_state), plan_size, w);
			zend_string *tz = NULL, *abbr = NULL;
			if (z->initialized && z->type == TIMELIB_ZONETYPE_ID) {
				tz = cstring(ctx, z->tzi.tz->name, plan_size, w);
			} else if (z->initialized && z->type == TIMELIB_ZONETYPE_ABBR) {
				abbr = cstring(ctx, z->tzi.z.abbr, plan_size, w);
			}
			if (st) {
				st->initialized = z->initialized;
				st->type = z->type;
				if (z->type == TIMELIB_ZONETYPE_OFFSET) {
					st->utc_offset = z->tzi.utc_offset;
				} else if (z->type == TIMELIB_ZONETYPE_ABBR) {
					st->abbr_offset = z->tzi.z.utc_offset;
					st->abbr_dst = z->tzi.z.dst;
				}
				st->abbr = abbr;
				st->tz_name = tz;
			}
			return st;
		}
		case RV_NATIVE_INTERVAL: {
			php_interval_obj *i = php_interval_obj_from_obj(obj);
			interval_state *st = take(sizeof(interval_state), plan_size, w);
			zend_string *ds = i->from_string ? zstring(ctx, i->date_string, plan_size, w) : NULL;
			if (st) {
				st->has_diff = i->diff != NULL;
				if (i->diff) {
					st->diff = *i->diff;
				}
				st->civil_or_wall = i->civil_or_wall;
				st->from_string = i->from_string;
				st->initialized = i->initialized;
				st->date_string = ds;
			}
			return st;
		}
	}
	return NULL;
}

/* The tzinfo of a zone name, from a DateTimeZone kept for the request. */
static timelib_tzinfo *tzinfo_for(rv_context *ctx, zend_string *name)
{
	HashTable *cache = ctx->tz_objects;
	if (!cache) {
		ALLOC_HASHTABLE(cache);
		zend_hash_init(cache, 8, NULL, ZVAL_PTR_DTOR, 0);
		ctx->tz_objects = cache;
	}
	zval *tz = zend_hash_find(cache, name);
	if (!tz) {
		zval obj, arg;
		object_init_ex(&obj, php_date_get_timezone_ce());
		ZVAL_STR(&arg, name);
		zend_call_known_instance_method_with_1_params(Z_OBJCE(obj)->constructor, Z_OBJ(obj), NULL, &arg);
		if (EG(exception)) {
			zval_ptr_dtor(&obj);
			return NULL;
		}
		tz = zend_hash_add_new(cache, name, &obj);
	}
	php_timezone_obj *z = php_timezone_obj_from_obj(Z_OBJ_P(tz));
	return z->initialized && z->type == TIMELIB_ZONETYPE_ID ? z->tzi.tz : NULL;
}

static const char *native_family(uint32_t kind)
{
	switch (kind) {
		case RV_NATIVE_DATE:
			return "DateTimeInterface";
		case RV_NATIVE_TIMEZONE:
			return "DateTimeZone";
	}
	return "DateInterval";
}

/* The class the value names is the one of this request, which a deploy may
 * have changed since the value was stored. Its objects must still hold
 * this C state (else it would be written past a foreign object), and must
 * still take it without userland code: unserialize() would give the state
 * to the __unserialize() (or Serializable) the class gained, which a copy
 * of the C state cannot do. Either change makes the value stale, as an
 * enum case that is gone does (UserCache: a miss, and the entry goes). */
static bool still_restorable(rv_context *ctx, uint32_t kind, zend_class_entry *ce)
{
	if (rv_native_kind(ce, true) != kind) {
		ctx->stale_decodes++;
		zend_throw_error(NULL, "Cannot restore a cached %s: the class is no longer a %s, as it was when the value was stored",
			ZSTR_VAL(ce->name), native_family(kind));
		return false;
	}
	/* The profile asks the module once per class and request. */
	if (!keeps_internal_hooks(ce) && !rv_class_profile_of(ctx, ce)->direct) {
		ctx->stale_decodes++;
		zend_throw_error(NULL, "Cannot restore a cached %s: the class has its own __serialize(), __unserialize() or Serializable since the value was stored",
			ZSTR_VAL(ce->name));
		return false;
	}
	return true;
}

zend_result rv_native_restore(rv_context *ctx, uint32_t kind, zend_object *obj, const void *state)
{
	if (!still_restorable(ctx, kind, obj->ce)) {
		return FAILURE;
	}
	switch (kind) {
		case RV_NATIVE_DATE: {
			const date_state *st = state;
			php_date_obj *d = php_date_obj_from_obj(obj);
			if (!st->initialized) {
				return SUCCESS;
			}
			timelib_time *t = emalloc(sizeof(timelib_time));
			*t = st->time;
			t->tz_abbr = st->abbr ? estrndup(ZSTR_VAL(st->abbr), ZSTR_LEN(st->abbr)) : NULL;
			t->tz_info = NULL;
			if (st->tz_name) {
				t->tz_info = tzinfo_for(ctx, st->tz_name);
				if (!t->tz_info) {
					efree(t->tz_abbr);
					efree(t);
					return FAILURE;
				}
			}
			d->time = t;
			return SUCCESS;
		}
		case RV_NATIVE_TIMEZONE: {
			const timezone_state *st = state;
			php_timezone_obj *z = php_timezone_obj_from_obj(obj);
			z->initialized = st->initialized;
			z->type = st->type;
			if (!st->initialized) {
				return SUCCESS;
			}
			switch (st->type) {
				case TIMELIB_ZONETYPE_ID:
					z->tzi.tz = tzinfo_for(ctx, st->tz_name);
					if (!z->tzi.tz) {
						z->initialized = 0;
						return FAILURE;
					}
					break;
				case TIMELIB_ZONETYPE_OFFSET:
					z->tzi.utc_offset = st->utc_offset;
					break;
				case TIMELIB_ZONETYPE_ABBR:
					z->tzi.z.utc_offset = st->abbr_offset;
					z->tzi.z.dst = st->abbr_dst;
					z->tzi.z.abbr = st->abbr ? estrndup(ZSTR_VAL(st->abbr), ZSTR_LEN(st->abbr)) : NULL;
					break;
			}
			return SUCCESS;
		}
		case RV_NATIVE_INTERVAL: {
			const interval_state *st = state;
			php_interval_obj *i = php_interval_obj_from_obj(obj);
			if (st->has_diff) {
				i->diff = ecalloc(1, sizeof(timelib_rel_time));
				*i->diff = st->diff;
			}
			i->civil_or_wall = st->civil_or_wall;
			i->from_string = st->from_string;
			i->initialized = st->initialized;
			i->date_string = st->date_string ? zend_string_init(ZSTR_VAL(st->date_string), ZSTR_LEN(st->date_string), 0) : NULL;
			return SUCCESS;
		}
	}
	return FAILURE;
}
