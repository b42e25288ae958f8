// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: a histogram's map, built from a parsed spec,
 * and its update on the event path.
 */
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "inter_event.h"

/* Does sort name @name, bare or with the field's modifiers, mean @f? */
static bool ie_sort_matches(const struct ie_field *f, const char *name)
{
	char full[IE_MAX_NAME_LEN + 32];

	size_t len = strlen(f->name);

	/* A statistic only by its full name: "lat" is lat's sum. */
	if (f->mods & IE_MOD_STATS)
		return !strncmp(name, f->name, len) && name[len] == '.' &&
		       !strcmp(name + len + 1, ie_stat_name(f->mods));
	if (!strcmp(name, f->name))
		return true;
	ie_field_display_name(f, full, sizeof(full));
	return !strcmp(name, full);
}

static bool ie_sort_name_known(struct ie_hist *hist, const char *name,
			       size_t len)
{
	unsigned int i;

	for (i = 0; i < hist->n_vals; i++) {
		if (strlen(hist->vals[i].name) == len &&
		    !strncmp(hist->vals[i].name, name, len))
			return true;
	}
	for (i = 0; i < hist->n_keys; i++) {
		if (strlen(hist->keys[i].name) == len &&
		    !strncmp(hist->keys[i].name, name, len))
			return true;
	}
	return false;
}

static int ie_hist_add_sort(struct ie_hist *hist, struct ie_spec *spec,
			    unsigned int *err_pos, enum ie_err *err)
{
	struct ie_sort_key *sk;
	struct ie_field *f;
	unsigned int i, j;

	if (!spec->n_sort) {
		/* By hit count, ascending. */
		hist->sort[0].field_idx = hist->vals[0].map_idx;
		hist->n_sort = 1;
		return 0;
	}
	for (i = 0; i < spec->n_sort; i++) {
		sk = &hist->sort[i];
		sk->descending = spec->sort[i].descending;
		f = NULL;
		for (j = 0; j < hist->n_vals && !f; j++) {
			if (ie_sort_matches(&hist->vals[j], spec->sort[i].name))
				f = &hist->vals[j];
		}
		for (j = 0; j < hist->n_keys && !f; j++) {
			if (ie_sort_matches(&hist->keys[j], spec->sort[i].name))
				f = &hist->keys[j];
		}
		if (!f || f->type == IE_FT_STACK) {
			const char *dot = strchr(spec->sort[i].name, '.');

			/* Point at the modifier if the name before it is fine. */
			*err = IE_ERR_BAD_SORT_KEY;
			*err_pos = spec->sort[i].pos;
			if (dot && ie_sort_name_known(hist, spec->sort[i].name,
						      dot - spec->sort[i].name)) {
				*err = IE_ERR_BAD_SORT;
				*err_pos += dot - spec->sort[i].name + 1;
			}
			return -EINVAL;
		}
		/*
		 * A statistic is no sum of the entry: the sort key names the
		 * hit count, and ie_hist_rows() reads the statistic.
		 */
		if (f->mods & IE_MOD_PCTL) {
			*err = IE_ERR_BAD_SORT_KEY;
			*err_pos = spec->sort[i].pos;
			return -EINVAL;
		}
		if (f->mods & IE_MOD_STATS) {
			hist->sort_stat[i] = f - hist->vals;
			sk->field_idx = hist->vals[0].map_idx;
			continue;
		}
		sk->field_idx = f->map_idx;
	}
	hist->n_sort = spec->n_sort;
	return 0;
}

static int ie_hist_build_map(struct ie_hist *hist, enum ie_err *err)
{
	unsigned int i, n_sums = 0, n_vars = 0;
	struct ie_field *f;

	hist->m = kzalloc(sizeof(*hist->m), GFP_KERNEL);
	if (!hist->m) {
		*err = IE_ERR_NOMEM;
		return -ENOMEM;
	}
	hist->m->ref = 1;
	hist->m->cpu = alloc_percpu(struct ie_cpu_counts);
	if (!hist->m->cpu) {
		*err = IE_ERR_NOMEM;
		return -ENOMEM;
	}
	hist->m->has_execname = hist->has_execname;
	hist->m->since_ns = ktime_get_ns();
	/* Sums first (the hit count's is 0), then the keys: see ie_sort_key. */
	for (i = 0; i < hist->n_vals; i++) {
		f = &hist->vals[i];
		/* Every view of the hit count reads the one counter. */
		if (f->type == IE_FT_HITCOUNT && i) {
			f->map_idx = hist->vals[0].map_idx;
			continue;
		}
		/* A statistic keeps its figures in the entry data. */
		if (f->mods & IE_MOD_STATS)
			continue;
		f->map_idx = n_sums++;
	}
	for (i = 0; i < hist->n_keys; i++)
		hist->keys[i].map_idx = n_sums + i;
	if (n_sums > IE_MAX_SUMS || n_sums + hist->n_keys > IE_MAX_FIELDS)
		goto too_many;
	for (i = 0; i < hist->n_vars; i++)
		hist->vars[i].map_idx = n_vars++;
	/* onmax() and onchange() keep the last value in a variable. */
	for (i = 0; i < hist->n_actions; i++) {
		if (hist->actions[i].handler != IE_ON_MATCH)
			hist->actions[i].slot = n_vars++;
	}
	if (n_vars > IE_MAX_VARS) {
		*err = IE_ERR_TOO_MANY_VARS;
		return -EINVAL;
	}
	if (ie_map_layout(hist->m, hist->key_size, n_sums, n_vars,
			  ALIGN(hist->elt_data_size, sizeof(u64))))
		goto too_many;
	return 0;
too_many:
	*err = IE_ERR_TOO_MANY_FIELDS;
	return -EINVAL;
}

/* A value: an event field with its modifiers, or an expression. */
static int ie_hist_add_val(struct ie_hist *hist, struct ie_field *f,
			   struct ie_spec_item *item, unsigned int *err_pos,
			   enum ie_err *err)
{
	size_t len = strlen(item->expr);
	unsigned int off = 0;
	unsigned long stat;
	struct ie_type t;
	char *text, *cut;
	int ret;

	/* "value.stat": the statistic of the whole value before it. */
	stat = ie_stat_suffix(item->expr, &len);
	text = kstrndup(item->expr, len, GFP_KERNEL);
	if (!text)
		goto nomem;
	/* ie_field_resolve() cuts its text up: the expression needs it whole. */
	cut = kstrdup(text, GFP_KERNEL);
	if (!cut)
		goto nomem;
	ret = ie_field_resolve(hist, f, cut, false, err);
	kfree(cut);
	if (!ret || *err != IE_ERR_FIELD_NOT_FOUND) {
		kfree(text);
		if (ret || !stat)
			return ret;
		/* Of a number as it is: no other modifier. */
		if ((f->type != IE_FT_NUM && f->type != IE_FT_CPU) || f->mods) {
			ie_field_free(f);
			*err = IE_ERR_BAD_MODIFIER;
			*err_pos = item->expr_pos + len + 1;
			return -EINVAL;
		}
		f->mods |= stat;
		/* A sketch counts values from 0 up: of unsigned ones. */
		if ((stat & IE_MOD_PCTL) && f->is_signed) {
			ie_field_free(f);
			*err = IE_ERR_BAD_MODIFIER;
			*err_pos = item->expr_pos + len + 1;
			return -EINVAL;
		}
		return 0;
	}

	memset(f, 0, sizeof(*f));
	f->type = IE_FT_EXPR;
	f->mods = stat;
	ret = ie_expr_parse(text, &f->expr, &off, err);
	if (!ret)
		ret = ie_expr_resolve(hist, f->expr, &off, err);
	if (ret) {
		*err_pos = item->expr_pos + off;
		goto free_expr;
	}
	/* A statistic orders values as their type does (its first operand's). */
	if (stat) {
		ie_expr_type(hist, f->expr, &t);
		f->is_signed = t.is_signed;
		if ((stat & IE_MOD_PCTL) && f->is_signed) {
			*err = IE_ERR_BAD_MODIFIER;
			*err_pos = item->expr_pos + len + 1;
			ret = -EINVAL;
			goto free_expr;
		}
	}
	/*
	 * Shown as written: "lat" for a variable, "$b" for a reference;
	 * "$y" of this trigger's variable y shows y's expression, and a
	 * constant expression its value (as CONFIG_HIST_TRIGGERS shows
	 * them).  A statistic is new: as written ("$y" typed as y, which
	 * y's expression may not be).
	 */
	if (!stat && ((text[0] == '$' && f->expr->kind != IE_EX_REF &&
		       ie_name_ok(text + 1)) || f->expr->kind == IE_EX_CONST)) {
		/* At most IE_EXPR_MAX_LEAVES operands: this fits. */
		char *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);

		if (buf) {
			ie_expr_print_expanded(f->expr, buf, PAGE_SIZE);
			f->name = kstrdup(buf, GFP_KERNEL);
			kfree(buf);
		}
	} else {
		f->name = kstrdup(text, GFP_KERNEL);
	}
	if (f->name) {
		kfree(text);
		return 0;
	}
	*err = IE_ERR_NOMEM;
	ret = -ENOMEM;
free_expr:
	kfree(text);
	/* Not counted in n_vals yet: ie_hist_destroy() won't see it. */
	ie_expr_free(f->expr);
	f->expr = NULL;
	return ret;
nomem:
	kfree(text);
	*err = IE_ERR_NOMEM;
	return -ENOMEM;
}

static int ie_hist_add_fields(struct ie_hist *hist, struct ie_spec *spec,
			      unsigned int *err_pos, enum ie_err *err)
{
	struct ie_spec_item *item;
	struct ie_field *f;
	bool key_var_ok;
	unsigned int i;
	size_t len;
	int ret;

	/* vals[0] is the hit count every histogram keeps. */
	hist->vals[0].type = IE_FT_HITCOUNT;
	hist->vals[0].name = kstrdup("hitcount", GFP_KERNEL);
	if (!hist->vals[0].name)
		goto nomem;
	hist->n_vals = 1;

	hist->plain_keys = true;
	for (i = 0; i < spec->n_keys; i++) {
		item = &spec->keys[i];
		*err_pos = item->pos;
		key_var_ok = true;
		f = &hist->keys[hist->n_keys];
		ret = ie_field_resolve(hist, f, item->expr, true, err);
		if (ret)
			return ret;
		if (f->type == IE_FT_STACK || f->type == IE_FT_STR) {
			key_var_ok = false;
			hist->key_pad = true;
		}
		hist->n_keys++;
		/* Each key starts 8-byte aligned (CONFIG_HIST_TRIGGERS' layout). */
		f->key_off = hist->key_size;
		/* Numbers in order, each in its u64: the event path's fast loop. */
		if ((f->type != IE_FT_NUM && f->type != IE_FT_CPU) ||
		    (f->mods & (IE_MOD_LOG2 | IE_MOD_BUCKETS | IE_MOD_LOGLIN)) ||
		    f->size != sizeof(u64) ||
		    f->key_off != (hist->n_keys - 1) * sizeof(u64))
			hist->plain_keys = false;
		hist->key_size += ALIGN(f->size, sizeof(u64));
		if (f->size % sizeof(u64))
			hist->key_pad = true;
		if (hist->key_size > IE_KEY_SIZE_MAX) {
			*err = IE_ERR_KEY_TOO_LARGE;
			return -EINVAL;
		}
		if (f->mods & IE_MOD_EXECNAME)
			hist->has_execname = true;
		/* "keys=woken_pid=next_pid": a variable holding the key. */
		if (item->var) {
			if (!key_var_ok) {
				*err = IE_ERR_BAD_VAL;
				return -EINVAL;
			}
			ret = ie_var_add(hist, item->var, f->name, item->pos,
					 err_pos, err);
			if (ret)
				return ret;
		}
	}

	/* Assignments first: values may be computed from them. */
	for (i = 0; i < spec->n_vars; i++) {
		item = &spec->vars[i];
		ret = ie_var_add(hist, item->var, item->expr,
				 item->expr_pos, err_pos, err);
		if (ret)
			return ret;
	}

	for (i = 0; i < spec->n_vals; i++) {
		item = &spec->vals[i];
		*err_pos = item->pos;
		/* "vals=ts0=common_timestamp": a summed value and a variable. */
		if (item->var) {
			ret = ie_var_add(hist, item->var, item->expr,
					 item->expr_pos, err_pos, err);
			if (ret)
				return ret;
		}
		/* A plain "hitcount" is the one already there. */
		if (!strcmp(item->expr, "hitcount"))
			continue;
		/*
		 * The map's sum fields: the hit count and two more
		 * (CONFIG_HIST_TRIGGERS' limit);
		 * and up to IE_MAX_STATS statistics (the spec has no more).
		 */
		if (ie_stat_suffix(item->expr, &len) ?
		    hist->n_stats == IE_MAX_STATS :
		    hist->n_vals - hist->n_stats == IE_MAX_VALS) {
			*err = IE_ERR_TOO_MANY_VALS;
			return -EINVAL;
		}
		f = &hist->vals[hist->n_vals];
		ret = ie_hist_add_val(hist, f, item, err_pos, err);
		if (ret)
			return ret;
		hist->n_vals++;
		if (f->mods & IE_MOD_STATS)
			hist->n_stats++;
		/* A sketch takes 4 KB per entry: one per trigger. */
		if (f->mods & IE_MOD_PCTL) {
			if (hist->pctl) {
				*err = IE_ERR_PCTL_TWICE;
				return -EINVAL;
			}
			hist->pctl = true;
		}
	}

	return 0;
nomem:
	*err = IE_ERR_NOMEM;
	return -ENOMEM;
}

/**
 * ie_hist_init_map - allocate the entries of a histogram about to be used
 * @hist: a histogram from ie_hist_create()
 *
 * A histogram built only to find the trigger to remove, pause or join
 * never needs its entries, which are most of its memory.  The entries'
 * index (index.c) is allocated with them.
 *
 * Return: 0 or -ENOMEM.
 */
int ie_hist_init_map(struct ie_hist *hist)
{
	int ret;

	if (hist->m->ready)
		return 0;
	ret = ie_map_alloc(hist->m, hist->map_bits);
	if (ret)
		return ret;
	hist->m->ready = true;
	return 0;
}

/**
 * ie_hist_share_map - make @hist use the map of @owner, a named histogram
 * @hist: a histogram from ie_hist_create(), compatible with @owner
 * @owner: the histogram of the same name already registered
 *
 * Only the map is shared: @hist keeps its keys, values, variables and
 * actions, resolved against its own event's fields.
 *
 * Return: 0, or -EINVAL if the entries of the two don't have one layout.
 */
int ie_hist_share_map(struct ie_hist *hist, struct ie_hist *owner)
{
	const struct ie_param *p, *q;
	unsigned int i, j;

	lockdep_assert_held(&event_mutex);

	if (hist->key_size != owner->key_size ||
	    hist->m->elt_size != owner->m->elt_size ||
	    hist->m->n_sums != owner->m->n_sums ||
	    hist->m->n_vars != owner->m->n_vars ||
	    hist->elt_data_size != owner->elt_data_size ||
	    hist->tags_off != owner->tags_off)
		return -EINVAL;
	/* Keys compared and sorted the same way. */
	for (i = 0; i < hist->n_keys; i++) {
		if (hist->keys[i].key_off != owner->keys[i].key_off ||
		    hist->keys[i].is_signed != owner->keys[i].is_signed)
			return -EINVAL;
	}
	/* String variables in the same places. */
	for (i = 0; i < hist->n_vars && i < owner->n_vars; i++) {
		if (hist->vars[i].str_off != owner->vars[i].str_off ||
		    hist->vars[i].str_size != owner->vars[i].str_size)
			return -EINVAL;
	}
	/* save()d fields in the same places, of the same kinds and sizes. */
	for (i = 0; i < hist->n_actions; i++) {
		for (j = 0; j < hist->actions[i].n_params; j++) {
			p = &hist->actions[i].params[j];
			q = &owner->actions[i].params[j];
			if (p->save_off != q->save_off || !p->str != !q->str ||
			    (p->str && p->str->size != q->str->size))
				return -EINVAL;
		}
	}
	ie_map_put(hist->m);
	hist->m = owner->m;
	hist->m->ref++;
	/* The table's size is the first trigger's: listed as it is. */
	hist->map_bits = owner->map_bits;
	return 0;
}

/**
 * ie_hist_too_big - whether a new table with a percentile sketch would
 * take more than IE_PCTL_MAX_BYTES
 * @hist: the histogram about to allocate its own table
 *
 * (Checked when the table is made, not when a spec is matched: size= is
 * no part of a trigger's identity.)
 *
 * Return: true if @hist has a .percentiles value and its entries, the
 * table's 2^map_bits of them, would take more than IE_PCTL_MAX_BYTES.
 */
bool ie_hist_too_big(const struct ie_hist *hist)
{
	return hist->pctl &&
	       ((u64)hist->m->elt_size << hist->map_bits) > IE_PCTL_MAX_BYTES;
}

/**
 * ie_map_put - drop a histogram's reference to its map
 * @m: the map, or NULL
 *
 * The triggers of one name share a map, each with a reference.  The
 * last reference frees the entries, their index, the per-CPU counts
 * and @m.
 *
 * Context: Must be called with event_mutex held; when the last reference
 * goes, the event path must be done with @m.
 */
void ie_map_put(struct ie_map *m)
{
	if (!m || --m->ref)
		return;
	ie_map_free(m);
	free_percpu(m->cpu);
	kfree(m);
}

/**
 * ie_map_cpu_counts - a table's hits and drops on one CPU
 * @m: the table
 * @cpu: the CPU
 * @hits: set to the hits (entries found or made) of events on @cpu
 * @drops: set to the drops (the table full, or nested too deep)
 *
 * Summed over the CPUs, the totals of the hist file (as they race with
 * events and clears).
 */
void ie_map_cpu_counts(struct ie_map *m, int cpu, u64 *hits, u64 *drops)
{
	struct ie_cpu_counts *c = per_cpu_ptr(m->cpu, cpu);

	*hits = local64_read(&c->hits);
	*drops = local64_read(&c->drops);
}

/**
 * ie_map_totals - a table's hits and drops on all CPUs
 * @m: the table
 * @hits: set to the hits (entries found or made)
 * @drops: set to the drops (the table full, or nested too deep)
 *
 * The totals of the hist file (as they race with events and clears).
 */
void ie_map_totals(struct ie_map *m, u64 *hits, u64 *drops)
{
	u64 h, d;
	int cpu;

	*hits = 0;
	*drops = 0;
	for_each_possible_cpu(cpu) {
		ie_map_cpu_counts(m, cpu, &h, &d);
		*hits += h;
		*drops += d;
	}
}

/**
 * ie_map_cpu_clear - zero a table's per-CPU hits and drops
 * @m: the table
 *
 * With ie_map_clear(): the counts start again from 0.  No event
 * may be counting meanwhile: the map is marked clearing, and the event
 * path done with it (see ie_hist_control()).
 *
 * Context: Must be called with event_mutex held.
 */
void ie_map_cpu_clear(struct ie_map *m)
{
	struct ie_cpu_counts *c;
	int cpu;

	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(m->cpu, cpu);
		local64_set(&c->hits, 0);
		local64_set(&c->drops, 0);
	}
}

/**
 * ie_hist_create - build a histogram for an event from a parsed spec
 * @file: the event
 * @spec: the parsed spec (its strings are consumed)
 * @err_pos: position of the offending part on failure
 * @err: error code on failure
 *
 * Return: the histogram or an ERR_PTR().
 */
struct ie_hist *ie_hist_create(struct trace_event_file *file,
			       struct ie_spec *spec, unsigned int *err_pos,
			       enum ie_err *err)
{
	struct ie_hist *hist;
	unsigned int size, i;
	int ret;

	*err_pos = 0;

	hist = kzalloc(sizeof(*hist), GFP_KERNEL);
	if (!hist) {
		*err = IE_ERR_NOMEM;
		return ERR_PTR(-ENOMEM);
	}
	hist->file = file;
	hist->nohitcount = spec->nohitcount;

	size = spec->size ?: 1U << IE_MAP_BITS_DEFAULT;
	hist->map_bits = order_base_2(size);
	if (hist->map_bits < IE_MAP_BITS_MIN ||
	    hist->map_bits > IE_MAP_BITS_MAX) {
		*err = IE_ERR_BAD_SIZE;
		ret = -EINVAL;
		goto fail;
	}

	ret = ie_hist_add_fields(hist, spec, err_pos, err);
	if (ret)
		goto fail;
	ret = ie_actions_add_refs(hist, spec);
	if (ret) {
		*err = IE_ERR_NOMEM;
		goto fail;
	}
	for (i = 0; i < spec->n_actions; i++) {
		ret = ie_action_add(hist, &spec->actions[i], err_pos, err);
		if (ret)
			goto fail;
	}
	if (hist->has_execname)
		hist->elt_data_size = ALIGN(TASK_COMM_LEN, sizeof(u64));
	ie_actions_reserve(hist);
	/* Per variable: the tag of its unread value (see ie_var_peek()). */
	hist->tags_off = hist->elt_data_size;
	hist->elt_data_size += hist->n_vars * sizeof(atomic64_t);
	/* A string variable's copy. */
	for (i = 0; i < hist->n_vars; i++) {
		if (!hist->vars[i].str_size)
			continue;
		hist->vars[i].str_off = hist->elt_data_size;
		hist->elt_data_size += ALIGN(hist->vars[i].str_size,
					     sizeof(u64));
	}
	/* Last (a snapshot copies what is before): each statistic's figures. */
	hist->stats_off = hist->elt_data_size;
	for (i = 1; i < hist->n_vals; i++) {
		if (!(hist->vals[i].mods & IE_MOD_STATS))
			continue;
		hist->vals[i].stat_off = hist->elt_data_size;
		hist->elt_data_size += ie_stat_size(hist->vals[i].mods);
	}
	*err_pos = 0;
	if (hist->nohitcount && hist->n_vals == 1) {
		*err = IE_ERR_NOHITCOUNT_VALS;
		ret = -EINVAL;
		goto fail;
	}
	ret = ie_hist_build_map(hist, err);
	if (ret)
		goto fail;
	ret = ie_hist_add_sort(hist, spec, err_pos, err);
	if (ret)
		goto fail;
	if (hist->uses_ts) {
		hist->clock = kstrdup(spec->clock ?: "global", GFP_KERNEL);
		if (!hist->clock) {
			*err = IE_ERR_NOMEM;
			ret = -ENOMEM;
			goto fail;
		}
	}
	ret = ie_snapshot_alloc(hist);
	if (ret) {
		*err = IE_ERR_NOMEM;
		goto fail;
	}
	/* Last, as nothing can fail after it: what we pin. */
	ret = ie_actions_pin(hist, spec, err_pos, err);
	if (ret)
		goto fail;
	ie_refs_hold(hist);
	hist->holds_pins = true;
	return hist;
fail:
	ie_hist_destroy(hist);
	return ERR_PTR(ret);
}

/**
 * ie_hist_destroy - free a histogram and give back what it holds
 * @hist: the histogram, maybe only partly built, or NULL
 *
 * If @hist->holds_pins, gives back the pins ie_hist_create() took last:
 * on the histograms it refers to or has helpers mirror (each may be
 * destroyed in turn if its trigger is gone: ie_refs_release()), and on
 * its actions' synthetic events.  Then frees the actions and the
 * snapshot copy, removes its helper triggers nobody else uses, puts its
 * map and frees its fields, variables and @hist.
 *
 * Context: Must be called with event_mutex held, the event path done
 * with @hist; a registered trigger's histogram goes by ie_hist_put().
 */
void ie_hist_destroy(struct ie_hist *hist)
{
	unsigned int i;

	if (!hist)
		return;
	if (hist->holds_pins)
		ie_refs_release(hist);
	ie_actions_free(hist);
	ie_snapshot_free(hist);
	/* Our references are gone: the helper triggers can go too. */
	for (i = 0; i < hist->n_aux; i++)
		ie_hist_remove_aux(hist->aux[i].file, hist->aux[i].id);
	ie_map_put(hist->m);
	for (i = 0; i < hist->n_keys; i++)
		ie_field_free(&hist->keys[i]);
	for (i = 0; i < hist->n_vals; i++) {
		ie_field_free(&hist->vals[i]);
		ie_expr_free(hist->vals[i].expr);
	}
	for (i = 0; i < hist->n_vars; i++) {
		kfree(hist->vars[i].name);
		kfree(hist->vars[i].text);
		ie_expr_free(hist->vars[i].expr);
	}
	kfree(hist->clock);
	kfree(hist);
}

/**
 * ie_hist_compatible - whether two histograms describe the same table
 * @a: a histogram
 * @b: another
 *
 * Same keys, values and sort: the condition to share a named histogram.
 * Also the same nohitcount, variables (names and expressions) and
 * actions (as written); size= is not compared.  A command that removes,
 * pauses, continues or clears finds its trigger by it too.
 *
 * Return: true if they match.
 */
bool ie_hist_compatible(struct ie_hist *a, struct ie_hist *b)
{
	unsigned int i;

	if (a->n_keys != b->n_keys || a->n_vals != b->n_vals ||
	    a->n_sort != b->n_sort || a->nohitcount != b->nohitcount)
		return false;
	for (i = 0; i < a->n_keys; i++) {
		if (strcmp(a->keys[i].name, b->keys[i].name) ||
		    a->keys[i].mods != b->keys[i].mods ||
		    a->keys[i].buckets != b->keys[i].buckets ||
		    a->keys[i].size != b->keys[i].size ||
		    a->keys[i].type != b->keys[i].type)
			return false;
	}
	for (i = 0; i < a->n_vals; i++) {
		/* By name: "$y" of y=fd is listed, and matched, as fd. */
		if (strcmp(a->vals[i].name, b->vals[i].name) ||
		    a->vals[i].mods != b->vals[i].mods)
			return false;
		/* A statistic's figures are kept by its signedness. */
		if ((a->vals[i].mods & IE_MOD_STATS) &&
		    a->vals[i].is_signed != b->vals[i].is_signed)
			return false;
	}
	for (i = 0; i < a->n_sort; i++) {
		if (a->sort[i].field_idx != b->sort[i].field_idx ||
		    a->sort_stat[i] != b->sort_stat[i] ||
		    a->sort[i].descending != b->sort[i].descending)
			return false;
	}
	if (a->n_vars != b->n_vars || a->n_actions != b->n_actions)
		return false;
	for (i = 0; i < a->n_actions; i++) {
		if (strcmp(a->actions[i].text, b->actions[i].text))
			return false;
	}
	for (i = 0; i < a->n_vars; i++) {
		if (strcmp(a->vars[i].name, b->vars[i].name) ||
		    ie_expr_cmp(a->vars[i].expr, b->vars[i].expr))
			return false;
	}
	return true;
}

/*
 * Event path: a hit of entry @elt, counted in this CPU's counts and the
 * entry's hitcount; returns this CPU's sums of the entry.
 */
static __always_inline atomic64_t *ie_hist_count_hit(struct ie_hist *hist,
						     struct ie_elt *elt)
{
	struct ie_map *m = hist->m;
	struct ie_cpu_counts *c = this_cpu_ptr(m->cpu);
	atomic64_t *sums;

	local64_inc(&c->hits);
	sums = ie_elt_sums(m, c, elt);
	atomic64_inc(&sums[hist->vals[0].map_idx]);
	return sums;
}

/*
 * Event path, the general way: the entry of @key in @hist's map, added
 * if new, with the hit counted (ie_hist_count_hit(): its sums returned;
 * @elt set); NULL if the map is full (a drop counted).
 */
static __always_inline atomic64_t *
ie_hist_hit(struct ie_hist *hist, const u64 *key, struct ie_elt **elt)
{
	*elt = ie_map_find_or_add(hist->m, key);
	if (unlikely(!*elt)) {
		ie_map_count(hist->m, false);
		return NULL;
	}
	return ie_hist_count_hit(hist, *elt);
}

/**
 * ie_field_loadable - whether the event path may load a field as is
 * @f: a key, a value or a parameter, resolved
 * @l: set to how to load it, if so
 *
 * Whether @f is a number of the record that ie_load_num() reads as
 * ie_field_num() would: no expression, not common_cpu, 1, 2, 4 or 8
 * bytes at an offset of at most U16_MAX.
 *
 * Return: true if so (@l set).
 */
bool ie_field_loadable(const struct ie_field *f, struct ie_load *l)
{
	const struct ftrace_event_field *ev = f->ev;

	if (f->type != IE_FT_NUM || f->expr || !ev ||
	    ev->offset < 0 || ev->offset > U16_MAX)
		return false;
	if (ev->size != 1 && ev->size != 2 && ev->size != 4 && ev->size != 8)
		return false;
	l->off = ev->offset;
	l->size = ev->size;
	l->shift = f->is_signed && ev->size < 8 ? 64 - 8 * ev->size : 0;
	return true;
}

/**
 * ie_hist_set_simple - set up the shortcuts of a histogram's event path
 * @hist: the histogram, all it uses resolved
 *
 * Simple: plain numeric keys, no references, variables, actions or time
 * stamps; its event needs no state (trigger.c).  Flat: simple, and its
 * keys and sums numbers of the record with no modifier that changes
 * them (no expression, no statistic, not common_cpu): the event path
 * loads them with the struct ie_load each gets here and touches nothing
 * but the entry's counts (ie_hist_flat_event()).
 *
 * The general way loads keys of the record the same way (keys_loaded),
 * reads a lone numeric reference at offsets set here (ref_one) and saves
 * variables that are all numbers inline (vars_nums); a histogram this
 * never ran for takes the slower ways, with the same results.
 *
 * trace()'s parameters of the record are loaded too (ie_actions_set_loads()).
 *
 * Context: event_mutex held, before the trigger is published.
 */
void ie_hist_set_simple(struct ie_hist *hist)
{
	const struct ie_field *f;
	unsigned int i, n = 0;

	hist->keys_loaded = hist->plain_keys;
	for (i = 0; i < hist->n_keys && hist->keys_loaded; i++)
		hist->keys_loaded = ie_field_loadable(&hist->keys[i],
						      &hist->flat_keys[i]);
	ie_actions_set_loads(hist);
	hist->ref_one = hist->n_refs == 1 &&
			!hist->refs[0].def->vars[hist->refs[0].var].str_size;
	if (hist->ref_one)
		ie_ref_offsets(&hist->refs[0], &hist->ref_tag_off,
			       &hist->ref_val_off);
	hist->vars_nums = true;
	for (i = 0; i < hist->n_vars; i++) {
		if (hist->vars[i].str_size)
			hist->vars_nums = false;
	}
	hist->simple = hist->plain_keys && !hist->n_refs && !hist->n_vars &&
		       !hist->n_actions && !hist->uses_ts;
	if (!hist->simple || !hist->keys_loaded)
		goto not_flat;
	for (i = 1; i < hist->n_vals; i++) {
		f = &hist->vals[i];
		if (f->type == IE_FT_HITCOUNT)
			continue;
		if ((f->mods & IE_MOD_STATS) || n == IE_MAX_VALS ||
		    !ie_field_loadable(f, &hist->flat_vals[n]))
			goto not_flat;
		hist->flat_vals[n++].sum = f->map_idx;
	}
	hist->n_flat_vals = n;
	hist->flat = true;
	return;
not_flat:
	hist->flat = false;
}

/* ie_hist_flat_event()'s hit of entry @elt (found or just added). */
static __always_inline void ie_hist_flat_hit(struct ie_hist *hist, void *rec,
					     struct ie_elt *elt)
{
	atomic64_t *sums = ie_hist_count_hit(hist, elt);
	const struct ie_load *l;
	unsigned int i;

	for (i = 0; i < hist->n_flat_vals; i++) {
		l = &hist->flat_vals[i];
		atomic64_add(ie_load_num(l, rec), &sums[l->sum]);
	}
	ie_hist_poll_wakeup();
}

/* ie_hist_flat_event() of a new key: the entry added, or a drop. */
static noinline void ie_hist_flat_new(struct ie_hist *hist, void *rec,
				      const u64 *key)
{
	struct ie_elt *elt = ie_index_add(hist->m, key);

	if (elt)
		ie_hist_flat_hit(hist, rec, elt);
	else
		ie_map_count(hist->m, false);
}

/*
 * Event path of a flat histogram (see ie_hist_set_simple()): the key on
 * the stack, loaded as it is in the record, then the entry and its sums.
 * Out of line, as the general way: ie_hist_trigger() saves no registers
 * for the way it doesn't take.
 */
static noinline void ie_hist_flat_event(struct ie_hist *hist, void *rec)
{
	/* Its n_keys words are all that is read (its map's key size). */
	u64 key[IE_MAX_KEYS] __uninitialized;
	struct ie_map *m = hist->m;
	struct ie_elt *elt;
	unsigned int i;

	for (i = 0; i < hist->n_keys; i++)
		key[i] = ie_load_num(&hist->flat_keys[i], rec);
	/* A hit, or a drop from a full map, calls nothing: no register saved. */
	elt = ie_index_find(&m->index, key);
	if (likely(elt)) {
		ie_hist_flat_hit(hist, rec, elt);
		return;
	}
	if (atomic_read(&m->reserved) >= m->max_elts) {
		ie_map_count(m, false);
		return;
	}
	ie_hist_flat_new(hist, rec, key);
}

/*
 * Event path: variable @var's new value.  A string of the event is
 * copied from the record when saved (0 here); a copy of another event's
 * string or stack, or a stack taken now, is the address of this event's
 * copy in scratch space, which actions read too.
 */
static u64 ie_var_value(struct ie_hist *hist, const struct ie_var *var,
			struct ie_scratch *s, const struct ie_eval_ctx *ctx,
			void *rec)
{
	unsigned long *stack;

	if (var->is_stack && var->stack_slot >= 0) {
		stack = (unsigned long *)(s->strs + var->stack_slot * IE_STR_MAX);
		ie_field_key(var->expr->field, rec, stack);
		stack[IE_STACK_DEPTH] = 0;
		return (unsigned long)stack;
	}
	if (var->str_size && var->expr->kind != IE_EX_REF)
		return 0;
	return ie_expr_value(var->expr, ctx);
}

/*
 * Event path: does the trace clock of @hist's instance not count in
 * nanoseconds (then .usecs is the time stamp as it is)?  The answer of
 * trace_clock_in_ns(), a call into trace.c, is kept with the clock it
 * is for, (clock_id + 1) << 1 | raw in one word: asked again only when
 * the instance's clock changed.  Kept only if the clock did not change
 * while asked, or it might be kept for the wrong one.  That check can't
 * see a change away and back between its two reads: what rules it out
 * is tracing_set_clock(), the only writer of clock_id, which resets the
 * buffers (synchronize_rcu(), under trace_types_lock) after each write,
 * so a second write waits for this event (preemption off) to end.
 */
static __always_inline bool ie_hist_ts_raw(struct ie_hist *hist)
{
	struct trace_array *tr = hist->file->tr;
	unsigned int seen = READ_ONCE(hist->clock_seen);
	int id = READ_ONCE(tr->clock_id);
	bool raw;

	if (likely(seen >> 1 == id + 1))
		return seen & 1;
	raw = !trace_clock_in_ns(tr);
	if (READ_ONCE(tr->clock_id) == id)
		WRITE_ONCE(hist->clock_seen, (id + 1) << 1 | raw);
	return raw;
}

/* ie_hist_event()'s general way. */
static noinline void
__ie_hist_event(struct ie_hist *hist, void *rec, struct trace_buffer *buffer,
		struct ring_buffer_event *rbe)
{
	struct ie_eval_ctx ctx = { .rec = rec };
	const struct ie_field *f;
	/* A simple histogram's key: its n_keys words are all written. */
	u64 skey[IE_MAX_KEYS] __uninitialized;
	struct ie_event_mark *mark = NULL;
	struct ie_event_level *lv;
	unsigned int i, depth;
	u64 *key, val;
	struct ie_elt *elt;
	atomic64_t *sums;
	struct ie_scratch *s;

	/*
	 * A simple histogram runs outside the event's state (its event may
	 * have no ie_event_begin(): see ie_file_needs_level()): its key, of
	 * plain numbers, is on the stack, and it has no references, time
	 * stamps, variables or actions.
	 */
	if (hist->simple) {
		key = skey;
		s = NULL;
	} else {
		/*
		 * The event's scratch slot and mark, found once: the event's
		 * depth is its own until its triggers are done (those nested
		 * in it put it back), and the slots end before the marks do.
		 */
		lv = ie_this_level();
		depth = READ_ONCE(lv->depth);
		s = ie_level_scratch(lv, depth);
		/* Nested deeper than the scratch space: counted as dropped. */
		if (unlikely(!s)) {
			ie_map_count(hist->m, false);
			return;
		}
		mark = ie_level_mark(lv, depth);
		key = s->key;
		ctx.refs = s->refs;
		/* Numeric keys fill their 8 bytes; strings and stacks may not. */
		if (hist->key_pad)
			memset(key, 0, hist->key_size);
	}
	if (likely(hist->keys_loaded)) {
		for (i = 0; i < hist->n_keys; i++)
			key[i] = ie_load_num(&hist->flat_keys[i], rec);
	} else if (hist->plain_keys) {
		for (i = 0; i < hist->n_keys; i++)
			key[i] = ie_field_num(&hist->keys[i], rec);
	} else {
		for (i = 0; i < hist->n_keys; i++) {
			f = &hist->keys[i];
			if (f->type == IE_FT_NUM &&
			    !(f->mods & (IE_MOD_LOG2 | IE_MOD_BUCKETS |
					  IE_MOD_LOGLIN)))
				key[f->key_off / sizeof(u64)] = ie_field_num(f, rec);
			else
				ie_field_key(f, rec, (char *)key + f->key_off);
		}
	}
	/* Unresolved references: this event doesn't count. */
	if (hist->ref_one) {
		if (!ie_ref_take_one(hist->refs[0].def, hist->ref_tag_off,
				     hist->ref_val_off, key, s->refs, s->elts,
				     mark))
			return;
	} else if (hist->n_refs &&
		   !ie_refs_read(hist, key, s->refs, s->elts, s->strs)) {
		return;
	}
	/* The event's time, the same for all its triggers. */
	if (hist->uses_ts) {
		ctx.ts = ie_mark_ts(mark, buffer, rbe);
		ctx.ts_raw = ie_hist_ts_raw(hist);
	}

	/* This CPU's sums of the entry. */
	sums = ie_hist_hit(hist, key, &elt);
	if (!sums)
		return;
	for (i = 1; i < hist->n_vals; i++) {
		f = &hist->vals[i];
		if (f->type == IE_FT_HITCOUNT)
			continue;
		val = f->expr ? ie_expr_value(f->expr, &ctx) :
				 ie_field_num(f, rec);
		if (unlikely(f->mods & IE_MOD_STATS))
			ie_stat_update(f, ie_elt_data(hist->m, elt), val);
		else
			atomic64_add(val, &sums[f->map_idx]);
	}
	if (hist->n_vars) {
		for (i = 0; i < hist->n_vars; i++)
			s->var_vals[i] = ie_var_value(hist, &hist->vars[i], s,
						      &ctx, rec);
		if (hist->vars_nums)
			ie_vars_save_nums(hist, elt, s->var_vals);
		else
			ie_vars_save(hist, elt, s->var_vals, rec);
	}
	if (hist->n_actions)
		ie_actions_run(hist, elt, &ctx, rec, s->var_vals, &s->params);
	ie_hist_poll_wakeup();
}

/**
 * ie_hist_event - count an event in a histogram
 * @hist: the trigger's histogram
 * @rec: the event's record
 * @buffer: the ring buffer of the event's instance
 * @rbe: the event's ring buffer event, or NULL (see ie_event_ts())
 *
 * Builds the key, reads the variables @hist refers to (if one has no
 * value, the event doesn't count), finds or adds the entry, counts the
 * hit and the values, stores the new values of the variables, runs the
 * actions and wakes hist file pollers.  A stateful histogram's event
 * nested too deep for the scratch space counts as a drop (a simple one
 * keeps its key on the stack, see ie_file_needs_level()).  A flat one
 * (see ie_hist_set_simple()) takes the shortest way there.
 *
 * Context: event path, any context including NMI.  No allocation, no
 * locks (but a snapshot's: see ie_actions_run()); a full map counts a
 * drop.  A stateful histogram's buffers are the event's scratch space
 * (see ie_level_scratch()).  Only the KUnit tests call it: the event path
 * is ie_hist_trigger().
 */
#if IS_ENABLED(CONFIG_INTER_EVENT_HIST_KUNIT_TEST)
void ie_hist_event(struct ie_hist *hist, void *rec,
		   struct trace_buffer *buffer, struct ring_buffer_event *rbe)
{
	if (hist->flat)
		ie_hist_flat_event(hist, rec);
	else
		__ie_hist_event(hist, rec, buffer, rbe);
}
#endif

/**
 * ie_hist_trigger - the hist command's trigger function
 * @data: the trigger
 * @buffer: the ring buffer of the event's instance
 * @rec: the event's record (the command has EVENT_CMD_FL_NEEDS_REC:
 *	called without it, it does nothing)
 * @rbe: the event's ring buffer event, or NULL
 *
 * Counts the event in the trigger's histogram as ie_hist_event() does
 * (the flat or the general way), unless the histogram's map is being
 * cleared.
 *
 * Context: event path, any context including NMI.
 */
void ie_hist_trigger(struct event_trigger_data *data,
		     struct trace_buffer *buffer, void *rec,
		     struct ring_buffer_event *rbe)
{
	struct ie_hist *hist = data->private_data;

	/* Pairs with the release in ie_hist_control(). */
	if (!rec || smp_load_acquire(&hist->m->clearing))
		return;
	/* The test kernels check that a stateful one has its event's state. */
	if (IS_ENABLED(CONFIG_INTER_EVENT_HIST_KUNIT_TEST) && !hist->simple &&
	    WARN_ON_ONCE(!__this_cpu_read(ie_cur_level)))
		return;
	if (hist->flat)
		ie_hist_flat_event(hist, rec);
	else
		__ie_hist_event(hist, rec, buffer, rbe);
}
