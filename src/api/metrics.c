/* SPDX-License-Identifier: MIT */
/*
 * Resident\Cache::metrics(): the segment's and each pool's statistics in
 * Prometheus' text exposition format (version 0.0.4), for a /metrics
 * endpoint or node_exporter's textfile collector.
 */
#include "php.h"
#include "php_resident.h"
#include "metrics.h"
#include "zend_smart_str.h"

static void family(smart_str *out, const char *name, const char *type, const char *help)
{
	smart_str_append_printf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void sample(smart_str *out, const char *name, const char *labels, uint64_t value)
{
	smart_str_appends(out, name);
	if (labels && *labels) {
		smart_str_appendc(out, '{');
		smart_str_appends(out, labels);
		smart_str_appendc(out, '}');
	}
	smart_str_append_printf(out, " %" PRIu64 "\n", value);
}

/* A label value: backslash, double quote and newline escaped. */
static void label_value(smart_str *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"') {
			smart_str_appendc(out, '\\');
			smart_str_appendc(out, *s);
		} else if (*s == '\n') {
			smart_str_appends(out, "\\n");
		} else {
			smart_str_appendc(out, *s);
		}
	}
}

typedef struct pool_row {
	char labels[2 * RS_POOL_NAME_MAX + 16];
	rs_pool_stats ps;
} pool_row;

/* Every pool; Resident's own (named with a control character) in
 * parentheses: "(statics)", "(remember)". */
static uint32_t pool_rows(rs_store *st, pool_row *rows)
{
	uint32_t n = 0;
	for (uint16_t id = 0; id < RS_MAX_POOLS; id++) {
		rs_pool_stats ps;
		if (rs_pool_stats_get(st, id, &ps) != RS_OK) {
			continue;
		}
		char name[RS_POOL_NAME_MAX + 3];
		resident_pool_display_name(ps.name, name, sizeof(name));
		smart_str label = {0};
		smart_str_appends(&label, "pool=\"");
		label_value(&label, name);
		smart_str_appendc(&label, '"');
		smart_str_0(&label);
		snprintf(rows[n].labels, sizeof(rows[n].labels), "%s", ZSTR_VAL(label.s));
		smart_str_free(&label);
		rows[n].ps = ps;
		n++;
	}
	return n;
}

zend_string *resident_metrics(rs_store *st)
{
	smart_str out = {0};
	family(&out, "resident_up", "gauge", "1 if the Resident segment is available to this process");
	sample(&out, "resident_up", NULL, st != NULL);
	if (!st) {
		smart_str_0(&out);
		return out.s;
	}
	rs_segment_stats s;
	rs_segment_stats_get(st, &s);

	family(&out, "resident_memory_bytes", "gauge", "Segment memory by state");
	sample(&out, "resident_memory_bytes", "state=\"used\"", s.used_bytes);
	sample(&out, "resident_memory_bytes", "state=\"free\"", s.free_bytes);
	sample(&out, "resident_memory_bytes", "state=\"limbo\"", s.limbo_bytes);
	family(&out, "resident_memory_size_bytes", "gauge", "Size of the segment");
	sample(&out, "resident_memory_size_bytes", NULL, s.total_bytes);
	family(&out, "resident_largest_free_block_bytes", "gauge", "Largest free block (fragmentation)");
	sample(&out, "resident_largest_free_block_bytes", NULL, s.largest_free);
	family(&out, "resident_entries", "gauge", "Live entries in the segment");
	sample(&out, "resident_entries", NULL, s.entries);
	family(&out, "resident_limbo_entries", "gauge", "Replaced entries waiting for readers to leave");
	sample(&out, "resident_limbo_entries", NULL, s.limbo_entries);
	family(&out, "resident_reader_slots", "gauge", "Reader slots (processes or threads)");
	sample(&out, "resident_reader_slots", "state=\"used\"", s.slots_used);
	sample(&out, "resident_reader_slots", "state=\"total\"", s.slots_total);

	static const struct { const char *name, *help; size_t offset; } counters[] = {
		{ "resident_hits_total", "Fetches that found their key", offsetof(rs_segment_stats, hits) },
		{ "resident_misses_total", "Fetches that did not", offsetof(rs_segment_stats, misses) },
		{ "resident_stores_total", "Entries written", offsetof(rs_segment_stats, stores) },
		{ "resident_evictions_total", "Entries evicted to make room", offsetof(rs_segment_stats, evictions) },
		{ "resident_expirations_total", "Entries dropped after their TTL", offsetof(rs_segment_stats, expirations) },
		{ "resident_lock_waits_total", "Write-lock acquisitions that had to wait", offsetof(rs_segment_stats, lock_waits) },
		{ "resident_reader_waits_total", "1 ms waits of stores for requests in flight to release memory", offsetof(rs_segment_stats, reader_waits) },
		{ "resident_recoveries_total", "Recoveries after a writer died holding the lock", offsetof(rs_segment_stats, recoveries) },
		{ "resident_dead_slots_cleared_total", "Reader slots cleared after their process died", offsetof(rs_segment_stats, dead_slots) },
	};
	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		family(&out, counters[i].name, "counter", counters[i].help);
		sample(&out, counters[i].name, NULL, *(const uint64_t *)((const char *)&s + counters[i].offset));
	}

	pool_row *rows = emalloc(sizeof(pool_row) * RS_MAX_POOLS);
	uint32_t n = pool_rows(st, rows);
	static const struct { const char *name, *type, *help; size_t offset; } per_pool[] = {
		{ "resident_pool_entries", "gauge", "Live entries of the pool", offsetof(rs_pool_stats, entries) },
		{ "resident_pool_memory_bytes", "gauge", "Memory held by the pool's entries", offsetof(rs_pool_stats, bytes) },
		{ "resident_pool_hits_total", "counter", "Fetches that found their key", offsetof(rs_pool_stats, hits) },
		{ "resident_pool_misses_total", "counter", "Fetches that did not", offsetof(rs_pool_stats, misses) },
		{ "resident_pool_stores_total", "counter", "Entries written", offsetof(rs_pool_stats, stores) },
		{ "resident_pool_deletes_total", "counter", "Entries deleted", offsetof(rs_pool_stats, deletes) },
		{ "resident_pool_evictions_total", "counter", "Entries evicted", offsetof(rs_pool_stats, evictions) },
		{ "resident_pool_expirations_total", "counter", "Entries dropped after their TTL", offsetof(rs_pool_stats, expirations) },
	};
	for (size_t i = 0; i < sizeof(per_pool) / sizeof(per_pool[0]); i++) {
		family(&out, per_pool[i].name, per_pool[i].type, per_pool[i].help);
		for (uint32_t r = 0; r < n; r++) {
			sample(&out, per_pool[i].name, rows[r].labels, *(const uint64_t *)((const char *)&rows[r].ps + per_pool[i].offset));
		}
	}
	efree(rows);
	smart_str_0(&out);
	return out.s;
}
