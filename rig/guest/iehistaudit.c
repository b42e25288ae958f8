// SPDX-License-Identifier: GPL-2.0
/*
 * iehistaudit: the tests job puts this program first on ftracetest's PATH
 * under the names of the tools tests read files with (cat, grep, awk,
 * ...).  When a tool is given an inter_event hist file (a file named
 * "hist" with a "hist_json" beside it), the file is read, then its
 * hist_json, then the file again, and the three go to a record in
 * /tmp/ie-audit for the host to check (rig/histjson.py): the JSON must
 * parse and agree with the text when the two text reads are the same
 * ("quiet").  Then the real tool runs (/bin/NAME, busybox's link, so
 * that the task keeps the tool's name).
 *
 * The record names the test: ftracetest sends a test's output to
 * N-NAME.tc-log.XXXXXX, the standard error of the tool or of a process
 * above it.  rig/guest/iehistfront.c, which runs this, counts a test's
 * records of a file; none is made of a text over MAX_TEXT bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DIR_AUDIT	"/tmp/ie-audit"
#define MAX_TEXT	(256 << 10)
#define MAX_JSON	(2 << 20)

static char *slurp(const char *path, size_t max, size_t *len)
{
	size_t cap = 8192, n = 0;
	char *buf = malloc(cap);
	ssize_t r;
	int fd;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	for (;;) {
		if (n == cap) {
			char *nb;

			if (cap > max) {
				r = -1;
				break;
			}
			cap *= 2;
			nb = realloc(buf, cap);
			if (!nb) {
				r = -1;
				break;
			}
			buf = nb;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += r;
	}
	close(fd);
	if (r < 0 || n > max) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/* Write @buf as lines, each after @prefix; a last line without \n too. */
static void put_lines(FILE *f, const char *prefix, const char *buf, size_t len)
{
	size_t i = 0;

	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - buf) : len;

		fputs(prefix, f);
		fwrite(buf + i, 1, end - i, f);
		fputc('\n', f);
		i = end + 1;
	}
}

/*
 * The test's log: ftracetest's "N-NAME.tc-log.XXXXXX", the standard error
 * of this process or of one above it, in @log; 0 if none is.
 */
static int test_log(char *log, size_t size)
{
	char fd2[64], stat[512], *p;
	int pid = getpid(), depth, fd;
	ssize_t n;

	for (depth = 0; depth < 8 && pid > 1; depth++) {
		snprintf(fd2, sizeof(fd2), "/proc/%d/fd/2", pid);
		n = readlink(fd2, log, size - 1);
		if (n > 0) {
			log[n] = 0;
			p = strrchr(log, '/');
			if (p && strstr(p, ".tc-log."))
				return 1;
		}
		/* The parent: the field after the name "(...)" and the state. */
		snprintf(stat, sizeof(stat), "/proc/%d/stat", pid);
		fd = open(stat, O_RDONLY);
		if (fd < 0)
			return 0;
		n = read(fd, stat, sizeof(stat) - 1);
		close(fd);
		if (n <= 0)
			return 0;
		stat[n] = 0;
		p = strrchr(stat, ')');
		if (!p || sscanf(p + 1, " %*c %d", &pid) != 1)
			return 0;
	}
	return 0;
}

static void audit(const char *path)
{
	char *a, *j, *b, json[4096], log[4096], rec[128], tmp[140];
	const char *test;
	size_t la, lj, lb;
	struct timespec ts;
	char *p;
	static int seq;
	FILE *f;
	int ok;

	if (snprintf(json, sizeof(json), "%s_json", path) >= (int)sizeof(json) ||
	    access(json, R_OK))
		return;
	if (!test_log(log, sizeof(log)))
		snprintf(log, sizeof(log), "/?-?.tc-log.");
	/* "N-NAME.tc-log.XXXXXX": NAME.tc */
	test = strchr(strrchr(log, '/'), '-');
	test = test ? test + 1 : "?";
	p = strstr(test, ".tc-log.");
	if (p)
		p[3] = 0;
	a = slurp(path, MAX_TEXT, &la);
	j = a ? slurp(json, MAX_JSON, &lj) : NULL;
	b = j ? slurp(path, MAX_TEXT, &lb) : NULL;
	if (b) {
		/* A name no earlier process had (pids come again). */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		snprintf(rec, sizeof(rec), DIR_AUDIT "/r.%d.%d.%ld%09ld", (int)getpid(),
			 seq++, (long)ts.tv_sec, ts.tv_nsec);
		snprintf(tmp, sizeof(tmp), "%s.tmp", rec);
		f = fopen(tmp, "w");
		if (f) {
			fprintf(f, "IE-JSONBEGIN %s %s\n", test, path);
			put_lines(f, "IE-J ", j, lj);
			put_lines(f, "IE-T ", a, la);
			fprintf(f, "IE-JSONEND %s\n",
				la == lb && !memcmp(a, b, la) ? "quiet" : "busy");
			/* Whole records only: the tests job may list them now. */
			ok = !ferror(f);
			if (fclose(f) == 0 && ok)
				rename(tmp, rec);
			else
				unlink(tmp);
		}
	}
	free(a);
	free(j);
	free(b);
}

int main(int argc, char **argv)
{
	char tool[256];
	const char *base;
	int i;

	(void)argc;
	for (i = 1; argv[i]; i++) {
		base = strrchr(argv[i], '/');
		base = base ? base + 1 : argv[i];
		if (!strcmp(base, "hist"))
			audit(argv[i]);
	}
	base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	if (snprintf(tool, sizeof(tool), "/bin/%s", base) < (int)sizeof(tool))
		execv(tool, argv);
	execv("/bin/busybox", argv);
	perror("iehistaudit: /bin/busybox");
	return 127;
}
