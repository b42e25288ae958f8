// SPDX-License-Identifier: GPL-2.0
/*
 * ielat: wakeup latency per task, each interval, from inter-event hist
 * triggers alone (no BPF): count, p50, p99, p99.9 and max per task, and
 * the distribution of all tasks.
 *
 * It sets up the wakeup-latency pipeline (a synthetic event fed by
 * sched_waking and sched_switch, two histograms on it), takes their
 * counts each interval through hist_json's lossless "take", prints a
 * table, and removes everything it made on exit, SIGINT or SIGTERM
 * (which end the current interval, printed as the last).
 * With -e it reads the histograms already on an event instead (the
 * user's own triggers; nothing is set up or removed).
 *
 * Usage: ielat [-i seconds] [-n intervals] [-c comm] [-j file]
 *              [-e system/event] [-t tracefs] [-T top]
 *   -j appends each interval's JSON document to the file, one per line
 *      group, for tools/tracing/ielat/ielat-plot.py to draw.
 *
 * Latencies are in nanoseconds (common_timestamp in the trace clock's
 * unit), shown in microseconds.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
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
	"             [-e system/event] [-t tracefs] [-T top]\n";
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

static void teardown(void)
{
	char line[600];
	int i;

	for (i = set_up - 1; i >= 0; i--) {
		if (!strcmp(cmds[i][0], "synthetic_events"))
			snprintf(line, sizeof(line), "!%s", SYNTH);
		else
			snprintf(line, sizeof(line), "!%s", cmds[i][1]);
		if (tfs_write(cmds[i][0], line))
			fprintf(stderr, "ielat: could not remove '%s' from %s\n",
				cmds[i][1], cmds[i][0]);
	}
	set_up = 0;
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

/* The q-quantile (permille) of the distribution: its bucket's middle. */
static unsigned long long quantile(unsigned long long total, int permille)
{
	unsigned long long rank = (total * permille + 999) / 1000, cum = 0;
	int i;

	for (i = 0; i < n_buckets; i++) {
		cum += buckets[i].count;
		if (cum >= rank && rank)
			return buckets[i].lo + (buckets[i].hi - buckets[i].lo) / 2;
	}
	return 0;
}

static void print_us(unsigned long long ns)
{
	printf(" %10.1f", ns / 1000.0);
}

static void report(int k, double secs, int top)
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
	print_us(quantile(total, 500));
	print_us(quantile(total, 990));
	print_us(quantile(total, 999));
	print_us(max);
	printf("\n\n");
	fflush(stdout);
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
			if (!nb)
				break;
			buf = nb;
			size *= 2;
		}
		r = read(fd, buf + n, size - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
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

int main(int argc, char **argv)
{
	const char *event = NULL, *json = NULL;
	double interval = 1, t0, t1;
	int count = -1, top = 10, k, c, fd;
	struct sigaction sa = { .sa_handler = SIG_DFL };
	struct timespec ts;
	sigset_t sigs;
	int stop = 0;
	char path[512], *doc;
	FILE *jf = NULL;
	size_t len;

	while ((c = getopt(argc, argv, "i:n:c:j:e:t:T:h")) != -1) {
		switch (c) {
		case 'i':
			interval = atof(optarg);
			break;
		case 'n':
			count = atoi(optarg);
			break;
		case 'c':
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
			top = atoi(optarg);
			break;
		default:
			fprintf(stderr, "%s", usage);
			return c == 'h' ? 0 : 2;
		}
	}
	if (interval <= 0)
		die("-i: a positive number of seconds");
	/*
	 * SIGINT and SIGTERM end the run, waited for between intervals (a
	 * shell's background job starts with SIGINT ignored: not so here).
	 */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
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
		teardown();
		die("%s: %s", path, strerror(errno));
	}
	/* Start the first interval now: what came before is not in it. */
	doc = take(fd, &len);
	free(doc);
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
			break;
		}
		if (jf) {
			fwrite(doc, 1, len, jf);
			fflush(jf);
		}
		parse(doc);
		free(doc);
		report(k, t1 - t0, top);
		t0 = t1;
	}
	close(fd);
	teardown();
	if (jf)
		fclose(jf);
	return 0;
}
