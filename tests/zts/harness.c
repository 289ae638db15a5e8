/*
 * ZTS thread harness: runs one PHP script as many requests on N threads of
 * one process through PHP's embed SAPI (libphp.so built with ZTS), so every
 * thread works on the same Resident segment.
 *
 *   zts-harness [-d ini=value]... [-s NAME=value]... [-w seconds] script.php [threads [requests]]
 *
 *   -d  an ini line (repeatable): -d extension=/abs/resident.so -d resident.zero_copy=1
 *   -s  a string global the script sees as $NAME (repeatable): -s OPS=2000
 *   -w  watchdog: the whole run must end within this many seconds (default 120)
 *
 * Each request runs with the globals $THREAD (0..threads-1), $REQUEST,
 * $THREADS, $REQUESTS and the -s ones, and must print exactly one line
 *   ok|BAD ops=N hits=N misses=N stores=N store_failures=N deletes=N bad=N held=N nomem=N
 * Lines starting with "detail:" are passed on to stderr; any other output
 * (a warning, an uncaught exception...) fails the request. Two more requests
 * run on the main thread: $THREAD = -2 before the workers start (the script
 * prints "preflight ..."), $THREAD = -1 after they all ended (it prints
 * "final ... limbo_bytes=N ... slots_used=N ...").
 *
 * The process's stderr goes through a pipe the harness reads, so leak
 * reports of the debug build ("Freeing 0x...", "=== Total N memory leaks
 * detected ==="), assertion failures and PHP errors printed there fail the
 * run. Exit status: 0 pass, 1 failure, 2 timeout (deadlock), 3 usage/startup.
 */
#define _GNU_SOURCE
#include <sapi/embed/php_embed.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 256
#define MAX_GLOBALS 32

static const char BASE_INI[] =
	"html_errors=0\n"
	"register_argc_argv=1\n"
	"implicit_flush=1\n"
	"output_buffering=0\n"
	"max_execution_time=0\n"
	"max_input_time=-1\n"
	"error_reporting=-1\n"
	"display_errors=1\n"
	"display_startup_errors=1\n"
	"log_errors=0\n"
	"report_memleaks=1\n";

/* --- growable buffer ------------------------------------------------------ */

typedef struct buf {
	char *data;
	size_t len, cap;
} buf;

static void buf_append(buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n + 1) {
			cap *= 2;
		}
		char *d = realloc(b->data, cap);
		if (!d) {
			abort();
		}
		b->data = d;
		b->cap = cap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static void buf_appends(buf *b, const char *s)
{
	buf_append(b, s, strlen(s));
}

/* --- options -------------------------------------------------------------- */

static const char *script_path;
static int nthreads = 8;
static int nrequests = 10;
static int watchdog_seconds = 120;
static buf ini;
static const char *global_names[MAX_GLOBALS];
static const char *global_values[MAX_GLOBALS];
static int nglobals;

/* --- stderr capture ------------------------------------------------------- */

static int real_stderr = -1;  /* the original fd 2 */
static int err_pipe = -1;     /* read end; fd 2 is the write end */
static pthread_t err_thread;
static atomic_long err_leak_lines, err_leak_totals, err_assertions, err_php_errors, err_sanitizer;

static void write_all(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w < 0) {
			if (errno == EINTR) {
				continue;
			}
			return;
		}
		s += w;
		n -= (size_t)w;
	}
}

/* Harness messages: straight to the real stderr, never scanned. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char line[2048];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0) {
		return;
	}
	write_all(real_stderr >= 0 ? real_stderr : STDERR_FILENO, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

static void scan_err_line(const char *l)
{
	if (strstr(l, "memory leaks detected")) {
		err_leak_totals++;
	} else if (strstr(l, "Freeing 0x") || strstr(l, "Last leak repeated")) {
		err_leak_lines++;
	} else if (strstr(l, "Assertion") || strstr(l, "assertion")) {
		err_assertions++;
	} else if (strstr(l, "AddressSanitizer") || strstr(l, "runtime error:") || strstr(l, "LeakSanitizer")) {
		err_sanitizer++;
	} else if (strstr(l, "Fatal error") || strstr(l, "Warning:") || strstr(l, "Notice:")
			|| strstr(l, "Deprecated:") || strstr(l, "Uncaught") || strstr(l, "PHP ")) {
		err_php_errors++;
	}
}

/* Copies the pipe to the real stderr as it comes, scanning whole lines. */
static void *err_forwarder(void *arg)
{
	(void)arg;
	buf line = {0};
	char chunk[4096];
	for (;;) {
		struct pollfd p = { .fd = err_pipe, .events = POLLIN };
		if (poll(&p, 1, -1) < 0 && errno != EINTR) {
			break;
		}
		ssize_t n = read(err_pipe, chunk, sizeof(chunk));
		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			continue;
		}
		if (n <= 0) {
			break;
		}
		write_all(real_stderr, chunk, (size_t)n);
		for (ssize_t i = 0; i < n; i++) {
			if (chunk[i] == '\n') {
				scan_err_line(line.data ? line.data : "");
				line.len = 0;
				if (line.data) {
					line.data[0] = '\0';
				}
			} else {
				buf_append(&line, &chunk[i], 1);
			}
		}
	}
	if (line.len) {
		scan_err_line(line.data);
	}
	free(line.data);
	return NULL;
}

/* Whatever is still in the pipe, to the real stderr (async-signal-safe). */
static void drain_err_pipe(void)
{
	if (err_pipe < 0) {
		return;
	}
	char chunk[4096];
	ssize_t n;
	while ((n = read(err_pipe, chunk, sizeof(chunk))) > 0) {
		write_all(real_stderr, chunk, (size_t)n);
	}
}

static void fatal_signal(int sig)
{
	drain_err_pipe();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int capture_stderr(void)
{
	int p[2];
	real_stderr = dup(STDERR_FILENO);
	if (real_stderr < 0 || pipe(p) != 0) {
		return -1;
	}
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	fcntl(real_stderr, F_SETFD, FD_CLOEXEC);
	err_pipe = p[0];
	if (dup2(p[1], STDERR_FILENO) < 0) {
		return -1;
	}
	close(p[1]);
	setvbuf(stderr, NULL, _IONBF, 0);
	if (pthread_create(&err_thread, NULL, err_forwarder, NULL) != 0) {
		return -1;
	}
	int sigs[] = { SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL };
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		signal(sigs[i], fatal_signal);
	}
	return 0;
}

/* Gives fd 2 back: the pipe's last write end closes, the forwarder drains it. */
static void release_stderr(void)
{
	fflush(stderr);
	dup2(real_stderr, STDERR_FILENO);
	pthread_join(err_thread, NULL);
	close(err_pipe);
	err_pipe = -1;
}

/* --- workers -------------------------------------------------------------- */

enum { PH_IDLE, PH_STARTUP, PH_RUNNING, PH_SHUTDOWN, PH_DONE };
static const char *const phase_names[] = { "idle", "request startup", "running script", "request shutdown", "done" };

typedef struct result {
	long ops, hits, misses, stores, store_failures, deletes, bad, held, nomem;
} result;

typedef struct worker {
	int index;
	pthread_t tid;
	atomic_int request;
	atomic_int phase;
	int requests_ok, requests_failed;
	result sum;
} worker;

static worker workers[MAX_THREADS];
static struct timespec t_start;

/* Output of the request running on this thread (NULL outside requests). */
static _Thread_local buf *tl_out;

static size_t harness_ub_write(const char *str, size_t len)
{
	if (tl_out) {
		buf_append(tl_out, str, len);
	} else {
		write_all(STDOUT_FILENO, str, len);
	}
	return len;
}

static void set_globals(int thread, int request)
{
	zval zv;
	ZVAL_LONG(&zv, thread);
	zend_hash_str_update(&EG(symbol_table), "THREAD", sizeof("THREAD") - 1, &zv);
	ZVAL_LONG(&zv, request);
	zend_hash_str_update(&EG(symbol_table), "REQUEST", sizeof("REQUEST") - 1, &zv);
	ZVAL_LONG(&zv, nthreads);
	zend_hash_str_update(&EG(symbol_table), "THREADS", sizeof("THREADS") - 1, &zv);
	ZVAL_LONG(&zv, nrequests);
	zend_hash_str_update(&EG(symbol_table), "REQUESTS", sizeof("REQUESTS") - 1, &zv);
	for (int i = 0; i < nglobals; i++) {
		ZVAL_STRING(&zv, global_values[i]);
		zend_hash_str_update(&EG(symbol_table), global_names[i], strlen(global_names[i]), &zv);
	}
}

/* One request: startup, the script, shutdown. Returns whether the script
 * ran to its end with exit status 0; its output is in *out. */
static bool run_request(int thread, int request, buf *out, atomic_int *phase)
{
	volatile bool ran = false;
	int status = -1;
	zend_file_handle fh;

	out->len = 0;
	buf_append(out, "", 0);
	tl_out = out;
	atomic_store(phase, PH_STARTUP);

	SG(options) |= SAPI_OPTION_NO_CHDIR;
	SG(request_info).argc = 0;
	SG(request_info).argv = NULL;
	SG(request_info).path_translated = (char *)script_path;
	zend_stream_init_filename(&fh, script_path);
	fh.primary_script = 1;

	zend_first_try {
		if (php_request_startup() == SUCCESS) {
			SG(headers_sent) = 1;
			SG(request_info).no_headers = 1;
			set_globals(thread, request);
			atomic_store(phase, PH_RUNNING);
			ran = php_execute_script(&fh);
		}
	} zend_end_try();
	status = EG(exit_status);
	zend_destroy_file_handle(&fh);

	atomic_store(phase, PH_SHUTDOWN);
	php_request_shutdown(NULL);
	SG(request_info).path_translated = NULL;
	tl_out = NULL;
	atomic_store(phase, PH_IDLE);
	return ran && status == 0;
}

/* Checks one request's output; adds its result line to *sum. */
static bool check_output(int thread, int request, const buf *out, result *sum)
{
	int result_lines = 0;
	bool ok = true;
	const char *p = out->data ? out->data : "";
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char line[1024];
		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) - 1 ? n : sizeof(line) - 1), p);
		p += n + (nl ? 1 : 0);
		if (line[0] == '\0') {
			continue;
		}
		char word[8];
		result r;
		if (sscanf(line, "%7s ops=%ld hits=%ld misses=%ld stores=%ld store_failures=%ld deletes=%ld bad=%ld held=%ld nomem=%ld",
				word, &r.ops, &r.hits, &r.misses, &r.stores, &r.store_failures, &r.deletes, &r.bad, &r.held, &r.nomem) == 10
				&& (!strcmp(word, "ok") || !strcmp(word, "BAD"))) {
			result_lines++;
			sum->ops += r.ops;
			sum->hits += r.hits;
			sum->misses += r.misses;
			sum->stores += r.stores;
			sum->store_failures += r.store_failures;
			sum->deletes += r.deletes;
			sum->bad += r.bad;
			sum->held += r.held;
			sum->nomem += r.nomem;
			if (strcmp(word, "ok") != 0 || r.bad != 0) {
				say("thread %d request %d: %s\n", thread, request, line);
				ok = false;
			}
		} else if (!strncmp(line, "detail:", 7)) {
			say("thread %d request %d: %s\n", thread, request, line);
		} else {
			say("thread %d request %d: unexpected output: %s\n", thread, request, line);
			ok = false;
		}
	}
	if (result_lines != 1) {
		say("thread %d request %d: %d result lines, expected 1\n", thread, request, result_lines);
		ok = false;
	}
	return ok;
}

static void *worker_main(void *arg)
{
	worker *w = arg;
	buf out = {0};

	/* This thread's copy of every module's globals (Resident's GINIT). */
	(void)ts_resource(0);
	ZEND_TSRMLS_CACHE_UPDATE();

	for (int r = 0; r < nrequests; r++) {
		atomic_store(&w->request, r);
		bool ran = run_request(w->index, r, &out, &w->phase);
		if (!ran) {
			say("thread %d request %d: the script failed (exit status or fatal error)\n", w->index, r);
		}
		if (check_output(w->index, r, &out, &w->sum) && ran) {
			w->requests_ok++;
		} else {
			w->requests_failed++;
		}
	}
	free(out.data);

	/* Resident's GSHUTDOWN gives the thread's reader slot back here. */
	ts_free_thread();
	atomic_store(&w->phase, PH_DONE);
	return NULL;
}

/* --- watchdog --------------------------------------------------------------- */

static pthread_mutex_t wd_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wd_cond = PTHREAD_COND_INITIALIZER;
static bool wd_done;
static atomic_int main_stage;
static const char *const stage_names[] = { "module startup", "preflight request", "worker threads", "final request", "module shutdown" };

/* A thread rather than alarm(): PHP's zend_signal owns SIGALRM during requests. */
static void *watchdog(void *arg)
{
	(void)arg;
	struct timespec deadline;
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += watchdog_seconds;
	pthread_mutex_lock(&wd_mutex);
	while (!wd_done) {
		if (pthread_cond_timedwait(&wd_cond, &wd_mutex, &deadline) == ETIMEDOUT) {
			break;
		}
	}
	bool done = wd_done;
	pthread_mutex_unlock(&wd_mutex);
	if (done) {
		return NULL;
	}
	drain_err_pipe();
	say("zts-harness: deadlock/timeout: the run did not end within %d s (stage: %s)\n",
		watchdog_seconds, stage_names[atomic_load(&main_stage)]);
	for (int i = 0; i < nthreads; i++) {
		say("zts-harness:   thread %d: request %d, %s\n", i, atomic_load(&workers[i].request),
			phase_names[atomic_load(&workers[i].phase)]);
	}
	fflush(stdout);
	if (getenv("ZTS_HARNESS_ABORT_ON_TIMEOUT")) {
		/* For a core dump / a debugger: abort() with every thread in place. */
		signal(SIGABRT, SIG_DFL);
		abort();
	}
	_exit(2);
}

/* --- main ---------------------------------------------------------------------- */

static double elapsed(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t_start.tv_sec) + (double)(now.tv_nsec - t_start.tv_nsec) / 1e9;
}

static void usage(void)
{
	say("usage: zts-harness [-d ini=value]... [-s NAME=value]... [-w seconds] script.php [threads [requests]]\n");
}

static int parse_args(int argc, char **argv)
{
	int opt;
	buf_appends(&ini, BASE_INI);
	while ((opt = getopt(argc, argv, "d:s:w:h")) != -1) {
		switch (opt) {
			case 'd':
				buf_appends(&ini, optarg);
				buf_appends(&ini, "\n");
				break;
			case 's': {
				char *eq = strchr(optarg, '=');
				if (!eq || eq == optarg || nglobals == MAX_GLOBALS) {
					usage();
					return -1;
				}
				*eq = '\0';
				global_names[nglobals] = optarg;
				global_values[nglobals] = eq + 1;
				nglobals++;
				break;
			}
			case 'w':
				watchdog_seconds = atoi(optarg);
				break;
			default:
				usage();
				return -1;
		}
	}
	if (optind >= argc) {
		usage();
		return -1;
	}
	script_path = argv[optind];
	if (optind + 1 < argc) {
		nthreads = atoi(argv[optind + 1]);
	}
	if (optind + 2 < argc) {
		nrequests = atoi(argv[optind + 2]);
	}
	if (nthreads < 1 || nthreads > MAX_THREADS || nrequests < 1 || watchdog_seconds < 1) {
		usage();
		return -1;
	}
	if (access(script_path, R_OK) != 0) {
		say("zts-harness: cannot read %s\n", script_path);
		return -1;
	}
	return 0;
}

/* Runs the script once on the main thread with $THREAD = thread; returns
 * the line that starts with `want`, or NULL. */
static char *main_thread_request(int thread, const char *want)
{
	buf out = {0};
	atomic_int phase = 0;
	bool ran = run_request(thread, 0, &out, &phase);
	char *found = NULL;
	const char *p = out.data ? out.data : "";
	size_t wl = strlen(want);
	bool clean = true;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		if (n >= wl && !strncmp(p, want, wl) && (n == wl || p[wl] == ' ') && !found) {
			found = strndup(p, n);
		} else if (n > 0) {
			say("zts-harness: %s request: unexpected output: %.*s\n", want, (int)n, p);
			clean = false;
		}
		p += n + (nl ? 1 : 0);
	}
	free(out.data);
	if (!ran || !clean) {
		free(found);
		return NULL;
	}
	return found;
}

static long field(const char *line, const char *name)
{
	char key[64];
	snprintf(key, sizeof(key), " %s=", name);
	const char *p = line ? strstr(line, key) : NULL;
	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

int main(int argc, char **argv)
{
	if (parse_args(argc, argv) != 0) {
		return 3;
	}
	clock_gettime(CLOCK_MONOTONIC, &t_start);
	signal(SIGPIPE, SIG_IGN);
	if (capture_stderr() != 0) {
		say("zts-harness: cannot capture stderr: %s\n", strerror(errno));
		return 3;
	}
	pthread_t wd;
	pthread_create(&wd, NULL, watchdog, NULL);

	/* What php_embed_init() does, minus its request: the main thread only
	 * starts and stops the engine (and runs the preflight/final checks). */
	atomic_store(&main_stage, 0);
	php_tsrm_startup_ex(nthreads + 2);
	ZEND_TSRMLS_CACHE_UPDATE();
	zend_signal_startup();
	sapi_startup(&php_embed_module);  /* resets ini_entries: set them after */
	php_embed_module.ini_entries = ini.data;
	php_embed_module.php_ini_ignore = 1;
	php_embed_module.php_ini_ignore_cwd = 1;
	php_embed_module.ub_write = harness_ub_write;
	php_embed_module.executable_location = argv[0];
	if (php_embed_module.startup(&php_embed_module) == FAILURE) {
		say("zts-harness: module startup failed\n");
		release_stderr();
		return 3;
	}

	int failures = 0;
	atomic_store(&main_stage, 1);
	char *pre = main_thread_request(-2, "preflight");
	if (!pre || field(pre, "available") != 1) {
		say("zts-harness: preflight failed: %s\n", pre ? pre : "(no preflight line)");
		failures++;
	}

	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	atomic_store(&main_stage, 2);
	if (!failures) {
		for (int i = 0; i < nthreads; i++) {
			workers[i].index = i;
			atomic_store(&workers[i].request, -1);
			if (pthread_create(&workers[i].tid, NULL, worker_main, &workers[i]) != 0) {
				say("zts-harness: cannot create thread %d\n", i);
				_exit(3);
			}
		}
		for (int i = 0; i < nthreads; i++) {
			pthread_join(workers[i].tid, NULL);
		}
	}
	struct timespec t1;
	clock_gettime(CLOCK_MONOTONIC, &t1);

	atomic_store(&main_stage, 3);
	char *fin = failures ? NULL : main_thread_request(-1, "final");

	atomic_store(&main_stage, 4);
	php_module_shutdown();
	sapi_shutdown();
	tsrm_shutdown();

	pthread_mutex_lock(&wd_mutex);
	wd_done = true;
	pthread_cond_signal(&wd_cond);
	pthread_mutex_unlock(&wd_mutex);
	pthread_join(wd, NULL);
	release_stderr();

	/* --- summary --- */
	result sum = {0};
	int req_ok = 0, req_failed = 0;
	for (int i = 0; i < nthreads; i++) {
		req_ok += workers[i].requests_ok;
		req_failed += workers[i].requests_failed;
		sum.ops += workers[i].sum.ops;
		sum.hits += workers[i].sum.hits;
		sum.misses += workers[i].sum.misses;
		sum.stores += workers[i].sum.stores;
		sum.store_failures += workers[i].sum.store_failures;
		sum.deletes += workers[i].sum.deletes;
		sum.bad += workers[i].sum.bad;
		sum.held += workers[i].sum.held;
		sum.nomem += workers[i].sum.nomem;
	}
	double run_s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	long leaks = atomic_load(&err_leak_lines) + atomic_load(&err_leak_totals);

	if (!failures && req_ok != nthreads * nrequests) {
		failures++;
	}
	if (sum.bad) {
		failures++;
	}
	if (!fin) {
		say("zts-harness: final check failed (no final line)\n");
		failures++;
	} else if (field(fin, "limbo_bytes") != 0 || field(fin, "slots_used") > 1 || field(fin, "bad") != 0) {
		say("zts-harness: final check failed: %s\n", fin);
		failures++;
	}
	if (leaks || atomic_load(&err_assertions) || atomic_load(&err_php_errors) || atomic_load(&err_sanitizer)) {
		failures++;
	}

	printf("zts-harness: %s\n", pre ? pre : "preflight: none");
	printf("zts-harness: threads=%d requests/thread=%d requests ok=%d failed=%d (%.2f s for the threads)\n",
		nthreads, nrequests, req_ok, req_failed, run_s);
	printf("zts-harness: ops=%ld (%.0f/s) fetch hits=%ld misses=%ld stores=%ld (failed %ld, no room %ld) deletes=%ld held=%ld\n",
		sum.ops, run_s > 0 ? (double)sum.ops / run_s : 0.0, sum.hits, sum.misses, sum.stores, sum.store_failures, sum.nomem, sum.deletes, sum.held);
	printf("zts-harness: corrupted reads: %ld\n", sum.bad);
	printf("zts-harness: %s\n", fin ? fin : "final: none");
	printf("zts-harness: stderr: leak reports=%ld assertions=%ld php errors=%ld sanitizer=%ld\n",
		leaks, atomic_load(&err_assertions), atomic_load(&err_php_errors), atomic_load(&err_sanitizer));
	printf("zts-harness: %s in %.2f s\n", failures ? "FAIL" : "PASS", elapsed());
	free(pre);
	free(fin);
	free(ini.data);
	return failures ? 1 : 0;
}
