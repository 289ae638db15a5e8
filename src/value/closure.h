/* SPDX-License-Identifier: MIT */
/*
 * Closures as records (closure.c): what a closure is made of, found when it
 * is stored, and a closure made again from that when it is fetched.
 */
#ifndef RESIDENT_VALUE_CLOSURE_H
#define RESIDENT_VALUE_CLOSURE_H

#include "php.h"
#include "context.h"
#include "graph.h"

/* A closure's static variables beyond this many are refused (their masks
 * in rv_closure_node are 64 bits). */
#define RV_CLOSURE_MAX_STATICS 64

typedef struct rv_closure_info {
	uint32_t flags;                /* RV_CLOSURE_* */
	const zend_op_array *code;     /* a user closure's: OPcache's op_array it was made from */
	rv_code_print print;           /* ... what it is */
	uint32_t map_ptr_need;
	rv_code_stamp stamp;
	const zend_function *func;     /* the closure's own */
	zend_class_entry *scope;       /* NULL: none */
	zend_class_entry *called;      /* NULL: none */
	zend_object *this_obj;         /* NULL: not bound */
	HashTable *statics;            /* a user closure's static and use variables, or NULL */
	uint32_t nstatics;
	uint64_t keep_mask;            /* ... left as the code declares them (not evaluated yet) */
	uint64_t ref_mask;             /* ... `static` ones bound already (references) */
} rv_closure_info;

/* What the closure is made of, or why it cannot be cached: the refusal, a
 * phrase for "cannot be cached: $path is ..." (in buf, of size len). */
const char *rv_closure_inspect(rv_context *ctx, zend_object *closure, rv_closure_info *out, char *buf, size_t len);

/* Makes the closure of the record, not yet bound to its object nor with
 * its static variables (rv_closure_bind(), rv_closure_set_static()). A
 * record of another OPcache's code fails without an exception: the caller
 * treats the value as missing. One of code that changed since (another
 * file, an OPcache reset or restart, a class or function gone) also
 * counts in ctx->stale_code: the value is stale for every process. */
zend_result rv_closure_make(rv_context *ctx, const rv_closure_node *n, zval *dst);
void rv_closure_bind(zval *closure, zend_object *this_obj);
void rv_closure_set_static(zval *closure, uint32_t i, zval *value, bool as_reference);

/* Why an instance of this anonymous class cannot be cached, or NULL. Its
 * class is kept by name (file:line$n), which names the same class
 * wherever the file is the one OPcache cached. */
const char *rv_anonymous_class_refusal(rv_context *ctx, zend_class_entry *ce, char *buf, size_t len);
/* The anonymous class found under that lowercase name (NULL: its script
 * is not loaded), linked as ZEND_DECLARE_ANON_CLASS links it. */
zend_class_entry *rv_anonymous_class_link(zend_class_entry *ce, zend_string *lc);
/* An anonymous class's name (no autoloader can know it). */
bool rv_is_anonymous_class_name(const zend_string *name);

/* The compiler made or OPcache loaded a script whose code declares
 * closures (op->num_dynamic_func_defs): its closures are found from it
 * when stored during this request. */
void rv_closure_note_script(rv_context *ctx, const zend_op_array *op);

#endif
