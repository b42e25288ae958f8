// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: the enable_hist and disable_hist commands,
 * which pause and continue another event's histograms when an event hits.
 * Parsing, registration, counting and printing are the trigger
 * framework's, shared with enable_event and disable_event.
 */
#include <linux/kernel.h>
#include <linux/rculist.h>

#include "inter_event.h"

static void ie_hist_enable_trigger(struct event_trigger_data *data,
				   struct trace_buffer *buffer, void *rec,
				   struct ring_buffer_event *event)
{
	struct enable_trigger_data *enable_data = data->private_data;
	struct event_trigger_data *test;

	list_for_each_entry_rcu(test, &enable_data->file->triggers, list,
				lockdep_is_held(&event_mutex)) {
		/* Not our helpers: the triggers using them would starve. */
		if (test->cmd_ops->trigger_type == ETT_EVENT_HIST &&
		    !((struct ie_hist *)test->private_data)->is_aux)
			WRITE_ONCE(test->paused, !enable_data->enable);
	}
}

/* Truncating the trigger file removes these too. */
static void ie_hist_enable_unreg_all(struct trace_event_file *file)
{
	struct event_trigger_data *data, *n;

	lockdep_assert_held(&event_mutex);

	list_for_each_entry_safe(data, n, &file->triggers, list) {
		if (data->cmd_ops->trigger_type != ETT_HIST_ENABLE)
			continue;
		list_del_rcu(&data->list);
		update_cond_flag(file);
		trace_event_trigger_enable_disable(file, 0);
		data->cmd_ops->free(data);
	}
}

/* enable_hist and disable_hist differ only in name. */
#define IE_HIST_ENABLE_CMD(cmd_name) {				\
	.name		= cmd_name,				\
	.trigger_type	= ETT_HIST_ENABLE,			\
	.parse		= event_enable_trigger_parse,		\
	.reg		= event_enable_register_trigger,	\
	.unreg		= event_enable_unregister_trigger,	\
	.unreg_all	= ie_hist_enable_unreg_all,		\
	.set_filter	= set_trigger_filter,			\
	.trigger	= ie_hist_enable_trigger,		\
	.count_func	= event_trigger_count,			\
	.print		= event_enable_trigger_print,		\
	.init		= event_trigger_init,			\
	.free		= event_enable_trigger_free,		\
}

static struct event_command ie_hist_enable_cmd = IE_HIST_ENABLE_CMD(ENABLE_HIST_STR);
static struct event_command ie_hist_disable_cmd = IE_HIST_ENABLE_CMD(DISABLE_HIST_STR);

/* Called by register_trigger_cmds() at boot. */
__init int register_trigger_hist_enable_disable_cmds(void)
{
	int ret;

	ret = register_event_command(&ie_hist_enable_cmd);
	if (WARN_ON(ret < 0))
		return ret;
	ret = register_event_command(&ie_hist_disable_cmd);
	if (WARN_ON(ret < 0))
		unregister_event_command(&ie_hist_enable_cmd);
	return ret;
}
