/* SPDX-License-Identifier: MIT */
/*
 * Lazy graphs: a RequestOverStatic restore brings objects back as shells,
 * filled in from their records when first used.
 *
 * A shell is an object of its class whose declared slots are all UNDEF and
 * whose handlers are ours. The engine (VM and JIT alike) reads or writes a
 * declared slot directly only while it is not UNDEF, as unset() needs;
 * otherwise it asks the object's handlers. Ours fill the object first
 * (rv_shell_fill()), switch it to the standard handlers and hand over to
 * them, so the object is whole before anything sees a property. The
 * collector asks for the slots, which hold nothing yet; a shell needs no
 * handler of ours for method calls, instanceof or identity. So a request
 * builds only the objects it touches: restoring protobuf's descriptor pool
 * (413 objects) makes one shell, and the first message fills the pool, the
 * message's descriptor and its fields.
 *
 * Identity: the graph keeps a reference to every object it made until the
 * request ends, so an object met again through a record filled later is
 * the same object, as if the whole graph had been built at once.
 *
 * Change: a shell never filled cannot have changed, and a filled one can
 * be compared with its record (rv_lazy_graph_unchanged()), so a request
 * that only read its statics publishes nothing without a digest, which
 * would fill every shell.
 */
#include "php.h"
#include "value.h"
#include "graph.h"
#include "graph_decode.h"
#include "graph_lazy.h"

typedef struct rv_shell {
	rv_lazy_graph *graph;
	const rv_object_node *node;
	resolved_shape *resolved;  /* its shape, as far as making the shell needed */
	bool filled;
	/* Filled, but these properties (bits by slot) are not there yet: the
	 * objects (and arrays holding them) they hold are made when first
	 * read, so that a request makes shells only of what it reaches, and
	 * loads no class it does not use. */
	uint64_t pending;
} rv_shell;

struct rv_lazy_graph {
	/* d.ids holds a reference to each object made; d.opaque: made
	 * something that only a digest can tell unchanged (an object built at
	 * once: hooks, native state, a class changed since; a PHP reference);
	 * d.ctx: the context whose request the graph lives for. */
	decoder d;
	rv_shell *shells;          /* by object id, for the shells made */
	uint32_t *filled;          /* ids of the shells filled, in order */
	uint32_t nfilled;
	uint32_t filled_cap;
	bool failed;               /* a shell could not be filled */
	bool fetched;              /* made by Cache::fetch(), not RequestOverStatic */
	rv_lazy_graph *next;       /* the request's graphs (ctx->lazy_graphs) */
};

zend_object_handlers rv_shell_handlers;

/* Where a shell finds its record: in the value of an UNDEF slot (the value
 * of an UNDEF zval is never read), the first slot until the shell is
 * filled, then each property left pending. While our handlers are on, no
 * other slot is UNDEF: unset() goes through them. So a shell costs no
 * table lookup to make or to fill. */
static zend_always_inline rv_shell *shell_of(zend_object *obj)
{
	zval *slot = obj->properties_table;
	while (Z_TYPE_P(slot) != IS_UNDEF) {
		slot++;
	}
	ZEND_ASSERT(slot < obj->properties_table + obj->ce->default_properties_count);
	return (rv_shell *)slot->value.ptr;
}

/* The decoder's make_shell: a shell of the object o (r->dense). */
static zend_object *shell_new(decoder *d, resolved_shape *r, const rv_object_node *o)
{
	rv_lazy_graph *g = (rv_lazy_graph *)((char *)d - offsetof(rv_lazy_graph, d));
	zend_object *obj = zend_objects_new(r->ce);
	zval *slot = obj->properties_table;
	for (int i = 0; i < r->ce->default_properties_count; i++) {
		Z_TYPE_INFO(slot[i]) = IS_UNDEF;
		Z_PROP_FLAG_P(&slot[i]) = 0;
	}
	rv_shell *s = &g->shells[o->n.id];
	s->graph = g;
	s->node = o;
	s->resolved = r;
	s->filled = false;
	s->pending = 0;
	slot[0].value.ptr = s;
	obj->handlers = &rv_shell_handlers;
	d->ctx->shells_made++;
	return obj;
}

/* The pending properties of that name: one, or a parent's private one too. */
static uint64_t pending_named(zend_object *obj, uint64_t pending, zend_string *name)
{
	uint64_t named = 0;
	for (uint64_t p = pending; p; p &= p - 1) {
		uint32_t i = (uint32_t)__builtin_ctzll(p);
		zend_string *mangled = obj->ce->properties_info_table[i]->name;
		if (mangled == name) {
			/* A public property, named by the same interned string. */
			named |= (uint64_t)1 << i;
			continue;
		}
		const char *plain = zend_get_unmangled_property_name(mangled);
		size_t len = ZSTR_LEN(mangled) - (size_t)(plain - ZSTR_VAL(mangled));
		if (len == ZSTR_LEN(name) && memcmp(plain, ZSTR_VAL(name), len) == 0) {
			named |= (uint64_t)1 << i;
		}
	}
	return named;
}

static void note_filled(rv_lazy_graph *g, uint32_t id)
{
	if (g->nfilled == g->filled_cap) {
		g->filled_cap = g->filled_cap ? g->filled_cap * 2 : 16;
		g->filled = safe_erealloc(g->filled, g->filled_cap, sizeof(uint32_t), 0);
	}
	g->filled[g->nfilled++] = id;
}

/* Fills the shell as far as `name` needs (NULL: wholly). */
static zend_result fill(zend_object *obj, zend_string *name)
{
	ZEND_ASSERT(rv_is_shell(obj));
	rv_shell *s = shell_of(obj);
	rv_lazy_graph *g = s->graph;
	const rv_object_node *o = s->node;
	decoder *d = &g->d;
	uint32_t from = d->ndefer;
	zend_result rc = SUCCESS;
	/* An ordinary object while it is filled: code that filling runs (an
	 * autoloader, unserialize(), the class's constant expressions that
	 * completing its shape evaluates) and reaches it sees unset
	 * properties, not a half-written shell. */
	obj->handlers = &std_object_handlers;
	zend_object *thrown = EG(exception);
	resolved_shape *r = rv_decoder_complete(d, s->resolved, o->shape);
	if (UNEXPECTED(EG(exception) != thrown)) {
		rc = FAILURE;
	}
	if (!s->filled) {
		/* Only RequestOverStatic asks which were filled
		 * (rv_lazy_graph_unchanged()). */
		if (!g->fetched) {
			note_filled(g, o->n.id);
		}
		d->ctx->shells_filled++;
		s->filled = true;
		if (rc == SUCCESS) {
			rc = r->dense ? rv_decoder_fill_dense(d, obj, o, r, &s->pending, s) : rv_decoder_fill_loose(d, obj, o, r);
		}
	}
	uint64_t which = rc == SUCCESS && name ? pending_named(obj, s->pending, name) : s->pending;
	while (rc == SUCCESS && which) {
		uint32_t i = (uint32_t)__builtin_ctzll(which);
		which &= which - 1;
		/* Cleared first: a slot that fails stays unset. */
		s->pending &= ~((uint64_t)1 << i);
		rc = rv_decoder_fill_slot(d, obj, o, r, i);
	}
	if (rc == SUCCESS && s->pending) {
		/* Code run while filling (an autoloader that reaches the object)
		 * may have written properties left pending: their values are its,
		 * and stay. */
		zval *slots = obj->properties_table;
		for (uint64_t p = s->pending; p; p &= p - 1) {
			uint32_t i = (uint32_t)__builtin_ctzll(p);
			if (Z_TYPE(slots[i]) != IS_UNDEF) {
				s->pending &= ~((uint64_t)1 << i);
			}
		}
		if (s->pending) {
			/* shell_of() finds the shell in the first UNDEF slot (a pending
			 * one, or one that code run while filling unset before it); the
			 * next fill() looks for it there and leaves it so again. */
			zval *slot = slots;
			while (Z_TYPE_P(slot) != IS_UNDEF) {
				slot++;
			}
			slot->value.ptr = s;
			obj->handlers = &rv_shell_handlers;
		}
	}
	/* __unserialize() and __wakeup() of the objects made, once this one
	 * has what was asked for. */
	rc = rv_decoder_finish(d, from, rc);
	if (rc == FAILURE) {
		/* The slots not written stay unset; the snapshot is dropped at
		 * the end of the request (rv_lazy_graph_failed()). */
		g->failed = true;
		s->pending = 0;
		obj->handlers = &std_object_handlers;
	}
	return rc;
}

zend_result rv_shell_fill(zend_object *obj)
{
	return fill(obj, NULL);
}

/* --- handlers: fill, then the standard handler ------------------------------------ */

static zval *shell_read_property(zend_object *obj, zend_string *name, int type, void **cache_slot, zval *rv)
{
	if (fill(obj, name) == FAILURE) {
		return &EG(uninitialized_zval);
	}
	return zend_std_read_property(obj, name, type, cache_slot, rv);
}

static zval *shell_write_property(zend_object *obj, zend_string *name, zval *value, void **cache_slot)
{
	if (fill(obj, name) == FAILURE) {
		return &EG(error_zval);
	}
	return zend_std_write_property(obj, name, value, cache_slot);
}

static int shell_has_property(zend_object *obj, zend_string *name, int has_set_exists, void **cache_slot)
{
	if (fill(obj, name) == FAILURE) {
		return 0;
	}
	return zend_std_has_property(obj, name, has_set_exists, cache_slot);
}

static void shell_unset_property(zend_object *obj, zend_string *name, void **cache_slot)
{
	/* Wholly: the slot unset would be UNDEF under our handlers, without
	 * the shell in it. */
	if (rv_shell_fill(obj) == SUCCESS) {
		zend_std_unset_property(obj, name, cache_slot);
	}
}

static zval *shell_get_property_ptr_ptr(zend_object *obj, zend_string *name, int type, void **cache_slot)
{
	if (fill(obj, name) == FAILURE) {
		return &EG(error_zval);
	}
	return zend_std_get_property_ptr_ptr(obj, name, type, cache_slot);
}

/* Also what foreach, (array), get_object_vars(), serialize() and
 * var_export() ask for. */
static HashTable *shell_get_properties(zend_object *obj)
{
	rv_shell_fill(obj);
	return zend_std_get_properties(obj);
}

static HashTable *shell_get_debug_info(zend_object *obj, int *is_temp)
{
	rv_shell_fill(obj);
	return zend_std_get_debug_info(obj, is_temp);
}

/* zend_std_get_gc() without get_properties(), which fills: filling runs
 * code, which the collector must not. A shell with properties pending can
 * have a table of them already (a dynamic property written to it). */
static HashTable *shell_get_gc(zend_object *obj, zval **table, int *n)
{
	if (obj->properties) {
		*table = NULL;
		*n = 0;
		if (UNEXPECTED(GC_REFCOUNT(obj->properties) > 1) && !(GC_FLAGS(obj->properties) & IS_ARRAY_IMMUTABLE)) {
			GC_DELREF(obj->properties);
			obj->properties = zend_array_dup(obj->properties);
		}
		return obj->properties;
	}
	*table = obj->properties_table;
	*n = obj->ce->default_properties_count;
	return NULL;
}

static int shell_compare(zval *a, zval *b)
{
	if (Z_TYPE_P(a) == IS_OBJECT && rv_is_shell(Z_OBJ_P(a))) {
		rv_shell_fill(Z_OBJ_P(a));
	}
	if (Z_TYPE_P(b) == IS_OBJECT && rv_is_shell(Z_OBJ_P(b))) {
		rv_shell_fill(Z_OBJ_P(b));
	}
	return zend_std_compare_objects(a, b);
}

static zend_object *shell_clone(zend_object *obj)
{
	rv_shell_fill(obj);
	return zend_objects_clone_obj(obj);
}

void rv_lazy_module_start(void)
{
	memcpy(&rv_shell_handlers, &std_object_handlers, sizeof(zend_object_handlers));
	rv_shell_handlers.read_property = shell_read_property;
	rv_shell_handlers.write_property = shell_write_property;
	rv_shell_handlers.has_property = shell_has_property;
	rv_shell_handlers.unset_property = shell_unset_property;
	rv_shell_handlers.get_property_ptr_ptr = shell_get_property_ptr_ptr;
	rv_shell_handlers.get_properties = shell_get_properties;
	rv_shell_handlers.get_debug_info = shell_get_debug_info;
	rv_shell_handlers.get_gc = shell_get_gc;
	rv_shell_handlers.compare = shell_compare;
	rv_shell_handlers.clone_obj = shell_clone;
}

/* --- the graph ---------------------------------------------------------------------- */

zend_result rv_graph_materialize_lazy(rv_context *ctx, zval *dst, const void *area, bool fetched, rv_lazy_graph **out)
{
	const rv_graph_header *h = area;
	/* One block: the graph, then its ids, then its shells. */
	size_t ids_at = ZEND_MM_ALIGNED_SIZE(sizeof(rv_lazy_graph));
	size_t shells_at = zend_safe_address_guarded(h->nids + 1, sizeof(zval), ids_at);
	rv_lazy_graph *g = safe_emalloc(h->nids + 1, sizeof(rv_shell), shells_at);
	memset(g, 0, sizeof(*g));
	g->d.ctx = ctx;
	g->d.stamp = ctx->value_stamp;
	g->d.internal_state_refused = ctx->internal_state_refused;
	ctx->internal_state_refused = false;
	g->d.borrow = true;
	g->d.lazy = true;
	g->d.make_shell = shell_new;
	g->d.ids = (zval *)(void *)((char *)g + ids_at);
	g->shells = (rv_shell *)(void *)((char *)g + shells_at);
	g->fetched = fetched;
	g->next = ctx->lazy_graphs;
	ctx->lazy_graphs = g;
	*out = g;
	/* What the fetch itself makes (the root's shell, those of the arrays
	 * around it) is resolved whole, so that an object whose class changed
	 * since the store fails or is built now, as an eager fetch does it
	 * (UserCache makes a miss of such a value); shells filled later make
	 * light ones. */
	zend_result rc = rv_graph_decode(&g->d, dst, area);
	g->d.light = fetched;
	/* UserCache makes a miss of what the fetch refuses; a shell filled
	 * after the fetch returned can only be made as unserialize() makes it. */
	g->d.internal_state_refused = false;
	if (rc == FAILURE) {
		g->failed = true;
	}
	return rc;
}

bool rv_graph_fetchable_lazily(const void *area)
{
	uint32_t both = RV_GRAPH_RUNS_NO_CODE | RV_GRAPH_NO_REFERENCES;
	return (((const rv_graph_header *)area)->flags & both) == both;
}

bool rv_lazy_graph_failed(const rv_lazy_graph *g)
{
	return g->failed;
}

static bool same_as_stored(rv_lazy_graph *g, zval *cur, const zval *src);

static zend_always_inline zval *element_at(const zend_array *ht, uint32_t i)
{
	return HT_IS_PACKED(ht) ? &ht->arPacked[i] : &ht->arData[i].val;
}

/* cur === src for a plain array of the record (no objects, no references
 * in it), as zend_is_identical() says it, but within the C stack: the
 * engine's comparison has no stack check, and the arrays may be nested as
 * deep as the stack of their store allowed (PHP 8.3+). Where the stack
 * runs out, not the same: a digest then tells. */
static bool same_plain(zval *cur, const zval *src)
{
	if (Z_TYPE_P(cur) != Z_TYPE_P(src)) {
		return false;
	}
	switch (Z_TYPE_P(src)) {
		case IS_LONG:
			return Z_LVAL_P(cur) == Z_LVAL_P(src);
		case IS_DOUBLE:
			return Z_DVAL_P(cur) == Z_DVAL_P(src);
		case IS_STRING:
			return Z_STR_P(cur) == Z_STR_P(src) || zend_string_equal_content(Z_STR_P(cur), Z_STR_P(src));
		case IS_ARRAY:
			break;
		default:
			return true;
	}
	const zend_array *a = Z_ARR_P(cur), *b = Z_ARR_P(src);
	if (a == b) {
		return true;
	}
	if (zend_hash_num_elements(a) != zend_hash_num_elements(b) || rv_stack_exhausted()) {
		return false;
	}
	/* Element by element in order, as an ordered zend_hash_compare(). */
	uint32_t i = 0, j = 0;
	for (;;) {
		while (i < a->nNumUsed && Z_TYPE_P(element_at(a, i)) == IS_UNDEF) {
			i++;
		}
		while (j < b->nNumUsed && Z_TYPE_P(element_at(b, j)) == IS_UNDEF) {
			j++;
		}
		if (i == a->nNumUsed || j == b->nNumUsed) {
			return i == a->nNumUsed && j == b->nNumUsed;
		}
		zend_string *ka = HT_IS_PACKED(a) ? NULL : a->arData[i].key;
		zend_string *kb = HT_IS_PACKED(b) ? NULL : b->arData[j].key;
		zend_ulong ha = HT_IS_PACKED(a) ? i : a->arData[i].h;
		zend_ulong hb = HT_IS_PACKED(b) ? j : b->arData[j].h;
		if (!ka != !kb || (ka ? ka != kb && !zend_string_equal_content(ka, kb) : ha != hb)) {
			return false;
		}
		zval *va = element_at(a, i);
		ZVAL_DEREF(va);
		const zval *vb = element_at(b, j);
		if (!same_plain(va, vb)) {
			return false;
		}
		i++;
		j++;
	}
}

/* An array made from a template (see rv_array_node), element by element. */
static bool same_array(rv_lazy_graph *g, zend_array *cur, const rv_array_node *a)
{
	const zend_array *t = a->tmpl;
	if (rv_stack_exhausted()) {
		/* Nested as deep as the stack of its store allowed (PHP 8.3+):
		 * not known to be the same, which a digest then tells. */
		return false;
	}
	if (cur->nNumUsed != t->nNumUsed || zend_hash_num_elements(cur) != zend_hash_num_elements(t)
		|| HT_IS_PACKED(cur) != HT_IS_PACKED(t)) {
		return false;
	}
	if (HT_IS_PACKED(t)) {
		for (uint32_t i = 0; i < t->nNumUsed; i++) {
			if (!same_as_stored(g, &cur->arPacked[i], &t->arPacked[i])) {
				return false;
			}
		}
		return true;
	}
	for (uint32_t i = 0; i < t->nNumUsed; i++) {
		Bucket *p = &cur->arData[i], *q = &t->arData[i];
		if (!p->key != !q->key || p->h != q->h
			|| (p->key && p->key != q->key && !zend_string_equal_content(p->key, q->key))
			|| !same_as_stored(g, &p->val, &q->val)) {
			return false;
		}
	}
	return true;
}

/* The value still is the one the record gave (src: a record's value, or a
 * property's default). */
static bool same_as_stored(rv_lazy_graph *g, zval *cur, const zval *src)
{
	if (Z_TYPE_P(src) == IS_PTR) {
		const rv_node *n = Z_PTR_P(src);
		switch (RV_NODE_KIND(n)) {
			case RV_NODE_OBJECT:
			case RV_NODE_ENUM:
				return Z_TYPE_P(cur) == IS_OBJECT && Z_TYPE(g->d.ids[n->id]) == IS_OBJECT
					&& Z_OBJ_P(cur) == Z_OBJ(g->d.ids[n->id]);
			case RV_NODE_ARRAY:
				return Z_TYPE_P(cur) == IS_ARRAY && same_array(g, Z_ARR_P(cur), (const rv_array_node *)n);
			default:
				return false;
		}
	}
	if (Z_TYPE_P(src) == IS_DOUBLE) {
		/* The record's own double, bit for bit (a NaN is still the one
		 * stored); inside a plain array, as === compares it. */
		return Z_TYPE_P(cur) == IS_DOUBLE && memcmp(&Z_DVAL_P(cur), &Z_DVAL_P(src), sizeof(double)) == 0;
	}
	return same_plain(cur, src);
}

static bool same_as_record(rv_lazy_graph *g, zend_object *obj, const rv_object_node *o)
{
	if (obj->properties) {
		/* Built on demand; entries other than slots are dynamic properties. */
		zval *v;
		ZEND_HASH_FOREACH_VAL(obj->properties, v) {
			if (Z_TYPE_P(v) != IS_INDIRECT) {
				return false;
			}
		} ZEND_HASH_FOREACH_END();
	}
	resolved_shape *r = rv_decoder_resolve(&g->d, o->shape);
	const zval *defaults = CE_DEFAULT_PROPERTIES_TABLE(r->ce);
	uint64_t pending = g->shells[o->n.id].pending;
	record_reader rr;
	record_open(&rr, o);
	for (uint32_t i = 0; i < o->shape->nprops; i++) {
		zval stored;
		/* Read even where pending: a packed record's reader moves on. */
		const zval *src = record_next_zval(&rr, i, &stored);
		if (i < 64 && (pending >> i) & 1) {
			continue;
		}
		if (!same_as_stored(g, OBJ_PROP_NUM(obj, i), src ? src : &defaults[i])) {
			return false;
		}
	}
	return true;
}

bool rv_lazy_graph_unchanged(rv_lazy_graph *g)
{
	if (g->d.opaque || g->failed) {
		return false;
	}
	for (uint32_t i = 0; i < g->nfilled; i++) {
		uint32_t id = g->filled[i];
		if (!same_as_record(g, Z_OBJ(g->d.ids[id]), g->shells[id].node)) {
			return false;
		}
	}
	return true;
}

static void graph_free(rv_lazy_graph *g)
{
	if (g->filled) {
		efree(g->filled);
	}
	rv_decoder_free(&g->d);
	efree(g);
}

static rv_lazy_graph *first_fetched(rv_context *ctx)
{
	for (rv_lazy_graph *g = ctx->lazy_graphs; g; g = g->next) {
		if (g->fetched) {
			return g;
		}
	}
	return NULL;
}

zend_result rv_lazy_release_fetched(rv_context *ctx)
{
	/* From the head each time: what filling runs may fetch, and so
	 * prepend graphs of its own. */
	rv_lazy_graph *g;
	while ((g = first_fetched(ctx))) {
		/* A shell filled makes shells of the objects it meets first, at
		 * any id: passes until a pass finds none. */
		bool filled_one = true;
		while (filled_one) {
			filled_one = false;
			for (uint32_t i = 0; i <= g->d.nids; i++) {
				zval *v = &g->d.ids[i];
				if (Z_TYPE_P(v) == IS_OBJECT && rv_is_shell(Z_OBJ_P(v))) {
					if (rv_shell_fill(Z_OBJ_P(v)) == FAILURE) {
						return FAILURE;
					}
					filled_one = true;
				}
			}
		}
		rv_lazy_graph **link = &ctx->lazy_graphs;
		while (*link != g) {
			link = &(*link)->next;
		}
		*link = g->next;
		/* Whole objects now, held by whoever holds them: ours go as any
		 * reference does (a destructor runs if it was the last, as it
		 * would have when the code dropped an eagerly fetched object). */
		for (uint32_t i = 0; i <= g->d.nids; i++) {
			zval_ptr_dtor(&g->d.ids[i]);
		}
		graph_free(g);
	}
	return SUCCESS;
}

void rv_lazy_request_end(rv_context *ctx)
{
	rv_lazy_graph *g = ctx->lazy_graphs;
	ctx->lazy_graphs = NULL;
	ctx->shells_made = 0;
	ctx->shells_filled = 0;
	while (g) {
		rv_lazy_graph *next = g->next;
		/* Destructors have had their turn, and no PHP code may run from
		 * here: a shell still empty stays an object whose properties are
		 * unset, and what the last reference was ours to goes without a
		 * destructor, as at the end of any request. */
		for (uint32_t i = 0; i <= g->d.nids; i++) {
			zval *v = &g->d.ids[i];
			if (Z_TYPE_P(v) == IS_OBJECT) {
				zend_object *obj = Z_OBJ_P(v);
				if (rv_is_shell(obj)) {
					obj->handlers = &std_object_handlers;
				}
				if (!(obj->ce->ce_flags & ZEND_ACC_ENUM)) {
					GC_ADD_FLAGS(obj, IS_OBJ_DESTRUCTOR_CALLED);
				}
			}
			zval_ptr_dtor(v);
		}
		graph_free(g);
		g = next;
	}
}
