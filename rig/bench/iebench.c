// SPDX-License-Identifier: GPL-2.0
/*
 * Guest-side workload driver for `make bench`, linked statically.
 *
 *   iebench marker N [TASKS]
 *	write N short strings to trace_marker, from one task or split over
 *	TASKS tasks run one after the other (TASKS distinct pids);
 *   iebench writes N KEYS
 *	write to /dev/null N times, with sizes cycling over 1..KEYS;
 *   iebench pingpong N
 *	bounce a byte N times between two tasks over two pipes: every round
 *	is two wakeups and two context switches on one CPU;
 *   iebench pingpongs N P
 *	P such pairs at once, pair i pinned to CPU i;
 *   iebench run CMD [ARGS...]
 *	run a command and wait for it;
 *   iebench read FILE
 *	read FILE to its end with 64 KiB reads; prints the CPU time of the
 *	reading thread (CLOCK_THREAD_CPUTIME_ID, so that another task's
 *	events on the same CPU are not counted) and the bytes read.
 *
 * Prints the elapsed CLOCK_MONOTONIC time in nanoseconds.  Under QEMU's
 * -icount the guest clock advances with the instructions executed, so
 * the figure is a deterministic measure of work, not of wall time.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static unsigned long long thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int read_file(const char *path)
{
	static char buf[65536];
	unsigned long long start, bytes = 0;
	ssize_t r;
	int fd;

	start = thread_ns();
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		bytes += r;
	close(fd);
	if (r < 0) {
		perror("read");
		return 1;
	}
	printf("%llu %llu\n", thread_ns() - start, bytes);
	return 0;
}

static int markers(long n)
{
	int fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);
	static const char msg[] = "iebench";
	long i;

	if (fd < 0) {
		perror("trace_marker");
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (write(fd, msg, sizeof(msg) - 1) < 0) {
			perror("write");
			return 1;
		}
	}
	close(fd);
	return 0;
}

static int writes(long n, long keys)
{
	static char buf[65536];
	int fd = open("/dev/null", O_WRONLY);
	long i;

	if (fd < 0 || keys > (long)sizeof(buf))
		return 1;
	for (i = 0; i < n; i++) {
		if (write(fd, buf, i % keys + 1) < 0)
			return 1;
	}
	close(fd);
	return 0;
}

static int wait_ok(pid_t pid);

static int pingpong(long n)
{
	int to_child[2], to_parent[2];
	char c = 0;
	pid_t pid;
	long i;

	if (pipe(to_child) || pipe(to_parent))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		close(to_child[1]);
		close(to_parent[0]);
		while (read(to_child[0], &c, 1) == 1) {
			if (write(to_parent[1], &c, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	close(to_child[0]);
	close(to_parent[1]);
	for (i = 0; i < n; i++) {
		if (write(to_child[1], &c, 1) != 1 ||
		    read(to_parent[0], &c, 1) != 1)
			return 1;
	}
	close(to_child[1]);
	close(to_parent[0]);
	return !wait_ok(pid);
}

/* @pairs ping-pong pairs at once, pair i (both its tasks) on CPU i. */
static int pingpongs(long n, long pairs)
{
	pid_t pids[64];
	cpu_set_t set;
	long p;
	int ok = 1;

	if (pairs > 64)
		return 1;
	for (p = 0; p < pairs; p++) {
		pids[p] = fork();
		if (pids[p] < 0) {
			/* No pair left running into the next measurement. */
			while (p--) {
				kill(pids[p], SIGKILL);
				wait_ok(pids[p]);
			}
			return 1;
		}
		if (pids[p] == 0) {
			CPU_ZERO(&set);
			CPU_SET(p, &set);
			if (sched_setaffinity(0, sizeof(set), &set))
				_exit(1);
			_exit(pingpong(n));
		}
	}
	for (p = 0; p < pairs; p++)
		ok &= wait_ok(pids[p]);
	return !ok;
}

static int wait_ok(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(int argc, char **argv)
{
	unsigned long long start, end;
	long n, tasks, t;
	pid_t pid;

	if (argc >= 3 && !strcmp(argv[1], "marker")) {
		n = atol(argv[2]);
		tasks = argc > 3 ? atol(argv[3]) : 1;
		if (n <= 0 || tasks <= 0)
			return 2;
		start = now_ns();
		if (tasks == 1) {
			if (markers(n))
				return 1;
		} else {
			for (t = 0; t < tasks; t++) {
				pid = fork();
				if (pid == 0)
					_exit(markers(n / tasks));
				if (!wait_ok(pid))
					return 1;
			}
		}
		end = now_ns();
	} else if (argc == 4 && !strcmp(argv[1], "writes")) {
		n = atol(argv[2]);
		start = now_ns();
		if (n <= 0 || atol(argv[3]) <= 0 || writes(n, atol(argv[3])))
			return 1;
		end = now_ns();
	} else if (argc == 3 && !strcmp(argv[1], "pingpong")) {
		n = atol(argv[2]);
		start = now_ns();
		if (n <= 0 || pingpong(n))
			return 1;
		end = now_ns();
	} else if (argc == 4 && !strcmp(argv[1], "pingpongs")) {
		n = atol(argv[2]);
		start = now_ns();
		if (n <= 0 || atol(argv[3]) <= 0 ||
		    pingpongs(n, atol(argv[3])))
			return 1;
		end = now_ns();
	} else if (argc == 3 && !strcmp(argv[1], "read")) {
		return read_file(argv[2]);
	} else if (argc >= 3 && !strcmp(argv[1], "run")) {
		start = now_ns();
		pid = fork();
		if (pid == 0) {
			int fd = open("/dev/null", O_WRONLY);

			dup2(fd, 1);
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		if (!wait_ok(pid))
			return 1;
		end = now_ns();
	} else {
		fputs("usage: iebench marker N [TASKS] | writes N KEYS\n"
		      "       iebench pingpong N | pingpongs N P | run CMD...\n"
		      "       iebench read FILE\n",
		      stderr);
		return 2;
	}
	printf("%llu\n", end - start);
	return 0;
}
