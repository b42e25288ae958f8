// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: the messages of the error codes (errors.h)
 * and their way to an instance's error_log.
 */
#include <linux/kernel.h>

#include "inter_event.h"

#define IE_ERROR(name, msg) \
	[IE_ERR_##name] = (msg),
static const char *ie_errs[IE_ERR_MAX] = {
#include "errors.h"
};

#undef IE_ERROR

/**
 * ie_log_err - log an error to an instance's error_log
 * @tr: the instance, or NULL for the top one
 * @loc: what failed, e.g. "hist:sched:sched_switch"
 * @cmd: the command, as error_log shows it
 * @err: the error; errors.h has its message
 * @pos: the offset in @cmd of the offending part, where the caret goes
 *
 * Context: may sleep (error_log has a mutex of its own).
 */
void ie_log_err(struct trace_array *tr, const char *loc, const char *cmd,
		enum ie_err err, unsigned int pos)
{
	tracing_log_err(tr, loc, cmd, ie_errs, err, pos);
}
