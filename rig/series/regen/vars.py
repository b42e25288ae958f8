from reduce import cut, cut_to_end, edit  # noqa: F401
cut('hist.c', '/*\n * Event path: variable @var\'s new value.',
    '/*\n * Event path: does the trace clock of @hist\'s instance')
edit('hist.c',[
('''			ret = ie_var_add(hist, item->var, f->name, item->pos,
					 err_pos, err);
			if (ret)
				return ret;
		}''','''			*err = IE_ERR_NOT_IMPLEMENTED;
			*err_pos = item->pos;
			return -EINVAL;
		}'''),
('''	/* Assignments first: values may be computed from them. */
	for (i = 0; i < spec->n_vars; i++) {
		item = &spec->vars[i];
		ret = ie_var_add(hist, item->var, item->expr,
				 item->expr_pos, err_pos, err);
		if (ret)
			return ret;
	}
''','''	if (spec->n_vars) {
		*err = IE_ERR_NOT_IMPLEMENTED;
		*err_pos = spec->vars[0].pos;
		return -EINVAL;
	}
'''),
('''		/* "vals=ts0=common_timestamp": a summed value and a variable. */
		if (item->var) {
			ret = ie_var_add(hist, item->var, item->expr,
					 item->expr_pos, err_pos, err);
			if (ret)
				return ret;
		}
''','''		if (item->var) {
			*err = IE_ERR_NOT_IMPLEMENTED;
			return -EINVAL;
		}
'''),
('''	if (hist->n_vars) {
		for (i = 0; i < hist->n_vars; i++)
			s->var_vals[i] = ie_var_value(hist, &hist->vars[i], s,
						      &ctx, rec);
		if (hist->vars_nums)
			ie_vars_save_nums(hist, elt, s->var_vals);
		else
			ie_vars_save(hist, elt, s->var_vals, rec);
	}
''',''),
])
edit('hist.c',[
('''The general way loads keys of the record the same way (keys_loaded)
 * and saves variables that are all numbers inline (vars_nums); a
 * histogram this''','''The general way loads keys of the record the same way
 * (keys_loaded); a histogram this'''),
('''	hist->vars_nums = true;
	for (i = 0; i < hist->n_vars; i++) {
		if (hist->vars[i].str_size)
			hist->vars_nums = false;
	}
''',''),
])
edit('resolve.c',[
('''	kfree(f);
	/* Not a field of this event: the RFC's bare variable name. */
	kfree(text);
	text = kstrdup(leaf->text, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	if (!ie_name_ok(text)) {
		ret = ie_resolve_fail(rs, leaf, err);
		goto out;
	}
ref:
	ret = ie_resolve_var(rs, leaf, text);
''','''	kfree(f);
	ret = ie_resolve_fail(rs, leaf, err);
	goto out;
ref:
	ret = ie_resolve_fail(rs, leaf, IE_ERR_NOT_IMPLEMENTED);
'''),
(''' * An expression's operands are parsed as text (expr.c) and resolved here
 * for the histogram that computes it: each becomes a numeric field of
 * the event or common_timestamp, or, by var.c, a variable: one of the
 * same trigger stands for its expression (inlined), another trigger's is
 * a reference read from its entry.  Then constants are folded and the
 * expression's size is bounded.  The type of a resolved expression is
 * the one synthetic event parameters are checked against.''',''' * An expression's operands are parsed as text (expr.c) and resolved here
 * for the histogram that computes it: each becomes a numeric field of
 * the event or common_timestamp (variables are not supported yet).  Then
 * constants are folded and the expression's size is bounded.  The type
 * of a resolved expression is the one synthetic event parameters are
 * checked against.'''),
(''' * For ie_expr_walk_leaves(): make @leaf a numeric field of the event,
 * common_timestamp, or (ie_resolve_var()) a variable.  The root of an
 * expression that may be a string may be a string or stack trace field.''',''' * For ie_expr_walk_leaves(): make @leaf a numeric field of the event or
 * common_timestamp.  The root of an expression that may be a string may
 * be a string or stack trace field.'''),
(''' * Each operand becomes a numeric field of the event, common_timestamp,
 * the expression of a variable of @hist (inlined) or a reference to
 * another histogram's variable, added to @hist->refs (where it stays
 * even if resolving fails later).  Constant subexpressions are folded;''',''' * Each operand becomes a numeric field of the event or common_timestamp.
 * Constant subexpressions are folded;'''),
(''' * Context: Must be called with event_mutex held (for the lookup of
 * other histograms' variables).
 * Return: 0 or a negative error.
 */
int ie_expr_resolve(''',''' * Context: Must be called with event_mutex held.
 * Return: 0 or a negative error.
 */
int ie_expr_resolve('''),
(''' * The same, but the whole expression may be a string: a string field
 * (a variable's value) or a reference to a string variable (a trace()
 * parameter).  A stack trace field, without modifiers, may be the
 * whole expression too.''',''' * The same, but the whole expression may be a string field or a stack
 * trace field without modifiers.'''),
])
