/* SPDX-License-Identifier: MIT */
/*
 * Resident\Cache::inspect(): what an operator's dashboard shows, built from
 * the store's inspection functions (store/inspect.c).
 */
#include "php.h"
#include "php_resident.h"
#include "inspect.h"

static void pool_name(rs_store *st, uint16_t id, char *out, size_t len)
{
	rs_pool_stats ps;
	if (rs_pool_stats_get(st, id, &ps) != RS_OK) {
		snprintf(out, len, "#%u", id);
	} else {
		resident_pool_display_name(ps.name, out, len);
	}
}

static void key_rows(rs_store *st, zval *list, rs_key_info *keys, uint32_t n, bool with_hits)
{
	array_init_size(list, n);
	int64_t now = resident_now_ms();
	for (uint32_t i = 0; i < n; i++) {
		char pool[RS_POOL_NAME_MAX + 3];
		pool_name(st, keys[i].pool, pool, sizeof(pool));
		zval row;
		array_init(&row);
		add_assoc_string(&row, "pool", pool);
		add_assoc_stringl(&row, "key", keys[i].key, keys[i].key_len);
		add_assoc_long(&row, "bytes", (zend_long)keys[i].bytes);
		add_assoc_long(&row, "memory", (zend_long)keys[i].block_bytes);
		if (with_hits) {
			add_assoc_long(&row, "hits", (zend_long)keys[i].hits);
		}
		if (keys[i].expires_ms) {
			add_assoc_long(&row, "ttl", (zend_long)((keys[i].expires_ms - now + 999) / 1000));
		} else {
			add_assoc_null(&row, "ttl");
		}
		add_next_index_zval(list, &row);
	}
}

static void pools(rs_store *st, zval *out)
{
	array_init(out);
	for (uint16_t id = 0; id < RS_MAX_POOLS; id++) {
		rs_pool_stats ps;
		if (rs_pool_stats_get(st, id, &ps) != RS_OK) {
			continue;
		}
		char name[RS_POOL_NAME_MAX + 3];
		pool_name(st, id, name, sizeof(name));
		zval row;
		array_init(&row);
		add_assoc_string(&row, "name", name);
		add_assoc_bool(&row, "pinned", ps.pinned);
		add_assoc_long(&row, "entries", (zend_long)ps.entries);
		add_assoc_long(&row, "memory", (zend_long)ps.bytes);
		add_assoc_long(&row, "hits", (zend_long)ps.hits);
		add_assoc_long(&row, "misses", (zend_long)ps.misses);
		add_assoc_long(&row, "stores", (zend_long)ps.stores);
		add_assoc_long(&row, "evictions", (zend_long)ps.evictions);
		add_next_index_zval(out, &row);
	}
}

/* RequestOverStatic's snapshots: "class:<class>", "prop:<class>::<property>",
 * "method:<class>::<method>". */
static void snapshots(rs_store *st, zval *out)
{
	array_init(out);
	uint16_t pool;
	if (rs_pool_open(st, RESIDENT_ROS_POOL, false, &pool) != RS_OK) {
		return;
	}
	rs_key_batch keys = {0};
	for (uint64_t b = 0, n = rs_bucket_count(st); b < n;) {
		rs_key_batch_clear(&keys);
		bool complete = rs_keys_collect(st, pool, &b, 1024, &keys);
		rs_key_ref k;
		for (size_t pos = 0; rs_key_batch_next(&keys, &pos, &k);) {
			zval row;
			array_init(&row);
			add_assoc_stringl(&row, "unit", k.key, k.len);
			add_assoc_long(&row, "bytes", (zend_long)k.value_size);
			add_next_index_zval(out, &row);
		}
		if (!complete) {
			break;
		}
	}
	rs_key_batch_free(&keys);
}

void resident_inspect(rs_store *st, zend_long top, zend_long cells, zval *return_value)
{
	array_init(return_value);
	zval list;
	pools(st, &list);
	add_assoc_zval(return_value, "pools", &list);
	snapshots(st, &list);
	add_assoc_zval(return_value, "snapshots", &list);
	uint64_t (*map)[4] = ecalloc((size_t)cells, sizeof(*map));
	rs_memory_map(st, (uint32_t)cells, map);
	zval cells_list;
	array_init_size(&cells_list, (uint32_t)cells);
	for (zend_long i = 0; i < cells; i++) {
		zval cell;
		array_init_size(&cell, 4);
		add_assoc_long(&cell, "live", (zend_long)map[i][0]);
		add_assoc_long(&cell, "free", (zend_long)map[i][1]);
		add_assoc_long(&cell, "limbo", (zend_long)map[i][2]);
		add_assoc_long(&cell, "reserved", (zend_long)map[i][3]);
		add_next_index_zval(&cells_list, &cell);
	}
	efree(map);
	add_assoc_zval(return_value, "memory_map", &cells_list);

	rs_key_info *keys = emalloc(sizeof(rs_key_info) * (size_t)top);
	key_rows(st, &list, keys, rs_largest(st, keys, (uint32_t)top), false);
	add_assoc_zval(return_value, "largest", &list);
	key_rows(st, &list, keys, rs_hottest(st, keys, (uint32_t)top), true);
	add_assoc_zval(return_value, "hottest", &list);
	efree(keys);
}
