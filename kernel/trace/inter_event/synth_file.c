// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: the 'synthetic_events' control file.
 *
 * Each line defines an event, "!name" deletes one, and opening the file
 * with truncation deletes all that are not in use.  A backslash at the
 * end of a line continues the definition on the next one, so that the
 * multi-line commands of the inter-event RFC work as pasted.
 *
 * The events are dynamic events too: dynamic_events lists them as
 * "s:synthetic/name fields", defines one from such a line, and deletes
 * one with "-:[synthetic/]name" or truncation, as libtracefs does.
 */
#include <linux/init.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>

#include "inter_event.h"

#define IE_SYNTH_CMD_MAX	4096

static void ie_synth_log(const char *cmd, enum ie_err err, unsigned int pos)
{
	ie_log_err(NULL, "synthetic_events", cmd, err, pos);
}

static int ie_synth_errno(int err)
{
	return err == IE_ERR_NOMEM ? -ENOMEM :
	       err == IE_ERR_SYNTH_EXISTS ? -EEXIST : -EINVAL;
}

static int ie_synth_run(char *cmd)
{
	unsigned int pos;
	char *line;
	int ret;

	cmd = strim(cmd);
	/* Comments and empty lines are no-ops. */
	if (!*cmd || *cmd == '#')
		return 0;
	line = kstrdup(cmd, GFP_KERNEL);
	if (!line)
		return -ENOMEM;

	if (*cmd == '!') {
		/* "!name", or "!name" followed by the definition. */
		cmd = skip_spaces(cmd + 1);
		ret = ie_synth_delete(strsep(&cmd, " \t"));
		if (ret == -EBUSY)
			ie_synth_log(line, IE_ERR_SYNTH_BUSY, 1);
		else if (ret)
			ie_synth_log(line, IE_ERR_SYNTH_NOT_FOUND, 1);
	} else {
		ret = ie_synth_create(cmd, &pos);
		if (ret) {
			ie_synth_log(line, ret, pos);
			ret = ie_synth_errno(ret);
		}
	}
	kfree(line);
	return ret;
}

static ssize_t ie_synth_write(struct file *filp, const char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	char *buf, *p, *line;
	int ret = 0;

	if (!cnt)
		return 0;
	if (cnt > IE_SYNTH_CMD_MAX)
		return -E2BIG;
	buf = memdup_user_nul(ubuf, cnt);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	/* Join continued lines. */
	for (p = buf; (p = strstr(p, "\\\n")); ) {
		p[0] = ' ';
		p[1] = ' ';
	}

	mutex_lock(&event_mutex);
	for (p = buf; !ret && (line = strsep(&p, "\n")); )
		ret = ie_synth_run(line);
	mutex_unlock(&event_mutex);

	kfree(buf);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static int ie_synth_show(struct seq_file *m, void *v)
{
	mutex_lock(&event_mutex);
	ie_synth_show_all(m);
	mutex_unlock(&event_mutex);
	return 0;
}

static int ie_synth_open(struct inode *inode, struct file *filp)
{
	int ret;

	ret = security_locked_down(LOCKDOWN_TRACEFS);
	if (ret)
		return ret;
	if ((filp->f_mode & FMODE_WRITE) && (filp->f_flags & O_TRUNC)) {
		mutex_lock(&event_mutex);
		ret = ie_synth_delete_all();
		mutex_unlock(&event_mutex);
		if (ret)
			return ret;
	}
	return single_open(filp, ie_synth_show, NULL);
}

static const struct file_operations ie_synth_fops = {
	.open		= ie_synth_open,
	.write		= ie_synth_write,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* "s:[synthetic/]name fields" in dynamic_events; -ECANCELED if not ours. */
static int ie_synth_dyn_create(const char *raw_command)
{
	unsigned int skip = 2, pos;
	char *cmd, *name, *end;
	int ret;

	raw_command = skip_spaces(raw_command);
	if (!str_has_prefix(raw_command, "s:"))
		return -ECANCELED;
	cmd = kstrdup(raw_command, GFP_KERNEL);
	if (!cmd)
		return -ENOMEM;
	name = cmd + skip;
	end = name + strcspn(name, " \t");
	/* A group, if given, is the synthetic events' own. */
	if (memchr(name, '/', end - name)) {
		if (!str_has_prefix(name, "synthetic/")) {
			ret = IE_ERR_SYNTH_BAD_GROUP;
			pos = 0;
			goto err;
		}
		skip += strlen("synthetic/");
		name = cmd + skip;
	}
	/* The name follows the prefix directly. */
	if (name == end) {
		ret = IE_ERR_BAD_NAME;
		pos = skip;
		goto err;
	}
	mutex_lock(&event_mutex);
	ret = ie_synth_create(name, &pos);
	mutex_unlock(&event_mutex);
	if (!ret)
		goto out;
	pos += skip;
err:
	/* ie_synth_create() modified the command: log the original. */
	ie_synth_log(raw_command, ret, pos);
	ret = ie_synth_errno(ret);
out:
	kfree(cmd);
	return ret;
}

static int ie_synth_dyn_show(struct seq_file *m, struct dyn_event *dev)
{
	struct ie_synth_event *ev = container_of(dev, struct ie_synth_event,
						 devent);

	seq_printf(m, "s:%s/", ev->class.system);
	ie_synth_show_one(m, ev, false);
	return 0;
}

static bool ie_synth_dyn_busy(struct dyn_event *dev)
{
	return ie_synth_busy(container_of(dev, struct ie_synth_event, devent));
}

static int ie_synth_dyn_free(struct dyn_event *dev)
{
	return ie_synth_remove(container_of(dev, struct ie_synth_event,
					    devent));
}

static bool ie_synth_dyn_match(const char *system, const char *event,
			       int argc, const char **argv,
			       struct dyn_event *dev)
{
	struct ie_synth_event *ev = container_of(dev, struct ie_synth_event,
						 devent);

	return !strcmp(ev->name, event) &&
	       (!system || !strcmp(system, ev->class.system));
}

struct dyn_event_operations ie_synth_dyn_ops = {
	.create		= ie_synth_dyn_create,
	.show		= ie_synth_dyn_show,
	.is_busy	= ie_synth_dyn_busy,
	.free		= ie_synth_dyn_free,
	.match		= ie_synth_dyn_match,
};

/*
 * Early, so that boot-time tracing (trace_boot.c, at core_initcall_sync)
 * can define synthetic events: their tracefs files come with the rest.
 */
static __init int ie_synth_dyn_init(void)
{
	return dyn_event_register(&ie_synth_dyn_ops);
}
core_initcall(ie_synth_dyn_init);

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
