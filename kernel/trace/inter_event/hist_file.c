// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: the per-event 'hist' file.
 */
#include <linux/seq_file.h>

#include "inter_event.h"

static int ie_hist_file_show(struct seq_file *m, void *v)
{
	struct trace_event_file *file;
	struct event_trigger_data *data;
	bool first = true;

	guard(mutex)(&event_mutex);

	file = event_file_file(m->private);
	if (!file)
		return -ENODEV;

	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
			continue;
		if (!first)
			seq_puts(m, "\n\n");
		first = false;
		ie_hist_show(m, data);
	}
	return 0;
}

static int ie_hist_open(struct inode *inode, struct file *filp)
{
	int ret;

	ret = tracing_open_file_tr(inode, filp);
	if (ret)
		return ret;

	/* single_open() wants it clear; the show callback gets filp. */
	filp->private_data = NULL;
	ret = single_open(filp, ie_hist_file_show, filp);
	if (ret)
		tracing_release_file_tr(inode, filp);
	return ret;
}

const struct file_operations event_hist_fops = {
	.open		= ie_hist_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= tracing_single_release_file_tr,
};
