// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: actions.
 *
 *   onmatch([system.event]).trace(synth[,param...])  or .synth(param...)
 *   onmax(var).save(field...)   onmax(var).trace(...)
 *   onchange(var).save(field...)   onmax(var).snapshot()
 *
 * A handler decides when an event acts: onmatch on every event whose
 * variable references all resolved, onmax when the variable exceeds the
 * entry's maximum so far, onchange when it differs from its last value.
 * trace() generates a synthetic event; save() keeps fields of the event
 * with the entry, shown in the hist file; snapshot() takes a snapshot of
 * the instance's trace buffer, and keeps a copy of the entry that took it.
 */
#include <linux/kcsan-checks.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "inter_event.h"

static int ie_action_fail(unsigned int *err_pos, unsigned int pos,
			  enum ie_err *err, enum ie_err code)
{
	*err_pos = pos;
	*err = code;
	return -EINVAL;
}

static int ie_find_local_var(struct ie_hist *hist, const char *name)
{
	unsigned int i;

	if (*name == '$')
		name++;
	for (i = 0; i < hist->n_vars; i++) {
		if (!strcmp(hist->vars[i].name, name))
			return i;
	}
	return -ENOENT;
}

/* A string field of the event named by @text, or NULL. */
static struct ie_field *ie_param_string(struct ie_hist *hist, const char *text)
{
	struct ie_field *f;
	enum ie_err err;
	char *copy;
	int ret;

	if (!ie_name_ok(text))
		return NULL;
	copy = kstrdup(text, GFP_KERNEL);
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	ret = -ENOMEM;
	if (!copy || !f)
		goto no;
	ret = ie_field_resolve(hist, f, copy, true, &err);
	kfree(copy);
	copy = NULL;
	if (!ret && f->type == IE_FT_STR)
		return f;
	if (!ret)
		ie_field_free(f);
no:
	kfree(copy);
	kfree(f);
	/* Out of memory is no answer to "is it a string field". */
	return ret == -ENOMEM ? ERR_PTR(-ENOMEM) : NULL;
}

/*
 * Is @data our helper saving @var, keyed as @match and filtered by
 * @filter?  Only then may another parameter share it: a helper made for
 * another trigger would save the field of other events.
 */
static noinline_for_stack bool
ie_aux_fits(struct event_trigger_data *data, struct ie_hist *match,
	    const char *filter, const char *var)
{
	char a[IE_MAX_NAME_LEN + 64], b[IE_MAX_NAME_LEN + 64];
	struct ie_hist *h = data->private_data;
	unsigned int i;

	if (data->cmd_ops->trigger_type != ETT_EVENT_HIST || !h->is_aux ||
	    ie_find_var(h, var) < 0 || h->n_keys != match->n_keys)
		return false;
	if (!filter != !data->filter_str ||
	    (filter && strcmp(filter, data->filter_str)))
		return false;
	for (i = 0; i < h->n_keys; i++) {
		ie_field_display_name(&h->keys[i], a, sizeof(a));
		ie_field_display_name(&match->keys[i], b, sizeof(b));
		if (strcmp(a, b))
			return false;
	}
	return true;
}

/* Our helper trigger on @file fitting @match, @filter and @var, if any. */
static struct event_trigger_data *ie_find_aux(struct trace_event_file *file,
					      struct ie_hist *match,
					      const char *filter,
					      const char *var)
{
	struct event_trigger_data *data;

	list_for_each_entry(data, &file->triggers, list) {
		if (ie_aux_fits(data, match, filter, var))
			return data;
	}
	return NULL;
}

/*
 * The user's trigger on @file whose entries the helper mirrors: the one
 * whose variables @hist reads, else the first whose keys @hist can look
 * up.  Its registration, @mdata, gives the helper its filter.
 */
static struct ie_hist *ie_aux_match(struct ie_hist *hist,
				    struct trace_event_file *file,
				    struct event_trigger_data **mdata)
{
	struct event_trigger_data *data;
	struct ie_hist *h, *found = NULL;
	unsigned int i;

	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
			continue;
		h = data->private_data;
		if (h->is_aux || h->n_keys > hist->n_keys)
			continue;
		for (i = 0; i < hist->n_refs; i++) {
			if (hist->refs[i].def == h) {
				*mdata = data;
				return h;
			}
		}
		if (!found) {
			found = h;
			*mdata = data;
		}
	}
	return found;
}

/*
 * The event of "system.event.field" in @hist's instance, if @text names
 * a field of an event there; @field then points at the field's name in
 * @names.  Looks up, changes nothing.
 */
static struct trace_event_file *
ie_param_field_event(struct ie_hist *hist, const char *text,
		     char names[3 * IE_MAX_NAME_LEN], char **field)
{
	struct trace_event_file *file;
	char *sys, *event;

	if (strchr(text, '$') || strscpy(names, text, 3 * IE_MAX_NAME_LEN) < 0)
		return NULL;
	sys = names;
	event = strchr(sys, '.');
	*field = event ? strchr(event + 1, '.') : NULL;
	if (!*field)
		return NULL;
	*event++ = '\0';
	*(*field)++ = '\0';
	if (!ie_event_name_ok(sys) || !ie_event_name_ok(event) ||
	    !ie_name_ok(*field))
		return NULL;
	file = find_event_file(hist->file->tr, sys, event);
	if (!file || !trace_find_event_field(file->event_call, *field))
		return NULL;
	return file;
}

/*
 * "system.event.field": a field of another event, saved by a helper
 * trigger on it in the variable synthetic_<field>.  On success, @out is a
 * reference to that variable, bound to the helper itself (not looked up
 * by name, which a user's trigger might share).  Returns 0, -ENOENT if
 * @text is no such field, or another error.
 */
static int ie_param_field_var(struct ie_hist *hist, const char *text,
			      struct ie_expr **out, enum ie_err *err)
{
	char names[3 * IE_MAX_NAME_LEN], *field;
	char var[IE_MAX_NAME_LEN + 16];
	struct event_trigger_data *data = NULL, *aux;
	struct trace_event_file *file;
	struct ie_hist *match, *def;
	struct ie_expr *e;
	unsigned int i;
	int idx, ref;

	file = ie_param_field_event(hist, text, names, &field);
	if (!file)
		return -ENOENT;
	snprintf(var, sizeof(var), "synthetic_%s", field);

	match = ie_aux_match(hist, file, &data);
	/* (A field name too long for the variable's: no helper either.) */
	if (!match || hist->n_aux == IE_MAX_AUX || !ie_name_ok(var)) {
		*err = IE_ERR_VAR_NOT_FOUND;
		return -EINVAL;
	}

	/* Shared with any other trigger using the field of the same events. */
	aux = ie_find_aux(file, match, data->filter_str, var);
	if (!aux)
		aux = ie_hist_add_aux(file, match, data->filter_str, var, field);
	if (IS_ERR(aux)) {
		*err = IE_ERR_VAR_NOT_FOUND;
		return PTR_ERR(aux);
	}
	def = aux->private_data;
	/* Once per helper, however many parameters use it. */
	for (i = 0; i < hist->n_aux; i++) {
		if (hist->aux[i].id == def->aux_id)
			break;
	}
	if (i == hist->n_aux) {
		hist->aux[i].file = file;
		hist->aux[i].id = def->aux_id;
		/* Pinned (ie_refs_hold()): its filter is the helper's. */
		hist->aux[i].match = match;
		hist->n_aux++;
	}
	idx = ie_find_var(def, var);
	ref = idx < 0 ? idx : ie_ref_add(hist, def, idx);
	if (ref < 0) {
		*err = ref == -ENOSPC ? IE_ERR_TOO_MANY_REFS :
					IE_ERR_REF_KEY_MISMATCH;
		return -EINVAL;
	}
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (e)
		/* The system, then the event, split in @names. */
		e->text = kasprintf(GFP_KERNEL, "%s.%s.$%s", names,
				    names + strlen(names) + 1, var);
	if (!e || !e->text) {
		kfree(e);
		*err = IE_ERR_NOMEM;
		return -ENOMEM;
	}
	e->kind = IE_EX_REF;
	e->ref = ref;
	*out = e;
	return 0;
}

/*
 * A numeric parameter of trace() must have the synthetic field's type, or
 * one of the same size and signedness.
 */
static bool ie_param_type_ok(struct ie_hist *hist, const struct ie_action *a,
			     const struct ie_param *p)
{
	const struct ie_synth_field *f;
	struct ie_type t;

	if (!a->synth || a->synth->bound || a->n_params > a->synth->n_fields)
		return true;	/* save(), the RFC's form, or a count error */
	f = &a->synth->fields[a->n_params - 1];
	ie_expr_type(hist, p->expr, &t);
	/*
	 * A field of this event given by name counts as unsigned, as with
	 * CONFIG_HIST_TRIGGERS (whose copy of it drops the sign): __syscall_nr, an
	 * int, goes into a u32 field, and an int field only by its name.
	 */
	if (p->expr->kind == IE_EX_FIELD && !p->expr->alias)
		t.is_signed = false;
	return !strcmp(f->type, t.name) ||
	       (f->size == t.size && f->is_signed == t.is_signed);
}

/*
 * A string field @f, just added as parameter n_params - 1 for a string
 * field of the synthetic event, goes into it if of its own type, or of
 * the size CONFIG_HIST_TRIGGERS gives it: a fixed-size string's, or
 * 256 bytes for a dynamic one.  A char[16] field doesn't take a file name.
 */
static bool ie_param_string_ok(const struct ie_action *a,
			       const struct ie_field *f)
{
	const struct ie_synth_field *sf = &a->synth->fields[a->n_params - 1];
	unsigned int size;

	if (sf->is_stack)
		return false;
	/* A char name[] field takes any string. */
	if (sf->is_dynamic)
		return true;
	size = f->ev->filter_type == FILTER_STATIC_STRING ? f->ev->size :
							    MAX_FILTER_STR_VAL;
	return !strcmp(sf->type, f->ev->type) || sf->size == size;
}

/*
 * A string variable of another event's trigger ("$name"), for a string
 * field of the synthetic event: of the size CONFIG_HIST_TRIGGERS requires,
 * as a string field's (see ie_param_string_ok()).
 */
static int ie_param_string_var(struct ie_hist *hist, struct ie_action *a,
			       struct ie_param *p, const char *text,
			       unsigned int pos, unsigned int *err_pos,
			       enum ie_err *err)
{
	const struct ie_synth_field *sf = &a->synth->fields[a->n_params];
	unsigned int off = 0, size;
	int ret;

	/* A field of another event: its helper's string variable. */
	if (!strchr(text, '$')) {
		ret = ie_param_field_var(hist, text, &p->expr, err);
		if (ret == -ENOENT)
			return ie_action_fail(err_pos, pos, err,
					      IE_ERR_PARAM_TYPE);
		a->n_params++;
		if (ret)
			return ie_action_fail(err_pos, pos, err, *err);
		goto check;
	}
	ret = ie_expr_parse(text, &p->expr, &off, err);
	if (!ret)
		ret = ie_expr_resolve_str(hist, p->expr, &off, err);
	a->n_params++;
	if (ret) {
		*err_pos = pos + off;
		return ret;
	}
check:
	if (sf->is_stack ? !ie_expr_is_stack(hist, p->expr) :
	    !ie_expr_is_str(hist, p->expr, &size) ||
	    (!sf->is_dynamic && sf->size != size))
		return ie_action_fail(err_pos, pos, err, IE_ERR_PARAM_TYPE);
	return 0;
}

/*
 * A string or stack trace variable of this trigger ("$name"): the copy
 * this event just saved in the entry.  Only for trace(): save() keeps
 * fields of the event.
 */
static int ie_param_local(struct ie_hist *hist, struct ie_action *a,
			  struct ie_param *p, unsigned int local,
			  unsigned int pos, unsigned int *err_pos,
			  enum ie_err *err)
{
	const struct ie_var *var = &hist->vars[local];
	const struct ie_synth_field *sf;
	unsigned int size;

	p->local = local + 1;
	a->n_params++;
	/* save() keeps fields; the RFC's events take numbers only. */
	if (!a->synth || a->synth->bound)
		return ie_action_fail(err_pos, pos, err, IE_ERR_STR_OPERAND);
	if (a->n_params > a->synth->n_fields)
		return 0;	/* a count error, reported later */
	sf = &a->synth->fields[a->n_params - 1];
	if (sf->is_stack ? ie_expr_is_stack(hist, var->expr) :
	    sf->is_string && ie_expr_is_str(hist, var->expr, &size) &&
	    (sf->is_dynamic || sf->size == size))
		return 0;
	return ie_action_fail(err_pos, pos, err, IE_ERR_PARAM_TYPE);
}

/* One parameter: a string field, or a numeric expression. */
static int ie_param_add(struct ie_hist *hist, struct ie_action *a,
			const char *text, bool want_string, unsigned int pos,
			unsigned int *err_pos, enum ie_err *err)
{
	struct ie_param *p = &a->params[a->n_params];
	unsigned int off = 0;
	int ret, local;

	if (a->n_params == IE_SYNTH_MAX_FIELDS)
		return ie_action_fail(err_pos, pos, err, IE_ERR_PARAM_COUNT);
	local = *text == '$' ? ie_find_local_var(hist, text) : -ENOENT;
	if (local >= 0 && hist->vars[local].str_size)
		return ie_param_local(hist, a, p, local, pos, err_pos, err);
	p->str = ie_param_string(hist, text);
	if (IS_ERR(p->str)) {
		p->str = NULL;
		*err = IE_ERR_NOMEM;
		return -ENOMEM;
	}
	if (p->str) {
		a->n_params++;
		if (!a->synth || (want_string && ie_param_string_ok(a, p->str)))
			return 0;
		return ie_action_fail(err_pos, pos, err, IE_ERR_PARAM_TYPE);
	}
	if (want_string)
		return ie_param_string_var(hist, a, p, text, pos, err_pos, err);
	ret = ie_param_field_var(hist, text, &p->expr, err);
	if (!ret) {
		a->n_params++;
		/* A string or a stack goes only into a field of its kind. */
		return !ie_expr_is_str(hist, p->expr, &off) &&
		       !ie_expr_is_stack(hist, p->expr) &&
		       ie_param_type_ok(hist, a, p) ? 0 :
		       ie_action_fail(err_pos, pos, err, IE_ERR_PARAM_TYPE);
	}
	if (ret != -ENOENT)
		return ie_action_fail(err_pos, pos, err, *err);
	ret = ie_expr_parse(text, &p->expr, &off, err);
	if (!ret)
		ret = ie_expr_resolve(hist, p->expr, &off, err);
	/* The value the event computed for the variable: not again. */
	if (local >= 0)
		p->num_var = local + 1;
	a->n_params++;
	if (ret)
		*err_pos = pos + off;
	else if (!ie_param_type_ok(hist, a, p))
		ret = ie_action_fail(err_pos, pos, err, IE_ERR_PARAM_TYPE);
	return ret;
}

/* onmatch().trace(name) of the RFC: the fields name our variables. */
static int ie_params_bound(struct ie_hist *hist, struct ie_action *a,
			   unsigned int pos, unsigned int *err_pos,
			   enum ie_err *err)
{
	struct trace_event_call *call = hist->file->event_call;
	const char *event = trace_event_name(call);
	const struct ie_synth_field *f;
	char ref[IE_MAX_NAME_LEN + 2];
	unsigned int i;
	int ret;

	for (i = 0; i < a->synth->n_fields; i++) {
		f = &a->synth->fields[i];
		if (!f->src_event || strcmp(f->src_event, event) ||
		    (f->src_system && strcmp(f->src_system, call->class->system)))
			return ie_action_fail(err_pos, pos, err,
					      IE_ERR_SYNTH_UNBOUND);
		snprintf(ref, sizeof(ref), "$%s", f->src_var);
		ret = ie_param_add(hist, a, ref, false, pos, err_pos, err);
		if (ret) {
			*err = IE_ERR_SYNTH_UNBOUND;
			return ret;
		}
	}
	return 0;
}

/* onmatch(system.event): the event must exist in the instance. */
static bool ie_match_event_ok(struct ie_hist *hist, const char *arg)
{
	char names[2 * IE_MAX_NAME_LEN + 2], *event;

	if (strscpy(names, arg, sizeof(names)) < 0)
		return false;
	event = strchr(names, '.');
	if (!event)
		return false;
	*event++ = '\0';
	if (!ie_event_name_ok(names) || !ie_event_name_ok(event))
		return false;
	return __find_event_file(hist->file->tr, names, event);
}

/**
 * ie_action_add - add an action to a histogram being built
 * @hist: the histogram, with its variables defined
 * @spec: the parsed action
 * @err_pos: offset of the offending part on failure
 * @err: error code on failure
 *
 * Return: 0 or a negative error.
 */
int ie_action_add(struct ie_hist *hist, struct ie_spec_action *spec,
		  unsigned int *err_pos, enum ie_err *err)
{
	struct ie_action *a = &hist->actions[hist->n_actions];
	char *params, *param, *synth_name = NULL;
	unsigned int pos = spec->pos, params_pos, i;
	int var, ret;

	memset(a, 0, sizeof(*a));
	if (!strcmp(spec->handler, "onmatch"))
		a->handler = IE_ON_MATCH;
	else if (!strcmp(spec->handler, "onmax"))
		a->handler = IE_ON_MAX;
	else
		a->handler = IE_ON_CHANGE;

	if (a->handler == IE_ON_MATCH && *spec->handler_arg &&
	    !ie_match_event_ok(hist, spec->handler_arg))
		return ie_action_fail(err_pos, pos + strlen("onmatch("), err,
				      IE_ERR_BAD_MATCH_EVENT);
	/*
	 * Nothing would show what onmatch() saved: refused (as by
	 * CONFIG_HIST_TRIGGERS).
	 */
	if (a->handler == IE_ON_MATCH && !strcmp(spec->action, "save"))
		return ie_action_fail(err_pos, pos, err, IE_ERR_BAD_ACTION);
	/* A snapshot for every match would only keep the last one. */
	if (!strcmp(spec->action, "snapshot")) {
		if (a->handler == IE_ON_MATCH)
			return ie_action_fail(err_pos, pos, err,
					      IE_ERR_SNAPSHOT_HANDLER);
		if (*spec->params)
			return ie_action_fail(err_pos, pos +
					      (spec->params - spec->handler),
					      err, IE_ERR_SNAPSHOT_HANDLER);
		if (!IS_ENABLED(CONFIG_TRACER_SNAPSHOT))
			return ie_action_fail(err_pos, pos, err,
					      IE_ERR_NOT_IMPLEMENTED);
		/*
		 * Two snapshots of one event would swap the buffers and
		 * swap them back.
		 */
		for (i = 0; i < hist->n_actions; i++) {
			if (hist->actions[i].snapshot)
				return ie_action_fail(err_pos, pos, err,
						      IE_ERR_SNAPSHOT_TWICE);
		}
		a->snapshot = true;
		a->pos = pos;
	}
	if (a->handler != IE_ON_MATCH) {
		var = ie_find_local_var(hist, spec->handler_arg);
		if (var < 0 || hist->vars[var].str_size)
			return ie_action_fail(err_pos, pos, err,
					      IE_ERR_BAD_HANDLER_VAR);
		a->var = var;
	}

	params = kstrdup(spec->params, GFP_KERNEL);
	a->text = kasprintf(GFP_KERNEL, "%s(%s).%s(%s)", spec->handler,
			    spec->handler_arg, spec->action, spec->params);
	hist->n_actions++;
	if (!params || !a->text) {
		kfree(params);
		*err = IE_ERR_NOMEM;
		return -ENOMEM;
	}
	param = *params ? params : NULL;
	if (a->snapshot) {
		ret = 0;
		goto out;
	}
	if (!strcmp(spec->action, "trace")) {
		synth_name = strsep(&param, ",");
		if (!synth_name) {
			ret = ie_action_fail(err_pos, pos, err,
					     IE_ERR_SYNTH_NOT_FOUND);
			goto out;
		}
	} else if (strcmp(spec->action, "save")) {
		synth_name = spec->action;
	} else if (!param) {
		ret = ie_action_fail(err_pos, pos, err, IE_ERR_PARAM_COUNT);
		goto out;
	}
	if (synth_name) {
		a->synth = ie_synth_find(synth_name);
		if (!a->synth) {
			ret = ie_action_fail(err_pos, pos, err,
					     IE_ERR_SYNTH_NOT_FOUND);
			goto out;
		}
		/* It would generate itself until the nesting bound, each time. */
		if (&a->synth->call == hist->file->event_call) {
			ret = ie_action_fail(err_pos, pos, err,
					     IE_ERR_SYNTH_SELF_LOOP);
			goto out;
		}
	}

	ret = 0;
	if (a->synth && !param && a->synth->bound) {
		ret = ie_params_bound(hist, a, pos, err_pos, err);
		goto out;
	}
	/* A parameter's error is reported at the parameter. */
	params_pos = pos + (spec->params - spec->handler);
	while (!ret && param) {
		char *p = strsep(&param, ",");
		bool want_string = a->synth && a->n_params < a->synth->n_fields &&
				   (a->synth->fields[a->n_params].is_string ||
				    a->synth->fields[a->n_params].is_stack);

		ret = ie_param_add(hist, a, p, want_string,
				   params_pos + (p - params), err_pos, err);
	}
	if (!ret && a->synth && a->n_params != a->synth->n_fields)
		ret = ie_action_fail(err_pos, pos, err, IE_ERR_PARAM_COUNT);
out:
	kfree(params);
	return ret;
}

/**
 * ie_actions_add_refs - take the references of the actions' parameters
 * @hist: the histogram being built, with its variables defined
 * @spec: its spec
 *
 * Before any action is added: a field variable's helper mirrors the
 * trigger whose variables @hist reads, wherever in the spec it reads
 * them (a "$ts" after the field variable, or in a later action).  Only
 * the references stay; errors are left to ie_action_add(), which
 * resolves each parameter again (and counts its operands).
 *
 * Return: 0 or -ENOMEM.
 */
int ie_actions_add_refs(struct ie_hist *hist, struct ie_spec *spec)
{
	char names[3 * IE_MAX_NAME_LEN], *field;
	unsigned int i, leaves = hist->n_leaves, off;
	char *params, *rest, *param;
	struct ie_expr *e;
	enum ie_err err;

	for (i = 0; i < spec->n_actions; i++) {
		params = kstrdup(spec->actions[i].params, GFP_KERNEL);
		if (!params)
			return -ENOMEM;
		rest = params;
		/* trace()'s first parameter names the event: no variable. */
		if (!strcmp(spec->actions[i].action, "trace"))
			strsep(&rest, ",");
		while ((param = strsep(&rest, ","))) {
			/*
			 * Another event's field is no expression: the '-' of
			 * a system's name ("sample-trace") is no minus.
			 */
			if (ie_param_field_event(hist, param, names, &field))
				continue;
			/* "$ts", or the RFC's bare "ts": any may be a reference. */
			if (ie_expr_parse(param, &e, &off, &err))
				continue;
			ie_expr_resolve_str(hist, e, &off, &err);
			ie_expr_free(e);
		}
		kfree(params);
	}
	hist->n_leaves = leaves;
	return 0;
}

static void ie_action_unpin(struct ie_action *a)
{
	if (!a->synth)
		return;
	a->synth->users--;
	if (a->synth->mod)
		module_put(a->synth->mod);
}

/**
 * ie_actions_reserve - lay out the entry data of the save() actions
 * @hist: the histogram being built, its actions added
 *
 * Entry data for save(): where each saved value goes.  Each save() gets
 * a u64 flag, set once it has saved (ie_action.saved_off), then a slot
 * for each parameter (ie_param.save_off): a u64 for a number, the
 * field's size rounded up to 8 bytes for a string.  The slots are appended at
 * @hist->elt_data_size, which grows by what they take.  trace() and
 * snapshot() keep nothing there.
 */
void ie_actions_reserve(struct ie_hist *hist)
{
	struct ie_action *a;
	unsigned int i, j;

	for (i = 0; i < hist->n_actions; i++) {
		a = &hist->actions[i];
		if (a->synth || a->snapshot)
			continue;
		a->saved_off = hist->elt_data_size;
		hist->elt_data_size += sizeof(u64);
		for (j = 0; j < a->n_params; j++) {
			a->params[j].save_off = hist->elt_data_size;
			hist->elt_data_size += a->params[j].str ?
				ALIGN(a->params[j].str->size, sizeof(u64)) :
				sizeof(u64);
		}
	}
}

/**
 * ie_actions_set_loads - how trace() loads its parameters of the record
 * @hist: the histogram, all it uses resolved
 *
 * A parameter of trace() that is a number of the record as it is (see
 * ie_field_loadable()) gets its struct ie_load: the event path loads
 * it without evaluating its expression.
 *
 * Context: event_mutex held, before the trigger is published.
 */
void ie_actions_set_loads(struct ie_hist *hist)
{
	struct ie_param *p;
	unsigned int i, j;

	for (i = 0; i < hist->n_actions; i++) {
		if (!hist->actions[i].synth)
			continue;
		for (j = 0; j < hist->actions[i].n_params; j++) {
			p = &hist->actions[i].params[j];
			p->load.size = 0;
			if (!p->num_var && p->expr &&
			    p->expr->kind == IE_EX_FIELD)
				ie_field_loadable(p->expr->field, &p->load);
		}
	}
}

/**
 * ie_actions_pin - pin the synthetic events the actions generate
 * @hist: the histogram being built, its actions added
 * @spec: its spec, whose actions give the position of an error
 * @err_pos: set on failure, to the failing action's position
 * @err: set to IE_ERR_MODULE_BUSY on failure
 *
 * Pin the synthetic events we generate, and the modules that defined
 * some of them (a module deletes its events on unload): all or none.
 * An event's users count goes up once for each action generating it.
 * ie_actions_free() unpins them once hist->holds_pins is set.  A module
 * going away is reported at its action (@spec's).
 *
 * Context: Must be called with event_mutex held.
 * Return: 0, or -EBUSY if the module defining one of the events is
 * going away; nothing is pinned then.
 */
int ie_actions_pin(struct ie_hist *hist, struct ie_spec *spec,
		   unsigned int *err_pos, enum ie_err *err)
{
	struct ie_synth_event *ev;
	unsigned int i;

	for (i = 0; i < hist->n_actions; i++) {
		ev = hist->actions[i].synth;
		if (!ev)
			continue;
		if (ev->mod && !try_module_get(ev->mod)) {
			*err = IE_ERR_MODULE_BUSY;
			*err_pos = spec->actions[i].pos;
			while (i--)
				ie_action_unpin(&hist->actions[i]);
			return -EBUSY;
		}
		ev->users++;
	}
	return 0;
}

/**
 * ie_actions_free - free what the actions of a histogram hold
 * @hist: the histogram, being destroyed (or given up while built)
 *
 * Frees each action's listed text and its parameters (expressions and
 * string fields), and unpins the synthetic events and modules that
 * ie_actions_pin() pinned if @hist->holds_pins says it did.
 *
 * Context: Must be called with event_mutex held.
 */
void ie_actions_free(struct ie_hist *hist)
{
	struct ie_action *a;
	unsigned int i, j;

	for (i = 0; i < hist->n_actions; i++) {
		a = &hist->actions[i];
		if (hist->holds_pins)
			ie_action_unpin(a);
		for (j = 0; j < a->n_params; j++) {
			ie_expr_free(a->params[j].expr);
			if (a->params[j].str) {
				ie_field_free((struct ie_field *)a->params[j].str);
				kfree(a->params[j].str);
			}
		}
		kfree(a->text);
	}
}

/*
 * Event path: should onmax()/onchange() act on value @v?  The slot holds
 * the maximum (or last value) of the entry, 0 before the first: a value
 * of 0 is never a new maximum, nor a change from nothing.  Several CPUs
 * may hit one entry at once: the maximum only goes up (the larger value
 * always wins the exchange), and exactly the events that raised it (or
 * changed the last value) act.
 */
static bool ie_handler_hit(struct ie_hist *hist, const struct ie_action *a,
			   struct ie_elt *elt, u64 v)
{
	atomic64_t *slot = ie_elt_var(hist->m, elt, a->slot);
	s64 old;

	if (a->handler == IE_ON_CHANGE)
		return (u64)atomic64_xchg(slot, v) != v;
	old = atomic64_read(slot);
	do {
		if (v <= (u64)old)
			return false;
	} while (!atomic64_try_cmpxchg(slot, &old, v));
	return true;
}

/**
 * ie_actions_run - run the actions of a histogram for an event
 * @hist: the histogram
 * @elt: the entry the event just updated
 * @ctx: the event's record, time stamp and reference values
 * @rec: the event's record
 * @var_vals: the event's new values of @hist's variables
 * @args: room for the values of a synthetic event to generate
 *
 * Event path: the entry @elt was just updated; act if the handler says.
 * onmatch() acts every time, onmax() when its variable raises the
 * entry's maximum, onchange() when it differs from the entry's last
 * value.  trace() generates its synthetic event (one not generated for
 * nesting too deep counts in @hist->actions_dropped); save() copies its
 * parameters into the entry data, without serialization; snapshot() comes
 * after the other actions, so that the snapshot keeps what they saved.
 *
 * Context: event path, any context including NMI; no allocation.  No
 * lock but the instance's max_lock, taken by a snapshot (never in NMI).
 */
void ie_actions_run(struct ie_hist *hist, struct ie_elt *elt,
		    const struct ie_eval_ctx *ctx, void *rec, const u64 *var_vals,
		    struct ie_synth_args *args)
{
	unsigned long snapshot = 0;
	const struct ie_param *p;
	const struct ie_var *var;
	struct ie_action *a;
	unsigned int i, j;
	u8 *data;
	u64 v;

	for (i = 0; i < hist->n_actions; i++) {
		a = &hist->actions[i];
		if (a->handler != IE_ON_MATCH &&
		    !ie_handler_hit(hist, a, elt, var_vals[a->var]))
			continue;
		/* After the other actions: it keeps what they saved. */
		if (a->snapshot) {
			snapshot |= BIT(i);
			continue;
		}
		if (a->synth) {
			for (j = 0; j < a->n_params; j++) {
				p = &a->params[j];
				/* Numbers first: they have no length. */
				if (p->num_var) {
					args->vals[j] = var_vals[p->num_var - 1];
					continue;
				}
				if (p->load.size) {
					args->vals[j] = ie_load_num(&p->load, rec);
					continue;
				}
				/* (A string variable's copy ends within.) */
				args->lens[j] = IE_STR_MAX;
				/*
				 * This event's own copy, not the entry's: made
				 * in scratch space, or the record's string.
				 */
				if (p->local) {
					var = &hist->vars[p->local - 1];
					v = var_vals[p->local - 1];
					if (v)
						args->lens[j] = var->str_size;
					else
						v = (unsigned long)ie_field_str_ptr
							(var->expr->field, rec,
							 &args->lens[j]);
					args->vals[j] = v;
					continue;
				}
				if (p->str)
					args->vals[j] = (unsigned long)
						ie_field_str_ptr(p->str, rec,
								 &args->lens[j]);
				else
					args->vals[j] = ie_expr_value(p->expr, ctx);
			}
			/* Its triggers are an event of their own (nested). */
			if (unlikely(!ie_synth_fire(a->synth, args)))
				atomic64_inc(&hist->actions_dropped);
			continue;
		}
		/*
		 * save(): written without serialization.  Two events raising
		 * one entry's maximum at once on two CPUs may leave the fields
		 * of either, or a mix (see Documentation/trace/inter-event.rst),
		 * and a reader of the hist file may see a mix too: data_race()
		 * says so to KCSAN.
		 */
		data = ie_elt_data(hist->m, elt);
		if (!data)
			continue;
		for (j = 0; j < a->n_params; j++) {
			p = &a->params[j];
			if (p->str) {
				/* Unserialized by design: see above. */
				kcsan_disable_current();
				ie_field_key(p->str, rec, data + p->save_off);
				kcsan_enable_current();
				continue;
			}
			v = p->num_var ? var_vals[p->num_var - 1] :
					 ie_expr_value(p->expr, ctx);
			/* Unserialized by design: see above. */
			data_race(memcpy(data + p->save_off, &v, sizeof(v)));
		}
		/* Pairs with the acquire in ie_actions_show_entry(). */
		smp_store_release((unsigned long *)(data + a->saved_off), 1);
	}
	for (i = 0; snapshot; i++, snapshot >>= 1) {
		if (snapshot & 1)
			ie_snapshot_take(hist, elt, i, var_vals[hist->actions[i].var]);
	}
}

/**
 * ie_actions_print - list the actions of a trigger
 * @m: the seq_file listing the trigger
 * @hist: the trigger's histogram
 *
 * Appends ":handler(arg).action(params)" for each action, the text
 * ie_action_add() kept, to the trigger's line.
 */
void ie_actions_print(struct seq_file *m, struct ie_hist *hist)
{
	unsigned int i;

	for (i = 0; i < hist->n_actions; i++)
		seq_printf(m, ":%s", hist->actions[i].text);
}

/* A snapshot()'s value, shown already by an action on the same handler? */
static bool ie_action_shown(struct ie_hist *hist, const struct ie_action *a)
{
	const struct ie_action *b;

	if (!a->snapshot)
		return false;
	for (b = hist->actions; b < a; b++) {
		if (b->handler == a->handler && b->var == a->var)
			return true;
	}
	return false;
}

/**
 * ie_actions_show_entry - print what the actions keep with an entry
 * @m: the hist file
 * @hist: the histogram
 * @elt: the entry, or the copy a snapshot made of one
 *
 * After an entry: the maximum (or last value) and the saved fields.  For
 * each onmax() or onchange() action, "max:" or "changed:" and its value
 * (a snapshot() whose handler and variable an earlier action shows
 * already is skipped), then what its save() keeps: "(null)" for a
 * string while nothing was saved.  Events may be writing the fields
 * meanwhile: a mix of two events' fields may show, within each field's
 * bounds.
 *
 * Context: event_mutex held (reading the hist file).
 */
void ie_actions_show_entry(struct seq_file *m, struct ie_hist *hist,
			   struct ie_elt *elt)
{
	const u8 *data = ie_elt_data(hist->m, elt);
	const struct ie_action *a;
	const struct ie_param *p;
	unsigned int i, j;
	char name[64];
	bool saved;
	u64 v;

	for (i = 0; i < hist->n_actions; i++) {
		a = &hist->actions[i];
		if (a->handler == IE_ON_MATCH || ie_action_shown(hist, a))
			continue;
		seq_printf(m, "\n\t%s: %10llu", a->handler == IE_ON_MAX ?
			   "max" : "changed",
			   (u64)atomic64_read(ie_elt_var(hist->m, elt, a->slot)));
		if (a->synth || a->snapshot || !data)
			continue;
		/* The fields of a save() seen as done are all there. */
		saved = smp_load_acquire((unsigned long *)(data + a->saved_off));
		for (j = 0; j < a->n_params; j++) {
			p = &a->params[j];
			/* Nothing saved yet (the handler never acted): (null). */
			if (p->str) {
				/*
				 * Bounded: an event may be writing the slot
				 * (save() above: a mix may be printed).
				 */
				kcsan_disable_current();
				seq_printf(m, "  %s: %-32.*s", p->str->name,
					   saved ? p->str->size : 6,
					   saved ? (const char *)data + p->save_off :
						   "(null)");
				kcsan_enable_current();
				continue;
			}
			/* An event may be writing it: see save() above. */
			data_race(memcpy(&v, data + p->save_off, sizeof(v)));
			ie_expr_print(p->expr, name, sizeof(name));
			seq_printf(m, "  %s: %10llu", name, v);
		}
	}
}
