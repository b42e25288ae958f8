/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inter-event hist triggers: internal API shared by the files of
 * kernel/trace/inter_event/.
 */
#ifndef _KERNEL_TRACE_INTER_EVENT_H
#define _KERNEL_TRACE_INTER_EVENT_H

#include "../trace.h"

/* Error reporting: one message per error code, logged to error_log. */
enum ie_err {
	IE_ERR_NOT_IMPLEMENTED,
	IE_ERR_MAX,
};

void ie_log_err(struct trace_array *tr, const char *loc, const char *cmd,
		enum ie_err err, unsigned int pos);

#endif /* _KERNEL_TRACE_INTER_EVENT_H */
