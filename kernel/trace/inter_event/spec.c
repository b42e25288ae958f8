// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: parser of the trigger specification.
 *
 * This only cuts the text of a hist trigger into its parameters; it does
 * not know the event, so field names and expressions are resolved later.
 * The rules of names (variables, fields, systems and events) are here
 * too: every part that takes a name checks it with them.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "inter_event.h"

struct ie_parser {
	struct ie_spec	*spec;
	char		*base;	/* working copy, same offsets as spec->buf */
};

static const char * const ie_handlers[] = { "onmatch", "onmax", "onchange" };

/* Not isspace(): the kernel's ctype also classifies some Latin-1 bytes. */
static bool ie_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	       c == '\v' || c == '\f';
}

static bool ie_ident_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

static bool ie_valid_name(const char *s)
{
	size_t n;

	for (n = 0; s[n]; n++) {
		if (!ie_ident_char(s[n], !n))
			return false;
	}
	return n && n < IE_MAX_NAME_LEN;
}

static bool ie_in_set(char c, const char *set)
{
	return c && strchr(set, c);
}

static int ie_fail(struct ie_parser *p, enum ie_err err, const char *at)
{
	p->spec->err = err;
	p->spec->err_pos = at - p->base;
	return -EINVAL;
}

/* Replace each line continuation, with the blanks around it, by a space. */
static void ie_join_lines(const char *in, char *out)
{
	size_t i = 0, o = 0;

	while (in[i]) {
		if (in[i] == '\\' && (in[i + 1] == '\n' ||
				      (in[i + 1] == '\r' && in[i + 2] == '\n'))) {
			while (o && (out[o - 1] == ' ' || out[o - 1] == '\t'))
				o--;
			i += in[i + 1] == '\n' ? 2 : 3;
			while (ie_space(in[i]))
				i++;
			out[o++] = ' ';
			continue;
		}
		out[o++] = in[i++];
	}
	out[o] = '\0';
}

/*
 * Copy @in to @out without the blanks at both ends and next to the
 * separators of the spec part.  Blanks outside quotes become spaces.
 * Return the length of @out; *@filter is the offset of the filter in
 * @out, or 0 when there is none.
 */
static size_t ie_squeeze(const char *in, char *out, size_t *filter)
{
	size_t i = 0, j, o = 0;
	int depth = 0;
	bool glued;
	char q = 0;

	*filter = 0;
	while (ie_space(in[i]))
		i++;
	while (in[i]) {
		if (!ie_space(in[i])) {
			if (in[i] == '(')
				depth++;
			else if (in[i] == ')' && depth)
				depth--;
			out[o++] = in[i++];
			continue;
		}
		for (j = i; ie_space(in[j]); j++)
			;
		glued = ie_in_set(out[o - 1], ":,(") || ie_in_set(in[j], ":,)");
		i = j;
		if (glued)
			continue;
		if (!depth)
			break;
		out[o++] = ' ';
	}
	if (in[i]) {
		out[o++] = ' ';
		*filter = o;
	}
	for (; in[i]; i++) {
		char c = in[i];

		if (q && c == q)
			q = 0;
		else if (!q && (c == '"' || c == '\''))
			q = c;
		else if (!q && ie_space(c))
			c = ' ';
		out[o++] = c;
	}
	while (o && ie_space(out[o - 1]))
		o--;
	out[o] = '\0';
	return o;
}

static int ie_check_parens(struct ie_parser *p)
{
	unsigned int depth = 0;
	char *s, *open = NULL;

	for (s = p->base; *s; s++) {
		if (*s == '(') {
			if (!depth++)
				open = s;
		} else if (*s == ')') {
			if (!depth)
				return ie_fail(p, IE_ERR_UNBALANCED, s);
			depth--;
		}
	}
	return depth ? ie_fail(p, IE_ERR_UNBALANCED, open) : 0;
}

/* Cut the next @sep separated part, outside parens, off *@s. */
static char *ie_cut(char **s, char sep)
{
	char *part = *s, *end;
	int depth = 0;

	if (!part)
		return NULL;
	for (end = part; *end && (*end != sep || depth); end++) {
		if (*end == '(')
			depth++;
		else if (*end == ')' && depth)
			depth--;
	}
	*s = *end ? end + 1 : NULL;
	*end = '\0';
	return part;
}

/* @open points at '('; return the matching ')', or NULL. */
static char *ie_close(char *open)
{
	int depth = 0;

	for (; *open; open++) {
		if (*open == '(')
			depth++;
		else if (*open == ')' && !--depth)
			return open;
	}
	return NULL;
}

/* If @param is "@key=VALUE", return VALUE. */
static char *ie_value(char *param, const char *key)
{
	size_t n = strlen(key);

	return strncmp(param, key, n) || param[n] != '=' ? NULL : param + n + 1;
}

static bool ie_in_items(const struct ie_spec_item *items, unsigned int n,
			const char *name)
{
	while (n--) {
		if (items[n].var && !strcmp(items[n].var, name))
			return true;
	}
	return false;
}

static bool ie_var_defined(const struct ie_spec *spec, const char *name)
{
	return ie_in_items(spec->keys, spec->n_keys, name) ||
	       ie_in_items(spec->vals, spec->n_vals, name) ||
	       ie_in_items(spec->vars, spec->n_vars, name);
}

/* "[var=]expr" */
static int ie_parse_item(struct ie_parser *p, char *s, struct ie_spec_item *item)
{
	char *eq = strchr(s, '=');

	item->var = NULL;
	item->expr = s;
	item->pos = s - p->base;
	/* A modifier's argument, as in "bytes.buckets=100", is no variable. */
	if (eq && memchr(s, '.', eq - s))
		eq = NULL;
	if (eq) {
		*eq = '\0';
		if (!ie_valid_name(s))
			return ie_fail(p, IE_ERR_BAD_NAME, s);
		if (ie_var_defined(p->spec, s))
			return ie_fail(p, IE_ERR_DUP_VAR, s);
		item->var = s;
		item->expr = eq + 1;
	}
	item->expr_pos = item->expr - p->base;
	return *item->expr ? 0 : ie_fail(p, IE_ERR_EMPTY_ITEM, s);
}

/*
 * Is the list full for item @s?  Values may have IE_MAX_STATS statistics
 * (".min" and the like) besides their IE_MAX_VALS sums.
 */
static bool ie_list_full(struct ie_parser *p, const struct ie_spec_item *items,
			 unsigned int n, unsigned int max, const char *s)
{
	unsigned int i, stats = 0;
	size_t len;

	if (items != p->spec->vals)
		return n == max;
	for (i = 0; i < n; i++)
		stats += !!ie_stat_suffix(items[i].expr, &len);
	if (ie_stat_suffix(s, &len))
		return stats == IE_MAX_STATS;
	return n - stats == IE_MAX_VALS;
}

static int ie_parse_list(struct ie_parser *p, char *param, char *list,
			 struct ie_spec_item *items, unsigned int *n,
			 unsigned int max, enum ie_err too_many)
{
	char *s;
	int ret;

	if (*n)
		return ie_fail(p, IE_ERR_DUP_PARAM, param);
	while ((s = ie_cut(&list, ','))) {
		/* An empty list or list item: the parameter is incomplete. */
		if (!*s)
			return ie_fail(p, IE_ERR_EMPTY_ITEM, param);
		if (ie_list_full(p, items, *n, max, s))
			return ie_fail(p, too_many, s);
		ret = ie_parse_item(p, s, &items[*n]);
		if (ret)
			return ret;
		(*n)++;
	}
	return 0;
}

static int ie_parse_sort(struct ie_parser *p, char *param, char *list)
{
	struct ie_spec *spec = p->spec;
	struct ie_spec_sort *sort;
	char *s, *dot;

	if (spec->n_sort)
		return ie_fail(p, IE_ERR_DUP_PARAM, param);
	while ((s = ie_cut(&list, ','))) {
		if (!*s)
			return ie_fail(p, IE_ERR_EMPTY_ITEM, param);
		if (spec->n_sort == IE_MAX_SORT)
			return ie_fail(p, IE_ERR_TOO_MANY_SORT, param);
		sort = &spec->sort[spec->n_sort];
		sort->name = s;
		sort->pos = s - p->base;
		sort->descending = false;
		dot = strrchr(s, '.');
		if (dot && (!strcmp(dot, ".descending") ||
			    !strcmp(dot, ".ascending"))) {
			sort->descending = dot[1] == 'd';
			*dot = '\0';
		}
		if (!*s)
			return ie_fail(p, IE_ERR_BAD_SORT, s);
		spec->n_sort++;
	}
	return 0;
}

static int ie_parse_size(struct ie_parser *p, char *param, char *value)
{
	unsigned int size;

	if (p->spec->size)
		return ie_fail(p, IE_ERR_DUP_PARAM, param);
	if (kstrtouint(value, 10, &size) || !size ||
	    size > (1U << IE_MAP_BITS_MAX))
		return ie_fail(p, IE_ERR_BAD_SIZE, param);
	p->spec->size = size;
	return 0;
}

static int ie_parse_name(struct ie_parser *p, char *param, char *value)
{
	if (p->spec->name)
		return ie_fail(p, IE_ERR_DUP_PARAM, param);
	if (!ie_valid_name(value))
		return ie_fail(p, IE_ERR_BAD_NAME, param);
	p->spec->name = value;
	return 0;
}

/* Length of the handler @s starts with ("onmax(" ...), or 0. */
static size_t ie_handler_len(const char *s)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(ie_handlers); i++) {
		n = strlen(ie_handlers[i]);
		if (!strncmp(s, ie_handlers[i], n) && s[n] == '(')
			return n;
	}
	return 0;
}

/* "handler(arg).action(params)" */
static int ie_parse_action(struct ie_parser *p, char *param, size_t len)
{
	struct ie_spec_action *act;
	char *arg_end, *name, *open, *end;

	if (p->spec->n_actions == IE_MAX_ACTIONS)
		return ie_fail(p, IE_ERR_TOO_MANY_ACTIONS, param);
	arg_end = ie_close(param + len);
	if (!arg_end || arg_end[1] != '.')
		return ie_fail(p, IE_ERR_BAD_ACTION, param);
	name = arg_end + 2;
	for (open = name; ie_ident_char(*open, open == name); open++)
		;
	if (open == name || *open != '(')
		return ie_fail(p, IE_ERR_BAD_ACTION, param);
	end = ie_close(open);
	if (!end || end[1])
		return ie_fail(p, IE_ERR_BAD_ACTION, param);
	if (open - name >= IE_MAX_NAME_LEN)
		return ie_fail(p, IE_ERR_BAD_NAME, param);

	act = &p->spec->actions[p->spec->n_actions++];
	act->handler = param;
	act->handler_arg = param + len + 1;
	act->action = name;
	act->params = open + 1;
	act->pos = param - p->base;
	param[len] = '\0';
	*arg_end = '\0';
	*open = '\0';
	*end = '\0';
	return 0;
}

static bool ie_parse_flag(struct ie_spec *spec, const char *s)
{
	if (!strcmp(s, "pause"))
		spec->pause = true;
	else if (!strcmp(s, "cont") || !strcmp(s, "continue"))
		spec->cont = true;
	else if (!strcmp(s, "clear"))
		spec->clear = true;
	else if (!strcmp(s, "nohitcount") || !strcmp(s, "NOHC"))
		spec->nohitcount = true;
	else
		return false;
	return true;
}

static int ie_parse_param(struct ie_parser *p, char *param)
{
	struct ie_spec *spec = p->spec;
	size_t len;
	char *v;
	int ret;

	if (!*param)
		return ie_fail(p, IE_ERR_EMPTY_ITEM, param);
	len = ie_handler_len(param);
	if (len)
		return ie_parse_action(p, param, len);
	if (ie_parse_flag(spec, param))
		return 0;

	v = ie_value(param, "keys") ?: ie_value(param, "key");
	if (v)
		return ie_parse_list(p, param, v, spec->keys, &spec->n_keys,
				     IE_MAX_KEYS, IE_ERR_TOO_MANY_KEYS);
	v = ie_value(param, "vals") ?: ie_value(param, "values");
	if (v)
		return ie_parse_list(p, param, v, spec->vals, &spec->n_vals,
				     IE_MAX_VALS, IE_ERR_TOO_MANY_VALS);
	v = ie_value(param, "sort");
	if (v)
		return ie_parse_sort(p, param, v);
	v = ie_value(param, "size");
	if (v)
		return ie_parse_size(p, param, v);
	v = ie_value(param, "name");
	if (v)
		return ie_parse_name(p, param, v);

	v = ie_value(param, "clock");
	if (v) {
		if (spec->clock)
			return ie_fail(p, IE_ERR_DUP_PARAM, param);
		if (!ie_valid_name(v))
			return ie_fail(p, IE_ERR_BAD_NAME, v);
		spec->clock = v;
		return 0;
	}

	if (!strchr(param, '='))
		return ie_fail(p, IE_ERR_BAD_PARAM, param);
	/* "a=x,b=y": several assignments in one parameter, as listed. */
	while ((v = ie_cut(&param, ','))) {
		if (!*v)
			return ie_fail(p, IE_ERR_EMPTY_ITEM, v);
		if (!strchr(v, '='))
			return ie_fail(p, IE_ERR_BAD_PARAM, v);
		if (spec->n_vars == IE_MAX_VARS)
			return ie_fail(p, IE_ERR_TOO_MANY_VARS, v);
		ret = ie_parse_item(p, v, &spec->vars[spec->n_vars]);
		if (ret)
			return ret;
		spec->n_vars++;
	}
	return 0;
}

/**
 * ie_spec_parse - split a hist trigger specification into its parts
 * @cmd: the text after "hist:", e.g. "keys=pid:ts0=common_timestamp if x>1"
 * @spec: filled in; always release it with ie_spec_free()
 *
 * The command is first normalized into @spec->buf: a backslash-newline
 * and the blanks around it become one space; blanks at both ends, after
 * ':', ',' and '(', and before ':', ',' and ')' go.  The spec then ends
 * at the first blank outside parens; what follows is the filter, which
 * must be "if ...".  The spec is a ':' separated list of parameters:
 *
 *   keys=|key=[var=]expr,...      vals=|values=[var=]expr,...
 *   sort=name[.descending|.ascending],...
 *   size=N   name=NAME   pause   cont|continue   clear   nohitcount|NOHC
 *   onmatch|onmax|onchange(arg).action(params)
 *   var=expr
 *
 * Separators inside parens do not count.  Nothing is resolved here.
 *
 * Return: 0, -ENOMEM, or -EINVAL with @spec->err and @spec->err_pos (an
 * offset into @spec->buf) telling what is wrong and where.
 */
int ie_spec_parse(const char *cmd, struct ie_spec *spec)
{
	struct ie_parser p = { .spec = spec };
	size_t len, filter;
	char *rest, *param;
	int ret;

	memset(spec, 0, sizeof(*spec));
	if (!cmd || !*cmd) {
		spec->err = IE_ERR_EMPTY_SPEC;
		return -EINVAL;
	}

	/* Normalized text first, a copy to cut in pieces after it. */
	len = strlen(cmd);
	spec->buf = kmalloc_array(2, len + 1, GFP_KERNEL);
	if (!spec->buf)
		return -ENOMEM;
	ie_join_lines(cmd, spec->buf + len + 1);
	len = ie_squeeze(spec->buf + len + 1, spec->buf, &filter);
	p.base = spec->buf + len + 1;
	memcpy(p.base, spec->buf, len + 1);
	if (!len)
		return ie_fail(&p, IE_ERR_EMPTY_SPEC, p.base);
	if (filter) {
		p.base[filter - 1] = '\0';
		spec->filter = p.base + filter;
	}

	ret = ie_check_parens(&p);
	if (ret)
		return ret;
	rest = p.base;
	while ((param = ie_cut(&rest, ':'))) {
		/* A ':' ending the spec, as the RFC's examples have it. */
		if (!*param && !rest && param != p.base)
			break;
		ret = ie_parse_param(&p, param);
		if (ret)
			return ret;
	}
	if (spec->filter && (strncmp(spec->filter, "if", 2) ||
			     spec->filter[2] != ' '))
		return ie_fail(&p, IE_ERR_BAD_PARAM, spec->filter);
	if (spec->filter)
		spec->filter_pos = spec->filter + 3 - p.base +
				   strspn(spec->filter + 3, " ");
	if (!spec->n_keys)
		return ie_fail(&p, IE_ERR_NO_KEYS, p.base);
	return 0;
}

/**
 * ie_spec_free - release what ie_spec_parse() allocated
 * @spec: a parsed, failed or zeroed spec
 */
void ie_spec_free(struct ie_spec *spec)
{
	kfree(spec->buf);
	spec->buf = NULL;
}

/**
 * ie_name_ok - whether a string is a valid name
 * @s: the string
 *
 * A name: [A-Za-z_][A-Za-z0-9_]*, shorter than IE_MAX_NAME_LEN.  Names
 * variables, fields and synthetic events.
 *
 * Return: true if @s is one.
 */
bool ie_name_ok(const char *s)
{
	const char *p = s;

	if (!*p || isdigit(*p))
		return false;
	for (; *p; p++) {
		if (!isascii(*p) || (!isalnum(*p) && *p != '_'))
			return false;
	}
	return p - s < IE_MAX_NAME_LEN;
}

/**
 * ie_event_name_ok - whether a string may be a system or event name
 * @s: the string
 *
 * A system or event name in onmatch(system.event) or system.event.field:
 * letters, digits, '_' and '-' (a module's system: "sample-trace", "9p"),
 * not starting with '-'.  Only looked up among existing events.
 *
 * Return: true if @s may be one (and is shorter than IE_MAX_NAME_LEN).
 */
bool ie_event_name_ok(const char *s)
{
	const char *p = s;

	if (!*p || *p == '-')
		return false;
	for (; *p; p++) {
		if (!isascii(*p) || (!isalnum(*p) && *p != '_' && *p != '-'))
			return false;
	}
	return p - s < IE_MAX_NAME_LEN;
}
