/* SPDX-License-Identifier: MIT */
/*
 * Closures as records.
 *
 * A closure is a copy of an op_array plus what it holds: its scope and
 * called scope, the object it is bound to, its static and `use` variables
 * (one table). ZEND_DECLARE_LAMBDA_FUNCTION copies the op_array from its
 * declaring function's dynamic_func_defs, which, for a script OPcache
 * caches, live in OPcache's shared memory: the same address in every
 * process forked from the one that started OPcache, until OPcache restarts
 * (it restarts only between requests, when no process runs one). So a
 * record keeps that address, the stamp it is valid for (graph.h) and what
 * the op_array was (rv_code_print: after a restart the memory is reused,
 * and holds the same again only if it is the same code);
 * a fetch makes the closure from it again with zend_create_closure(), as
 * the opcode does, then binds the object and writes the variables back.
 * What it holds is stored as values of the same graph.
 *
 * The address is found when the closure is stored: among the closures
 * declared by the scripts this request loaded (rv_closure_note_script()),
 * the methods of its scope and of the classes of its file, and the
 * functions of its file, the one op_array sharing the closure's opcodes.
 *
 * First-class callables (strlen(...), $obj->method(...)) are kept by their
 * function's name. Refused: closures of eval()'d code or of files OPcache
 * does not cache, `use (&$x)`, and closures where OPcache's state cannot
 * be known (rv_context.code_stamp).
 */
#include "php.h"
#include "value.h"
#include "graph.h"
#include "closure.h"
#include "graph_decode.h"
#include "zend_closures.h"
#include "zend_inheritance.h"
#include "zend_interfaces.h"

/* --- the code a closure was made from ----------------------------------------- */

static const zend_op_array *find_in(const zend_op_array *op, const zend_op *opcodes, uint32_t depth)
{
	if (depth > 64) {
		return NULL;
	}
	for (uint32_t i = 0; i < op->num_dynamic_func_defs; i++) {
		const zend_op_array *d = op->dynamic_func_defs[i];
		if (d->opcodes == opcodes) {
			return d;
		}
		const zend_op_array *r = find_in(d, opcodes, depth + 1);
		if (r) {
			return r;
		}
	}
	return NULL;
}

static bool same_file(const zend_string *a, const zend_string *b)
{
	return a && b && (a == b || zend_string_equals((zend_string *)a, (zend_string *)b));
}

static const zend_op_array *find_in_class(zend_class_entry *ce, const zend_op_array *f)
{
	if (!ce || ce->type != ZEND_USER_CLASS) {
		return NULL;
	}
	zend_function *m;
	ZEND_HASH_MAP_FOREACH_PTR(&ce->function_table, m) {
		if (m->type == ZEND_USER_FUNCTION && same_file(m->op_array.filename, f->filename)) {
			const zend_op_array *r = find_in(&m->op_array, f->opcodes, 0);
			if (r) {
				return r;
			}
		}
	} ZEND_HASH_FOREACH_END();
	return NULL;
}

static const zend_op_array *find_code(rv_context *ctx, const zend_op_array *f)
{
	const zend_op_array *r = find_in_class(f->scope, f);
	if (r) {
		return r;
	}
	for (uint32_t i = 0; i < ctx->nclosure_scripts; i++) {
		rv_closure_script *s = &ctx->closure_scripts[i];
		if (!same_file(s->file, f->filename)) {
			continue;
		}
		for (uint32_t j = 0; j < s->ndefs; j++) {
			const zend_op_array *d = s->defs[j];
			if (d->opcodes == f->opcodes) {
				return d;
			}
			if ((r = find_in(d, f->opcodes, 1)) != NULL) {
				return r;
			}
		}
	}
	/* User functions follow the internal ones in their table. */
	zend_function *fn;
	ZEND_HASH_MAP_REVERSE_FOREACH_PTR(EG(function_table), fn) {
		if (fn->type != ZEND_USER_FUNCTION) {
			break;
		}
		if (same_file(fn->op_array.filename, f->filename) && (r = find_in(&fn->op_array, f->opcodes, 0)) != NULL) {
			return r;
		}
	} ZEND_HASH_FOREACH_END();
	zend_class_entry *ce;
	ZEND_HASH_MAP_REVERSE_FOREACH_PTR(EG(class_table), ce) {
		/* Internal classes come first; an extension may add one later. */
		if (ce->type != ZEND_USER_CLASS) {
			continue;
		}
		if (ce != f->scope && same_file(ce->info.user.filename, f->filename) && (r = find_in_class(ce, f)) != NULL) {
			return r;
		}
	} ZEND_HASH_FOREACH_END();
	return NULL;
}

/* The run-time slots (map_ptr) of the code and of the closures it
 * declares: a request that did not load the script has not made room for
 * them (OPcache makes it when it loads one). */
static void map_ptr_need_of(const zend_op_array *op, uint32_t *need, uint32_t depth)
{
	uintptr_t slots[2] = { (uintptr_t)ZEND_MAP_PTR(op->run_time_cache), (uintptr_t)ZEND_MAP_PTR(op->static_variables_ptr) };
	for (int i = 0; i < 2; i++) {
		/* An offset from the table's base (odd), past the static slots
		 * where there are any (PHP 8.4: negative offsets, none needed). */
		if ((slots[i] & 1) && (intptr_t)slots[i] > 0) {
			uint32_t slot = (uint32_t)(slots[i] / sizeof(void *)) + 1;
			*need = MAX(*need, slot);
		}
	}
	for (uint32_t i = 0; i < op->num_dynamic_func_defs && depth < 64; i++) {
		map_ptr_need_of(op->dynamic_func_defs[i], need, depth + 1);
	}
}

/* The hash of an op_array's code: each opcode but its handler (the JIT
 * swaps handlers), and the literals as they are (a string's by its
 * address, in OPcache's interned strings). FNV-1a over 64-bit words. */
static uint64_t code_hash(const zend_op *opcodes, uint32_t last, const zval *literals, uint32_t last_literal)
{
	uint64_t h = 0xcbf29ce484222325ULL;
#define MIX(w) do { h ^= (uint64_t)(w); h *= 0x100000001b3ULL; } while (0)
	for (uint32_t i = 0; i < last; i++) {
		const zend_op *op = &opcodes[i];
		/* An unused operand's bits may be whatever the compiler left there
		 * (the optimizer builds some opcodes on its stack). */
		uint32_t op1 = op->op1_type != IS_UNUSED ? op->op1.num : 0;
		uint32_t op2 = op->op2_type != IS_UNUSED ? op->op2.num : 0;
		uint32_t result = op->result_type != IS_UNUSED ? op->result.num : 0;
		MIX((uint64_t)op1 << 32 | op2);
		MIX((uint64_t)result << 32 | op->extended_value);
		MIX((uint64_t)op->lineno << 32 | (uint32_t)op->opcode << 24 | (uint32_t)op->op1_type << 16
			| (uint32_t)op->op2_type << 8 | op->result_type);
	}
	for (uint32_t i = 0; i < last_literal; i++) {
		/* null and booleans have no value (its bits are whatever was there). */
		MIX(Z_TYPE_INFO(literals[i]));
		if (Z_TYPE(literals[i]) >= IS_LONG) {
			MIX(literals[i].value.lval);
		}
	}
#undef MIX
	return h;
}

static void print_of(const zend_op_array *op, rv_code_print *out)
{
	memset(out, 0, sizeof(*out));
	out->opcodes = op->opcodes;
	out->literals = op->literals;
	out->filename = op->filename;
	out->dynamic_func_defs = op->dynamic_func_defs;
	out->last = op->last;
	out->last_literal = (uint32_t)op->last_literal;
	out->line_start = op->line_start;
	out->num_dynamic_func_defs = op->num_dynamic_func_defs;
	out->hash = code_hash(op->opcodes, op->last, op->literals, (uint32_t)op->last_literal);
}

/* The op_array at that address is still the one printed: its pointers
 * first, and only where they are the same (addresses in OPcache's memory,
 * which stays mapped) its code. */
static bool still_printed(const zend_op_array *op, const rv_code_print *p)
{
	if (op->opcodes != p->opcodes || op->literals != p->literals || (const void *)op->filename != p->filename
		|| (const void *)op->dynamic_func_defs != p->dynamic_func_defs || op->last != p->last
		|| (uint32_t)op->last_literal != p->last_literal || op->line_start != p->line_start
		|| op->num_dynamic_func_defs != p->num_dynamic_func_defs || !(op->fn_flags & ZEND_ACC_IMMUTABLE)) {
		return false;
	}
	return code_hash(p->opcodes, p->last, p->literals, p->last_literal) == p->hash;
}

/* A closure's `use` variables are static variables too, bound by
 * ZEND_BIND_STATIC in its body as `static $x` ones are, but marked
 * ZEND_BIND_EXPLICIT (ZEND_BIND_IMPLICIT for fn's): `use (&$x)` is
 * EXPLICIT with ZEND_BIND_REF. By position in the table. */
static uint64_t captured_by_reference(const zend_op_array *op)
{
	uint64_t by_ref = 0;
	for (uint32_t i = 0; i < op->last; i++) {
		const zend_op *opline = &op->opcodes[i];
		if (opline->opcode != ZEND_BIND_STATIC
			|| (opline->extended_value & (ZEND_BIND_EXPLICIT | ZEND_BIND_REF)) != (ZEND_BIND_EXPLICIT | ZEND_BIND_REF)) {
			continue;
		}
		uint32_t pos = (opline->extended_value & ~(ZEND_BIND_REF | ZEND_BIND_IMPLICIT | ZEND_BIND_EXPLICIT)) / sizeof(Bucket);
		if (pos < 64) {
			by_ref |= (uint64_t)1 << pos;
		}
	}
	return by_ref;
}

static bool in_eval(const zend_string *file)
{
	return file && zend_memnstr(ZSTR_VAL(file), "eval()'d code", sizeof("eval()'d code") - 1, ZSTR_VAL(file) + ZSTR_LEN(file));
}

/* The called scope (static::) has no accessor: zend_closure keeps it right
 * after the bound object, on every PHP from 8.2 to 8.5, which the two
 * accessors that exist confirm (func, then this_ptr, then called_scope).
 * Should the layout differ, the bound object's class or the scope, which
 * is what every closure the engine makes has unless a static method was
 * called through a subclass. */
static zend_class_entry *called_scope_of(const zend_function *func, zval *this_zv, const rv_closure_info *out)
{
	if (this_zv && (const char *)this_zv == (const char *)func + sizeof(zend_function)) {
		return *(zend_class_entry **)(void *)((char *)this_zv + sizeof(zval));
	}
	return out->this_obj ? out->this_obj->ce : out->scope;
}

const char *rv_closure_inspect(rv_context *ctx, zend_object *closure, rv_closure_info *out, char *buf, size_t len)
{
	memset(out, 0, sizeof(*out));
	if (!ctx->code_stamp || ctx->code_refused) {
		return "a Closure";
	}
	const zend_function *func = zend_get_closure_method_def(closure);
	zval zclosure, *this_zv;
	ZVAL_OBJ(&zclosure, closure);
	this_zv = zend_get_closure_this_ptr(&zclosure);
	out->func = func;
	out->scope = func->common.scope;
	out->this_obj = this_zv && Z_TYPE_P(this_zv) == IS_OBJECT ? Z_OBJ_P(this_zv) : NULL;
	out->called = called_scope_of(func, this_zv, out);
	if (out->this_obj) {
		out->flags |= RV_CLOSURE_BOUND;
	}
	if (func->common.fn_flags & ZEND_ACC_STATIC) {
		out->flags |= RV_CLOSURE_STATIC_FN;
	}
	if (func->common.fn_flags & ZEND_ACC_FAKE_CLOSURE) {
		out->flags |= RV_CLOSURE_FAKE;
		if (!func->common.function_name || (func->type == ZEND_USER_FUNCTION && (func->common.fn_flags & ZEND_ACC_CLOSURE)
				&& zend_string_equals_literal(func->common.function_name, "{closure}"))) {
			return "a first-class callable of a Closure";
		}
		return NULL;
	}
	if (func->type != ZEND_USER_FUNCTION) {
		return "a Closure of an internal function";
	}
	const zend_op_array *f = &func->op_array;
	if (in_eval(f->filename)) {
		return "a Closure declared in eval()'d code";
	}
	const char *unstamped = ctx->code_stamp(f->filename, &out->stamp, true);
	if (unstamped) {
		snprintf(buf, len, "a Closure, kept only where OPcache caches its code: %s", unstamped);
		return buf;
	}
	const zend_op_array *code = find_code(ctx, f);
	if (!code || !(code->fn_flags & ZEND_ACC_IMMUTABLE)) {
		snprintf(buf, len, "a Closure declared in %s, which OPcache does not cache", f->filename ? ZSTR_VAL(f->filename) : "(unknown)");
		return buf;
	}
	out->code = code;
	print_of(code, &out->print);
	map_ptr_need_of(code, &out->map_ptr_need, 0);
	HashTable *ht = ZEND_MAP_PTR_GET(f->static_variables_ptr);
	if (!ht) {
		ht = f->static_variables;
	}
	if (ht && zend_hash_num_elements(ht)) {
		if (ht->nNumUsed > RV_CLOSURE_MAX_STATICS || HT_IS_PACKED(ht) || ht->nNumUsed != ht->nNumOfElements) {
			snprintf(buf, len, "a Closure with more than %d static and use variables", RV_CLOSURE_MAX_STATICS);
			return buf;
		}
		uint64_t by_ref = captured_by_reference(code);
		for (uint32_t i = 0; i < ht->nNumUsed; i++) {
			Bucket *b = &ht->arData[i];
			if (Z_TYPE(b->val) == IS_REFERENCE) {
				if (by_ref & ((uint64_t)1 << i)) {
					snprintf(buf, len, "a Closure that captures $%s by reference", b->key ? ZSTR_VAL(b->key) : "?");
					return buf;
				}
				/* A `static $x` bound already: PHP 8.3 on tells an
				 * initialized one by its being a reference. */
				out->ref_mask |= (uint64_t)1 << i;
			} else if (Z_TYPE(b->val) == IS_CONSTANT_AST) {
				out->keep_mask |= (uint64_t)1 << i;
			}
		}
		out->statics = ht;
		out->nstatics = ht->nNumUsed;
	}
	return NULL;
}

void rv_closure_note_script(rv_context *ctx, const zend_op_array *op)
{
	if (!op->num_dynamic_func_defs || !op->filename) {
		return;
	}
	/* Only OPcache's copies outlive the script's execution. */
	if (!(op->dynamic_func_defs[0]->fn_flags & ZEND_ACC_IMMUTABLE)) {
		return;
	}
	for (uint32_t i = 0; i < ctx->nclosure_scripts; i++) {
		if (ctx->closure_scripts[i].defs == op->dynamic_func_defs) {
			return;
		}
	}
	if (ctx->nclosure_scripts == ctx->closure_scripts_cap) {
		ctx->closure_scripts_cap = ctx->closure_scripts_cap ? ctx->closure_scripts_cap * 2 : 8;
		ctx->closure_scripts = safe_erealloc(ctx->closure_scripts, ctx->closure_scripts_cap, sizeof(rv_closure_script), 0);
	}
	rv_closure_script *s = &ctx->closure_scripts[ctx->nclosure_scripts++];
	s->file = op->filename;   /* OPcache's: interned for good */
	s->defs = op->dynamic_func_defs;
	s->ndefs = op->num_dynamic_func_defs;
}

/* --- anonymous classes ---------------------------------------------------------- */

bool rv_is_anonymous_class_name(const zend_string *name)
{
	const char *nul = memchr(ZSTR_VAL(name), '\0', ZSTR_LEN(name));
	return nul && nul - ZSTR_VAL(name) >= 10 && memcmp(nul - 10, "@anonymous", 10) == 0;
}

const char *rv_anonymous_class_refusal(rv_context *ctx, zend_class_entry *ce, char *buf, size_t len)
{
	if (!ctx->code_stamp || ctx->code_refused) {
		return "an instance of an anonymous class";
	}
	zend_string *file = ce->type == ZEND_USER_CLASS ? ce->info.user.filename : NULL;
	if (!file || in_eval(file)) {
		return "an instance of an anonymous class declared in eval()'d code";
	}
	/* OPcache's strings are interned for good; a script compiled for one
	 * request numbers its anonymous classes in the order of that
	 * request's compiles, so only OPcache's names last. */
	if (!(GC_FLAGS(file) & IS_STR_PERMANENT)) {
		snprintf(buf, len, "an instance of an anonymous class declared in %s, which OPcache does not cache", ZSTR_VAL(file));
		return buf;
	}
	if (!ce->__serialize && instanceof_function(ce, zend_ce_serializable)) {
		/* Its state is serialize()'s format, which names the class for
		 * unserialize() to find, and no autoloader knows this name. */
		return "an instance of an anonymous class implementing Serializable";
	}
	for (zend_class_entry *p = ce->parent; p; p = p->parent) {
		if (!(p->ce_flags & ZEND_ACC_ANON_CLASS) && (p->ce_flags & ZEND_ACC_NOT_SERIALIZABLE)) {
			snprintf(buf, len, "an instance of an anonymous class extending %s", ZSTR_VAL(p->name));
			return buf;
		}
	}
	return NULL;
}

zend_class_entry *rv_anonymous_class_link(zend_class_entry *ce, zend_string *lc)
{
	if (!ce || !(ce->ce_flags & ZEND_ACC_ANON_CLASS)) {
		return NULL;
	}
	if (ce->ce_flags & ZEND_ACC_LINKED) {
		return ce;
	}
	/* Declared (its script loaded) but not linked yet: as the opcode
	 * does; the parent's name is looked up (and autoloaded) by name. */
	return zend_do_link_class(ce, NULL, lc);
}

/* --- a closure made again --------------------------------------------------------- */

/* A scope by name, as the decoder finds classes (an anonymous one too). */
static zend_class_entry *class_named(zend_string *name, zend_string *lc)
{
	return name ? rv_find_class(name, lc) : NULL;
}

static zend_result stale(rv_context *ctx, zval *dst)
{
	ctx->stale_code++;
	ZVAL_UNDEF(dst);
	return FAILURE;
}

zend_result rv_closure_make(rv_context *ctx, const rv_closure_node *n, zval *dst)
{
	zend_class_entry *scope = class_named(n->scope, n->lc_scope);
	if (EG(exception)) {
		ZVAL_UNDEF(dst);
		return FAILURE;
	}
	zend_class_entry *called = n->called == n->scope ? scope : class_named(n->called, n->lc_called);
	if (EG(exception)) {
		ZVAL_UNDEF(dst);
		return FAILURE;
	}
	if ((n->scope && !scope) || (n->called && !called)) {
		return stale(ctx, dst);
	}
	if (n->flags & RV_CLOSURE_FAKE) {
		zend_function *fn = scope ? zend_hash_find_ptr(&scope->function_table, n->function)
			: zend_hash_find_ptr(EG(function_table), n->function);
		if (!fn) {
			return stale(ctx, dst);
		}
		zend_create_fake_closure(dst, fn, fn->common.scope, called, NULL);
		return SUCCESS;
	}
	rv_code_stamp now;
	memset(&now, 0, sizeof(now));
	if (!ctx->code_stamp || ctx->code_stamp(n->file, &now, false) || now.instance != n->stamp.instance) {
		/* Not this OPcache's code (another master's, a CLI command on a
		 * named segment): a miss here, still good where it was made. */
		ZVAL_UNDEF(dst);
		return FAILURE;
	}
	if (memcmp(&now, &n->stamp, sizeof(now)) != 0) {
		return stale(ctx, dst);
	}
	/* The stamp vouches for the address being OPcache's (mapped, in this
	 * process too); what is there now must still be this code. */
	const zend_op_array *code = n->code;
	if (!still_printed(code, &n->print)) {
		return stale(ctx, dst);
	}
	if (n->map_ptr_need) {
		zend_map_ptr_extend(n->map_ptr_need);
	}
	zend_create_closure(dst, (zend_function *)code, scope, called, NULL);
	const zend_function *made = zend_get_closure_method_def(Z_OBJ_P(dst));
	HashTable *ht = ZEND_MAP_PTR_GET(made->op_array.static_variables_ptr);
	if ((ht ? ht->nNumUsed : 0) != n->nstatics) {
		zval_ptr_dtor(dst);
		return stale(ctx, dst);
	}
	return SUCCESS;
}

void rv_closure_bind(zval *closure, zend_object *this_obj)
{
	zval *this_ptr = zend_get_closure_this_ptr(closure);
	zval_ptr_dtor(this_ptr);
	ZVAL_OBJ_COPY(this_ptr, this_obj);
}

void rv_closure_set_static(zval *closure, uint32_t i, zval *value, bool as_reference)
{
	zend_function *func = (zend_function *)zend_get_closure_method_def(Z_OBJ_P(closure));
	HashTable *ht = ZEND_MAP_PTR_GET(func->op_array.static_variables_ptr);
	ZEND_ASSERT(ht && i < ht->nNumUsed);
	zval *slot = &ht->arData[i].val;
	zval_ptr_dtor(slot);
	if (as_reference) {
		ZVAL_NEW_REF(slot, value);
	} else {
		ZVAL_COPY_VALUE(slot, value);
	}
}
