// SPDX-License-Identifier: GPL-2.0
/*
 * iehistfront: what the tests job puts first on ftracetest's PATH as cat,
 * grep, awk, ...  Tests call these tools thousands of times, so this part
 * is built without a C library (x86-64 system calls; it starts in a
 * fraction of iehistaudit's time): it looks for an argument naming a
 * file "hist" and hands the call to iehistaudit (which audits and then
 * runs the tool) if the test has made fewer than MAX_PER_FILE records of
 * that file (tests read some in loops).  The other calls go straight to
 * /bin/NAME, busybox's link of the tool.
 *
 * A test's records of a file are counted by files in its $TMPDIR, which
 * ftracetest makes for each test and removes after it.
 */
#include <asm/fcntl.h>
#include <asm/unistd.h>

#define MAX_PER_FILE	2

static long sys3(long n, long a, long b, long c)
{
	long r;

	asm volatile ("syscall" : "=a" (r) : "a" (n), "D" (a), "S" (b), "d" (c)
		      : "rcx", "r11", "memory");
	return r;
}

static const char *base(const char *s)
{
	const char *b = s;

	for (; *s; s++)
		if (*s == '/')
			b = s + 1;
	return b;
}

/*
 * One more record of @path in this test: 1; 0 when it has them all, -1
 * when @path is no file.  Files are told apart by their folder's inode
 * number (eventfs gives all its files one number, each folder its own).
 */
static int take_slot(char **envp, const char *path)
{
	static char name[4096];
	const char *tmp = 0;
	unsigned long ino;
	long st[18], fd;
	int i, n, d;

	if (sys3(__NR_stat, (long)path, (long)st, 0) < 0)
		return -1;
	/* The folder: @path up to its last '/', or ".". */
	for (i = 0, n = -1; path[i] && i < 4000; i++) {
		name[i] = path[i];
		if (path[i] == '/')
			n = i;
	}
	if (n < 0) {
		name[0] = '.';
		n = 1;
	}
	name[n] = 0;
	/* struct stat's second word: st_ino. */
	if (sys3(__NR_stat, (long)name, (long)st, 0) < 0)
		return 0;

	for (; *envp; envp++) {
		const char *e = *envp;

		if (e[0] == 'T' && e[1] == 'M' && e[2] == 'P' && e[3] == 'D' &&
		    e[4] == 'I' && e[5] == 'R' && e[6] == '=')
			tmp = e + 7;
	}
	if (!tmp)
		return 0;
	for (n = 0; tmp[n] && n < 4000; n++)
		name[n] = tmp[n];
	for (i = 0; "/.ie-audit."[i]; i++)
		name[n++] = "/.ie-audit."[i];
	for (ino = st[1], d = 60; d >= 0; d -= 4)
		name[n++] = "0123456789abcdef"[(ino >> d) & 15];
	name[n++] = '.';
	name[n + 1] = 0;
	for (i = 0; i < MAX_PER_FILE; i++) {
		name[n] = '0' + i;
		fd = sys3(__NR_open, (long)name, O_CREAT | O_EXCL | O_WRONLY, 0600);
		if (fd >= 0) {
			sys3(__NR_close, fd, 0, 0);
			return 1;
		}
	}
	return 0;
}

void front(long *sp);

void front(long *sp)
{
	char **argv = (char **)(sp + 1), **envp = argv + sp[0] + 1;
	static char tool[256] = "/bin/";
	const char *b;
	int i, n, r;

	if (!argv[0])
		sys3(__NR_exit_group, 127, 0, 0);
	for (i = 1; argv[i]; i++) {
		b = base(argv[i]);
		if (b[0] == 'h' && b[1] == 'i' && b[2] == 's' && b[3] == 't' && !b[4]) {
			r = take_slot(envp, argv[i]);
			if (r > 0)
				sys3(__NR_execve, (long)"/usr/bin/iehistaudit",
				     (long)argv, (long)envp);
			if (r >= 0)
				break;
		}
	}
	b = base(argv[0]);
	for (n = 0; b[n] && n < 240; n++)
		tool[5 + n] = b[n];
	tool[5 + n] = 0;
	sys3(__NR_execve, (long)tool, (long)argv, (long)envp);
	sys3(__NR_execve, (long)"/bin/busybox", (long)argv, (long)envp);
	sys3(__NR_exit_group, 127, 0, 0);
}

asm (".globl _start\n"
	"_start:\n"
	"	mov %rsp, %rdi\n"
	"	and $-16, %rsp\n"
	"	call front\n"
	"	hlt\n");
