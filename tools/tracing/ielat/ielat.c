// SPDX-License-Identifier: GPL-2.0
/*
 * ielat: wakeup latency per task, each interval, from inter-event hist
 * triggers alone (no BPF): count, p50, p99, p99.9 and max per task, and
 * the distribution of all tasks.
 *
 * It sets up the wakeup-latency pipeline (a synthetic event fed by
 * sched_waking and sched_switch, two histograms on it), takes their
 * counts each interval through hist_json's lossless "take", prints a
 * table, and removes everything it made on exit, or on SIGINT, SIGTERM,
 * SIGHUP or SIGQUIT (which end the current interval, printed as the
 * last); a closed output (EPIPE) ends it too.
 *
 * With -e it takes the histograms already on an event instead (the
 * user's own, keyed pid,comm with hitcount, a maximum and .percentiles,
 * and one keyed .loglin=N): a take resets them for every reader, their
 * hist file included; one taker per event.  Nothing is set up or removed.
 * -x removes what an ielat killed without its cleanup left behind.
 *
 * Usage: ielat [-i seconds] [-n intervals] [-c comm] [-j file]
 *              [-e system/event] [-t tracefs] [-T top] [-x]
 *   -j appends each interval's JSON document to the file, for
 *      tools/tracing/ielat/ielat-plot.py to draw.
 * Once the first interval has begun, "ielat: started" goes to stderr.
 * Exit status 1 when something could not be set up, taken or removed.
 *
 * Latencies are in nanoseconds (common_timestamp in the trace clock's
 * unit), shown in microseconds.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SYNTH		"ielat_wakeup"
#define MAX_TASKS	4096
#define MAX_BUCKETS	4096

static const char usage[] =
	"usage: ielat [-i seconds] [-n intervals] [-c comm] [-j file]\n"
	"             [-e system/event] [-t tracefs] [-T top] [-x]\n";
static const char *tracefs = "/sys/kernel/tracing";
static int set_up;
static char comm_filter[64];

struct task {
	long long pid;
	char comm[32];
	unsigned long long count, max, p50, p99, p999;
};

struct bucket {
	unsigned long long lo, hi, count;
};

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "ielat: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Append @text to tracefs file @rel; 0 or -errno. */
static int tfs_write(const char *rel, const char *text)
{
	char path[512];
	ssize_t n;
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s", tracefs, rel);
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}

/* The pipeline: its commands, in order; removed in reverse. */
static char cmds[5][2][512];
static int n_cmds;

static void add_cmd(const char *file, const char *fmt, ...)
{
	va_list ap;

	snprintf(cmds[n_cmds][0], sizeof(cmds[0][0]), "%s", file);
	va_start(ap, fmt);
	vsnprintf(cmds[n_cmds][1], sizeof(cmds[0][1]), fmt, ap);
	va_end(ap);
	n_cmds++;
}

/* Remove what setup() made, last first; 0, or -1 if something stayed. */
static int teardown(void)
{
	char line[600];
	int i, ret = 0;

	for (i = set_up - 1; i >= 0; i--) {
		if (!strcmp(cmds[i][0], "synthetic_events"))
			snprintf(line, sizeof(line), "!%s", SYNTH);
		else
			snprintf(line, sizeof(line), "!%s", cmds[i][1]);
		if (tfs_write(cmds[i][0], line)) {
			fprintf(stderr, "ielat: could not remove '%s' from %s\n",
				cmds[i][1], cmds[i][0]);
			ret = -1;
		}
	}
	set_up = 0;
	return ret;
}

/*
 * -x: remove every trigger line of @rel naming @mark (as listed, without
 * its " [active]"-like suffix).
 */
static int remove_lines(const char *rel, const char *mark)
{
	static const char * const sfx[] = { " [active]", " [paused]" };
	char path[512], lines[64][1024], *l;
	int ret = 0, n = 0, i, j;
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tracefs, rel);
	f = fopen(path, "r");
	if (!f)
		return 0;
	/* All of it first: a removal changes what the file lists. */
	while (n < 64 && fgets(lines[n] + 1, sizeof(lines[0]) - 1, f)) {
		l = lines[n] + 1;
		l[strcspn(l, "\n")] = '\0';
		if (l[0] == '#' || !strstr(l, mark))
			continue;
		len = strlen(l);
		for (j = 0; j < 2; j++) {
			if (len > strlen(sfx[j]) &&
			    !strcmp(l + len - strlen(sfx[j]), sfx[j]))
				l[len - strlen(sfx[j])] = '\0';
		}
		lines[n++][0] = '!';
	}
	fclose(f);
	for (i = 0; i < n; i++) {
		if (tfs_write(rel, lines[i]))
			ret = -1;
	}
	return ret;
}

/* What an ielat killed without its cleanup left (any -c). */
static int remove_stale(void)
{
	int ret = 0, err;

	ret |= remove_lines("events/synthetic/" SYNTH "/trigger", "hist:");
	ret |= remove_lines("events/sched/sched_switch/trigger", "ielat_lat");
	ret |= remove_lines("events/sched/sched_waking/trigger", "ielat_ts0");
	err = tfs_write("synthetic_events", "!" SYNTH);
	if (err && err != -ENOENT)
		ret = -1;
	return ret;
}

static void setup(void)
{
	char wf[96] = "", sf[96] = "";
	int i, err;

	if (comm_filter[0]) {
		snprintf(wf, sizeof(wf), " if comm==\"%s\"", comm_filter);
		snprintf(sf, sizeof(sf), " if next_comm==\"%s\"", comm_filter);
	}
	add_cmd("synthetic_events", "%s u64 lat; pid_t pid; char comm[16]",
		SYNTH);
	add_cmd("events/sched/sched_waking/trigger",
		"hist:keys=pid:ielat_ts0=common_timestamp%s", wf);
	add_cmd("events/sched/sched_switch/trigger",
		"hist:keys=next_pid:ielat_lat=common_timestamp-$ielat_ts0:%s%s",
		"onmatch(sched.sched_waking).trace(" SYNTH
		",$ielat_lat,next_pid,next_comm)", sf);
	add_cmd("events/synthetic/" SYNTH "/trigger",
		"hist:keys=pid,comm:vals=hitcount,lat.max,lat.percentiles:sort=pid");
	add_cmd("events/synthetic/" SYNTH "/trigger",
		"hist:keys=lat.loglin=5:vals=hitcount:sort=lat:size=4096");
	for (i = 0; i < n_cmds; i++) {
		err = tfs_write(cmds[i][0], cmds[i][1]);
		if (err) {
			fprintf(stderr, "ielat: %s: %s: %s\n", cmds[i][0],
				cmds[i][1], strerror(-err));
			if (!i)
				fprintf(stderr, "ielat: is %s there? %s\n", SYNTH,
					"Another ielat runs, or one was killed (ielat -x cleans up)");
			teardown();
			exit(1);
		}
		set_up = i + 1;
	}
}

/* The number after "@name": in @s; 0 if absent. */
static unsigned long long num_after(const char *s, const char *name)
{
	const char *p = strstr(s, name);

	return p ? strtoull(p + strlen(name), NULL, 10) : 0;
}

/* A JSON string at @p (after its opening quote) into @out, \u as '?'. */
static void json_str(const char *p, char *out, size_t size)
{
	size_t n = 0;

	while (*p && *p != '"' && n + 1 < size) {
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				out[n++] = '?';
				p += 5;
				continue;
			}
		}
		out[n++] = *p++;
	}
	out[n] = '\0';
}

static struct task tasks[MAX_TASKS];
static struct bucket buckets[MAX_BUCKETS];
static int n_tasks, n_buckets;
/* Of the per-task histogram: its interval, its drops so far. */
static unsigned long long from_ns, to_ns, dropped;

/*
 * One taken document: the entries of the per-task histogram (keys pid
 * and comm, values hitcount, a maximum and the percentiles) and of the
 * distribution (a .loglin key, hitcount).  Each entry is on a line of
 * its own (the document's layout).
 */
static void parse(char *doc)
{
	char *line, *save = NULL, *p;
	int which = -1;
	struct task *t;
	struct bucket *b;

	n_tasks = 0;
	n_buckets = 0;
	for (line = strtok_r(doc, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "{\"trigger\":", 11)) {
			which = strstr(line, "\"stat\":\"percentiles\"") ? 0 :
				strstr(line, "\"modifiers\":\"loglin=") ? 1 : -1;
			p = strstr(line, "\"interval_ns\":[");
			if (which == 0 && p) {
				from_ns = strtoull(p + 15, &p, 10);
				to_ns = *p == ',' ? strtoull(p + 1, NULL, 10) : 0;
			}
			continue;
		}
		/* The totals after a histogram's entries: its drops. */
		if (which == 0 && !strncmp(line, "],\"totals\":", 11)) {
			dropped = num_after(line, "\"dropped\":");
			continue;
		}
		if (strncmp(line, "{\"key\":", 7) || which < 0)
			continue;
		if (which == 0 && n_tasks < MAX_TASKS) {
			t = &tasks[n_tasks++];
			t->pid = strtoll(line + strlen("{\"key\":[{\"value\":"),
					 NULL, 10);
			p = strstr(line, "},{\"value\":\"");
			t->comm[0] = '\0';
			if (p)
				json_str(p + 12, t->comm, sizeof(t->comm));
			p = strstr(line, "\"values\":[");
			t->count = p ? strtoull(p + 10, NULL, 10) : 0;
			t->max = num_after(line, "\"p100\":");
			t->p50 = num_after(line, "\"p50\":");
			t->p99 = num_after(line, "\"p99\":");
			t->p999 = num_after(line, "\"p999\":");
		} else if (which == 1 && n_buckets < MAX_BUCKETS) {
			b = &buckets[n_buckets++];
			b->lo = strtoull(line + strlen("{\"key\":[{\"value\":"),
					 NULL, 10);
			b->hi = num_after(line, "\"high\":");
			p = strstr(line, "\"values\":[");
			b->count = p ? strtoull(p + 10, NULL, 10) : 0;
		}
	}
}

static int by_count(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 :
	       x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int by_lo(const void *a, const void *b)
{
	const struct bucket *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/*
 * The q-quantile (permille) of the distribution: its bucket's middle, at
 * most @max, as the kernel shows a task's.
 */
static unsigned long long quantile(unsigned long long total, int permille,
				   unsigned long long max)
{
	unsigned long long rank = (total * permille + 999) / 1000, cum = 0, mid;
	int i;

	for (i = 0; i < n_buckets; i++) {
		cum += buckets[i].count;
		if (cum >= rank && rank) {
			mid = buckets[i].lo + (buckets[i].hi - buckets[i].lo) / 2;
			return max && mid > max ? max : mid;
		}
	}
	return 0;
}

static void print_us(unsigned long long ns)
{
	printf(" %10.1f", ns / 1000.0);
}

static void report(int k, double secs, int top, unsigned long long drops)
{
	unsigned long long total = 0, max = 0;
	int i;

	qsort(tasks, n_tasks, sizeof(*tasks), by_count);
	qsort(buckets, n_buckets, sizeof(*buckets), by_lo);
	for (i = 0; i < n_buckets; i++)
		total += buckets[i].count;
	/* The exact maximum is the tasks'. */
	for (i = 0; i < n_tasks; i++)
		if (tasks[i].max > max)
			max = tasks[i].max;
	printf("interval %d (%.2f s): %llu wakeups, %d tasks\n", k, secs,
	       total, n_tasks);
	if (drops)
		printf("(%llu wakeups of new tasks not shown: the task table is full)\n",
		       drops);
	printf("%8s %-16s %8s %10s %10s %10s %10s\n", "PID", "COMM", "COUNT",
	       "P50(us)", "P99(us)", "P99.9(us)", "MAX(us)");
	for (i = 0; i < n_tasks && i < top; i++) {
		printf("%8lld %-16s %8llu", tasks[i].pid, tasks[i].comm,
		       tasks[i].count);
		print_us(tasks[i].p50);
		print_us(tasks[i].p99);
		print_us(tasks[i].p999);
		print_us(tasks[i].max);
		putchar('\n');
	}
	printf("%8s %-16s %8llu", "all", "", total);
	print_us(quantile(total, 500, max));
	print_us(quantile(total, 990, max));
	print_us(quantile(total, 999, max));
	print_us(max);
	printf("\n\n");
}

/* Write "take", read the whole document; NULL on error. */
static char *take(int fd, size_t *len)
{
	size_t size = 1 << 16, n = 0;
	char *buf = malloc(size), *nb;
	ssize_t r;

	if (!buf)
		return NULL;
	if (write(fd, "take", 4) != 4) {
		free(buf);
		return NULL;
	}
	for (;;) {
		if (n + 1 >= size) {
			nb = realloc(buf, size * 2);
			if (!nb) {
				free(buf);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			size *= 2;
		}
		r = read(fd, buf + n, size - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return NULL;
		}
		if (!r)
			break;
		n += r;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A whole number option: all digits, within [lo, hi]. */
static long num_opt(int opt, const char *arg, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < lo || v > hi)
		die("-%c %s: a number from %ld to %ld", opt, arg, lo, hi);
	return v;
}

int main(int argc, char **argv)
{
	const char *event = NULL, *json = NULL;
	unsigned long long drops_seen = 0;
	int count = -1, top = 10, k, c, fd, ret = 0, stale = 0;
	struct sigaction sa = { .sa_handler = SIG_DFL };
	struct sigaction ign = { .sa_handler = SIG_IGN };
	double interval = 1, t0, t1, secs;
	struct timespec ts;
	sigset_t sigs;
	char path[512], *doc, *end;
	FILE *jf = NULL;
	int stop = 0;
	size_t len;

	while ((c = getopt(argc, argv, "i:n:c:j:e:t:T:xh")) != -1) {
		switch (c) {
		case 'i':
			interval = strtod(optarg, &end);
			if (end == optarg || *end || !isfinite(interval) ||
			    interval < 0.01 || interval > 86400)
				die("-i %s: seconds, from 0.01 to 86400", optarg);
			break;
		case 'n':
			count = num_opt(c, optarg, 1, 1000000000);
			break;
		case 'c':
			/* A task name: at most 15 bytes, nothing a filter quotes. */
			if (!*optarg || strlen(optarg) > 15 ||
			    strpbrk(optarg, "\"\\ \t\n"))
				die("-c %s: %s", optarg,
				    "a task name of 1 to 15 bytes, no quotes, backslashes or spaces");
			snprintf(comm_filter, sizeof(comm_filter), "%s", optarg);
			break;
		case 'j':
			json = optarg;
			break;
		case 'e':
			event = optarg;
			break;
		case 't':
			tracefs = optarg;
			break;
		case 'T':
			top = num_opt(c, optarg, 0, MAX_TASKS);
			break;
		case 'x':
			stale = 1;
			break;
		default:
			fprintf(stderr, "%s", usage);
			return c == 'h' ? 0 : 2;
		}
	}
	if (optind < argc)
		die("%s: no operands (%s)", argv[optind], "see -h");
	if (event && comm_filter[0])
		die("-c: not with -e (the histograms are the user's)");
	if (stale)
		return remove_stale() ? 1 : 0;
	/*
	 * These end the run, waited for between intervals (a shell's
	 * background job starts with SIGINT ignored: not so here).  A closed
	 * output is an error of the write (EPIPE), which ends it too.
	 */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sigaction(SIGPIPE, &ign, NULL);
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	sigaddset(&sigs, SIGQUIT);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
	if (json) {
		jf = fopen(json, "a");
		if (!jf)
			die("%s: %s", json, strerror(errno));
	}
	if (!event) {
		setup();
		event = "synthetic/" SYNTH;
	}
	snprintf(path, sizeof(path), "%s/events/%s/hist_json", tracefs, event);
	fd = open(path, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "ielat: %s: %s\n", path, strerror(errno));
		teardown();
		return 1;
	}
	/* Start the first interval now: what came before is not in it. */
	doc = take(fd, &len);
	if (!doc) {
		fprintf(stderr, "ielat: take: %s\n", strerror(errno));
		stop = 1;
		ret = 1;
	}
	free(doc);
	if (!stop)
		fprintf(stderr, "ielat: started\n");
	t0 = now_s();
	for (k = 1; !stop && (count < 0 || k <= count); k++) {
		ts.tv_sec = (time_t)interval;
		ts.tv_nsec = (long)((interval - ts.tv_sec) * 1e9);
		/* The interval ends early on a signal, and is the last. */
		if (sigtimedwait(&sigs, NULL, &ts) > 0)
			stop = 1;
		doc = take(fd, &len);
		t1 = now_s();
		if (!doc) {
			fprintf(stderr, "ielat: take: %s\n", strerror(errno));
			ret = 1;
			break;
		}
		if (jf && (fwrite(doc, 1, len, jf) != len || fflush(jf))) {
			fprintf(stderr, "ielat: %s: %s\n", json, strerror(errno));
			ret = 1;
			stop = 1;
		}
		to_ns = 0;
		parse(doc);
		free(doc);
		/* The kernel's interval, when the document gives it. */
		secs = to_ns > from_ns ? (to_ns - from_ns) / 1e9 : t1 - t0;
		/* (A :clear of the user's histogram starts its drops again.) */
		report(k, secs, top, dropped >= drops_seen ? dropped - drops_seen : dropped);
		drops_seen = dropped;
		t0 = t1;
		if (fflush(stdout)) {
			/* Nobody reads any more (EPIPE): stop, clean up. */
			stop = 1;
			ret = 1;
		}
	}
	close(fd);
	if (teardown())
		ret = 1;
	if (jf && fclose(jf))
		ret = 1;
	return ret;
}
