/* SPDX-License-Identifier: MIT */
/*
 * The context's life (see context.h): set up with the thread, emptied at
 * the end of each request, freed with the thread.
 */
#include "php.h"
#include "value.h"
#include "graph_lazy.h"
#include "shape_cache.h"

void rv_context_init(rv_context *ctx, bool (*is_direct_class)(zend_class_entry *ce))
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->is_direct_class = is_direct_class;
	ctx->request_no = 1;
}

static void free_table(HashTable **table)
{
	if (*table) {
		zend_hash_destroy(*table);
		FREE_HASHTABLE(*table);
		*table = NULL;
	}
}

void rv_context_request_end(rv_context *ctx)
{
	/* The graphs first, while what their objects may point at (the time
	 * zones looked up for them) is still there. */
	rv_lazy_request_end(ctx);
	/* Then the shapes they resolved, which no decoder uses any more. */
	rv_shape_cache_request_end(ctx);
	free_table(&ctx->tz_objects);
	/* The recent strings are the table's: forgotten with it. */
	memset(ctx->recent_temps, 0, sizeof(ctx->recent_temps));
	memset(ctx->recent_temp_srcs, 0, sizeof(ctx->recent_temp_srcs));
	ctx->last_profile = NULL;
	free_table(&ctx->class_profiles);
	free_table(&ctx->layouts);
	ctx->request_no++;
	free_table(&ctx->temp_strings);
	/* Left set by a bailout out of a store that set it. */
	ctx->code_refused = false;
	ctx->spl_object_storage_refused = false;
	ctx->late_growth_refused = false;
	/* ... and by a bailout out of a UserCache fetch that set it. */
	ctx->internal_state_refused = false;
}

void rv_context_scripts_end(rv_context *ctx)
{
	if (ctx->closure_scripts) {
		efree(ctx->closure_scripts);
		ctx->closure_scripts = NULL;
	}
	ctx->nclosure_scripts = ctx->closure_scripts_cap = 0;
}

HashTable *rv_context_table(HashTable **at, bool persistent, dtor_func_t dtor)
{
	if (!*at) {
		HashTable *t = pemalloc(sizeof(HashTable), persistent);
		zend_hash_init(t, 16, NULL, dtor, persistent);
		*at = t;
	}
	return *at;
}

void rv_context_table_free(HashTable **at)
{
	if (*at) {
		zend_hash_destroy(*at);
		pefree(*at, 1);
		*at = NULL;
	}
}

void rv_context_profiles_changed(rv_context *ctx)
{
	rv_context_table_free(&ctx->lasting_shapes);
	rv_context_table_free(&ctx->lasting_exact_shapes);
}

void rv_context_free(rv_context *ctx)
{
	/* What was replaced in the shape cache goes with the request's end. */
	rv_shape_cache_request_end(ctx);
	rv_context_table_free(&ctx->root_sizes);
	rv_context_table_free(&ctx->lasting_layouts);
	rv_context_table_free(&ctx->lasting_shapes);
	rv_context_table_free(&ctx->lasting_exact_shapes);
	rv_context_table_free(&ctx->lasting_types);
}
