// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: the 'hist' trigger command and its lifecycle
 * (add, remove, pause, continue, clear, named histograms).
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/rculist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "inter_event.h"

static void ie_log_hist_err(struct trace_event_file *file, const char *spec,
			    enum ie_err err, unsigned int pos)
{
	char loc[MAX_EVENT_NAME_LEN * 2 + 8];
	char *cmd;

	snprintf(loc, sizeof(loc), "hist:%s:%s",
		 file->event_call->class->system,
		 trace_event_name(file->event_call));
	cmd = kasprintf(GFP_KERNEL, "hist:%s", spec ?: "");
	if (!cmd)
		return;
	ie_log_err(file->tr, loc, cmd, err, pos + 5);
	kfree(cmd);
}

static struct event_command ie_hist_cmd;
static u64 ie_aux_ids;		/* under event_mutex */

static struct ie_hist *ie_data_hist(struct event_trigger_data *data)
{
	return data->private_data;
}

static bool ie_is_hist(struct event_trigger_data *data)
{
	return data->cmd_ops->trigger_type == ETT_EVENT_HIST;
}

/* An existing hist trigger of @file that @data describes, or NULL. */
static struct event_trigger_data *
ie_find_match(struct trace_event_file *file, struct event_trigger_data *data)
{
	struct ie_hist *hist = ie_data_hist(data), *other;
	struct event_trigger_data *test;

	list_for_each_entry(test, &file->triggers, list) {
		if (!ie_is_hist(test))
			continue;
		other = ie_data_hist(test);
		/* Our helpers are not the user's to match, nor the reverse. */
		if (other->is_aux != hist->is_aux)
			continue;
		if (!!data->name != !!test->name ||
		    (data->name && strcmp(data->name, test->name)))
			continue;
		/* size= is not part of a trigger's identity. */
		if (!ie_hist_compatible(hist, other))
			continue;
		if (!!data->filter_str != !!test->filter_str ||
		    (data->filter_str &&
		     strcmp(data->filter_str, test->filter_str)))
			continue;
		return test;
	}
	return NULL;
}

/**
 * ie_hist_put - let go of the histogram of a trigger being freed
 * @hist: the histogram
 *
 * @hist's trigger is freed.  If others still refer to its variables (or
 * have a helper mirroring it), it lives on, unregistered, until the last
 * of them lets go (ie_refs_release()).  Defensive: a pinned trigger
 * can't be removed, and its instance can't go while a trigger referring
 * to it holds the instance (IE_TRIGGER_FL_TR_REF).  Otherwise @hist is
 * destroyed now.
 * A put of an orphan warns and does nothing.
 *
 * Context: Must be called with event_mutex held, the event path done
 * with @hist.
 */
void ie_hist_put(struct ie_hist *hist)
{
	if (WARN_ON_ONCE(hist->orphan))
		return;
	if (hist->users) {
		hist->orphan = true;
		return;
	}
	ie_hist_destroy(hist);
}

/* Called when the trigger's last reference goes. */
static void ie_hist_trigger_free(struct event_trigger_data *data)
{
	struct module *mod = NULL;
	struct trace_array *tr;
	struct ie_hist *hist;
	bool snapshot;

	if (WARN_ON_ONCE(data->ref <= 0))
		return;
	if (--data->ref)
		return;
	hist = ie_data_hist(data);
	tr = hist->file->tr;
	snapshot = data->flags & IE_TRIGGER_FL_SNAPSHOT;
	if (data->flags & IE_TRIGGER_FL_MOD_REF)
		mod = hist->file->event_call->module;
	if (data->name)
		del_named_trigger(data);
	/* Drops the filter and waits until the event path is done with data. */
	trigger_data_free(data);
	/* No event can take a snapshot for us now (see ie_snapshot_hold()). */
	if (snapshot)
		ie_snapshot_release(tr);
	ie_hist_put(hist);
	/* Last: the module's event, fields and file stay until here. */
	module_put(mod);
}

/*
 * A trigger on a module's event holds the module: unloading it would free
 * the event's file and fields while the trigger, a helper trigger's user
 * or a named histogram still points at them.  rmmod fails (EBUSY, "in
 * use") until the event's hist triggers are removed, as it does for an
 * enable_event trigger's target.  A module still coming may yet fail to
 * load, and then goes whatever its references: no trigger on its events
 * until it is live (its notifier, which needs event_mutex, can't change
 * its state under us).
 */
static int ie_hist_hold_module(struct event_trigger_data *data,
			       struct trace_event_file *file)
{
	struct trace_event_call *call = file->event_call;

	if ((call->flags & TRACE_EVENT_FL_DYNAMIC) || !call->module)
		return 0;
	if (!try_module_get(call->module))
		return -EBUSY;
	if (module_is_coming(call->module)) {
		module_put(call->module);
		return -EBUSY;
	}
	data->flags |= IE_TRIGGER_FL_MOD_REF;
	return 0;
}

/*
 * A trigger with variables or references is part of a pipeline across
 * events: it keeps its instance, as with CONFIG_HIST_TRIGGERS (removing the
 * instance fails with EBUSY until such triggers are removed).
 */
static bool ie_hist_pins_instance(struct ie_hist *hist)
{
	return hist->n_vars || hist->n_refs || hist->n_aux;
}

/*
 * An event's triggers run in the event's state (its level: time stamp,
 * read-once marks, scratch space) only while the event file has
 * EVENT_FILE_FL_IE_LEVEL: event_triggers_call() brackets them with
 * ie_event_begin() and ie_event_end() then.  A simple histogram (plain
 * numeric keys; no variables, references, actions or time stamps: see
 * ie_hist_set_simple()) needs none: its key is on the stack.
 *
 * The flag is set before a trigger that needs it is published, and a
 * grace period lets every event that read it clear finish first; it is
 * cleared only a grace period after the last such trigger left the list
 * (trigger_data_free() then waits for another).  An event that reads it
 * set and finds no such trigger pays the bracket only.  Only events with
 * the flag take a level, so only they count toward the nesting bounds.
 */
static bool ie_file_needs_level(struct trace_event_file *file)
{
	struct event_trigger_data *data;

	list_for_each_entry(data, &file->triggers, list) {
		if (ie_is_hist(data) && !ie_data_hist(data)->simple)
			return true;
	}
	return false;
}

/* Before @data is published: the flag, if it needs it. */
static void ie_file_level_add(struct trace_event_file *file,
			      struct event_trigger_data *data)
{
	if (ie_data_hist(data)->simple ||
	    test_bit(EVENT_FILE_FL_IE_LEVEL_BIT, &file->flags))
		return;
	set_bit(EVENT_FILE_FL_IE_LEVEL_BIT, &file->flags);
	tracepoint_synchronize_unregister();
}

/* After @data left the list: no flag if no trigger left needs it. */
static void ie_file_level_del(struct trace_event_file *file,
			      struct event_trigger_data *data)
{
	if (ie_data_hist(data)->simple || ie_file_needs_level(file))
		return;
	tracepoint_synchronize_unregister();
	clear_bit(EVENT_FILE_FL_IE_LEVEL_BIT, &file->flags);
}

static int ie_hist_reg(char *glob, struct event_trigger_data *data,
		       struct trace_event_file *file)
{
	struct ie_hist *hist = ie_data_hist(data);
	int ret;

	lockdep_assert_held(&event_mutex);

	/*
	 * First: refused, it changes nothing (a new clock would empty the
	 * buffers, the snapshot of the trigger holding it included).
	 * Released when the trigger is freed, whatever fails below.
	 */
	if (hist->snap) {
		ret = ie_snapshot_hold(hist);
		if (ret < 0)
			return ret;
		data->flags |= IE_TRIGGER_FL_SNAPSHOT;
	}
	/* Released when the trigger is freed, whatever fails below. */
	ret = ie_hist_hold_module(data, file);
	if (ret < 0) {
		data->flags |= IE_TRIGGER_FL_MOD_BUSY;
		return ret;
	}
	if (ie_hist_pins_instance(hist)) {
		ret = trace_array_get(file->tr);
		if (ret)
			return ret;
		data->flags |= IE_TRIGGER_FL_TR_REF;
	}

	/*
	 * Timestamps come from the instance's trace clock, one for all CPUs.
	 * An event only triggered stays staged in the per-CPU buffer, and its
	 * time is the clock read by the trigger: nothing is written to (and
	 * discarded from) the ring buffer.  But a filtered event that is also
	 * recorded would be staged too, then get a later timestamp in the
	 * trace than the one the trigger computed with: while the event has a
	 * filter, events go straight to the ring buffer.
	 */
	if (hist->uses_ts) {
		ret = tracing_set_clock(file->tr, hist->clock);
		if (ret < 0) {
			if (ret == -EINVAL)
				data->flags |= IE_TRIGGER_FL_BAD_CLOCK;
			goto put;
		}
		if (file->flags & EVENT_FILE_FL_FILTERED) {
			data->flags |= IE_TRIGGER_FL_DIRECT;
			tracing_set_filter_buffering(file->tr, true);
		}
	}
	event_trigger_init(data);
	ie_hist_set_simple(hist);
	ie_file_level_add(file, data);
	list_add_tail_rcu(&data->list, &file->triggers);
	update_cond_flag(file);
	ret = trace_event_trigger_enable_disable(file, 1);
	if (ret < 0) {
		/* A failed enable keeps its trigger and soft mode references. */
		trace_event_trigger_enable_disable(file, 0);
		list_del_rcu(&data->list);
		ie_file_level_del(file, data);
		update_cond_flag(file);
		data->ref--;
		if (data->flags & IE_TRIGGER_FL_DIRECT)
			tracing_set_filter_buffering(file->tr, false);
	}
put:
	if (ret < 0 && (data->flags & IE_TRIGGER_FL_TR_REF)) {
		data->flags &= ~IE_TRIGGER_FL_TR_REF;
		trace_array_put(file->tr);
	}
	return ret;
}

static void ie_hist_unreg(char *glob, struct event_trigger_data *data,
			  struct trace_event_file *file)
{
	lockdep_assert_held(&event_mutex);

	list_del_rcu(&data->list);
	ie_file_level_del(file, data);
	update_cond_flag(file);
	trace_event_trigger_enable_disable(file, 0);
	if (data->flags & IE_TRIGGER_FL_DIRECT)
		tracing_set_filter_buffering(file->tr, false);
	if (data->flags & IE_TRIGGER_FL_TR_REF) {
		data->flags &= ~IE_TRIGGER_FL_TR_REF;
		trace_array_put(file->tr);
	}
	ie_hist_trigger_free(data);
}

/*
 * Called under event_mutex when @file gains or loses its filter: keep
 * events going straight to the ring buffer exactly while a trigger using
 * timestamps is on a filtered event (see ie_hist_reg()).
 */
void ie_hist_filter_changed(struct trace_event_file *file)
{
	bool filtered = file->flags & EVENT_FILE_FL_FILTERED;
	struct event_trigger_data *data;

	lockdep_assert_held(&event_mutex);

	list_for_each_entry(data, &file->triggers, list) {
		if (!ie_is_hist(data) || !ie_data_hist(data)->uses_ts)
			continue;
		if (filtered == !!(data->flags & IE_TRIGGER_FL_DIRECT))
			continue;
		data->flags ^= IE_TRIGGER_FL_DIRECT;
		tracing_set_filter_buffering(file->tr, filtered);
	}
}

/* A histogram whose variables others refer to must stay. */
static bool ie_hist_busy(struct event_trigger_data *data)
{
	struct ie_hist *hist = ie_data_hist(data);

	return hist->users;
}

/* Remove the event's hist triggers, but those others still refer to. */
static void ie_hist_unreg_all(struct trace_event_file *file)
{
	struct event_trigger_data *data, *n;
	bool progress = true;

	while (progress) {
		progress = false;
		list_for_each_entry_safe(data, n, &file->triggers, list) {
			if (!ie_is_hist(data) || ie_hist_busy(data))
				continue;
			ie_hist_unreg(NULL, data, file);
			progress = true;
		}
	}
}

/*
 * pause and cont act on one trigger (the framework skips paused ones);
 * clear empties the map, which all triggers of a name share.  One
 * command does one of them, pause first, then cont, as with
 * CONFIG_HIST_TRIGGERS.
 */
static void ie_hist_control(struct event_trigger_data *test, struct ie_spec *spec)
{
	struct ie_hist *hist = ie_data_hist(test);

	if (spec->pause) {
		WRITE_ONCE(test->paused, true);
		return;
	}
	if (spec->cont) {
		WRITE_ONCE(test->paused, false);
		return;
	}
	/*
	 * No event may touch the map while it is cleared: neither its own
	 * triggers (all of the name) nor the histograms reading its
	 * variables.  They all test m->clearing inside the event path, which
	 * is an RCU-sched read side: once the flag is seen by all CPUs, and
	 * the probes that started before are done, the map is ours alone.
	 */
	if (spec->clear) {
		WRITE_ONCE(hist->m->clearing, true);
		tracepoint_synchronize_unregister();
		ie_map_clear(hist->m);
		ie_map_cpu_clear(hist->m);
		hist->m->since_ns = ktime_get_ns();
		/* Cleared entries are seen before the flag goes. */
		smp_store_release(&hist->m->clearing, false);
	}
}

/*
 * Share the map of an existing histogram of the same name.  Only the map:
 * each trigger reads its own event's fields.
 */
static int ie_hist_attach_named(struct event_trigger_data *data,
				struct ie_spec *spec, enum ie_err *err)
{
	struct event_trigger_data *named = find_named_trigger(spec->name);
	struct ie_hist *hist = ie_data_hist(data), *shared;
	int ret;

	if (named) {
		shared = ie_data_hist(named);
		if (!ie_hist_compatible(hist, shared) ||
		    ie_hist_share_map(hist, shared)) {
			*err = IE_ERR_NAMED_MISMATCH;
			return -EINVAL;
		}
	}
	ret = save_named_trigger(spec->name, data);
	if (ret)
		*err = IE_ERR_NOMEM;
	return ret;
}

/*
 * A spec refused for one of these can't describe an existing trigger
 * (the synthetic events an action names are pinned while it exists, and
 * so are the fields its parameters must match, in number and type, and
 * the histograms whose variables they read; a handler's variable is the
 * trigger's own): removing it removes nothing and succeeds, as removing
 * a trigger that isn't there does.
 */
static bool ie_matches_nothing(enum ie_err err)
{
	return err == IE_ERR_DUP_VAR || err == IE_ERR_SYNTH_NOT_FOUND ||
	       err == IE_ERR_BAD_HANDLER_VAR || err == IE_ERR_PCTL_TWICE ||
	       err == IE_ERR_PARAM_COUNT || err == IE_ERR_PARAM_TYPE;
}

/*
 * Build, match and register the trigger @spec describes, or act on the
 * one it matches: what follows the cutting of a hist command into @spec,
 * and all of the making of a helper trigger (@aux), whose spec is built,
 * not parsed (ie_hist_add_aux()).  Errors go to error_log against the
 * command text in @spec->buf.
 */
static int ie_hist_apply(struct event_command *cmd_ops,
			 struct trace_event_file *file, char *glob, char *cmd,
			 struct ie_spec *spec, bool aux)
{
	bool remove = glob && glob[0] == '!';
	struct event_trigger_data *data, *test;
	enum ie_err err = IE_ERR_NOMEM;
	unsigned int pos = 0;
	struct ie_hist *hist;
	char *filter;
	int ret;

	hist = ie_hist_create(file, spec, &pos, &err);
	if (IS_ERR(hist)) {
		ret = PTR_ERR(hist);
		/* Not when memory ran out: then nothing is known. */
		if (remove && ret != -ENOMEM && ie_matches_nothing(err))
			return 0;
		goto out_log;
	}
	hist->is_aux = aux;
	if (aux)
		hist->aux_id = ++ie_aux_ids;
	data = trigger_data_alloc(cmd_ops, cmd, NULL, hist);
	if (!data) {
		ie_hist_put(hist);
		return -ENOMEM;
	}
	data->ref = 1;
	data->name = spec->name;	/* for matching only, until saved */
	if (spec->filter) {
		filter = kstrdup(spec->filter, GFP_KERNEL);
		ret = filter ? event_trigger_set_filter(cmd_ops, file, filter,
							data) : -ENOMEM;
		kfree(filter);
		if (ret < 0) {
			/* After the filter parser's own error_log entry. */
			data->name = NULL;
			err = IE_ERR_BAD_FILTER;
			pos = spec->filter_pos;
			goto out_free_log;
		}
	}

	/*
	 * Removing by a name no histogram holds yet removes the unnamed
	 * trigger the rest of the spec describes (as CONFIG_HIST_TRIGGERS does);
	 * adding by such a name always makes a new histogram.
	 */
	if (remove && spec->name && !find_named_trigger(spec->name))
		data->name = NULL;
	test = ie_find_match(file, data);
	data->name = NULL;
	if (remove) {
		if (test && ie_hist_busy(test)) {
			err = IE_ERR_VAR_BUSY;
			ret = -EBUSY;
			goto out_free_log;
		}
		/* Removing what isn't there succeeds, as for other triggers. */
		if (test)
			ie_hist_unreg(glob, test, file);
		ret = 0;
		goto out_free;
	}
	if (test && (spec->pause || spec->cont || spec->clear)) {
		ie_hist_control(test, spec);
		ret = 0;
		goto out_free;
	}
	if (spec->cont || spec->clear) {
		err = IE_ERR_HIST_NOT_FOUND;
		ret = -ENOENT;
		goto out_free_log;
	}
	if (test) {
		err = IE_ERR_HIST_EXISTS;
		ret = -EEXIST;
		goto out_free_log;
	}

	if (spec->name) {
		ret = ie_hist_attach_named(data, spec, &err);
		if (ret)
			goto out_free_log;
	}
	hist = ie_data_hist(data);
	if (!hist->m->ready && ie_hist_too_big(hist)) {
		err = IE_ERR_PCTL_SIZE;
		pos = 0;
		ret = -EINVAL;
		goto out_free_log;
	}
	ret = ie_hist_init_map(hist);
	if (!ret)
		ret = ie_scratch_init();
	if (ret) {
		err = IE_ERR_NOMEM;
		pos = 0;
		goto out_free_log;
	}
	data->paused = spec->pause;
	ret = ie_hist_reg(glob, data, file);
	if (ret < 0) {
		if (data->flags & IE_TRIGGER_FL_BAD_CLOCK) {
			err = IE_ERR_BAD_CLOCK;
			pos = 0;
			goto out_free_log;
		}
		if (data->flags & IE_TRIGGER_FL_MOD_BUSY) {
			err = IE_ERR_MODULE_BUSY;
			pos = 0;
			goto out_free_log;
		}
		if ((ret == -EBUSY || ret == -ENOMEM) &&
		    ie_data_hist(data)->snap) {
			err = ret == -EBUSY ? IE_ERR_SNAPSHOT_BUSY : IE_ERR_NOMEM;
			pos = ie_data_hist(data)->snap->pos;
			goto out_free_log;
		}
		goto out_free;
	}
	ie_hist_trigger_free(data);	/* the list holds the reference now */
	return 0;

out_free_log:
	ie_log_hist_err(file, spec->buf, err, pos);
out_free:
	ie_hist_trigger_free(data);
	return ret;
out_log:
	ie_log_hist_err(file, spec->buf, err, pos);
	return ret;
}

static int ie_hist_parse(struct event_command *cmd_ops,
			 struct trace_event_file *file, char *glob, char *cmd,
			 char *param_and_filter)
{
	bool remove = glob && glob[0] == '!';
	struct ie_spec *spec;
	int ret;

	lockdep_assert_held(&event_mutex);

	/* Large: not on the stack. */
	spec = kzalloc(sizeof(*spec), GFP_KERNEL);
	if (!spec)
		return -ENOMEM;
	ret = ie_spec_parse(param_and_filter, spec);
	if (!ret)
		ret = ie_hist_apply(cmd_ops, file, glob, cmd, spec, false);
	else if (remove && ie_matches_nothing(spec->err))
		ret = 0;
	else if (spec->buf)
		ie_log_hist_err(file, spec->buf, spec->err, spec->err_pos);
	ie_spec_free(spec);
	kfree(spec);
	return ret;
}

/**
 * ie_hist_add_aux - add a helper trigger to another event
 * @file: the event whose field an action parameter names
 * @match: the user's trigger on @file whose keys the helper takes
 * @filter: the filter of @match's trigger (without "if"), or NULL
 * @var: the helper's variable, "synthetic_<field>"
 * @field: the field of @file it saves
 *
 * A helper trigger on another event, for a field variable: an action
 * parameter "system.event.field" makes that event save the field in a
 * variable of a trigger with the keys and filter of @match.  It is ours:
 * users can't match (remove, pause, clear) it, and it is never taken for
 * a user's trigger.  Its spec is built here, not parsed: @match's keys
 * as they are displayed (with their modifiers) and @var=@field, then it
 * is made and registered as a hist command's is (ie_hist_apply()), with
 * a new aux_id.  Its errors are logged under @file against the command
 * it would be.
 *
 * Context: Must be called with event_mutex held.
 * Return: the helper's trigger, or an ERR_PTR().
 */
struct event_trigger_data *ie_hist_add_aux(struct trace_event_file *file,
					   struct ie_hist *match,
					   const char *filter, const char *var,
					   const char *field)
{
	const size_t name_len = IE_MAX_NAME_LEN + 64;
	struct event_trigger_data *data;
	struct ie_spec *spec;
	char *cmd, *p;
	unsigned int i;
	size_t half;
	int ret;

	lockdep_assert_held(&event_mutex);

	/*
	 * As ie_spec_parse() leaves a spec: the command text (what error_log
	 * shows, positions into it), then its parts, which ie_hist_create()
	 * may cut.  Either half fits in @half bytes.
	 */
	half = match->n_keys * name_len + strlen(var) + strlen(field) +
	       (filter ? strlen(filter) : 0) + 16;
	spec = kzalloc(sizeof(*spec), GFP_KERNEL);
	if (spec)
		spec->buf = kmalloc(2 * half, GFP_KERNEL);
	if (!spec || !spec->buf) {
		kfree(spec);
		return ERR_PTR(-ENOMEM);
	}
	cmd = spec->buf;
	p = spec->buf + half;
	cmd += sprintf(cmd, "keys=");
	for (i = 0; i < match->n_keys; i++) {
		ie_field_display_name(&match->keys[i], p, name_len);
		spec->keys[i].expr = p;
		spec->keys[i].pos = cmd + !!i - spec->buf;
		spec->keys[i].expr_pos = spec->keys[i].pos;
		cmd += sprintf(cmd, "%s%s", i ? "," : "", p);
		p += strlen(p) + 1;
	}
	spec->n_keys = match->n_keys;
	spec->vars[0].pos = cmd + 1 - spec->buf;
	cmd += sprintf(cmd, ":%s=", var);
	spec->vars[0].expr_pos = cmd - spec->buf;
	cmd += sprintf(cmd, "%s", field);
	spec->vars[0].var = p;
	p += sprintf(p, "%s", var) + 1;
	spec->vars[0].expr = p;
	sprintf(p, "%s", field);
	spec->n_vars = 1;
	if (filter) {
		spec->filter = cmd + 1;
		spec->filter_pos = cmd + 4 - spec->buf;
		sprintf(cmd, " if %s", filter);
	}
	ret = ie_hist_apply(&ie_hist_cmd, file, "hist", "hist", spec, true);
	ie_spec_free(spec);
	kfree(spec);
	if (ret)
		return ERR_PTR(ret);
	/* Registered last. */
	list_for_each_entry_reverse(data, &file->triggers, list) {
		if (ie_is_hist(data) && ie_data_hist(data)->is_aux)
			return data;
	}
	return ERR_PTR(-ENOENT);
}

/**
 * ie_hist_remove_aux - remove a helper trigger one of its users let go
 * @file: the helper's event
 * @id: the helper's aux_id
 *
 * The helper @id on @file is needed no more by one of its users: remove
 * it if it is still there (an instance going frees every trigger, ours
 * included, in event order) and nobody else refers to it.  Looked up by
 * identity, not by pointer: it may be gone.
 *
 * Context: Must be called with event_mutex held.
 */
void ie_hist_remove_aux(struct trace_event_file *file, u64 id)
{
	struct event_trigger_data *data;

	lockdep_assert_held(&event_mutex);

	list_for_each_entry(data, &file->triggers, list) {
		if (!ie_is_hist(data) || ie_data_hist(data)->aux_id != id)
			continue;
		if (!ie_hist_busy(data))
			ie_hist_unreg(NULL, data, file);
		return;
	}
}

static int ie_hist_print(struct seq_file *m, struct event_trigger_data *data)
{
	return ie_hist_print_trigger(m, data);
}

static struct event_command ie_hist_cmd = {
	.name		= "hist",
	.trigger_type	= ETT_EVENT_HIST,
	.flags		= EVENT_CMD_FL_NEEDS_REC,
	.parse		= ie_hist_parse,
	.reg		= ie_hist_reg,
	.unreg		= ie_hist_unreg,
	.unreg_all	= ie_hist_unreg_all,
	.set_filter	= set_trigger_filter,
	.trigger	= ie_hist_trigger,
	.init		= event_trigger_init,
	.free		= ie_hist_trigger_free,
	.print		= ie_hist_print,
};

/* Called by register_trigger_cmds() at boot. */
__init int register_trigger_hist_cmd(void)
{
	ie_event_levels_init();
	ie_field_init();
	return register_event_command(&ie_hist_cmd);
}
