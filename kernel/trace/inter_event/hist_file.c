// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: the per-event 'hist' file, and the file
 * operations 'hist_json' (json.c) shares with it.
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
#include <linux/fs.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "inter_event.h"

/*
 * On while a hist file is polled: events then wake the pollers.  Turned
 * off a second after the last poller goes: a tool that opens the file
 * for each poll() does not patch the kernel's text every time.
 */
DEFINE_STATIC_KEY_DEFERRED_FALSE(ie_hist_polled, HZ);

/*
 * The RCU state when ie_hist_polled last went on (get_state_synchronize_rcu()),
 * under ie_hist_polled_lock: see ie_hist_poll().
 */
static DEFINE_MUTEX(ie_hist_polled_lock);
static unsigned long ie_hist_polled_since;

/* The hits of @file's histograms, under event_mutex. */
u64 ie_hist_file_hits(struct trace_event_file *file)
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

/*
 * Make the document of the event's histograms in @hf->doc, printed once:
 * a piece that overflows the buffer makes it grow (ie_doc_fits()).
 */
static int ie_hist_file_doc(struct ie_hist_file *hf)
{
	struct seq_file *m = &hf->doc;
	struct trace_event_file *file;
	struct event_trigger_data *data;
	bool first = true;
	int ret = 0;

	lockdep_assert_held(&hf->doc_lock);
	guard(mutex)(&event_mutex);

	file = event_file_file(hf->filp);
	if (!file)
		return -ENODEV;
	if (!m->buf) {
		m->buf = kvmalloc(PAGE_SIZE, GFP_KERNEL_ACCOUNT);
		if (!m->buf)
			return -ENOMEM;
		m->size = PAGE_SIZE;
	}
	m->count = 0;
	if (hf->show) {
		ret = hf->show(m, file);
	} else {
		list_for_each_entry(data, &file->triggers, list) {
			if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
				continue;
			if (!first)
				ie_doc_puts(m, "\n\n");
			first = false;
			ie_hist_show(m, data);
			if (seq_has_overflowed(m))
				break;
		}
	}
	if (!ret && seq_has_overflowed(m))
		ret = -ENOMEM;
	if (ret) {
		/* Nothing to read on from: the next read makes it again. */
		kvfree(m->buf);
		m->buf = NULL;
		m->count = 0;
		return ret;
	}
	hf->last_read = ie_hist_file_hits(file);
	hf->last_act = hf->last_read;
	return 0;
}

ssize_t ie_hist_read(struct file *filp, char __user *ubuf, size_t cnt,
		     loff_t *ppos)
{
	struct ie_hist_file *hf = filp->private_data;
	int ret;

	guard(mutex)(&hf->doc_lock);
	if (!hf->taken && (!*ppos || !hf->doc.buf)) {
		ret = ie_hist_file_doc(hf);
		if (ret)
			return ret;
	}
	return simple_read_from_buffer(ubuf, cnt, ppos, hf->doc.buf,
				       hf->doc.count);
}

/* As seq_lseek(): from the start or from here, anywhere from 0. */
loff_t ie_hist_llseek(struct file *filp, loff_t off, int whence)
{
	struct ie_hist_file *hf = filp->private_data;

	guard(mutex)(&hf->doc_lock);
	switch (whence) {
	case SEEK_CUR:
		off += filp->f_pos;
		fallthrough;
	case SEEK_SET:
		return vfs_setpos(filp, off, MAX_LFS_FILESIZE);
	}
	return -EINVAL;
}

__poll_t ie_hist_poll(struct file *filp, poll_table *wait)
{
	struct ie_hist_file *hf = filp->private_data;
	struct trace_event_file *file;
	__poll_t ret = 0;
	u64 hits;

	/*
	 * From now on, events wake pollers (see ie_hist_poll_wakeup()); a
	 * second thread polling the same file waits until they do.
	 */
	mutex_lock(&hf->lock);
	if (!hf->polled) {
		unsigned long since;

		/*
		 * An event reads the key after it counts its hit, with no
		 * barrier of its own between: one that read the key off may
		 * have a hit the read below would not see yet, and no wakeup
		 * comes for it.  (On x86 the hit's locked add orders them,
		 * but neither a plain counter without jump labels nor text
		 * patching does everywhere: powerpc patches without an
		 * IPI.)  Such events, which run with preemption off, began
		 * before the key last went on: wait for a grace period from
		 * then, which is over already unless that was just now.
		 */
		mutex_lock(&ie_hist_polled_lock);
		static_branch_deferred_inc(&ie_hist_polled);
		/* 1: on now (the deferred decrement never turns it on). */
		if (static_key_count(&ie_hist_polled.key.key) == 1)
			ie_hist_polled_since = get_state_synchronize_rcu();
		since = ie_hist_polled_since;
		mutex_unlock(&ie_hist_polled_lock);
		cond_synchronize_rcu(since);
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

/*
 * Open @filp, a hist file (@show NULL) or another view of the event's
 * histograms: @show prints its document.
 */
int ie_hist_open_show(struct inode *inode, struct file *filp,
		      int (*show)(struct seq_file *m,
				  struct trace_event_file *file))
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
	hf->show = show;
	mutex_init(&hf->lock);
	mutex_init(&hf->doc_lock);
	/* POLLPRI waits for the next change (CONFIG_HIST_TRIGGERS' rule). */
	mutex_lock(&event_mutex);
	if (event_file_file(filp))
		hf->last_act = ie_hist_file_hits(event_file_file(filp));
	mutex_unlock(&event_mutex);
	filp->private_data = hf;
	/* As seq_open(): a take is written at the file's position. */
	filp->f_mode &= ~FMODE_PWRITE;
	return 0;
}

int ie_hist_release(struct inode *inode, struct file *filp)
{
	struct ie_hist_file *hf = filp->private_data;

	if (hf->polled)
		static_branch_slow_dec_deferred(&ie_hist_polled);
	kvfree(hf->doc.buf);
	kfree(hf);
	return tracing_release_file_tr(inode, filp);
}

static int ie_hist_open(struct inode *inode, struct file *filp)
{
	return ie_hist_open_show(inode, filp, NULL);
}

const struct file_operations event_hist_fops = {
	.open		= ie_hist_open,
	.read		= ie_hist_read,
	.llseek		= ie_hist_llseek,
	.poll		= ie_hist_poll,
	.release	= ie_hist_release,
};
