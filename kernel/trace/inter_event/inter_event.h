/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inter-event hist triggers: internal API shared by the files of
 * kernel/trace/inter_event/.
 */
#ifndef _KERNEL_TRACE_INTER_EVENT_H
#define _KERNEL_TRACE_INTER_EVENT_H

#include "../trace.h"
#include "../tracing_map.h"

/* Limits of one trigger specification. */
#define IE_MAX_KEYS		TRACING_MAP_KEYS_MAX
#define IE_MAX_VALS		TRACING_MAP_VALS_MAX
#define IE_MAX_VARS		TRACING_MAP_VARS_MAX
#define IE_MAX_SORT		TRACING_MAP_SORT_KEYS_MAX
#define IE_MAX_ACTIONS		8
#define IE_MAX_NAME_LEN		MAX_EVENT_NAME_LEN

/*
 * Error codes.  Each has one message, logged to error_log together with
 * the command and the position of the offending part.
 */
enum ie_err {
	IE_ERR_NOT_IMPLEMENTED,
	IE_ERR_EMPTY_SPEC,
	IE_ERR_NO_KEYS,
	IE_ERR_DUP_KEYS,
	IE_ERR_TOO_MANY_KEYS,
	IE_ERR_TOO_MANY_VALS,
	IE_ERR_TOO_MANY_VARS,
	IE_ERR_TOO_MANY_SORT,
	IE_ERR_TOO_MANY_ACTIONS,
	IE_ERR_EMPTY_ITEM,
	IE_ERR_BAD_NAME,
	IE_ERR_DUP_PARAM,
	IE_ERR_BAD_SIZE,
	IE_ERR_BAD_SORT,
	IE_ERR_BAD_PARAM,
	IE_ERR_BAD_ACTION,
	IE_ERR_UNBALANCED,
	IE_ERR_DUP_VAR,
	IE_ERR_MAX,
};

/*
 * A parsed trigger specification, before field resolution.  All strings
 * point into @buf, a normalized copy of the command owned by the spec.
 * Positions are offsets into the normalized command, which is what
 * error_log shows.
 */
struct ie_spec_item {
	char		*var;		/* "var=" prefix, or NULL */
	char		*expr;		/* field[.mod], expression, $ref ... */
	unsigned int	pos;		/* offset of the item in @buf */
};

struct ie_spec_sort {
	char		*name;		/* key or value name, "hitcount" */
	bool		descending;
	unsigned int	pos;
};

struct ie_spec_action {
	char		*handler;	/* "onmatch", "onmax", "onchange" */
	char		*handler_arg;	/* inside the handler's (), may be "" */
	char		*action;	/* "trace", "save", "snapshot", or a synth name */
	char		*params;	/* inside the action's (), may be "" */
	unsigned int	pos;
};

struct ie_spec {
	char			*buf;
	struct ie_spec_item	keys[IE_MAX_KEYS];
	unsigned int		n_keys;
	struct ie_spec_item	vals[IE_MAX_VALS];
	unsigned int		n_vals;
	struct ie_spec_item	vars[IE_MAX_VARS];	/* assignment-only */
	unsigned int		n_vars;
	struct ie_spec_sort	sort[IE_MAX_SORT];
	unsigned int		n_sort;
	struct ie_spec_action	actions[IE_MAX_ACTIONS];
	unsigned int		n_actions;
	unsigned int		size;		/* 0: default */
	char			*name;		/* name=, or NULL */
	char			*filter;	/* "if ...", or NULL */
	bool			pause;
	bool			cont;
	bool			clear;
	bool			nohitcount;
	/* Set when parsing fails. */
	enum ie_err		err;
	unsigned int		err_pos;
};

int ie_spec_parse(const char *cmd, struct ie_spec *spec);
void ie_spec_free(struct ie_spec *spec);

void ie_log_err(struct trace_array *tr, const char *loc, const char *cmd,
		enum ie_err err, unsigned int pos);

#endif /* _KERNEL_TRACE_INTER_EVENT_H */
