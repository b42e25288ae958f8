from reduce import cut, cut_to_end, edit  # noqa: F401
edit('hist.c',[
('''	/* Unresolved references: this event doesn't count. */
	if (hist->ref_one) {
		if (!ie_ref_take_one(hist->refs[0].def, hist->ref_tag_off,
				     hist->ref_val_off, key, s->refs, s->elts,
				     mark))
			return;
	} else if (hist->n_refs &&
		   !ie_refs_read(hist, key, s->refs, s->elts, s->strs)) {
		return;
	}
''',''),
('''	hist->ref_one = hist->n_refs == 1 &&
			!hist->refs[0].def->vars[hist->refs[0].var].str_size;
	if (hist->ref_one)
		ie_ref_offsets(&hist->refs[0], &hist->ref_tag_off,
			       &hist->ref_val_off);
''',''),
('''The general way loads keys of the record the same way (keys_loaded),
 * reads a lone numeric reference at offsets set here (ref_one) and saves
 * variables that are all numbers inline (vars_nums); a histogram this''','''The general way loads keys of the record the same way (keys_loaded)
 * and saves variables that are all numbers inline (vars_nums); a
 * histogram this'''),
('''	/* Last, as nothing can fail after it: what we pin. */
	ie_refs_hold(hist);
	hist->holds_pins = true;
	return hist;''','''	return hist;'''),
('''	if (hist->holds_pins)
		ie_refs_release(hist);
''',''),
])
cut('var.c','/*\n * Can @hist look up @def\'s entries with its own key?','/**\n * ie_find_var - look up a variable of a histogram')
cut('var.c','/* The registered histogram defining @name, on @sys:@event if given. */','/* Replace @leaf by the expression of local variable @var. */')
cut('var.c','/* @leaf names another trigger\'s variable: a reference to it. */','/**\n * ie_resolve_var - resolve an operand naming a variable')
cut_to_end('var.c','/*\n * Event path: consume a string variable, copying it')
edit('var.c',[
(''' * Inter-event hist triggers: variables and references to them.
 *
 * A variable keeps a value per histogram entry, set at every hit.  Another
 * histogram refers to it by name ("$ts0", "sched.sched_waking.$ts0", or
 * the RFC's bare "ts0") and reads it, once, from the entry whose key is
 * the key of its own event (or its leading keys, when the defining
 * histogram has fewer).  A reference to a variable of the same
 * trigger stands for that variable's expression.''',''' * Inter-event hist triggers: variables.
 *
 * A variable keeps a value per histogram entry, set at every hit.  A
 * reference to a variable of the same trigger ("$ts0", or the RFC's
 * bare "ts0") stands for that variable's expression.  (References to
 * other triggers' variables are not supported yet.)'''),
(''' * A variable of the same trigger is inlined: @leaf becomes its
 * expression, resolved in turn, at most IE_INLINE_DEPTH deep.  Another
 * trigger's, unique among the instance's hist triggers (or on the
 * event named), becomes a reference (IE_EX_REF), added to the
 * histogram's.  A string variable is only the whole of an expression
 * that may be a string.''',''' * A variable of the same trigger is inlined: @leaf becomes its
 * expression, resolved in turn, at most IE_INLINE_DEPTH deep.  Another
 * trigger's is not supported yet.'''),
('''		return ie_inline_var(rs, leaf, &hist->vars[local]);
	return ie_resolve_ref(rs, leaf, sys, event, name);''','''		return ie_inline_var(rs, leaf, &hist->vars[local]);
	return ie_resolve_fail(rs, leaf, IE_ERR_NOT_IMPLEMENTED);'''),
])
