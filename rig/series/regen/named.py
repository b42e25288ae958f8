from reduce import cut, cut_to_end, edit  # noqa: F401
cut('hist.c','/**\n * ie_hist_share_map - make @hist use the map of @owner','/**\n * ie_hist_too_big')
cut('hist.c','/**\n * ie_map_cpu_clear - zero a table','/**\n * ie_hist_create')
cut('trigger.c','/*\n * Share the map of an existing histogram of the same name.','/*\n * A spec refused for one of these')
edit('output.c',[('''	seq_puts(m, "hist:");
	if (data->name)
		seq_printf(m, "name=%s:", data->name);
''','''	seq_puts(m, "hist:");
''')])
edit('trigger.c',[
(''' * Inter-event hist triggers: the 'hist' trigger command and its lifecycle
 * (add, remove, pause, continue, clear, named histograms).''',''' * Inter-event hist triggers: the 'hist' trigger command and its lifecycle
 * (add, remove, pause, continue).'''),
('''		if (!!data->name != !!test->name ||
		    (data->name && strcmp(data->name, test->name)))
			continue;
''',''),
('''	if (data->name)
		del_named_trigger(data);
''',''),
('''/*
 * pause and cont act on one trigger (the framework skips paused ones);
 * clear empties the map, which all triggers of a name share.  One
 * command does one of them, pause first, then cont, as with
 * CONFIG_HIST_TRIGGERS.
 */''','''/*
 * pause and cont act on one trigger (the framework skips paused ones).
 * One command does one of them, pause first, as with
 * CONFIG_HIST_TRIGGERS.
 */'''),
('''	struct ie_hist *hist = ie_data_hist(test);

	if (spec->pause) {''','''	if (spec->pause) {'''),
('''	if (spec->cont) {
		WRITE_ONCE(test->paused, false);
		return;
	}
	/*
	 * No event may touch the map while it is cleared: neither its own
	 * triggers (all of the name) nor the histograms reading its
	 * variables.  They all test m->clearing inside the event path, which
	 * is an RCU-sched read side: once the flag is seen by all CPUs, and
	 * the probes that started before are done, the map is ours alone.
	 */
	if (spec->clear) {
		WRITE_ONCE(hist->m->clearing, true);
		tracepoint_synchronize_unregister();
		ie_map_clear(hist->m);
		ie_map_cpu_clear(hist->m);
		hist->m->since_ns = ktime_get_ns();
		/* Cleared entries are seen before the flag goes. */
		smp_store_release(&hist->m->clearing, false);
	}
}''','''	if (spec->cont)
		WRITE_ONCE(test->paused, false);
}'''),
('''	data->ref = 1;
	data->name = spec->name;	/* for matching only, until saved */
''','''	data->ref = 1;
'''),
('''			/* After the filter parser's own error_log entry. */
			data->name = NULL;
''','''			/* After the filter parser's own error_log entry. */
'''),
('''	/*
	 * Removing by a name no histogram holds yet removes the unnamed
	 * trigger the rest of the spec describes (as CONFIG_HIST_TRIGGERS does);
	 * adding by such a name always makes a new histogram.
	 */
	if (remove && spec->name && !find_named_trigger(spec->name))
		data->name = NULL;
	test = ie_find_match(file, data);
	data->name = NULL;
''','''	/*
	 * Removing by a name (no histogram holds one) removes the unnamed
	 * trigger the rest of the spec describes.
	 */
	test = ie_find_match(file, data);
'''),
('''	if (test && (spec->pause || spec->cont || spec->clear)) {
		ie_hist_control(test, spec);
		ret = 0;
		goto out_free;
	}
	if (spec->cont || spec->clear) {''','''	if (spec->name || spec->clear) {
		err = IE_ERR_NOT_IMPLEMENTED;
		ret = -EINVAL;
		goto out_free_log;
	}
	if (test && (spec->pause || spec->cont)) {
		ie_hist_control(test, spec);
		ret = 0;
		goto out_free;
	}
	if (spec->cont) {'''),
('''
	if (spec->name) {
		ret = ie_hist_attach_named(data, spec, &err);
		if (ret)
			goto out_free_log;
	}
	hist = ie_data_hist(data);''','''
	hist = ie_data_hist(data);'''),
])
