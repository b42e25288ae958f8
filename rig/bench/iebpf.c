// SPDX-License-Identifier: GPL-2.0
/*
 * Loader of the bench's BPF peer (rig/bench/iebpf.bpf.c), linked
 * statically with libbpf:
 *
 *   iebpf OBJ PREFIX CMD [ARGS...]
 *
 * loads the programs of OBJ whose names start with PREFIX (b2, b3, b4),
 * attaches them to their tracepoints, runs CMD (an iebench workload,
 * which prints its elapsed nanoseconds), then prints that figure and the
 * events the programs processed: the hit counts (the first u64 of each
 * value) of the maps whose names start with PREFIX, plus the drops that
 * a per-CPU "drops" array counted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

static int prefixed(const char *name, const char *prefix)
{
	return !strncmp(name, prefix, strlen(prefix));
}

/* Sum the first u64 of every value of @map (of every CPU's, per-CPU). */
static unsigned long long map_hits(struct bpf_map *map)
{
	int fd = bpf_map__fd(map), ncpu = libbpf_num_possible_cpus();
	size_t vsize = bpf_map__value_size(map), ksize = bpf_map__key_size(map);
	int percpu = bpf_map__type(map) == BPF_MAP_TYPE_PERCPU_ARRAY;
	unsigned long long sum = 0, v;
	char key[64], next[64], *val;
	void *prev = NULL;
	int c;

	if (percpu)
		vsize = ((vsize + 7) & ~7UL) * ncpu;
	val = malloc(vsize);
	if (!val || ksize > sizeof(key))
		exit(1);
	while (!bpf_map_get_next_key(fd, prev, next)) {
		if (!bpf_map_lookup_elem(fd, next, val)) {
			for (c = 0; c < (percpu ? ncpu : 1); c++) {
				memcpy(&v, val + c * (vsize / (percpu ? ncpu : 1)),
				       sizeof(v));
				sum += v;
			}
		}
		memcpy(key, next, ksize);
		prev = key;
	}
	free(val);
	return sum;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_map *map;
	unsigned long long events = 0;
	char out[64] = "";
	int pipefd[2], status, n;
	pid_t pid;

	if (argc < 4) {
		fputs("usage: iebpf OBJ PREFIX CMD [ARGS...]\n", stderr);
		return 2;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		perror(argv[1]);
		return 1;
	}
	bpf_object__for_each_program(prog, obj)
		bpf_program__set_autoload(prog,
					  prefixed(bpf_program__name(prog), argv[2]));
	if (bpf_object__load(obj)) {
		fprintf(stderr, "iebpf: load failed: %s\n", strerror(errno));
		return 1;
	}
	bpf_object__for_each_program(prog, obj) {
		if (!prefixed(bpf_program__name(prog), argv[2]))
			continue;
		if (!bpf_program__attach(prog)) {
			fprintf(stderr, "iebpf: attach %s failed: %s\n",
				bpf_program__name(prog), strerror(errno));
			return 1;
		}
	}

	if (pipe(pipefd))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		execvp(argv[3], argv + 3);
		_exit(127);
	}
	close(pipefd[1]);
	n = read(pipefd[0], out, sizeof(out) - 1);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) || n <= 0) {
		fprintf(stderr, "iebpf: %s failed\n", argv[3]);
		return 1;
	}
	out[strcspn(out, "\n")] = '\0';

	bpf_object__for_each_map(map, obj) {
		if (prefixed(bpf_map__name(map), argv[2]))
			events += map_hits(map);
	}
	printf("%s %llu\n", out, events);
	return 0;
}
