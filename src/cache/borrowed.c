/* SPDX-License-Identifier: MIT */
/*
 * resident.check_borrowed: at a worker's quiescent point, the values of the
 * segment that PHP still references are found and replaced by copies of
 * this process, so that a use after the boundary reads its own memory, not
 * what the segment reclaimed meanwhile.
 *
 * Borrowed strings and arrays are immutable: the engine keeps no count of
 * who holds them, so they can only be found by walking what can hold a
 * value: globals, every frame's variables, arguments and live temporaries
 * (a foreach over a borrowed array), every object's properties and what
 * its get_gc handler reports (closures' bound variables, ArrayObject's
 * storage), the frames of suspended generators and Fibers, static
 * properties and static variables, constants. Heap arrays are walked too,
 * keys included (a borrowed string may be a key). What a handler reports
 * only through the collector's buffer is a copy of what it holds, and only
 * what is refcounted, which a borrowed value is not: a borrowed value held
 * in an internal object's own C state that way (SplObjectStorage's data,
 * WeakMap's values, an SplDoublyLinkedList's elements) is not seen. Heap arrays nested deeper than MAX_DEPTH,
 * and a borrowed array too deep to copy with the C stack left (PHP 8.3+), are
 * counted as stuck: the caller then keeps the segment's memory.
 */
#include "php.h"
#include "zend_fibers.h"
#include "zend_generators.h"
#include "php_resident.h"
#include "cache.h"
#include "value/copy.h"

/* Deeper nesting than this is left as stuck rather than risking the C
 * stack (borrowed arrays themselves are never walked, only heap ones). */
#define MAX_DEPTH 256

typedef struct scan {
	rs_store *st;
	HashTable seen;             /* heap arrays and references walked, by address */
	resident_borrowed_report *r;
	/* The root being walked, for the report's first finding: kind, name,
	 * then where ("$config", " in ", "load()"). */
	const char *root_kind;
	const char *root_name;
	const char *root_where;
	char frame[128];
	uint32_t depth;
} scan;

static void walk_zval(scan *s, zval *zv);

static void found(scan *s, bool stuck)
{
	if (stuck) {
		s->r->stuck++;
	} else {
		s->r->copied++;
	}
	if (!s->r->first[0]) {
		snprintf(s->r->first, sizeof(s->r->first), "%s%s%s", s->root_kind,
			s->root_name ? s->root_name : "", s->root_where ? s->root_where : "");
	}
}

/* Addresses share their low bits: mixed so the table spreads them (no
 * input chooses an address). */
static bool first_visit(scan *s, const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	zval dummy;
	ZVAL_PTR(&dummy, (void *)p);
	zval *known = zend_hash_index_find(&s->seen, (zend_ulong)x);
	if (known) {
		/* Distinct addresses never mix to one key (a bijection). */
		return false;
	}
	zend_hash_index_add_new(&s->seen, (zend_ulong)x, &dummy);
	return true;
}

static zend_string *own_copy(const zend_string *src)
{
	zend_string *copy = zend_string_init(ZSTR_VAL(src), ZSTR_LEN(src), 0);
	ZSTR_H(copy) = ZSTR_H(src);
	return copy;
}

static void walk_table(scan *s, HashTable *ht)
{
	if (!ht || (GC_FLAGS(ht) & IS_ARRAY_IMMUTABLE)) {
		/* Immutable and not ours (OPcache's literals): holds nothing of
		 * the segment. */
		return;
	}
	if (s->depth >= MAX_DEPTH) {
		found(s, true);
		return;
	}
	if (!first_visit(s, ht)) {
		return;
	}
	s->depth++;
	if (HT_IS_PACKED(ht)) {
		for (uint32_t i = 0; i < ht->nNumUsed; i++) {
			walk_zval(s, &ht->arPacked[i]);
		}
	} else {
		for (uint32_t i = 0; i < ht->nNumUsed; i++) {
			Bucket *p = &ht->arData[i];
			if (Z_TYPE(p->val) == IS_UNDEF) {
				continue;
			}
			if (p->key && rs_contains(s->st, p->key)) {
				/* The table owns the copy; its keys are no longer all
				 * interned. */
				p->key = own_copy(p->key);
				HT_FLAGS(ht) &= ~HASH_FLAG_STATIC_KEYS;
				found(s, false);
			}
			walk_zval(s, &p->val);
		}
	}
	s->depth--;
}

static void walk_zval(scan *s, zval *zv)
{
	switch (Z_TYPE_P(zv)) {
		case IS_STRING:
			if (rs_contains(s->st, Z_STR_P(zv))) {
				ZVAL_STR(zv, own_copy(Z_STR_P(zv)));
				found(s, false);
			}
			break;
		case IS_ARRAY:
			if (rs_contains(s->st, Z_ARR_P(zv))) {
				/* The zval held no reference (immutable): it owns the copy.
				 * One too deep for the C stack left (PHP 8.3+) stays
				 * borrowed, stuck, as one nested deeper than MAX_DEPTH. */
				zval copy;
				if (rv_copy_zval_within_stack(&copy, zv)) {
					ZVAL_COPY_VALUE(zv, &copy);
					/* Holds nothing of the segment: met again (through the
					 * symbol table), it is not walked, which would count a
					 * copy deeper than MAX_DEPTH as stuck. */
					first_visit(s, Z_ARR_P(zv));
					found(s, false);
				} else {
					zval_ptr_dtor(&copy);
					found(s, true);
				}
			} else {
				walk_table(s, Z_ARR_P(zv));
			}
			break;
		case IS_REFERENCE:
			if (first_visit(s, Z_REF_P(zv))) {
				walk_zval(s, Z_REFVAL_P(zv));
			}
			break;
		case IS_INDIRECT:
			walk_zval(s, Z_INDIRECT_P(zv));
			break;
		default:
			/* Objects are walked from the object store, once each. */
			break;
	}
}

static void walk_zvals(scan *s, zval *zv, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		walk_zval(s, &zv[i]);
	}
}

static const char *describe_function(scan *s, const char *pre, const zend_function *f)
{
	if (!f->common.function_name) {
		snprintf(s->frame, sizeof(s->frame), "%sthe main script", pre);
	} else {
		snprintf(s->frame, sizeof(s->frame), "%s%s%s%s()", pre, f->common.scope ? ZSTR_VAL(f->common.scope->name) : "",
			f->common.scope ? "::" : "", ZSTR_VAL(f->common.function_name));
	}
	return s->frame;
}

/* A frame's variables, its arguments beyond the declared ones, its symbol
 * table, and the temporaries live at the instruction it stands on. */
static void walk_frame(scan *s, zend_execute_data *ex)
{
	zend_function *f = ex->func;
	if (!f) {
		return;
	}
	s->root_kind = "an argument";
	s->root_name = NULL;
	s->root_where = describe_function(s, " of ", f);
	if (!ZEND_USER_CODE(f->type)) {
		walk_zvals(s, ZEND_CALL_ARG(ex, 1), ZEND_CALL_NUM_ARGS(ex));
		return;
	}
	zend_op_array *op = &f->op_array;
	s->root_kind = "$";
	s->root_where = describe_function(s, " in ", f);
	for (int i = 0; i < op->last_var; i++) {
		s->root_name = ZSTR_VAL(op->vars[i]);
		walk_zval(s, ZEND_CALL_VAR_NUM(ex, i));
	}
	s->root_kind = "a variable";
	s->root_name = NULL;
	if ((ZEND_CALL_INFO(ex) & ZEND_CALL_FREE_EXTRA_ARGS) && ZEND_CALL_NUM_ARGS(ex) > op->num_args) {
		walk_zvals(s, ZEND_CALL_VAR_NUM(ex, op->last_var + op->T), ZEND_CALL_NUM_ARGS(ex) - op->num_args);
	}
	if (ZEND_CALL_INFO(ex) & ZEND_CALL_HAS_SYMBOL_TABLE) {
		walk_table(s, ex->symbol_table);
	}
	if (ex->opline && op->last_live_range) {
		uint32_t at = (uint32_t)(ex->opline - op->opcodes);
		for (int i = 0; i < op->last_live_range; i++) {
			const zend_live_range *range = &op->live_range[i];
			if (range->start > at) {
				break;
			}
			uint32_t kind = range->var & ZEND_LIVE_MASK;
			if (at < range->end && (kind == ZEND_LIVE_TMPVAR || kind == ZEND_LIVE_LOOP)) {
				s->root_kind = "a temporary value (a foreach, an expression)";
				walk_zval(s, ZEND_CALL_VAR(ex, range->var & ~ZEND_LIVE_MASK));
			}
		}
	}
}

static bool in_gc_buffer(const zval *zv)
{
	const zend_get_gc_buffer *b = &EG(get_gc_buffer);
	return b->start && zv >= b->start && zv < b->end;
}

/* A running generator's frame is on the stack, walked with it. */
static void walk_generator(scan *s, zend_generator *g)
{
	walk_zval(s, &g->value);
	walk_zval(s, &g->key);
	walk_zval(s, &g->retval);
	walk_zval(s, &g->values);
	if (g->execute_data && !(g->flags & ZEND_GENERATOR_CURRENTLY_RUNNING)) {
		walk_frame(s, g->execute_data);
	}
}

/* A suspended Fiber's frames, from where it was suspended to its first. */
static void walk_fiber(scan *s, zend_fiber *f)
{
	walk_zval(s, &f->result);
	if (f->context.status != ZEND_FIBER_STATUS_SUSPENDED || f->caller) {
		return;
	}
	for (zend_execute_data *ex = f->execute_data; ex; ex = ex->prev_execute_data) {
		walk_frame(s, ex);
	}
}

static void walk_objects(scan *s)
{
	zend_objects_store *store = &EG(objects_store);
	for (uint32_t i = 1; i < store->top; i++) {
		zend_object *obj = store->object_buckets[i];
		if (!obj || !IS_OBJ_VALID(obj) || (GC_FLAGS(obj) & IS_OBJ_FREE_CALLED)) {
			continue;
		}
		s->root_kind = "a property of an object of class ";
		s->root_name = ZSTR_VAL(obj->ce->name);
		s->root_where = NULL;
		if (obj->ce == zend_ce_generator) {
			walk_generator(s, (zend_generator *)obj);
			continue;
		}
		if (obj->ce == zend_ce_fiber) {
			walk_fiber(s, (zend_fiber *)obj);
			continue;
		}
		zval *table = NULL;
		int n = 0;
		HashTable *ht = obj->handlers->get_gc(obj, &table, &n);
		if (table && in_gc_buffer(table)) {
			/* Copies made for the collector, of refcounted values only:
			 * heap arrays, walked where they are. */
			for (int j = 0; j < n; j++) {
				zval *v = &table[j];
				ZVAL_DEREF(v);
				if (Z_TYPE_P(v) == IS_ARRAY) {
					walk_table(s, Z_ARR_P(v));
				}
			}
		} else if (table) {
			walk_zvals(s, table, (uint32_t)n);
		}
		walk_table(s, ht);
		if (obj->properties && obj->properties != ht) {
			walk_table(s, obj->properties);
		}
	}
}

static void walk_static_variables(scan *s, zend_function *f)
{
	if (f->type != ZEND_USER_FUNCTION || !f->op_array.static_variables) {
		return;
	}
	s->root_kind = "a static variable";
	s->root_name = NULL;
	s->root_where = describe_function(s, " of ", f);
	walk_table(s, ZEND_MAP_PTR_GET(f->op_array.static_variables_ptr));
}

static void walk_classes_and_functions(scan *s)
{
	zend_function *f;
	ZEND_HASH_MAP_FOREACH_PTR(EG(function_table), f) {
		walk_static_variables(s, f);
	} ZEND_HASH_FOREACH_END();
	zval *entry;
	ZEND_HASH_MAP_FOREACH_VAL(EG(class_table), entry) {
		/* Aliases (IS_ALIAS_PTR from PHP 8.3 on) name a class met anyway. */
		if (Z_TYPE_P(entry) != IS_PTR) {
			continue;
		}
		zend_class_entry *ce = Z_PTR_P(entry);
		if (ce->type != ZEND_USER_CLASS || !(ce->ce_flags & ZEND_ACC_LINKED)) {
			continue;
		}
		if (ce->default_static_members_count) {
			zval *statics = CE_STATIC_MEMBERS(ce);
			if (statics) {
				s->root_kind = "a static property of class ";
				s->root_name = ZSTR_VAL(ce->name);
				s->root_where = NULL;
				for (int i = 0; i < ce->default_static_members_count; i++) {
					/* A parent's property, walked with the parent. */
					if (Z_TYPE(statics[i]) != IS_INDIRECT) {
						walk_zval(s, &statics[i]);
					}
				}
			}
		}
		ZEND_HASH_MAP_FOREACH_PTR(&ce->function_table, f) {
			walk_static_variables(s, f);
		} ZEND_HASH_FOREACH_END();
	} ZEND_HASH_FOREACH_END();
}

static void walk_constants(scan *s)
{
	zend_constant *c;
	s->root_kind = "the constant ";
	s->root_where = NULL;
	ZEND_HASH_MAP_FOREACH_PTR(EG(zend_constants), c) {
		if (Z_TYPE(c->value) == IS_STRING || Z_TYPE(c->value) == IS_ARRAY) {
			s->root_name = c->name ? ZSTR_VAL(c->name) : NULL;
			walk_zval(s, &c->value);
		}
	} ZEND_HASH_FOREACH_END();
}

void resident_borrowed_rescue(rs_store *st, resident_borrowed_report *r)
{
	memset(r, 0, sizeof(*r));
	scan s = {.st = st, .r = r};
	zend_hash_init(&s.seen, 64, NULL, NULL, 0);
	/* The innermost first: the warning names the likeliest culprit. */
	for (zend_execute_data *ex = EG(current_execute_data); ex; ex = ex->prev_execute_data) {
		walk_frame(&s, ex);
	}
	s.root_kind = "the global variable $";
	s.root_where = NULL;
	zend_string *name;
	zval *v;
	ZEND_HASH_MAP_FOREACH_STR_KEY_VAL(&EG(symbol_table), name, v) {
		s.root_name = name ? ZSTR_VAL(name) : NULL;
		walk_zval(&s, v);
	} ZEND_HASH_FOREACH_END();
	walk_objects(&s);
	walk_classes_and_functions(&s);
	walk_constants(&s);
	zend_hash_destroy(&s.seen);
}
