// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: lossless interval reads ("take").
 *
 * Writing "take" to an open hist_json file moves what the event's
 * histograms counted since the last take into copies, and resets the
 * entries, in one step per counter: each hit count, sum and statistics
 * word is exchanged with 0, the state of a new entry.  An event counts
 * in a counter either before the exchange (and is in this interval) or
 * after it (and is in the next): with events arriving on every CPU, each
 * is counted in exactly one interval.  The counters of one event are
 * taken one after the other, so an event racing with the take may have
 * its hit in one interval and its value in the next; over two intervals
 * everything adds up.
 *
 * The copies are entries laid out as the live ones (the key, an
 * .execname key's task name, the statistics columns), with the hit
 * count and sums of each, added up over the CPUs, beside them in
 * t->copies, a map of the copies: json.c prints them as it prints a
 * live read.  Each CPU's count is exchanged with 0 in turn.  Entries that
 * counted nothing in the interval are left out.  The entries stay in the
 * map (none is given back until it is cleared): a key seen once
 * keeps its place, and a full map keeps dropping new keys.  Variables,
 * onmax() and onchange() values and save()d fields are not reset: they
 * are the triggers' state, not counts.  The totals and per-CPU counts
 * stay cumulative; a reader takes differences.
 *
 * Everything runs under event_mutex: no trigger comes or goes, and no
 * clear runs, while a take is made, printed or given back.  When the
 * printing fails (out of memory), the take is given back: each copy is
 * added to its entry again.
 */
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "inter_event.h"

/* Whether val @i has a sum field of its own (the hit count has one). */
static bool ie_take_has_sum(struct ie_hist *hist, unsigned int i)
{
	const struct ie_field *f = &hist->vals[i];

	if (f->mods & IE_MOD_STATS)
		return false;
	return !i || f->type != IE_FT_HITCOUNT;
}

/* Move @live's counts into @copy, zeroed, of @t; whether it had any. */
static bool ie_take_elt(struct ie_hist *hist, struct ie_take_hist *t,
			struct ie_elt *live, struct ie_elt *copy)
{
	struct ie_map *map = hist->m;
	unsigned int i, idx;
	bool any = false;
	atomic64_t *sum;
	size_t at;
	int cpu;
	u64 v;

	/* The key and an .execname's name are set before the entry shows. */
	memcpy(ie_elt_key(copy), ie_elt_key(live), map->key_size);
	if (map->has_execname)
		memcpy(ie_elt_data(map, copy), ie_elt_data(map, live),
		       TASK_COMM_LEN);

	/*
	 * Last column first: an event adds its hit count, then each value in
	 * order, so a .avg or .stddev figure in this copy has its hit count
	 * here too (their fetch-and-add is fully ordered; a plain sum's or a
	 * percentile bucket's relaxed add may show before the hit on weakly
	 * ordered CPUs).  A hit may still come without its values, as readers
	 * allow.
	 */
	for (i = hist->n_vals; i--; ) {
		if (hist->vals[i].mods & IE_MOD_STATS) {
			any |= ie_stat_take(&hist->vals[i],
					    ie_elt_data(map, live),
					    ie_elt_data(map, copy));
			continue;
		}
		if (!ie_take_has_sum(hist, i))
			continue;
		idx = hist->vals[i].map_idx;
		v = 0;
		for_each_ie_sums_cpu(map, cpu) {
			sum = ie_elt_cpu_sum(map, cpu, live, idx);
			/* (A 0 read is as good as one exchanged.) */
			if (atomic64_read(sum))
				v += atomic64_xchg(sum, 0);
		}
		at = (size_t)ie_elt_num(t->copies, copy) * map->n_sums + idx;
		atomic64_set(&t->copies->sums[at], v);
		any |= v != 0;
	}
	return any;
}

static void ie_take_give_elt(struct ie_hist *hist, struct ie_take_hist *t,
			     struct ie_elt *live, struct ie_elt *copy)
{
	struct ie_map *map = hist->m;
	unsigned int i, idx;
	u64 v;

	for (i = 0; i < hist->n_vals; i++) {
		if (hist->vals[i].mods & IE_MOD_STATS) {
			ie_stat_give_back(&hist->vals[i],
					  ie_elt_data(map, live),
					  ie_elt_data(map, copy));
			continue;
		}
		if (!ie_take_has_sum(hist, i))
			continue;
		idx = hist->vals[i].map_idx;
		v = ie_elt_read_sum(t->copies, copy, idx);
		/* Any CPU's sum will do: they are added up. */
		if (v)
			atomic64_add(v, ie_elt_cpu_sum(map, raw_smp_processor_id(),
						       live, idx));
	}
}

/*
 * Triggers of one name on one event share their entries: the second
 * shows the copies the first took (an alias, neither taken nor freed).
 */
static bool ie_take_alias(struct ie_take *take, struct ie_hist *hist)
{
	struct ie_take_hist *t;
	unsigned int i;

	for (i = 0; i < take->n; i++) {
		if (take->h[i].hist->m != hist->m || take->h[i].alias)
			continue;
		t = &take->h[take->n++];
		*t = take->h[i];
		t->hist = hist;
		t->alias = true;
		return true;
	}
	return false;
}

/* Take one histogram into @t. */
static int ie_take_hist(struct ie_hist *hist, struct ie_take_hist *t)
{
	size_t size = hist->m->elt_size;
	struct ie_elt *copy;
	struct ie_row *rows;
	int n, e;

	t->hist = hist;
	t->from_ns = hist->m->since_ns;
	if (!hist->m->ready)
		return 0;
	/* In the order of the histogram's sort keys, as of the take. */
	n = ie_hist_rows(hist, &rows);
	if (n <= 0) {
		kvfree(rows);
		return n;
	}
	t->mem = kvcalloc(n, size, GFP_KERNEL_ACCOUNT);
	t->elts = kvcalloc(n, sizeof(*t->elts), GFP_KERNEL_ACCOUNT);
	t->live = kvcalloc(n, sizeof(*t->live), GFP_KERNEL_ACCOUNT);
	t->copies = kzalloc(sizeof(*t->copies), GFP_KERNEL_ACCOUNT);
	if (!t->mem || !t->elts || !t->live || !t->copies) {
		kvfree(rows);
		return -ENOMEM;
	}
	/* The copies: entries as the map's, with their sums beside. */
	t->copies->sums = kvcalloc((size_t)n * hist->m->n_sums,
				   sizeof(*t->copies->sums),
				   GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!t->copies->sums) {
		kvfree(rows);
		return -ENOMEM;
	}
	t->copies->elts = t->mem;
	t->copies->elt_size = hist->m->elt_size;
	t->copies->num_mul = hist->m->num_mul;
	t->copies->key_size = hist->m->key_size;
	t->copies->vars_off = hist->m->vars_off;
	t->copies->data_off = hist->m->data_off;
	t->copies->n_sums = hist->m->n_sums;
	t->copies->n_vars = hist->m->n_vars;
	t->copies->elt_data_size = hist->m->elt_data_size;
	t->copies->has_execname = hist->m->has_execname;
	for (e = 0; e < n; e++) {
		copy = t->mem + (size_t)t->n * size;
		if (ie_take_elt(hist, t, rows[e].elt, copy)) {
			t->elts[t->n] = copy;
			t->live[t->n++] = rows[e].elt;
		}
		/* Many entries: let others run (event_mutex is held). */
		cond_resched();
	}
	kvfree(rows);
	return 0;
}

/**
 * ie_take_free - free a take
 * @take: from ie_take_event(), or NULL
 */
void ie_take_free(struct ie_take *take)
{
	unsigned int i;

	if (!take)
		return;
	for (i = 0; i < take->n; i++) {
		if (take->h[i].alias)
			continue;
		kvfree(take->h[i].mem);
		if (take->h[i].copies)
			kvfree(take->h[i].copies->sums);
		kfree(take->h[i].copies);
		kvfree(take->h[i].elts);
		kvfree(take->h[i].live);
	}
	kfree(take);
}

/**
 * ie_take_give_back - add a take's counts back to the live entries
 * @take: from ie_take_event(), not printed
 *
 * Under event_mutex, held since the take.
 */
void ie_take_give_back(struct ie_take *take)
{
	struct ie_take_hist *t;
	unsigned int i, e;

	lockdep_assert_held(&event_mutex);

	for (i = 0; i < take->n; i++) {
		t = &take->h[i];
		if (t->alias)
			continue;
		for (e = 0; e < t->n; e++)
			ie_take_give_elt(t->hist, t, t->live[e], t->elts[e]);
		t->hist->m->since_ns = t->from_ns;
	}
}

/**
 * ie_take_event - take the counts of an event's histograms
 * @file: the event, under event_mutex
 *
 * One struct ie_take_hist per hist trigger of @file, in the order of its
 * trigger list.
 *
 * Return: the take, for ie_hist_json_show() and ie_take_free(), or an
 * ERR_PTR() (-ENOMEM, or the error of listing a map's entries), in which
 * case nothing was taken.
 */
struct ie_take *ie_take_event(struct trace_event_file *file)
{
	struct event_trigger_data *data;
	struct ie_take *take;
	unsigned int n = 0, i;
	int ret = 0;
	u64 now;

	lockdep_assert_held(&event_mutex);

	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type == ETT_EVENT_HIST)
			n++;
	}
	take = kzalloc(struct_size(take, h, n), GFP_KERNEL);
	if (!take)
		return ERR_PTR(-ENOMEM);
	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
			continue;
		if (ie_take_alias(take, data->private_data))
			continue;
		/* (Counted in take->n first, for ie_take_free().) */
		ret = ie_take_hist(data->private_data, &take->h[take->n++]);
		if (ret)
			break;
	}
	if (ret) {
		ie_take_give_back(take);
		ie_take_free(take);
		return ERR_PTR(ret);
	}
	/* One end for all: the last counter taken, the next interval's start. */
	now = ktime_get_ns();
	for (i = 0; i < take->n; i++) {
		take->h[i].to_ns = now;
		take->h[i].hist->m->since_ns = now;
	}
	return take;
}
