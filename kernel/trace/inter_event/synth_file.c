// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: the 'synthetic_events' control file.
 */
#include <linux/init.h>
#include <linux/seq_file.h>
#include <linux/tracefs.h>

#include "inter_event.h"

static int ie_synth_show(struct seq_file *m, void *v)
{
	return 0;
}

static int ie_synth_create(const char *raw)
{
	/* Empty lines (and comments, stripped by the caller) are no-ops. */
	raw = skip_spaces(raw);
	if (!*raw)
		return 0;
	ie_log_err(NULL, "synthetic_events", (char *)raw,
		   IE_ERR_NOT_IMPLEMENTED, 0);
	return -EINVAL;
}

static ssize_t ie_synth_write(struct file *filp, const char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	return trace_parse_run_command(filp, ubuf, cnt, ppos, ie_synth_create);
}

static int ie_synth_open(struct inode *inode, struct file *filp)
{
	int ret;

	ret = security_locked_down(LOCKDOWN_TRACEFS);
	if (ret)
		return ret;
	return single_open(filp, ie_synth_show, NULL);
}

static const struct file_operations ie_synth_fops = {
	.open		= ie_synth_open,
	.write		= ie_synth_write,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static __init int ie_synth_file_init(void)
{
	int ret;

	ret = tracing_init_dentry();
	if (ret)
		return ret;
	if (!tracefs_create_file("synthetic_events", TRACE_MODE_WRITE, NULL,
				 NULL, &ie_synth_fops)) {
		pr_warn("Could not create tracefs 'synthetic_events' entry\n");
		return -ENODEV;
	}
	return 0;
}
fs_initcall(ie_synth_file_init);
