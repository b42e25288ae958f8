// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: the text of a trigger (as the trigger file
 * lists it) and of its histogram (the event's hist file).  The layout is
 * the one tools parse from the kernel's hist files.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/sort.h>

#include "inter_event.h"

static const struct {
	unsigned long	mod;
	const char	*name;
} ie_mod_names[] = {
	{ IE_MOD_HEX,		"hex" },
	{ IE_MOD_SYM,		"sym" },
	{ IE_MOD_SYM_OFFSET,	"sym-offset" },
	{ IE_MOD_EXECNAME,	"execname" },
	{ IE_MOD_SYSCALL,	"syscall" },
	{ IE_MOD_LOG2,		"log2" },
	{ IE_MOD_USECS,		"usecs" },
	{ IE_MOD_PERCENT,	"percent" },
	{ IE_MOD_GRAPH,		"graph" },
	{ IE_MOD_STACKTRACE,	"stacktrace" },
	{ IE_MOD_MIN,		"min" },
	{ IE_MOD_MAX,		"max" },
	{ IE_MOD_AVG,		"avg" },
	{ IE_MOD_STDDEV,	"stddev" },
};

/**
 * ie_field_display_name - a field's name with its modifiers
 * @f: the field
 * @buf: where to write it
 * @len: size of @buf
 *
 * "name.modifier..." as the user would write it, the modifiers in a
 * fixed order, .buckets= and .loglin= with their number.  Not every
 * statistic is named (.percentiles isn't): callers name statistics with
 * ie_stat_name().  Cut to fit @buf.
 *
 * Return: the length written, the NUL not counted.
 */
int ie_field_display_name(const struct ie_field *f, char *buf, size_t len)
{
	int n = scnprintf(buf, len, "%s", f->name);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ie_mod_names); i++) {
		if (f->mods & ie_mod_names[i].mod)
			n += scnprintf(buf + n, len - n, ".%s",
				       ie_mod_names[i].name);
	}
	if (f->mods & IE_MOD_BUCKETS)
		n += scnprintf(buf + n, len - n, ".buckets=%lu", f->buckets);
	if (f->mods & IE_MOD_LOGLIN)
		n += scnprintf(buf + n, len - n, ".loglin=%lu", f->buckets);
	return n;
}

static void ie_print_field_name(struct seq_file *m, const struct ie_field *f)
{
	char buf[IE_MAX_NAME_LEN + 64];

	/* A statistic's expression may be long: its name is never cut. */
	if (f->mods & IE_MOD_STATS) {
		seq_printf(m, "%s.%s", f->name, ie_stat_name(f->mods));
		return;
	}
	ie_field_display_name(f, buf, sizeof(buf));
	seq_puts(m, buf);
}

static const struct ie_field *ie_field_by_idx(struct ie_hist *hist,
					      unsigned int idx)
{
	unsigned int i;

	for (i = 0; i < hist->n_vals; i++) {
		if (hist->vals[i].map_idx == idx)
			return &hist->vals[i];
	}
	for (i = 0; i < hist->n_keys; i++) {
		if (hist->keys[i].map_idx == idx)
			return &hist->keys[i];
	}
	return NULL;
}

/*
 * "name=expression", printed straight into the seq_file's buffer: a
 * line that doesn't fit is printed again into a larger one, so the
 * listing is never cut (every trigger is removable by the line listed).
 */
static void ie_print_var(struct seq_file *m, const struct ie_var *var)
{
	size_t len;
	char *buf;
	int n;

	seq_printf(m, "%s=", var->name);
	len = seq_get_buf(m, &buf);
	n = ie_expr_print(var->expr, buf, len);
	/* scnprintf() stops at len - 1: that may be a cut. */
	seq_commit(m, len && n < len - 1 ? n : -1);
}

/* The spec in canonical form, without the filter and state. */
static void ie_hist_print_spec(struct seq_file *m,
			       struct event_trigger_data *data)
{
	struct ie_hist *hist = data->private_data;
	const struct ie_field *f;
	unsigned int i;
	bool first = true;

	seq_puts(m, "hist:");
	if (data->name)
		seq_printf(m, "name=%s:", data->name);
	seq_puts(m, "keys=");
	for (i = 0; i < hist->n_keys; i++) {
		if (i)
			seq_putc(m, ',');
		ie_print_field_name(m, &hist->keys[i]);
	}
	seq_puts(m, ":vals=");
	for (i = hist->nohitcount ? 1 : 0; i < hist->n_vals; i++) {
		if (!first)
			seq_putc(m, ',');
		first = false;
		ie_print_field_name(m, &hist->vals[i]);
	}
	for (i = 0; i < hist->n_vars; i++) {
		seq_putc(m, i ? ',' : ':');
		ie_print_var(m, &hist->vars[i]);
	}
	seq_puts(m, ":sort=");
	for (i = 0; i < hist->n_sort; i++) {
		if (i)
			seq_putc(m, ',');
		f = hist->sort_stat[i] ? &hist->vals[hist->sort_stat[i]] :
			ie_field_by_idx(hist, hist->sort[i].field_idx);
		/* With the field's modifiers, as CONFIG_HIST_TRIGGERS lists them. */
		if (f)
			ie_print_field_name(m, f);
		if (hist->sort[i].descending)
			seq_puts(m, ".descending");
	}
	seq_printf(m, ":size=%u", 1U << hist->map_bits);
	if (hist->clock)
		seq_printf(m, ":clock=%s", hist->clock);
	if (hist->nohitcount)
		seq_puts(m, ":nohitcount");
	ie_actions_print(m, hist);
}

/**
 * ie_hist_print_trigger - list a hist trigger
 * @m: the trigger file, or the hist file's "trigger info"
 * @data: the trigger
 *
 * One line of the trigger file: the spec in canonical form, then
 * " if " and the filter if there is one, then "[paused]" or "[active]".
 *
 * Return: 0.
 */
int ie_hist_print_trigger(struct seq_file *m, struct event_trigger_data *data)
{
	ie_hist_print_spec(m, data);
	if (data->filter_str)
		seq_printf(m, " if %s", data->filter_str);
	seq_puts(m, data->paused ? " [paused]\n" : " [active]\n");
	return 0;
}

/**
 * ie_print_key - print one key of an entry, as the hist file shows it
 * @m: the hist file
 * @f: the key
 * @key: the key's part of the entry's compound key
 * @data: the entry's data, which holds an .execname key's task name
 *
 * "name: value", as the key's type and modifier say: a string, a stack
 * trace a frame a line, a symbol, a task name, a system call, a
 * bucket's range, or the number, signed or not.
 */
void ie_print_key(struct seq_file *m, const struct ie_field *f,
		  const void *key, const void *data)
{
	const unsigned long *stack;
	const char *name;
	unsigned int i;
	u64 val;

	/* .hex shows a string's first 8 bytes as a number (as tools expect). */
	if (f->type == IE_FT_STR && !(f->mods & IE_MOD_HEX)) {
		seq_printf(m, "%s: %-50s", f->name, (const char *)key);
		return;
	}
	if (f->type == IE_FT_STACK) {
		seq_printf(m, "%s:\n", f->name);
		stack = key;
		for (i = 0; i < IE_STACK_DEPTH && stack[i]; i++)
			seq_printf(m, "%*c%pS\n", 9, ' ', (void *)stack[i]);
		return;
	}
	memcpy(&val, key, sizeof(val));
	if (f->mods & IE_MOD_HEX) {
		seq_printf(m, "%s: %llx", f->name, val);
	} else if (f->mods & IE_MOD_SYM) {
		seq_printf(m, "%s: [%llx] %-45ps", f->name, val,
			   (void *)(unsigned long)val);
	} else if (f->mods & IE_MOD_SYM_OFFSET) {
		seq_printf(m, "%s: [%llx] %-55pS", f->name, val,
			   (void *)(unsigned long)val);
	} else if (f->mods & IE_MOD_EXECNAME) {
		name = data ?: "<...>";
		seq_printf(m, "%s: %-16s[%10llu]", f->name, name, val);
	} else if (f->mods & IE_MOD_SYSCALL) {
		name = get_syscall_name(val);
		seq_printf(m, "%s: %-30s[%3llu]", f->name,
			   name ?: "unknown_syscall", val);
	} else if (f->mods & IE_MOD_LOG2) {
		seq_printf(m, "%s: ~ 2^%-2llu", f->name, val);
	} else if (f->mods & IE_MOD_BUCKETS) {
		seq_printf(m, "%s: ~ %llu-%llu", f->name, val,
			   val + f->buckets - 1);
	} else if (f->mods & IE_MOD_LOGLIN) {
		seq_printf(m, "%s: ~ %llu-%llu", f->name, val,
			   ie_loglin_last(val, f->buckets));
	} else if (f->is_signed) {
		seq_printf(m, "%s: %10lld", f->name, (s64)val);
	} else {
		seq_printf(m, "%s: %10llu", f->name, val);
	}
}

#define IE_GRAPH_WIDTH	20

/*
 * Totals and maxima over all entries, for .percent and .graph; room for
 * a percentile sketch's counts (if the histogram has one).
 */
struct ie_col_stats {
	u64	total[IE_MAX_VALS + 1 + IE_MAX_STATS];
	u64	max[IE_MAX_VALS + 1 + IE_MAX_STATS];
	u32	*pctl;
};

static void ie_print_val(struct seq_file *m, struct ie_hist *hist,
			 unsigned int i, const struct ie_row *row,
			 struct ie_col_stats *st)
{
	struct ie_elt *elt = row->elt;
	const struct ie_field *f = &hist->vals[i];
	char bar[IE_GRAPH_WIDTH + 1];
	/* A constant's column has no name (as CONFIG_HIST_TRIGGERS prints). */
	const char *name = f->expr && f->expr->kind == IE_EX_CONST ? "" : f->name;
	u64 val = 0, pc, q[IE_PCTL_N];
	unsigned int n;
	u32 rem;

	if (!(f->mods & IE_MOD_STATS))
		val = row->sums[f->map_idx];
	if (f->mods & IE_MOD_PCTL) {
		ie_pctl_read(ie_elt_data(hist->m, elt) + f->stat_off, st->pctl,
			     q);
		for (n = 0; n < IE_PCTL_N; n++)
			seq_printf(m, "  %s.%s: %10llu", f->name,
				   ie_pctl_names[n], q[n]);
	} else if (f->mods & IE_MOD_STATS) {
		val = ie_stat_read_elt(hist->m, f, elt, hist->vals[0].map_idx);
		seq_printf(m, "  %s.%s: ", f->name, ie_stat_name(f->mods));
		if (f->is_signed && !(f->mods & IE_MOD_STDDEV))
			seq_printf(m, "%10lld", (s64)val);
		else
			seq_printf(m, "%10llu", val);
	} else if (f->mods & IE_MOD_PERCENT) {
		pc = st->total[i] ? div64_u64(val * 10000, st->total[i]) : 0;
		pc = div_u64_rem(pc, 100, &rem);
		seq_printf(m, "  %s (%%):%4llu.%02u", f->name, pc, rem);
	} else if (f->mods & IE_MOD_GRAPH) {
		pc = st->max[i] ? div64_u64(val * IE_GRAPH_WIDTH, st->max[i]) : 0;
		/* At most the maximum: of the same numbers (ie_hist_rows()). */
		n = min_t(u64, pc, IE_GRAPH_WIDTH);
		memset(bar, '#', n);
		bar[n] = '\0';
		seq_printf(m, "  %s: %-*s", name, IE_GRAPH_WIDTH, bar);
	} else if (f->mods & IE_MOD_HEX) {
		seq_printf(m, "  %s: %10llx", name, val);
	} else if (i == 0) {
		seq_printf(m, " %s: %10llu", name, val);
	} else {
		seq_printf(m, "  %s: %10llu", name, val);
	}
}

static void ie_print_entry(struct seq_file *m, struct ie_hist *hist,
			   const struct ie_row *row, struct ie_col_stats *st)
{
	struct ie_elt *elt = row->elt;
	unsigned int i;

	seq_puts(m, "{ ");
	for (i = 0; i < hist->n_keys; i++) {
		if (i)
			seq_puts(m, ", ");
		ie_print_key(m, &hist->keys[i],
			     (u8 *)ie_elt_key(elt) + hist->keys[i].key_off,
			     ie_elt_data(hist->m, elt));
	}
	/* A stack trace ends its line already. */
	seq_puts(m, hist->keys[hist->n_keys - 1].type == IE_FT_STACK ? "}" : " }");
	for (i = hist->nohitcount ? 1 : 0; i < hist->n_vals; i++)
		ie_print_val(m, hist, i, row, st);
	if (hist->n_actions)
		ie_actions_show_entry(m, hist, elt);
	seq_putc(m, '\n');
}

static void ie_col_stats(struct ie_hist *hist, const struct ie_row *rows,
			 int n, struct ie_col_stats *st)
{
	unsigned int i;
	u64 val;
	int e;

	memset(st, 0, sizeof(*st));
	for (e = 0; e < n; e++) {
		for (i = 0; i < hist->n_vals; i++) {
			if (hist->vals[i].mods & IE_MOD_STATS)
				continue;
			val = rows[e].sums[hist->vals[i].map_idx];
			st->total[i] += val;
			st->max[i] = max(st->max[i], val);
		}
		if (!(e & 1023))
			cond_resched();
	}
}

/*
 * How a sort key compares: a sum as u64, a statistic as its type, a key
 * as its type (ie_key_cmp()).
 */
enum { IE_ROW_U64, IE_ROW_S64, IE_ROW_KEY };

struct ie_row_sort {
	const struct ie_hist	*hist;
	u8			how[IE_MAX_SORT];
	const struct ie_field	*key[IE_MAX_SORT];	/* IE_ROW_KEY */
};

/* A key of two entries: a string by strcmp(), a number by its sign. */
static int ie_key_cmp(const struct ie_field *f, struct ie_elt *ea,
		      struct ie_elt *eb)
{
	const u8 *a = (const u8 *)ie_elt_key(ea) + f->key_off;
	const u8 *b = (const u8 *)ie_elt_key(eb) + f->key_off;
	u64 x, y;

	switch (f->type) {
	case IE_FT_STR:
		return strcmp(a, b);
	case IE_FT_STACK:
		return 0;
	default:
		memcpy(&x, a, sizeof(x));
		memcpy(&y, b, sizeof(y));
		if (f->is_signed)
			return (s64)x < (s64)y ? -1 : (s64)x > (s64)y;
		return x < y ? -1 : x > y;
	}
}

static int ie_row_cmp(const void *pa, const void *pb, const void *priv)
{
	const struct ie_row_sort *rs = priv;
	const struct ie_row *a = pa, *b = pb;
	unsigned int k;
	int c;

	for (k = 0; k < rs->hist->n_sort; k++) {
		switch (rs->how[k]) {
		case IE_ROW_S64:
			c = (s64)a->v[k] < (s64)b->v[k] ? -1 :
			    (s64)a->v[k] > (s64)b->v[k];
			break;
		case IE_ROW_U64:
			c = a->v[k] < b->v[k] ? -1 : a->v[k] > b->v[k];
			break;
		default:
			c = ie_key_cmp(rs->key[k], a->elt, b->elt);
		}
		if (c)
			return rs->hist->sort[k].descending ? -c : c;
	}
	return 0;
}

/**
 * ie_hist_rows - a histogram's entries in the order of its sort keys
 * @hist: the histogram
 * @rows: set to the entries, each with its sums and the statistics it
 *	is sorted by, read once; kvfree() it whatever the return
 *
 * An entry's sums are read once, here: the columns printed, the totals
 * .percent divides by and the maxima .graph scales to are of those
 * numbers, so that a read while events go on adding is of one moment
 * per entry (the shares of one read add up to 100%).
 *
 * The entries are those of the map's index; the map holds no more than
 * next_elt of them: the array is as large as the entries used, not as
 * the map's size (and grows if events add entries meanwhile).
 *
 * Context: event_mutex held (the map stays).
 * Return: the number of entries, or -ENOMEM.
 */
int ie_hist_rows(struct ie_hist *hist, struct ie_row **rows)
{
	struct ie_row_sort rs = { .hist = hist };
	struct ie_map *map = hist->m;
	struct ie_elt *elt;
	const struct ie_field *f;
	unsigned int i, k;
	struct ie_row *r, *r2;
	int n = 0, max;

	*rows = NULL;
	for (k = 0; k < hist->n_sort; k++) {
		f = ie_field_by_idx(hist, hist->sort[k].field_idx);
		if (hist->sort_stat[k]) {
			f = &hist->vals[hist->sort_stat[k]];
			rs.how[k] = f->is_signed && !(f->mods & IE_MOD_STDDEV) ?
				    IE_ROW_S64 : IE_ROW_U64;
		} else if (f >= hist->vals && f < hist->vals + hist->n_vals) {
			rs.how[k] = IE_ROW_U64;
		} else {
			rs.how[k] = IE_ROW_KEY;
			rs.key[k] = f;
		}
	}
	max = atomic_read(&map->next_elt);
	if (max <= 0)
		return 0;
	r = kvmalloc_array(max, sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	for (i = 0; i < (1U << map->index.bits); i++) {
		/* Entries added meanwhile: room for all, old ones included. */
		if (n == max) {
			/*
			 * Entries seen were counted in next_elt before they
			 * were published (ie_index_add(): a fully ordered
			 * atomic_inc_return(), then a release).
			 */
			smp_rmb();
			max = atomic_read(&map->next_elt);
			if (n == max)
				break;
			r2 = kvmalloc_array(max, sizeof(*r), GFP_KERNEL);
			if (!r2) {
				kvfree(r);
				return -ENOMEM;
			}
			memcpy(r2, r, n * sizeof(*r));
			kvfree(r);
			r = r2;
		}
		if (!(i & 4095))
			cond_resched();
		elt = READ_ONCE(map->index.slots[i]);
		if (!elt || ie_index_is_mark(elt))
			continue;
		r[n].elt = elt;
		ie_elt_read_sums(map, elt, r[n].sums);
		for (k = 0; k < hist->n_sort; k++) {
			if (hist->sort_stat[k])
				r[n].v[k] = ie_stat_read_elt(map,
							     &hist->vals[hist->sort_stat[k]],
							     elt, hist->vals[0].map_idx);
			else if (rs.how[k] == IE_ROW_U64)
				r[n].v[k] = r[n].sums[hist->sort[k].field_idx];
		}
		n++;
	}
	sort_r(r, n, sizeof(*r), ie_row_cmp, NULL, &rs);
	*rows = r;
	return n;
}

/**
 * ie_doc_fits - whether what was printed since @mark fit, else make room
 * @m: a document built in memory: its buffer from kvmalloc(), no file
 * @mark: @m's count before the piece was printed
 *
 * A document (a hist or hist_json file's text) is printed in pieces, an
 * entry each, into one buffer.  When a piece overflows, the buffer is
 * doubled, what came before the piece kept and the piece taken back: the
 * caller prints it again.  (seq_read() would print the whole document
 * again, sorting included, at every doubling.)
 *
 * Return: true if the piece fit, or if no more room can be had, up to
 * %IE_DOC_MAX: then @m stays overflowed, the document lost (later pieces
 * are not printed, seq_has_overflowed() tells the caller); false to
 * print the piece again.
 */
bool ie_doc_fits(struct seq_file *m, size_t mark)
{
	size_t size = m->size * 2;
	char *buf;

	if (!seq_has_overflowed(m))
		return true;
	/* A piece begun on a lost document: it stays lost. */
	if (mark >= m->size || size > IE_DOC_MAX)
		return true;
	buf = kvmalloc(size, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!buf)
		return true;
	memcpy(buf, m->buf, mark);
	kvfree(m->buf);
	m->buf = buf;
	m->size = size;
	m->count = mark;
	return false;
}

/**
 * ie_doc_puts - print a string as one piece of a document
 * @m: the document (see ie_doc_fits())
 * @s: the string
 */
void ie_doc_puts(struct seq_file *m, const char *s)
{
	size_t mark;

	do {
		mark = m->count;
		seq_puts(m, s);
	} while (!ie_doc_fits(m, mark));
}

static void ie_hist_show_totals(struct seq_file *m, struct ie_hist *hist,
				int n)
{
	u64 hits, drops;

	ie_map_totals(hist->m, &hits, &drops);
	seq_printf(m, "\nTotals:\n    Hits: %llu\n    Entries: %d\n    Dropped: %llu\n",
		   hits, n, drops);
	/* Synthetic events not generated: nested too deep (rare; not shown at 0). */
	if (atomic64_read(&hist->actions_dropped))
		seq_printf(m, "    Dropped actions: %llu\n",
			   (u64)atomic64_read(&hist->actions_dropped));
	ie_snapshot_show(m, hist);
}

/**
 * ie_hist_show - print a trigger's histogram
 * @m: the hist file's document (see ie_doc_fits())
 * @data: the trigger
 *
 * One trigger's section of the hist file: the trigger as listed, the
 * entries in sort order, the totals (hits, entries, drops, and dropped
 * actions if any) and, with snapshot(), the entry of the last snapshot.
 * Running out of memory is said in the file.
 *
 * Context: event_mutex held.
 */
void ie_hist_show(struct seq_file *m, struct event_trigger_data *data)
{
	struct ie_hist *hist = data->private_data;
	struct ie_col_stats *st;
	struct ie_row *rows;
	int n, shown, e;
	size_t mark;

	n = ie_hist_rows(hist, &rows);
	shown = max(n, 0);
	st = kmalloc(sizeof(*st), GFP_KERNEL);
	if (st) {
		ie_col_stats(hist, rows, shown, st);
		if (hist->pctl)
			st->pctl = kmalloc_array(IE_PCTL_BUCKETS,
						 sizeof(*st->pctl), GFP_KERNEL);
	}
	do {
		mark = m->count;
		seq_puts(m, "# event histogram\n#\n# trigger info: ");
		ie_hist_print_trigger(m, data);
		seq_puts(m, "#\n\n");
		if (n < 0)
			seq_printf(m, "# error reading the histogram: %d\n", n);
		if (!st || (hist->pctl && !st->pctl))
			seq_puts(m, "# out of memory: entries not shown\n");
	} while (!ie_doc_fits(m, mark));
	if (!st || (hist->pctl && !st->pctl))
		shown = 0;
	for (e = 0; e < shown && !seq_has_overflowed(m); e++) {
		do {
			mark = m->count;
			ie_print_entry(m, hist, &rows[e], st);
		} while (!ie_doc_fits(m, mark));
		/* Under event_mutex: let others run. */
		cond_resched();
	}
	if (st)
		kfree(st->pctl);
	kfree(st);
	kvfree(rows);
	do {
		mark = m->count;
		ie_hist_show_totals(m, hist, max(n, 0));
	} while (!ie_doc_fits(m, mark));
}
