/* SPDX-License-Identifier: MIT */
/*
 * Resident\Cache::keep(): a booted application kept across requests.
 *
 * keep($key, $build, $reset) returns what $build returned, built once per
 * deploy: the first call builds and stores it, every later one (in any
 * worker) fetches a fresh copy of it, so no request sees what another
 * changed. $reset then runs on the copy, for the services that must not
 * carry state from the request that built it (a logger's request id, a
 * session, a clock): the reset discipline of worker servers, inverted.
 *
 * Stored as ['app' => the value, 'deploys' => the deploy count, 'files' =>
 * the files $build included, with their mtime and size]. It is built again
 * when
 *  - a deploy told OPcache (opcache_reset(), opcache_invalidate(): the
 *    count RequestOverStatic keeps for every worker of the master);
 *  - where OPcache stat()s files (validate_timestamps=1), one of the files
 *    $build included changed: checked at most once per
 *    opcache.revalidate_freq seconds per process and key, as OPcache does;
 *  - a closure in it was made from code that changed, or OPcache restarted
 *    (the fetch is then a miss: value/closure.c).
 * Several workers may build at once after a deploy; the last one's value
 * stays. keep() is not single flight (remember() is): a build is expected
 * once per deploy.
 */
#include <time.h>
#include "php.h"
#include "php_resident.h"
#include "api.h"
#include "ros/ros.h"

#define KEPT_CHECKED_MAX 64

/* Where OPcache stat()s files: whether the files of the kept value are as
 * they were, looked at again once per revalidate_freq seconds. */
static bool files_unchanged(const resident_cache_obj *c, zend_string *key, HashTable *files)
{
	if (ros_opcache_trusted() || !files) {
		return true;
	}
	zend_long freq = zend_ini_long("opcache.revalidate_freq", sizeof("opcache.revalidate_freq") - 1, 0);
	time_t now = time(NULL);
	HashTable *checked = RESIDENT_G(kept_checked);
	if (!checked) {
		checked = pemalloc(sizeof(HashTable), 1);
		zend_hash_init(checked, 8, NULL, NULL, 1);
		RESIDENT_G(kept_checked) = checked;
	}
	zend_string *slot = zend_strpprintf(0, "%u:%s", (unsigned)c->pool, ZSTR_VAL(key));
	zval *last = zend_hash_find(checked, slot);
	if (last && freq > 0 && now - (time_t)Z_LVAL_P(last) < freq) {
		zend_string_release(slot);
		return true;
	}
	bool same = true;
	zend_string *path;
	zval *was;
	ZEND_HASH_FOREACH_STR_KEY_VAL(files, path, was) {
		if (!path || Z_TYPE_P(was) != IS_STRING) {
			continue;
		}
		zend_string *is = ros_stat_identity(path, false);
		same = zend_string_equals(is, Z_STR_P(was));
		zend_string_release(is);
		if (!same) {
			break;
		}
	} ZEND_HASH_FOREACH_END();
	/* A bounded table: keys need not be chosen by the code alone (and
	 * past this many, files are stat()ed on every call, as without it). */
	if (same && (last || zend_hash_num_elements(checked) < KEPT_CHECKED_MAX)) {
		zval t;
		ZVAL_LONG(&t, (zend_long)now);
		/* The key string is persistent: the table outlives the request. */
		zend_string *pkey = zend_string_init(ZSTR_VAL(slot), ZSTR_LEN(slot), 1);
		zend_hash_update(checked, pkey, &t);
		zend_string_release(pkey);
	}
	zend_string_release(slot);
	return same;
}

/* The kept value of a fetched entry, if it is still the one to keep. */
static zval *still_kept(const resident_cache_obj *c, zend_string *key, zval *entry)
{
	if (Z_TYPE_P(entry) != IS_ARRAY) {
		return NULL;
	}
	zval *app = zend_hash_str_find(Z_ARRVAL_P(entry), "app", 3);
	zval *deploys = zend_hash_str_find(Z_ARRVAL_P(entry), "deploys", 7);
	zval *files = zend_hash_str_find(Z_ARRVAL_P(entry), "files", 5);
	if (!app || !deploys || Z_TYPE_P(deploys) != IS_LONG || (zend_ulong)Z_LVAL_P(deploys) != ros_deploy_count()) {
		return NULL;
	}
	return files_unchanged(c, key, files && Z_TYPE_P(files) == IS_ARRAY ? Z_ARRVAL_P(files) : NULL) ? app : NULL;
}

/* Calls $build, stores what it returned with the files it included, and
 * gives it back in app. */
static bool build(resident_cache_obj *c, zend_string *key, zend_fcall_info *fci, zend_fcall_info_cache *fcc, zval *app)
{
	uint32_t before = EG(included_files).nNumUsed;
	fci->retval = app;
	fci->param_count = 0;
	fci->params = NULL;
	fci->named_params = NULL;
	ZVAL_UNDEF(app);
	if (zend_call_function(fci, fcc) == FAILURE || EG(exception)) {
		zval_ptr_dtor(app);
		ZVAL_UNDEF(app);
		return false;
	}
	zval entry, files;
	array_init(&files);
	if (!ros_opcache_trusted()) {
		for (uint32_t i = before; i < EG(included_files).nNumUsed; i++) {
			Bucket *b = &EG(included_files).arData[i];
			if (Z_TYPE(b->val) != IS_UNDEF && b->key) {
				add_assoc_str_ex(&files, ZSTR_VAL(b->key), ZSTR_LEN(b->key), ros_stat_identity(b->key, false));
			}
		}
	}
	array_init_size(&entry, 3);
	Z_TRY_ADDREF_P(app);
	add_assoc_zval(&entry, "app", app);
	add_assoc_long(&entry, "deploys", (zend_long)ros_deploy_count());
	add_assoc_zval(&entry, "files", &files);
	int rc = resident_store_result(c, key, &entry, 0, 0, 2, true);
	zval_ptr_dtor(&entry);
	if (rc < 0) {
		zval_ptr_dtor(app);
		ZVAL_UNDEF(app);
		return false;
	}
	return true;
}

void resident_keep(resident_cache_obj *c, zend_string *key, zend_fcall_info *fci, zend_fcall_info_cache *fcc,
                   zend_fcall_info *reset, zend_fcall_info_cache *reset_cache, zval *return_value)
{
	zval entry, app;
	ZVAL_UNDEF(&app);
	if (resident_fetch_once(c, key, &entry)) {
		zval *kept = still_kept(c, key, &entry);
		if (kept) {
			ZVAL_COPY(&app, kept);
		}
		zval_ptr_dtor(&entry);
	}
	if (EG(exception)) {
		zval_ptr_dtor(&app);
		return;
	}
	if (Z_TYPE(app) == IS_UNDEF && !build(c, key, fci, fcc, &app)) {
		return;
	}
	if (reset) {
		zval ignored;
		ZVAL_UNDEF(&ignored);
		reset->retval = &ignored;
		reset->param_count = 1;
		reset->params = &app;
		reset->named_params = NULL;
		zend_call_function(reset, reset_cache);
		zval_ptr_dtor(&ignored);
		if (EG(exception)) {
			zval_ptr_dtor(&app);
			return;
		}
	}
	RETURN_COPY_VALUE(&app);
}

void resident_keep_thread_end(void)
{
	if (RESIDENT_G(kept_checked)) {
		zend_hash_destroy(RESIDENT_G(kept_checked));
		pefree(RESIDENT_G(kept_checked), 1);
		RESIDENT_G(kept_checked) = NULL;
	}
}
