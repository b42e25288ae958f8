// SPDX-License-Identifier: GPL-2.0
/*
 * ietracefs: a libtracefs client for the guest, doing what sqlhist,
 * trace-cmd and rtla do through the library, unmodified (Debian's
 * libtracefs, linked statically by rig/initramfs.sh).
 *
 *   ietracefs sql NAME SQL          tracefs_sql(), tracefs_synth_create():
 *                                   prints the commands it wrote, waits
 *                                   for the end of its input, then
 *                                   tracefs_synth_destroy() (the names
 *                                   of the variables it makes are its
 *                                   process's own: only it can remove
 *                                   its triggers, as with sqlhist)
 *   ietracefs fields NAME           the synthetic event's fields, as
 *                                   libtraceevent parses its format file
 *   ietracefs hist SYS EVENT KEY SECONDS
 *                                   tracefs_hist_start(), the hist file
 *                                   after SECONDS, tracefs_hist_destroy()
 *
 * Exits 0 on success, 1 (with a message on stderr) on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event-parse.h>
#include <tracefs.h>

static int die(const char *what, const char *err)
{
	fprintf(stderr, "ietracefs: %s failed%s%s\n", what,
		err ? ": " : "", err ? err : "");
	return 1;
}

static struct tracefs_synth *sql(struct tep_handle *tep, const char *name,
				 const char *text)
{
	struct tracefs_synth *synth;
	char *err = NULL;

	synth = tracefs_sql(tep, name, text, &err);
	if (!synth)
		die("tracefs_sql", err);
	return synth;
}

static int do_sql(const char *name, const char *text)
{
	struct tep_handle *tep = tracefs_local_events(NULL);
	struct tracefs_synth *synth;
	struct trace_seq seq;
	int ret;

	if (!tep)
		return die("tracefs_local_events", NULL);
	synth = sql(tep, name, text);
	if (!synth)
		return 1;
	trace_seq_init(&seq);
	tracefs_synth_echo_cmd(&seq, synth);
	trace_seq_terminate(&seq);
	printf("%s\n", seq.buffer);
	trace_seq_destroy(&seq);
	ret = tracefs_synth_create(synth);
	if (ret) {
		tracefs_synth_free(synth);
		return die("tracefs_synth_create", NULL);
	}
	printf("created\n");
	fflush(stdout);
	while (getchar() != EOF)
		;
	ret = tracefs_synth_destroy(synth);
	tracefs_synth_free(synth);
	return ret ? die("tracefs_synth_destroy", NULL) : 0;
}

static int do_fields(const char *name)
{
	struct tep_handle *tep = tracefs_local_events(NULL);
	struct tep_format_field **fields;
	struct tep_event *ev;
	int i;

	if (!tep)
		return die("tracefs_local_events", NULL);
	ev = tep_find_event_by_name(tep, "synthetic", name);
	if (!ev)
		return die("tep_find_event_by_name", name);
	fields = tep_event_fields(ev);
	if (!fields)
		return die("tep_event_fields", name);
	for (i = 0; fields[i]; i++)
		printf("%s %s offset %d size %d%s%s\n", fields[i]->type,
		       fields[i]->name, fields[i]->offset, fields[i]->size,
		       fields[i]->flags & TEP_FIELD_IS_SIGNED ? " signed" : "",
		       fields[i]->flags & TEP_FIELD_IS_DYNAMIC ? " dynamic" : "");
	free(fields);
	return 0;
}

static int do_hist(const char *sys, const char *event, const char *key,
		   int seconds)
{
	struct tep_handle *tep = tracefs_local_events(NULL);
	struct tracefs_hist *hist;
	char *text;
	int ret;

	if (!tep)
		return die("tracefs_local_events", NULL);
	hist = tracefs_hist_alloc(tep, sys, event, key, TRACEFS_HIST_KEY_NORMAL);
	if (!hist)
		return die("tracefs_hist_alloc", NULL);
	if (tracefs_hist_start(NULL, hist))
		return die("tracefs_hist_start", NULL);
	sleep(seconds);
	text = tracefs_event_file_read(NULL, sys, event, "hist", NULL);
	if (!text)
		return die("tracefs_event_file_read", "hist");
	fputs(text, stdout);
	free(text);
	ret = tracefs_hist_destroy(NULL, hist);
	tracefs_hist_free(hist);
	return ret ? die("tracefs_hist_destroy", NULL) : 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "sql"))
		return do_sql(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "fields"))
		return do_fields(argv[2]);
	if (argc == 6 && !strcmp(argv[1], "hist"))
		return do_hist(argv[2], argv[3], argv[4], atoi(argv[5]));
	fprintf(stderr, "usage: ietracefs sql NAME SQL | fields NAME |\n"
		"       ietracefs hist SYS EVENT KEY SECONDS\n");
	return 2;
}
