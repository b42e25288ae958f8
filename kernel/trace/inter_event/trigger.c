// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: the 'hist' trigger command and its lifecycle.
 */
#include <linux/kernel.h>
#include <linux/seq_file.h>

#include "inter_event.h"

static const char *ie_errs[IE_ERR_MAX] = {
	[IE_ERR_NOT_IMPLEMENTED]	= "Hist trigger specs are not supported yet",
	[IE_ERR_DUP_VAR]		= "Variable defined more than once",
};

void ie_log_err(struct trace_array *tr, const char *loc, const char *cmd,
		enum ie_err err, unsigned int pos)
{
	tracing_log_err(tr, loc, cmd, ie_errs, err, pos);
}

static int ie_hist_parse(struct event_command *cmd_ops,
			 struct trace_event_file *file, char *glob, char *cmd,
			 char *param_and_filter)
{
	char loc[MAX_EVENT_NAME_LEN * 2 + 8];

	lockdep_assert_held(&event_mutex);

	snprintf(loc, sizeof(loc), "hist:%s:%s",
		 file->event_call->class->system,
		 trace_event_name(file->event_call));
	ie_log_err(file->tr, loc, param_and_filter ?: cmd,
		   IE_ERR_NOT_IMPLEMENTED, 0);
	return -EINVAL;
}

static int ie_hist_reg(char *glob, struct event_trigger_data *data,
		       struct trace_event_file *file)
{
	return -EINVAL;
}

static void ie_hist_unreg(char *glob, struct event_trigger_data *data,
			  struct trace_event_file *file)
{
}

static void ie_hist_trigger(struct event_trigger_data *data,
			    struct trace_buffer *buffer, void *rec,
			    struct ring_buffer_event *rbe)
{
}

static int ie_hist_print(struct seq_file *m, struct event_trigger_data *data)
{
	seq_puts(m, "hist\n");
	return 0;
}

static struct event_command ie_hist_cmd = {
	.name		= "hist",
	.trigger_type	= ETT_EVENT_HIST,
	.flags		= EVENT_CMD_FL_NEEDS_REC,
	.parse		= ie_hist_parse,
	.reg		= ie_hist_reg,
	.unreg		= ie_hist_unreg,
	.set_filter	= set_trigger_filter,
	.trigger	= ie_hist_trigger,
	.print		= ie_hist_print,
};

/* Called by register_trigger_cmds() at boot. */
__init int register_trigger_hist_cmd(void)
{
	return register_event_command(&ie_hist_cmd);
}

/* enable_hist and disable_hist come with the histogram implementation. */
__init int register_trigger_hist_enable_disable_cmds(void)
{
	return 0;
}
