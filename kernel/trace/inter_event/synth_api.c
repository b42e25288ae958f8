// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: the in-kernel API of synthetic events
 * (include/linux/trace_events.h), for modules and boot-time setup.
 *
 * A definition is built as a synthetic_events line in a dynevent_cmd
 * ("name type field; type field; ...") and created as one.  Values are
 * u64s, a string's value its address: traced at once (an array or a
 * list), or one field after the other into a reserved record (fixed-size
 * fields only, as their place in the record is known in advance).
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "inter_event.h"

/* enum ie_err to an errno for the API's callers. */
static int ie_synth_errno(int err)
{
	switch (err) {
	case 0:
		return 0;
	case IE_ERR_NOMEM:
		return -ENOMEM;
	case IE_ERR_SYNTH_EXISTS:
		return -EEXIST;
	default:
		return -EINVAL;
	}
}

/* dynevent_create(): create the event @cmd describes. */
static int ie_synth_run_command(struct dynevent_cmd *cmd)
{
	unsigned int pos;
	char *line;
	int err;

	if (seq_buf_has_overflowed(&cmd->seq))
		return -E2BIG;
	line = kstrndup(cmd->seq.buffer, seq_buf_used(&cmd->seq), GFP_KERNEL);
	if (!line)
		return -ENOMEM;
	mutex_lock(&event_mutex);
	err = ie_synth_create(line, &pos);
	if (!err && cmd->private_data)
		ie_synth_find(cmd->event_name)->mod = cmd->private_data;
	mutex_unlock(&event_mutex);
	kfree(line);
	return ie_synth_errno(err);
}

/**
 * synth_event_cmd_init - start a synthetic event definition in @buf
 * @cmd: the command
 * @buf: where it is written
 * @maxlen: @buf's size
 */
void synth_event_cmd_init(struct dynevent_cmd *cmd, char *buf, int maxlen)
{
	dynevent_cmd_init(cmd, buf, maxlen, DYNEVENT_TYPE_SYNTH,
			  ie_synth_run_command);
}
EXPORT_SYMBOL_GPL(synth_event_cmd_init);

/* "; " between fields, none before the first. */
static int ie_synth_cmd_field(struct dynevent_cmd *cmd, const char *type,
			      const char *name)
{
	if (cmd->type != DYNEVENT_TYPE_SYNTH || !type || !name || !*type ||
	    !*name)
		return -EINVAL;
	if (seq_buf_printf(&cmd->seq, "%s%s %s", cmd->n_fields ? "; " : " ",
			   type, name))
		return -E2BIG;
	cmd->n_fields++;
	return 0;
}

/**
 * synth_event_add_field - add "type name" to a definition
 * @cmd: a command begun by synth_event_gen_cmd_start()
 * @type: the field's type ("u64", "char[16]", "char[]", ...)
 * @name: the field's name
 *
 * Return: 0, -EINVAL or -E2BIG.
 */
int synth_event_add_field(struct dynevent_cmd *cmd, const char *type,
			  const char *name)
{
	return ie_synth_cmd_field(cmd, type, name);
}
EXPORT_SYMBOL_GPL(synth_event_add_field);

/**
 * synth_event_add_field_str - add a field given as "type name"
 * @cmd: a command begun by synth_event_gen_cmd_start()
 * @type_name: the field, as a synthetic_events line writes it
 *
 * Return: 0, -EINVAL or -E2BIG.
 */
int synth_event_add_field_str(struct dynevent_cmd *cmd, const char *type_name)
{
	if (cmd->type != DYNEVENT_TYPE_SYNTH || !type_name || !*type_name)
		return -EINVAL;
	if (seq_buf_printf(&cmd->seq, "%s%s", cmd->n_fields ? "; " : " ",
			   type_name))
		return -E2BIG;
	cmd->n_fields++;
	return 0;
}
EXPORT_SYMBOL_GPL(synth_event_add_field_str);

/**
 * synth_event_add_fields - add fields from an array
 * @cmd: a command begun by synth_event_gen_cmd_start()
 * @fields: the fields
 * @n_fields: how many
 *
 * Return: 0, -EINVAL or -E2BIG.
 */
int synth_event_add_fields(struct dynevent_cmd *cmd,
			   struct synth_field_desc *fields,
			   unsigned int n_fields)
{
	unsigned int i;
	int ret;

	if (n_fields > IE_SYNTH_MAX_FIELDS)
		return -EINVAL;
	for (i = 0; i < n_fields; i++) {
		ret = ie_synth_cmd_field(cmd, fields[i].type, fields[i].name);
		if (ret)
			return ret;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(synth_event_add_fields);

/* The event's name begins the command. */
static int ie_synth_cmd_start(struct dynevent_cmd *cmd, const char *name,
			      struct module *mod)
{
	if (cmd->type != DYNEVENT_TYPE_SYNTH || !name || !ie_name_ok(name))
		return -EINVAL;
	cmd->event_name = name;
	cmd->private_data = mod;
	if (seq_buf_puts(&cmd->seq, name))
		return -E2BIG;
	return 0;
}

/**
 * __synth_event_gen_cmd_start - begin a definition, with fields
 * @cmd: a command from synth_event_cmd_init()
 * @name: the event's name
 * @mod: the module defining it, or NULL: held while the event is
 *	enabled
 * @...: "type", "name" pairs, ending with NULL
 *
 * Return: 0, -EINVAL or -E2BIG.
 */
int __synth_event_gen_cmd_start(struct dynevent_cmd *cmd, const char *name,
				struct module *mod, ...)
{
	const char *type, *field;
	va_list args;
	int ret;

	ret = ie_synth_cmd_start(cmd, name, mod);
	if (ret)
		return ret;
	va_start(args, mod);
	for (;;) {
		type = va_arg(args, const char *);
		if (!type)
			break;
		field = va_arg(args, const char *);
		if (!field) {
			ret = -EINVAL;
			break;
		}
		ret = ie_synth_cmd_field(cmd, type, field);
		if (ret)
			break;
	}
	va_end(args);
	return ret;
}
EXPORT_SYMBOL_GPL(__synth_event_gen_cmd_start);

/**
 * synth_event_gen_cmd_array_start - begin a definition, fields in an array
 * @cmd: a command from synth_event_cmd_init()
 * @name: the event's name
 * @mod: the module defining it, or NULL
 * @fields: the fields
 * @n_fields: how many
 *
 * Return: 0, -EINVAL or -E2BIG.
 */
int synth_event_gen_cmd_array_start(struct dynevent_cmd *cmd, const char *name,
				    struct module *mod,
				    struct synth_field_desc *fields,
				    unsigned int n_fields)
{
	int ret = ie_synth_cmd_start(cmd, name, mod);

	return ret ?: synth_event_add_fields(cmd, fields, n_fields);
}
EXPORT_SYMBOL_GPL(synth_event_gen_cmd_array_start);

/**
 * synth_event_create - define a synthetic event from an array of fields
 * @name: the event's name
 * @fields: the fields
 * @n_fields: how many
 * @mod: the module defining it, or NULL
 *
 * Return: 0, -EEXIST, -EINVAL, -E2BIG or -ENOMEM.
 */
int synth_event_create(const char *name, struct synth_field_desc *fields,
		       unsigned int n_fields, struct module *mod)
{
	struct dynevent_cmd cmd;
	char *buf;
	int ret;

	buf = kzalloc(MAX_DYNEVENT_CMD_LEN, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	synth_event_cmd_init(&cmd, buf, MAX_DYNEVENT_CMD_LEN);
	ret = synth_event_gen_cmd_array_start(&cmd, name, mod, fields,
					      n_fields);
	if (!ret)
		ret = synth_event_gen_cmd_end(&cmd);
	kfree(buf);
	return ret;
}
EXPORT_SYMBOL_GPL(synth_event_create);

/**
 * synth_event_delete - delete a synthetic event
 * @name: its name
 *
 * Return: 0, -ENOENT, or -EBUSY if it is in use.
 */
int synth_event_delete(const char *name)
{
	struct ie_synth_event *ev;
	bool of_module;
	int ret;

	mutex_lock(&event_mutex);
	ev = ie_synth_find(name);
	of_module = ev && ev->mod;
	ret = ev ? ie_synth_remove(ev) : -ENOENT;
	mutex_unlock(&event_mutex);
	/*
	 * The event's records outlive it in the buffers, and its type id
	 * goes to the next event registered: a module's event takes its
	 * records with it, as with CONFIG_SYNTH_EVENTS.
	 */
	if (!ret && of_module)
		tracing_reset_all_online_cpus();
	return ret;
}
EXPORT_SYMBOL_GPL(synth_event_delete);

/* @file's synthetic event, or NULL if it is not one of ours. */
static struct ie_synth_event *ie_synth_of(struct trace_event_file *file)
{
	return file ? ie_synth_of_call(file->event_call) : NULL;
}

/**
 * synth_event_trace_array - trace a synthetic event
 * @file: the event's file (trace_get_event_file())
 * @vals: one value per field, in order; a string's is its address
 * @n_vals: how many: the event's number of fields
 *
 * Return: 0, or -EINVAL.
 */
int synth_event_trace_array(struct trace_event_file *file, u64 *vals,
			    unsigned int n_vals)
{
	struct ie_synth_event *ev = ie_synth_of(file);
	struct ie_synth_args args;
	unsigned int i;

	if (!ev || n_vals != ev->n_fields)
		return -EINVAL;
	if (!(file->flags & EVENT_FILE_FL_ENABLED))
		return 0;
	for (i = 0; i < n_vals; i++) {
		args.vals[i] = vals[i];
		args.lens[i] = IE_STR_MAX;
	}
	ie_synth_trace_file(file, &args);
	return 0;
}
EXPORT_SYMBOL_GPL(synth_event_trace_array);

/**
 * synth_event_trace - trace a synthetic event, values as arguments
 * @file: the event's file
 * @n_vals: how many values follow: the event's number of fields
 * @...: the values, u64 each
 *
 * Return: 0, or -EINVAL.
 */
int synth_event_trace(struct trace_event_file *file, unsigned int n_vals, ...)
{
	u64 vals[IE_SYNTH_MAX_FIELDS];
	va_list args;
	unsigned int i;

	if (n_vals > IE_SYNTH_MAX_FIELDS)
		return -EINVAL;
	va_start(args, n_vals);
	for (i = 0; i < n_vals; i++)
		vals[i] = va_arg(args, u64);
	va_end(args);
	return synth_event_trace_array(file, vals, n_vals);
}
EXPORT_SYMBOL_GPL(synth_event_trace);

/**
 * synth_event_trace_start - reserve a record to fill field by field
 * @file: the event's file
 * @trace_state: the record's state, for the calls that fill it
 *
 * Only for events of fixed-size fields (no char name[], no stack).  The
 * record must be ended by synth_event_trace_end(); the fields not given
 * are 0.  Nothing is written while the event is disabled.
 *
 * Return: 0, or -EINVAL.
 */
int synth_event_trace_start(struct trace_event_file *file,
			    struct synth_event_trace_state *trace_state)
{
	struct ie_synth_event *ev = ie_synth_of(file);
	unsigned int i;
	u8 *entry;

	if (!trace_state)
		return -EINVAL;
	/* A caller may end what failed to start: nothing to end then. */
	memset(trace_state, 0, sizeof(*trace_state));
	if (!ev)
		return -EINVAL;
	for (i = 0; i < ev->n_fields; i++) {
		if (ev->fields[i].is_dynamic || ev->fields[i].is_stack)
			return -EOPNOTSUPP;
	}
	trace_state->event = (struct synth_event *)ev;
	/* Until the end, as a tracepoint's probe runs. */
	preempt_disable_notrace();
	if (!(file->flags & EVENT_FILE_FL_ENABLED) ||
	    trace_trigger_soft_disabled(file)) {
		trace_state->disabled = true;
		return 0;
	}
	entry = trace_event_buffer_reserve(&trace_state->fbuffer, file, ev->size);
	if (!entry) {
		trace_state->disabled = true;
		return 0;
	}
	memset(entry + sizeof(struct trace_entry), 0,
	       ev->size - sizeof(struct trace_entry));
	trace_state->entry = (struct synth_trace_event *)entry;
	trace_state->buffer = trace_state->fbuffer.buffer;
	return 0;
}
EXPORT_SYMBOL_GPL(synth_event_trace_start);

/* Write field @i; the two ways of naming fields don't mix. */
static int ie_synth_state_put(struct synth_event_trace_state *trace_state,
			      unsigned int i, u64 val, bool next)
{
	struct ie_synth_event *ev;

	if (!trace_state || !trace_state->event)
		return -EINVAL;
	ev = (struct ie_synth_event *)trace_state->event;
	if (next ? trace_state->add_name : trace_state->add_next)
		return -EINVAL;
	if (next)
		trace_state->add_next = true;
	else
		trace_state->add_name = true;
	if (i >= ev->n_fields)
		return -EINVAL;
	if (trace_state->disabled)
		return 0;
	return ie_synth_put(ev, (u8 *)trace_state->entry, i, val);
}

/**
 * synth_event_add_next_val - give the next field's value
 * @val: the value
 * @trace_state: from synth_event_trace_start()
 *
 * Return: 0, or -EINVAL (past the last field, or after
 * synth_event_add_val()).
 */
int synth_event_add_next_val(u64 val,
			     struct synth_event_trace_state *trace_state)
{
	int ret;

	if (!trace_state)
		return -EINVAL;
	ret = ie_synth_state_put(trace_state, trace_state->cur_field, val,
				 true);
	if (!ret)
		trace_state->cur_field++;
	return ret;
}
EXPORT_SYMBOL_GPL(synth_event_add_next_val);

/**
 * synth_event_add_val - give a field's value by its name
 * @field_name: the field
 * @val: the value
 * @trace_state: from synth_event_trace_start()
 *
 * Return: 0, or -EINVAL (no such field, or after
 * synth_event_add_next_val()).
 */
int synth_event_add_val(const char *field_name, u64 val,
			struct synth_event_trace_state *trace_state)
{
	struct ie_synth_event *ev;
	unsigned int i;

	if (!trace_state || !trace_state->event || !field_name)
		return -EINVAL;
	ev = (struct ie_synth_event *)trace_state->event;
	for (i = 0; i < ev->n_fields; i++) {
		if (!strcmp(ev->fields[i].name, field_name))
			break;
	}
	return ie_synth_state_put(trace_state, i, val, false);
}
EXPORT_SYMBOL_GPL(synth_event_add_val);

/**
 * synth_event_trace_end - write the record filled since
 *	synth_event_trace_start()
 * @trace_state: the record's state
 *
 * Return: 0, or -EINVAL.
 */
int synth_event_trace_end(struct synth_event_trace_state *trace_state)
{
	if (!trace_state || !trace_state->event)
		return -EINVAL;
	if (!trace_state->disabled)
		trace_event_buffer_commit(&trace_state->fbuffer);
	trace_state->event = NULL;
	preempt_enable_notrace();
	return 0;
}
EXPORT_SYMBOL_GPL(synth_event_trace_end);
