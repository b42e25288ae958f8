// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: the per-event 'hist' file, and 'hist_json',
 * the same data as a JSON document (json.c).
 *
 * poll() on it waits for the histogram to change: EPOLLIN while the
 * histograms of the event have counted hits since the opener last read
 * the file, EPOLLPRI once for each change since the last poll or read.
 * Events wake pollers through the tree's hist_poll_wq, from an irq_work
 * (an event may come in any context); only while a hist file is polled
 * does the event path look at the wait queue.  As with CONFIG_HIST_TRIGGERS, a
 * reader that polls before each read (busybox sh's read builtin) waits
 * there for the next change: read hist files with read() alone.
 */
#include <linux/jump_label_ratelimit.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "inter_event.h"

/*
 * On while a hist file is polled: events then wake the pollers.  Turned
 * off a second after the last poller goes: a tool that opens the file
 * for each poll() does not patch the kernel's text every time.
 */
DEFINE_STATIC_KEY_DEFERRED_FALSE(ie_hist_polled, HZ);

/* One opener of a hist file. */
struct ie_hist_file {
	struct file	*filp;
	u64		last_read;	/* hits when last read */
	u64		last_act;	/* hits when last polled or read */
	struct mutex	lock;		/* the first poll() turns the key on */
	bool		polled;		/* counted in ie_hist_polled */
	bool		json;		/* hist_json: the JSON document */
	/* hist_json: the document of the last "take" (under @take_lock). */
	struct mutex	take_lock;
	char		*taken;
	size_t		taken_len;
};

/* The hits of @file's histograms, under event_mutex. */
static u64 ie_hist_file_hits(struct trace_event_file *file)
{
	struct event_trigger_data *data;
	struct ie_hist *hist;
	u64 hits = 0, h, d;

	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
			continue;
		hist = data->private_data;
		ie_map_totals(hist->m, &h, &d);
		hits += h;
	}
	return hits;
}

static int ie_hist_file_show(struct seq_file *m, void *v)
{
	struct ie_hist_file *hf = m->private;
	struct trace_event_file *file;
	struct event_trigger_data *data;
	bool first = true;
	int ret;

	guard(mutex)(&event_mutex);

	file = event_file_file(hf->filp);
	if (!file)
		return -ENODEV;
	if (hf->json) {
		ret = ie_hist_json_show(m, file, NULL);
		if (ret)
			return ret;
		goto read;
	}

	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
			continue;
		if (!first)
			seq_puts(m, "\n\n");
		first = false;
		ie_hist_show(m, data);
	}
read:
	hf->last_read = ie_hist_file_hits(file);
	hf->last_act = hf->last_read;
	return 0;
}

static __poll_t ie_hist_poll(struct file *filp, poll_table *wait)
{
	struct seq_file *m = filp->private_data;
	struct ie_hist_file *hf = m->private;
	struct trace_event_file *file;
	__poll_t ret = 0;
	u64 hits;

	/*
	 * From now on, events wake pollers (see ie_hist_poll_wakeup()); a
	 * second thread polling the same file waits until they do.
	 */
	mutex_lock(&hf->lock);
	if (!hf->polled) {
		static_branch_deferred_inc(&ie_hist_polled);
		hf->polled = true;
	}
	mutex_unlock(&hf->lock);

	guard(mutex)(&event_mutex);

	file = event_file_file(filp);
	if (!file)
		return EPOLLERR;
	hist_poll_wait(filp, wait);
	/* On the wait queue before reading the hits: pairs with the waker's. */
	smp_mb();
	hits = ie_hist_file_hits(file);
	if (hits != hf->last_read)
		ret |= EPOLLIN | EPOLLRDNORM;
	if (hits != hf->last_act) {
		hf->last_act = hits;
		ret |= EPOLLPRI;
	}
	return ret;
}

static int __ie_hist_open(struct inode *inode, struct file *filp, bool json)
{
	struct ie_hist_file *hf;
	int ret;

	ret = tracing_open_file_tr(inode, filp);
	if (ret)
		return ret;

	hf = kzalloc(sizeof(*hf), GFP_KERNEL);
	if (!hf) {
		tracing_release_file_tr(inode, filp);
		return -ENOMEM;
	}
	hf->filp = filp;
	hf->json = json;
	mutex_init(&hf->lock);
	mutex_init(&hf->take_lock);
	/* POLLPRI waits for the next change (CONFIG_HIST_TRIGGERS' rule). */
	mutex_lock(&event_mutex);
	if (event_file_file(filp))
		hf->last_act = ie_hist_file_hits(event_file_file(filp));
	mutex_unlock(&event_mutex);
	/* single_open() wants it clear. */
	filp->private_data = NULL;
	ret = single_open(filp, ie_hist_file_show, hf);
	if (ret) {
		kfree(hf);
		tracing_release_file_tr(inode, filp);
	}
	return ret;
}

static int ie_hist_release(struct inode *inode, struct file *filp)
{
	struct seq_file *m = filp->private_data;
	struct ie_hist_file *hf = m->private;

	if (hf->polled)
		static_branch_slow_dec_deferred(&ie_hist_polled);
	kvfree(hf->taken);
	kfree(hf);
	return tracing_single_release_file_tr(inode, filp);
}

static int ie_hist_open(struct inode *inode, struct file *filp)
{
	return __ie_hist_open(inode, filp, false);
}

static int ie_hist_json_open(struct inode *inode, struct file *filp)
{
	return __ie_hist_open(inode, filp, true);
}

const struct file_operations event_hist_fops = {
	.open		= ie_hist_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.poll		= ie_hist_poll,
	.release	= ie_hist_release,
};

/*
 * hist_json: writing "take" takes the histograms' counts since the last
 * take (take.c) and rewinds the file, whose reads then give that
 * document, until the next take; an opener that never took reads the
 * live histograms.
 */
static ssize_t ie_hist_json_write(struct file *filp, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct seq_file *m = filp->private_data;
	struct ie_hist_file *hf = m->private;
	struct trace_event_file *file;
	char cmd[16], loc[MAX_EVENT_NAME_LEN * 2 + 16];
	size_t len;
	char *text;
	int ret;

	if (!cnt)
		return 0;
	len = min(cnt, sizeof(cmd) - 1);
	if (copy_from_user(cmd, ubuf, len))
		return -EFAULT;
	cmd[len] = '\0';

	scoped_guard(mutex, &event_mutex) {
		file = event_file_file(filp);
		if (!file)
			return -ENODEV;
		snprintf(loc, sizeof(loc), "hist_json:%s:%s",
			 file->event_call->class->system,
			 trace_event_name(file->event_call));
		if (len != cnt || strcmp(strim(cmd), "take")) {
			ie_log_err(file->tr, loc, cmd, IE_ERR_JSON_CMD, 0);
			return -EINVAL;
		}
		/* Taken for nobody to read (echo take > hist_json): refused. */
		if (!(filp->f_mode & FMODE_READ)) {
			ie_log_err(file->tr, loc, cmd, IE_ERR_JSON_WRONLY, 0);
			return -EBADF;
		}
		ret = ie_hist_json_take(file, &text, &len);
		if (ret) {
			if (ret == -EFBIG)
				ie_log_err(file->tr, loc, cmd, IE_ERR_JSON_SIZE, 0);
			return ret;
		}
		hf->last_read = ie_hist_file_hits(file);
		hf->last_act = hf->last_read;
	}
	mutex_lock(&hf->take_lock);
	kvfree(hf->taken);
	hf->taken = text;
	hf->taken_len = len;
	mutex_unlock(&hf->take_lock);
	*ppos = 0;
	return cnt;
}

static ssize_t ie_hist_json_read(struct file *filp, char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct seq_file *m = filp->private_data;
	struct ie_hist_file *hf = m->private;

	scoped_guard(mutex, &hf->take_lock) {
		if (hf->taken)
			return simple_read_from_buffer(ubuf, cnt, ppos,
						       hf->taken,
						       hf->taken_len);
	}
	return seq_read(filp, ubuf, cnt, ppos);
}

static loff_t ie_hist_json_llseek(struct file *filp, loff_t off, int whence)
{
	struct seq_file *m = filp->private_data;
	struct ie_hist_file *hf = m->private;

	scoped_guard(mutex, &hf->take_lock) {
		if (hf->taken)
			return fixed_size_llseek(filp, off, whence,
						 hf->taken_len);
	}
	return seq_lseek(filp, off, whence);
}

/* The same data as one JSON document (json.c); polled as hist is. */
const struct file_operations event_hist_json_fops = {
	.open		= ie_hist_json_open,
	.read		= ie_hist_json_read,
	.write		= ie_hist_json_write,
	.llseek		= ie_hist_json_llseek,
	.poll		= ie_hist_poll,
	.release	= ie_hist_release,
};
