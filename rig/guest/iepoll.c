// SPDX-License-Identifier: GPL-2.0
/*
 * iepoll: poll() a file once, as a tool waiting for a histogram does.
 *
 *   iepoll [-I|-P] [-r] [-t MS] FILE
 *
 * -I waits for POLLIN (the default), -P for POLLPRI; -r reads the file
 * to its end first; -t gives up after MS milliseconds (default: never).
 * Prints "ready" once the file is open (and read), then what poll()
 * returned ("in", "pri", "err", "hup", "nval") or "timeout"; exits 0 on
 * an event, 1 on a timeout, 2 on an error.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct pollfd p = { .events = POLLIN };
	int opt, timeout = -1, rd = 0, n;
	char buf[4096];

	while ((opt = getopt(argc, argv, "IPrt:")) != -1) {
		switch (opt) {
		case 'I':
			p.events = POLLIN;
			break;
		case 'P':
			p.events = POLLPRI;
			break;
		case 'r':
			rd = 1;
			break;
		case 't':
			timeout = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: iepoll [-I|-P] [-r] [-t MS] FILE\n");
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: iepoll [-I|-P] [-r] [-t MS] FILE\n");
		return 2;
	}
	p.fd = open(argv[optind], O_RDONLY);
	if (p.fd < 0) {
		perror(argv[optind]);
		return 2;
	}
	while (rd && (n = read(p.fd, buf, sizeof(buf))) > 0)
		;
	if (rd && n < 0) {
		perror(argv[optind]);
		return 2;
	}
	/* The caller may act once the file is open (and read). */
	printf("ready\n");
	fflush(stdout);
	n = poll(&p, 1, timeout);
	if (n < 0) {
		perror("poll");
		return 2;
	}
	if (!n) {
		printf("timeout\n");
		return 1;
	}
	printf("%s%s%s%s%s\n", p.revents & POLLIN ? "in " : "",
	       p.revents & POLLPRI ? "pri " : "",
	       p.revents & POLLERR ? "err " : "",
	       p.revents & POLLHUP ? "hup " : "",
	       p.revents & POLLNVAL ? "nval " : "");
	return 0;
}
