// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: the snapshot() action.
 *
 *   onmax(var).snapshot()   onchange(var).snapshot()
 *
 * The action swaps the instance's trace buffer with its snapshot buffer
 * through the instance's conditional snapshot: an event whose handler
 * acts calls tracing_snapshot_cond(), which calls ie_snapshot_update()
 * under the instance's max_lock (an arch spinlock), interrupts off.  One
 * trace, one maximum: besides the entry's own maximum (or last value),
 * the handler of a snapshot() watches the histogram's, which only
 * ie_snapshot_update() changes, under max_lock, as it lets the buffers
 * swap.  The event path reads it without the lock, to leave the lock
 * alone for the events that can't raise it.
 *
 * The trigger holds the instance's conditional snapshot from before its
 * registration until no event can act for it any more (after the
 * trigger is freed): an event never finds the instance without it,
 * which would take an unconditional snapshot, or turn tracing off if
 * the snapshot buffer is gone.
 */
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "inter_event.h"

struct ie_snap_req {
	struct ie_hist		*hist;
	struct ie_elt	*elt;
	unsigned int		action;
	u64			value;
};

/* This CPU is taking a snapshot, with an instance's max_lock held. */
static DEFINE_PER_CPU(bool, ie_snapshotting);

/* Does @v raise (or change) the histogram's value of @a? */
static bool ie_snapshot_news(const struct ie_action *a, u64 v)
{
	u64 cur = atomic64_read(&a->hist_val);

	return a->handler == IE_ON_MAX ? v > cur : v != cur;
}

static bool ie_snapshot_update(struct trace_array *tr, void *cond_data)
{
	const struct ie_snap_req *req = cond_data;
	struct ie_action *a;
	struct ie_elt *copy;
	struct ie_hist *hist;
	struct ie_snap *snap;
	struct ie_map *map;
	unsigned int i;

	/*
	 * Not ours (a snapshot trigger, or an event acting for a trigger
	 * of the instance that just let go of it): the snapshot belongs to
	 * the trigger holding it, and shows its entry.
	 */
	if (!req || !tr->cond_snapshot || tr->cond_snapshot->cond_data != req->hist)
		return false;
	hist = req->hist;
	a = &hist->actions[req->action];
	/* Another CPU (or an interrupt) took a higher one first. */
	if (!ie_snapshot_news(a, req->value))
		return false;
	atomic64_set(&a->hist_val, req->value);
	snap = hist->snap;
	map = hist->m;
	copy = (struct ie_elt *)snap->elt;
	memcpy(ie_elt_key(copy), ie_elt_key(req->elt), map->key_size);
	if (hist->stats_off) {
		/*
		 * Events on other CPUs may be writing the entry's save()
		 * fields and string variables meanwhile: a copy of a mix is
		 * what save() gives anyway (see ie_actions_run()).
		 */
		data_race(memcpy(ie_elt_data(map, copy),
				 ie_elt_data(map, req->elt), hist->stats_off));
	}
	for (i = 0; i < map->n_vars; i++)
		atomic64_set(ie_elt_var(map, copy, i),
			     atomic64_read(ie_elt_var(map, req->elt, i)));
	snap->value = req->value;
	snap->action = req->action;
	snap->taken = true;
	return true;
}

/**
 * ie_snapshot_take - event path: the handler of snapshot() @action acted
 * @hist: the histogram
 * @elt: the entry whose maximum (or last value) it raised (or changed)
 * @action: the action's index in @hist
 * @value: the handler's value
 *
 * Takes the snapshot if @value raises (or changes) the histogram's value
 * too.  A snapshot is not taken in NMI context, nor by an event traced
 * while its CPU is taking one of any instance (an IPI sent from within
 * it would take a max_lock again): counted as a dropped action.
 */
void ie_snapshot_take(struct ie_hist *hist, struct ie_elt *elt,
		      unsigned int action, u64 value)
{
	struct ie_snap_req req = {
		.hist = hist, .elt = elt, .action = action, .value = value,
	};
	struct trace_array *tr = hist->file->tr;
	unsigned long flags;

	if (!ie_snapshot_news(&hist->actions[action], value))
		return;
	/* Not taken in NMI context (it would only say so in the trace). */
	if (in_nmi()) {
		atomic64_inc(&hist->actions_dropped);
		return;
	}
	local_irq_save(flags);
	/*
	 * One at a time on a CPU, whatever the instance: an event fired
	 * under one instance's max_lock must not take another's (lock
	 * order), nor clear the outer take's guard.
	 */
	if (this_cpu_read(ie_snapshotting)) {
		local_irq_restore(flags);
		atomic64_inc(&hist->actions_dropped);
		return;
	}
	this_cpu_write(ie_snapshotting, true);
	tracing_snapshot_cond(tr, &req);
	this_cpu_write(ie_snapshotting, false);
	local_irq_restore(flags);
}

/*
 * The copy: the entry up to its statistics (its key, its variables,
 * and the entry data before stats_off).
 */
static size_t ie_snap_size(const struct ie_hist *hist)
{
	return struct_size_t(struct ie_snap, elt,
			     DIV_ROUND_UP(hist->m->data_off + hist->stats_off,
					  sizeof(u64)));
}

/**
 * ie_snapshot_alloc - allocate the copy of the entry taking a snapshot
 * @hist: the histogram being built, its actions added
 *
 * At creation: the copy of the entry that takes a snapshot, if any
 * action is snapshot(): its key, variables and, if the entries have
 * any, the entry data before the statistics.  The first snapshot()'s
 * position is kept, for errors at registration.
 *
 * Return: 0, also without snapshot(), or -ENOMEM; what was allocated
 * is then left to ie_snapshot_free().
 */
int ie_snapshot_alloc(struct ie_hist *hist)
{
	struct ie_snap *snap;
	unsigned int i;

	for (i = 0; i < hist->n_actions && !hist->actions[i].snapshot; i++)
		;
	if (i == hist->n_actions)
		return 0;
	snap = kzalloc(ie_snap_size(hist), GFP_KERNEL);
	if (!snap)
		return -ENOMEM;
	snap->pos = hist->actions[i].pos;
	hist->snap = snap;
	return 0;
}

/**
 * ie_snapshot_free - free the copy of the entry taking a snapshot
 * @hist: the histogram
 *
 * Frees what ie_snapshot_alloc() allocated, if anything.  The instance's
 * conditional snapshot is given back apart (ie_snapshot_release()).
 */
void ie_snapshot_free(struct ie_hist *hist)
{
	if (!hist->snap)
		return;
	kfree(hist->snap);
	hist->snap = NULL;
}

/**
 * ie_snapshot_hold - take the instance's conditional snapshot
 * @hist: the histogram with snapshot(), about to be registered
 *
 * At registration, under event_mutex, before anything else registration
 * changes: take the instance's conditional snapshot (allocating the
 * snapshot buffer), with ie_snapshot_update() deciding each swap.
 *
 * Context: Must be called with event_mutex held.
 * Return: 0; -EBUSY if another trigger holds it, or the tracer uses the
 * snapshot buffer; or another error of tracing_snapshot_cond_enable().
 */
int ie_snapshot_hold(struct ie_hist *hist)
{
	lockdep_assert_held(&event_mutex);
	return tracing_snapshot_cond_enable(hist->file->tr, hist,
					    ie_snapshot_update);
}

/**
 * ie_snapshot_release - give back the instance's conditional snapshot
 * @tr: the instance
 *
 * After the trigger holding it is freed: the event path is done with it.
 * Warns if the instance had none.
 *
 * Context: Must be called with event_mutex held.
 */
void ie_snapshot_release(struct trace_array *tr)
{
	lockdep_assert_held(&event_mutex);
	WARN_ON_ONCE(tracing_snapshot_cond_disable(tr));
}

/**
 * ie_snapshot_show - print the entry that took the last snapshot
 * @m: the hist file
 * @hist: the histogram
 *
 * After the entries: the entry that took the last snapshot, with the
 * action and the value that took it, then its keys and what its actions
 * keep; "none yet" before the first.  The copy is read under the
 * instance's max_lock.  Nothing is printed without snapshot().
 *
 * Context: event_mutex held; takes the instance's max_lock with
 * interrupts off.
 */
void ie_snapshot_show(struct seq_file *m, struct ie_hist *hist)
{
	struct trace_array *tr = hist->file->tr;
	const struct ie_action *a;
	struct ie_snap *snap;
	struct ie_elt *copy;
	unsigned int i;
	size_t size;

	if (!hist->snap)
		return;
	size = ie_snap_size(hist);
	snap = kmalloc(size, GFP_KERNEL);
	if (!snap) {
		seq_puts(m, "\nLast snapshot: (out of memory)\n");
		return;
	}
	local_irq_disable();
	arch_spin_lock(&tr->max_lock);
	memcpy(snap, hist->snap, size);
	arch_spin_unlock(&tr->max_lock);
	local_irq_enable();

	if (!snap->taken) {
		seq_puts(m, "\nLast snapshot: none yet\n");
		goto out;
	}
	a = &hist->actions[snap->action];
	seq_printf(m, "\nLast snapshot: %s at %llu (see the snapshot file)\n{ ",
		   a->text, snap->value);
	copy = (struct ie_elt *)snap->elt;
	for (i = 0; i < hist->n_keys; i++) {
		if (i)
			seq_puts(m, ", ");
		ie_print_key(m, &hist->keys[i],
			     (u8 *)ie_elt_key(copy) + hist->keys[i].key_off,
			     ie_elt_data(hist->m, copy));
	}
	seq_puts(m, hist->keys[hist->n_keys - 1].type == IE_FT_STACK ? "}" : " }");
	ie_actions_show_entry(m, hist, copy);
	seq_putc(m, '\n');
out:
	kfree(snap);
}
