/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inter-event hist triggers: design overview, and the internal API
 * shared by the files of kernel/trace/inter_event/ (below).
 *
 * The 'hist' trigger command, hist files and synthetic events, in place
 * of CONFIG_HIST_TRIGGERS and CONFIG_SYNTH_EVENTS.
 *
 * Objects
 *
 * ie_spec_parse() cuts a command into a struct ie_spec (keys, values,
 * assignment-only variables, sort keys, actions, flags) pointing into
 * spec->buf, a normalized copy of the command that error_log positions
 * refer to.  Nothing is resolved there; ie_hist_parse() frees it (a
 * helper's spec is built, not parsed, and freed by ie_hist_add_aux()).
 *
 * ie_hist_create() resolves the spec against the event into a struct
 * ie_hist, the trigger's data->private_data.  Keys and values are struct
 * ie_field: an event field with its modifiers, common_cpu, a stack trace,
 * the hit count (always vals[0]) or an expression (IE_FT_EXPR).  Keys are
 * laid out 8-byte aligned in one compound key of key_size bytes.
 * Expressions (struct ie_expr) are trees of + - * / and unary minus over
 * constants, fields, common_timestamp and variable references.  A
 * reference to a variable of the same trigger is replaced by that
 * variable's expression (ie_inline_var()); IE_EXPR_MAX_LEAVES,
 * IE_EXPR_MAX_HEIGHT and IE_HIST_MAX_LEAVES then bound what one event
 * evaluates and how deep ie_expr_eval() recurses.
 *
 * The entries are in a struct ie_map (index.c): one array of entries
 * (struct ie_elt), allocated whole when the trigger is registered, and
 * the index that finds them by key (struct ie_index).  An entry is its
 * key, its variables and its data, at the map's offsets (ie_elt_key(),
 * ie_elt_var(), ie_elt_data()); its sums (the hit count first) are per
 * CPU (ie_cpu_counts.sums, ie_elt_sums()), added up when read
 * (ie_elt_read_sum()).  A numeric variable (struct ie_var) is one variable
 * of the entry; onmax()/onchange() keep the entry's maximum or last
 * value in one more (ie_action.slot).  The entry data holds, in this
 * order, the task name of an .execname key, the save() slots
 * (ie_actions_reserve()), one atomic64_t read-once tag per variable
 * (tags_off), the copies of string and stack variables (str_off), and
 * last (stats_off: a snapshot copies what is before) the figures of
 * each statistics column (a value with .min, .max, .avg,
 * .stddev or .percentiles: no sum field, see stats.c; stat_off).
 * Triggers of one name= share an ie_map (ie_hist_attach_named(),
 * ie_hist_share_map()); each keeps its own ie_hist.
 *
 * A reference to another trigger's variable is a struct ie_ref: the
 * defining ie_hist and the variable's index, found by ie_find_def() among
 * the instance's registered triggers, helpers excepted.  It looks up the
 * defining map with the referring event's key, whose leading keys must
 * be the defining trigger's (ie_keys_fit()).  Variables are read once:
 * the tag beside a value (see ie_var_peek() below) lets exactly one event
 * consume it, and every hist trigger of that event reads the value it
 * consumed, from the event's mark.  ie_refs_read() succeeds only if
 * every reference of the trigger has a value (one it consumed before
 * failing stays consumed); when it fails, the trigger does not count the
 * event at all.
 *
 * A synthetic event (struct ie_synth_event) is a full trace event of
 * system "synthetic" with a tracepoint of its own, also listed as a
 * dynamic event (ev->devent).  An action (struct ie_action) pairs a
 * handler, IE_ON_MATCH, IE_ON_MAX or IE_ON_CHANGE, with trace() (or the
 * synthetic event's name) generating the event through ie_synth_fire(),
 * save() copying fields into the entry, or snapshot() swapping the
 * instance's buffers through its conditional snapshot and copying the
 * entry into struct ie_snap.
 *
 * An action parameter "system.event.field" gets a helper ("aux") trigger
 * on that event (ie_param_field_var(), ie_hist_add_aux()): an ie_hist with
 * is_aux set and a never-reused aux_id, with the keys and filter of the
 * user's trigger on that event it mirrors (ie_aux.match) and a variable
 * synthetic_<field>, which the parameter references directly.  Helpers
 * are shared when they fit (ie_find_aux()), and are never matched by the
 * user's commands (ie_find_match()), found by name (ie_find_def()) or
 * paused by enable_hist/disable_hist.
 *
 * The event path keeps its buffers (key, reference values, new variable
 * values, action parameters, a synthetic record) in per-CPU struct
 * ie_scratch: IE_CONTEXTS x IE_SCRATCH_NEST slots per CPU, each with its
 * own IE_MAX_STR_REFS string copies (references' strings from the first,
 * stacks taken at the event from the last).  event.c keeps per CPU and
 * context level a struct ie_event_mark for each event whose triggers run
 * (IE_EVENT_NEST deep, then one shared spare): its identity, its one time
 * stamp (ie_event_ts()) and up to IE_EVENT_TAKEN values it consumed
 * (ie_event_take(), ie_mark_take_var()); and a count of the writes of
 * variables made at the level, for their tags (ie_event_write_tag()).
 *
 * Ownership and lifetime
 *
 * data->ref counts the event_trigger_data: 1 for ie_hist_apply(), and 1
 * for the trigger list (event_trigger_init() in ie_hist_reg()).  The last
 * ie_hist_trigger_free() deletes a name (del_named_trigger()), calls
 * trigger_data_free(), which waits for the event path, and only then
 * releases the conditional snapshot (ie_snapshot_release()), the ie_hist
 * (ie_hist_put()) and, last, the event's module.
 *
 * An ie_hist belongs to one trigger, which puts it once (ie_hist_put(),
 * from ie_hist_trigger_free()).  hist->users counts the ie_hists pinning
 * it (ie_refs_hold()): those referring to its variables and those with a
 * helper mirroring it.  A pinned trigger is
 * busy: removing it fails (IE_ERR_VAR_BUSY) and ie_hist_unreg_all() skips
 * it.  Freed while pinned, it is only marked orphan by ie_hist_put(), and
 * the last ie_refs_release() destroys it.  ie_hist_destroy() drops its
 * own pins and its actions' synthetic events' users, frees its ie_snap,
 * removes its helpers when no one else uses them (ie_hist_remove_aux(),
 * by aux_id) and puts its ie_map (ie_map_put(): the entries go at
 * m->ref 0).  ie_synth_event.users counts the actions generating the
 * event; ie_synth_remove() refuses a busy one (ie_synth_busy()).
 *
 * ie_hist_reg() takes, each noted by a flag in data->flags: the instance's
 * conditional snapshot (IE_TRIGGER_FL_SNAPSHOT, ie_snapshot_hold(), first
 * of all); the module of a module's event (IE_TRIGGER_FL_MOD_REF; rmmod
 * fails meanwhile; IE_TRIGGER_FL_MOD_BUSY if the module isn't live); an
 * instance reference, trace_array_get(), for a trigger with variables,
 * references or helpers (IE_TRIGGER_FL_TR_REF; rmdir of the instance
 * fails with EBUSY meanwhile); and filter buffering off while it uses
 * time stamps on a filtered event (IE_TRIGGER_FL_DIRECT).  ie_hist_unreg()
 * gives back the last two, ie_hist_trigger_free() the first two.
 *
 * Locking and concurrency
 *
 * event_mutex serializes all but the event path: parsing, registering and
 * removing triggers (file->triggers changes), hist->users and orphan,
 * ie_map.ref and ready, the lookups of variables and helpers and
 * ie_aux_ids, the synthetic event list and users, ie_scratch_init(),
 * holding and releasing the snapshot, ie_hist_filter_changed(), and the
 * reading of hist and synthetic_events files.
 *
 * The event path takes no mutex; it runs alongside all of that:
 *  - add: the ie_hist, its initialized map and the scratch space
 *    (smp_store_release() in ie_scratch_init()) are complete before
 *    list_add_tail_rcu() publishes the trigger;
 *  - remove: list_del_rcu(), then trigger_data_free() calls
 *    tracepoint_synchronize_unregister() before anything is freed; the
 *    maps others read stay while they are pinned;
 *  - pause, cont, enable_hist and disable_hist write data->paused;
 *  - clear: ie_hist_control() sets ie_map.clearing, waits with
 *    tracepoint_synchronize_unregister(), clears the map and
 *    release-stores the flag back; ie_hist_trigger() and ie_refs_read()
 *    load it with acquire and leave the map alone meanwhile;
 *  - reading a hist file: ie_hist_rows() lists and sorts the entries,
 *    ie_hist_show() prints them live;
 *    sums, vars, tags and counters are atomics, and save() slots, written
 *    without serialization, are printed within their bounds;
 *  - a take (take.c): exchanges each counter of the live entries with 0
 *    while events add to them, and a give-back adds the copies back:
 *    atomics against atomics, each event counted in one interval;
 *  - deleting a synthetic event: only when not busy, after
 *    trace_remove_event_call() and tracepoint_synchronize_unregister();
 *    ie_synth_fire() reads the tracepoint's funcs under RCU-sched;
 *  - removing an instance: refused while a trigger holds a reference;
 *    clear_event_triggers() frees the others through
 *    ie_hist_trigger_free(), grace period included.
 * Events on several CPUs meet in the map (index.c: lock-free lookups;
 * a new key takes a slot with cmpxchg, then an entry with an atomic add,
 * and publishes it with a release) and in cmpxchg or xchg on read-once
 * tags and onmax()/onchange() slots (Kconfig depends on
 * ARCH_HAVE_NMI_SAFE_CMPXCHG); a writer finding a variable's tag busy
 * leaves the variable to the other writer.
 *
 * What every CPU writes: nothing, on a hit of an entry already there
 * (while no hist file is polled: then every hit queues the tree's
 * irq_work that wakes the pollers).  Such a hit reads the index and
 * writes the CPU's own data (its hit and drop counts and its sums of
 * the entry, ie_map.cpu; its current level and scratch slot) and the
 * entry's own (statistics, variables, tags, handler slots: atomics or
 * cmpxchg in the entry).  The map's
 * shared counts of entries (ie_map.next_elt and reserved, on a cache
 * line of their own) are written only by events adding a key; a full
 * map's are only read.  Sums are per CPU, as BPF's per-CPU maps keep
 * them: 8 bytes per sum, entry and possible CPU, each CPU's in an array
 * of its own (node-local), added up when read; a take exchanges each
 * CPU's with 0 (atomics: the CPU may be adding meanwhile).  Past
 * IE_SUMS_PERCPU_MAX for all CPUs, the CPUs share one array of sums.
 * What a hit writes in the entry itself (a statistic: .min, .max, .avg,
 * .stddev, .percentiles; a variable, its tag, a handler's value) is
 * shared by the CPUs hitting it, and, entries being packed in one array,
 * may share a cache line with a neighbour's key, which lookups of that
 * neighbour read; a histogram of keys and sums alone writes none.  The
 * bench's scenarios s2p and s3p run the triggers on all CPUs at once,
 * for their instruction count (QEMU models no caches: no sharing
 * shows).
 *
 * The event path
 *
 * The hist command has EVENT_CMD_FL_NEEDS_REC: its triggers run with the
 * record, in event_triggers_call(), which brackets them with
 * ie_event_begin() and ie_event_end() while the event file
 * has EVENT_FILE_FL_IE_LEVEL (trigger.c: a trigger of the event that is
 * not a simple histogram needs its event's state): begin makes the
 * event's struct ie_event_level the CPU's current one (ie_cur_level)
 * and returns the one before, which event_triggers_call() keeps on its
 * stack and gives back to end.  Per trigger, in order: ie_hist_trigger()
 * as ie_hist_event() (hist.c; a simple histogram: the key on
 * the stack; a flat one, whose keys and sums are numbers of the record
 * as they are: ie_hist_flat_event(), the key, then the entry and its
 * sums, nothing else), with ie_event_scratch() (the
 * current level's slot; none: a drop), the key (ie_field_num(),
 * ie_field_key(), field.c), ie_refs_read() (var.c), ie_event_ts(),
 * ie_map_find_or_add() (index.c; ie_index_add() for a new key)
 * and the sums (ie_expr_eval(), expr.c), the new variable values and
 * ie_vars_save() (var.c), ie_actions_run() (action.c), which may call
 * ie_synth_fire() (below) and ie_snapshot_take() (snapshot.c), then
 * ie_hist_poll_wakeup().  enable_hist/disable_hist (hist_enable.c) also
 * run here.
 *
 * This runs in any context, NMI included: nothing is allocated and no
 * lock is taken but the instance's max_lock in tracing_snapshot_cond(),
 * interrupts off, never in NMI, never twice on one CPU (ie_snapshotting).
 * event.c's event-path functions are notrace and NOKPROBE_SYMBOL; those
 * inline below (ie_event_ts(), ie_mark_take_var(), ie_event_nest_room())
 * run inside their callers, where an event nested at any instruction (a
 * kprobe's) begins at the next depth and uses the next mark.
 *
 * A synthetic event generated by an action nests on the same stack.
 * ie_synth_fire() calls its probes, ie_synth_probe() and
 * ie_synth_perf_probe(), which measure strings into the generating
 * event's scratch; ie_synth_triggers_only() builds an unrecorded event's
 * record in that scratch (rec[], IE_SYNTH_STACK_REC) and calls
 * event_triggers_call(), else ie_synth_record() writes it to the ring
 * buffer between ring_buffer_nest_start() and ring_buffer_nest_end().
 * Either way its triggers are a new event, a level deeper, in the next
 * scratch slot.  ie_event_nest_room() bounds a chain at
 * IE_SYNTH_MAX_DEPTH synthetic events per CPU and context level
 * (IE_SCRATCH_NEST slots: the base event and those), at 1 in NMI, and at
 * fewer if other events with stateful triggers nested first (eprobe,
 * kprobe events); an action
 * not generated counts in actions_dropped, and the hits of events nested
 * deeper than the scratch space count as map drops.
 *
 * Stack: the buffers are in scratch space, a frame over 512 bytes fails
 * the build (Makefile: -Werror=frame-larger-than=512, GCC, no KASAN), and
 * synth-chain-stack.tc requires the stack from the first ie_hist_trigger()
 * to the one three synthetic events deeper to stay within 2048 bytes
 * (3328 with KASAN or KCSAN), counted from ie_hist_trigger()'s entry; it
 * measured 1584 bytes, under 550 a level (3048 on the debug kernel, with
 * KASAN).
 *
 * Files
 *
 *  spec.c         cut a command into a struct ie_spec; nothing resolved;
 *                 the rules of names
 *  field.c        resolve keys and values; read them from a record
 *  expr.c         parse, fold, print and evaluate expressions
 *  resolve.c      resolve the operands of expressions; their types
 *  var.c          variables, references, read-once take and save
 *  hist.c         build an ie_hist and its ie_map; ie_hist_trigger()
 *  index.c        a map's entries and their index by key
 *  action.c       handlers, trace() and save(), helper parameters
 *  snapshot.c     snapshot() and the instance's conditional snapshot
 *  synth.c        synthetic events: define, register, fire, print, remove
 *  synth_file.c   the synthetic_events file and dynamic_events operations
 *  synth_api.c    the in-kernel synthetic event API of trace_events.h
 *  trigger.c      the hist command: parse, register, remove, clear, names
 *  hist_enable.c  the enable_hist and disable_hist commands
 *  output.c       the text of triggers and of hist files
 *  hist_file.c    the per-event hist file, its poll(), and the file
 *                 operations hist_json shares
 *  json.c         the hist_json file: its document and its take command
 *  take.c         hist_json's take: the counts since the last take
 *  stats.c        the statistics value modifiers: .min .max .avg .stddev
 *                 .percentiles; .loglin=N buckets
 *  event.c        event marks and the event path's per-CPU scratch space
 *  errors.h       the error codes and their messages: add an error there
 *  errors.c       the messages of the codes, logged in error_log
 *  *_test.c       KUnit tests: spec, expressions, event marks, layouts,
 *                 statistics, the index
 */
#ifndef _KERNEL_TRACE_INTER_EVENT_H
#define _KERNEL_TRACE_INTER_EVENT_H

#include <linux/hash.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/seq_file.h>
#include <asm/local64.h>

#include "../trace.h"
#include "../trace_dynevent.h"

/* Limits of one trigger specification. */
#define IE_MAX_KEYS		3
#define IE_MAX_VALS		3
/* Keys and sums (the hit count's included) of one map. */
#define IE_MAX_FIELDS		(IE_MAX_KEYS + IE_MAX_VALS)
/* Statistics columns (values with .min, .max, .avg, .stddev, .percentiles). */
#define IE_MAX_STATS		8
/* Variables of a map: the trigger's and onmax()/onchange() slots. */
#define IE_MAX_VARS		16
#define IE_MAX_SORT		2
/* Sums of an entry: the hit count's and those of values, not statistics. */
#define IE_MAX_SUMS		IE_MAX_VALS
/* A map's size, log2 of its entries: size= is rounded up to a power of 2. */
#define IE_MAP_BITS_MIN		7
#define IE_MAP_BITS_DEFAULT	11
#define IE_MAP_BITS_MAX		17
#define IE_MAX_ACTIONS		8
#define IE_MAX_NAME_LEN		MAX_EVENT_NAME_LEN

/*
 * Error codes: IE_ERR_<NAME> for each IE_ERROR(NAME, message) of errors.h.
 * Each has one message, logged to error_log together with the command
 * and the position of the offending part.
 */
#define IE_ERROR(name, ...)	IE_ERR_##name,
enum ie_err {
#include "errors.h"
	IE_ERR_MAX,
};

#undef IE_ERROR

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
	unsigned int	expr_pos;	/* offset of @expr in @buf */
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
	struct ie_spec_item	vals[IE_MAX_VALS + IE_MAX_STATS];
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
	unsigned int		filter_pos;	/* of what follows "if " */
	char			*clock;		/* clock=, or NULL */
	bool			pause;
	bool			cont;
	bool			clear;
	bool			nohitcount;
	/* Set when parsing fails. */
	enum ie_err		err;
	unsigned int		err_pos;
};

/* Field modifiers. */
#define IE_MOD_HEX		BIT(0)
#define IE_MOD_SYM		BIT(1)
#define IE_MOD_SYM_OFFSET	BIT(2)
#define IE_MOD_EXECNAME		BIT(3)
#define IE_MOD_SYSCALL		BIT(4)
#define IE_MOD_LOG2		BIT(5)
#define IE_MOD_BUCKETS		BIT(6)
#define IE_MOD_USECS		BIT(7)
#define IE_MOD_PERCENT		BIT(8)
#define IE_MOD_GRAPH		BIT(9)
#define IE_MOD_STACKTRACE	BIT(10)
#define IE_MOD_MIN		BIT(11)
#define IE_MOD_MAX		BIT(12)
#define IE_MOD_AVG		BIT(13)
#define IE_MOD_STDDEV		BIT(14)
#define IE_MOD_LOGLIN		BIT(15)
#define IE_MOD_PCTL		BIT(16)
#define IE_MOD_STATS		(IE_MOD_MIN | IE_MOD_MAX | IE_MOD_AVG | \
				 IE_MOD_STDDEV | IE_MOD_PCTL)

enum ie_field_type {
	IE_FT_NUM,		/* integer event field, kept as u64 */
	IE_FT_STR,		/* string event field */
	IE_FT_STACK,		/* kernel stack trace at the event */
	IE_FT_HITCOUNT,		/* the entry's hit count */
	IE_FT_CPU,		/* common_cpu */
	IE_FT_EXPR,		/* a value computed by an expression */
};

#define IE_STR_MAX		MAX_FILTER_STR_VAL
#define IE_STACK_DEPTH		16
/*
 * Stacks: frames of ours and of event_triggers_call() looked through
 * (at most), and how many frames to skip if its frame is not found.
 */
#define IE_STACK_OURS		8
#define IE_STACK_SKIP		6
#define IE_KEY_SIZE_MAX		(2 * IE_STR_MAX)

/* A key or value of a histogram, resolved against the event. */
struct ie_field {
	enum ie_field_type	type;
	unsigned long		mods;
	unsigned long		buckets;
	char			*name;		/* field name as shown */
	const struct ftrace_event_field *ev;	/* NULL unless an event field */
	unsigned int		size;		/* bytes taken in the key */
	unsigned int		key_off;	/* offset in the compound key */
	unsigned int		map_idx;	/* a sum's, or a key's, see ie_sort_key */
	unsigned int		stat_off;	/* a statistic's entry data */
	bool			is_signed;
	struct ie_expr		*expr;		/* IE_FT_EXPR */
};

/*
 * A number of the record as a flat histogram loads it (see
 * ie_hist_set_simple()): its offset and width, and the shift that
 * sign-extends it (0 when it is unsigned or 8 bytes wide).  A value's
 * @sum is its index in the entry's sums.
 */
struct ie_load {
	u16	off;
	u8	size;
	u8	shift;
	u16	sum;
};

#define IE_MAX_REFS		16

/*
 * A variable: a value per histogram entry, set at each hit.  A string
 * variable holds a string field of the event (its @expr is that field
 * alone): a copy of @str_size bytes in the entry data at @str_off.
 */
struct ie_var {
	char			*name;
	char			*text;		/* the expression as written */
	struct ie_expr		*expr;
	unsigned int		map_idx;	/* the entry's variable */
	unsigned int		str_size;	/* 0: a number */
	unsigned int		str_off;
	bool			is_stack;	/* a stack trace, not a string */
	unsigned int		str_compat;	/* CONFIG_HIST_TRIGGERS' string size */
	int			stack_slot;	/* a stack taken: its scratch slot */
};

/* References to string variables one trigger may have. */
#define IE_MAX_STR_REFS		4

/*
 * A reference to another histogram's variable, looked up by key.  The
 * value read from a string variable is the address of its copy in the
 * event's scratch space, slot @str_slot.
 */
struct ie_ref {
	struct ie_hist		*def;
	unsigned int		var;		/* index in def->vars */
	unsigned int		str_slot;
};

/* Synthetic events (synth.c). */
#define IE_SYNTH_MAX_FIELDS	16

struct ie_synth_field {
	char			*name;
	char			*type;
	unsigned int		size;
	unsigned int		offset;
	u64			mask;		/* a number's bits in its slot */
	bool			is_signed;
	bool			is_string;
	bool			is_dynamic;	/* char name[]: __data_loc */
	bool			is_stack;	/* unsigned long[]: __data_loc */
	char			*src_system;	/* RFC form: [system:]event:var */
	char			*src_event;
	char			*src_var;
};

struct ie_synth_event {
	struct list_head	list;
	struct dyn_event	devent;		/* on dynamic_events' list */
	char			*name;
	struct ie_synth_field	fields[IE_SYNTH_MAX_FIELDS];
	unsigned int		n_fields;
	unsigned int		size;		/* record size, strings[] apart */
	bool			nums_only;	/* no string or stack field */
	bool			bound;		/* RFC form */
	unsigned int		users;		/* actions generating it */
	struct module		*mod;		/* defined by (the API), or NULL */
	struct tracepoint	tp;
	struct trace_event_class class;
	struct trace_event_fields fields_array[2];
	struct trace_event_call	call;
};

/*
 * Synthetic events generated from the triggers of synthetic events nest
 * on the stack: at most this many levels per CPU and context.
 */
#define IE_SYNTH_MAX_DEPTH	3

struct ie_synth_event *ie_synth_find(const char *name);
/*
 * The values an action gives a synthetic event: a string field's value
 * is the string's address, and @lens bounds its length (the source
 * field's size, its __data_loc length, or IE_STR_MAX for a string
 * variable's copy, which ends within).
 */
struct ie_synth_args {
	u64			vals[IE_SYNTH_MAX_FIELDS];
	u32			lens[IE_SYNTH_MAX_FIELDS];
};

struct ie_synth_event *ie_synth_of_call(struct trace_event_call *call);
void ie_synth_trace_file(struct trace_event_file *file,
			 const struct ie_synth_args *args);
int ie_synth_put(const struct ie_synth_event *ev, u8 *entry, unsigned int i,
		 u64 val);
int ie_synth_create(char *cmd, unsigned int *err_pos);
int ie_synth_delete(const char *name);
int ie_synth_delete_all(void);
int ie_synth_remove(struct ie_synth_event *ev);
bool ie_synth_busy(struct ie_synth_event *ev);
void ie_synth_show_one(struct seq_file *m,
		       const struct ie_synth_event *ev, bool marks);
void ie_synth_show_all(struct seq_file *m);
extern struct dyn_event_operations ie_synth_dyn_ops;

/* Actions (action.c): handler(arg).action(params) on a hist trigger. */
enum ie_handler {
	IE_ON_MATCH,
	IE_ON_MAX,
	IE_ON_CHANGE,
};

struct ie_param {
	struct ie_expr		*expr;		/* numeric value */
	const struct ie_field	*str;		/* or a string field */
	unsigned int		save_off;	/* save(): offset in entry data */
	u16			local;		/* or 1 + a string/stack var's index */
	/* @expr is this trigger's numeric variable: 1 + its index, or 0. */
	u16			num_var;
	/* trace(): @expr is a number of the record, loaded so (else size 0). */
	struct ie_load		load;
};

struct ie_action {
	enum ie_handler		handler;
	char			*text;		/* as listed */
	struct ie_synth_event	*synth;		/* trace(), or NULL: save() */
	bool			snapshot;	/* snapshot() */
	unsigned int		pos;		/* snapshot(): in the spec */
	/* snapshot(): the maximum (or last value) of all entries. */
	atomic64_t		hist_val;
	struct ie_param		params[IE_SYNTH_MAX_FIELDS];
	unsigned int		n_params;
	unsigned int		var;		/* onmax/onchange: watched var */
	unsigned int		slot;		/* map var keeping the max */
	unsigned int		saved_off;	/* save(): entry data flag, set once saved */
};

/*
 * snapshot(): the entry that took the instance's last snapshot, copied
 * under the instance's max_lock by the snapshot's update callback, and
 * read under it.  Allocated with the trigger; only the trigger holding
 * the instance's conditional snapshot writes it.
 */
struct ie_snap {
	bool			taken;
	unsigned int		action;		/* the action that took it */
	u64			value;		/* the handler's value then */
	unsigned int		pos;		/* of the first snapshot() */
	/*
	 * A copy of the entry up to its statistics (ie_snap_size()): the
	 * key, the variables and the entry data before stats_off.
	 */
	u64			elt[] __aligned(8);
};

/* A helper trigger on another event, saving a field for an action. */
#define IE_MAX_AUX		4

struct ie_aux {
	struct trace_event_file		*file;
	u64				id;	/* the helper's aux_id */
	struct ie_hist			*match;	/* the trigger it mirrors */
};

/*
 * A table's hits and drops on one CPU, counted by the event path
 * (__ie_hist_event(), ie_hist_flat_event(), ie_map_count()) and summed
 * by ie_map_totals() into the hist file's totals, and its sums of the
 * table's entries; cleared with the table.
 */
struct ie_cpu_counts {
	local64_t		hits;
	local64_t		drops;
	/* The sums of the entries (n_sums each) counted on this CPU. */
	atomic64_t		*sums;
};

/* The index of a map's entries by key (index.c). */
struct ie_index {
	struct ie_elt		**slots;	/* 1 << bits; NULL: free */
	unsigned int		bits;
	u32			mask;		/* (1 << bits) - 1 */
	unsigned int		shift;		/* 64 - bits */
	unsigned int		words;		/* key size in u64 words */
};

/*
 * A map's sums are per CPU while all possible CPUs' take at most this
 * much (and can be had); past it, one array for all CPUs (atomics shared
 * as entries are).
 */
#define IE_SUMS_PERCPU_MAX	SZ_32M

/*
 * A histogram's map and what its entries hold.  The triggers of one name
 * share it; each has its own struct ie_hist, resolved against its own
 * event's fields.  @ref and @ready change under event_mutex only.
 */
struct ie_map {
	struct ie_index		index;
	u8			*elts;		/* max_elts entries, elt_size each */
	unsigned int		max_elts;
	/* An entry's layout (ie_map_layout()), in bytes. */
	unsigned int		elt_size;
	u64			num_mul;	/* ie_elt_num(): ~2^32 / elt_size */
	unsigned int		key_size;
	unsigned int		vars_off;	/* n_vars atomic64_t */
	unsigned int		data_off;	/* elt_data_size bytes */
	unsigned int		n_sums;		/* per entry, in ie_cpu_counts */
	unsigned int		n_vars;
	struct ie_cpu_counts __percpu *cpu;
	/* One array of sums for all CPUs (too large per CPU, see index.c). */
	bool			sums_shared;
	/* Entries copied by a take: their sums, not per CPU (take.c). */
	atomic64_t		*sums;
	unsigned int		ref;		/* histograms using it */
	bool			ready;		/* entries allocated */
	bool			clearing;	/* being cleared: don't touch */
	bool			has_execname;
	unsigned int		elt_data_size;	/* per-entry private data */
	u64			since_ns;	/* made, cleared or taken */
	/* Written when a key is added: apart from what every hit reads. */
	atomic_t		next_elt ____cacheline_aligned_in_smp;	/* taken */
	atomic_t		reserved;	/* taken, or slot being taken */
};

/*
 * An entry of a map: a block of ie_map.elt_size bytes in the map's array,
 * laid out by ie_map_layout(): the key first (an entry's address is its
 * key's), then the variables and the entry data.  Its sums are per CPU,
 * at its number in the array (ie_elt_num()).
 */
struct ie_elt;

static inline u64 *ie_elt_key(struct ie_elt *elt)
{
	return (u64 *)elt;
}

/* The number of @elt in its map's array: (elt - elts) / elt_size. */
static __always_inline unsigned int ie_elt_num(const struct ie_map *m,
					       struct ie_elt *elt)
{
	/*
	 * Exact for a whole multiple k of elt_size below 2^31 (arrays are
	 * under INT_MAX bytes): num_mul * elt_size is 2^32 + e, e below
	 * elt_size, so the product is k * 2^32 + k * e, and k * e is below
	 * the offset, below 2^32.  The product stays below 2^63: 64-bit
	 * arithmetic (a 128-bit one would have the frame realigned).
	 */
	return ((u64)((u8 *)elt - m->elts) * m->num_mul) >> 32;
}

/* Event path: the sums of @elt counted on this CPU, whose counts are @c. */
static __always_inline atomic64_t *ie_elt_sums(const struct ie_map *m,
					       struct ie_cpu_counts *c,
					       struct ie_elt *elt)
{
	return c->sums + (size_t)ie_elt_num(m, elt) * m->n_sums;
}

/*
 * The CPUs whose sums differ: every possible CPU, or one when they share
 * their sums (ie_map.sums_shared).
 */
#define for_each_ie_sums_cpu(m, cpu)					\
	for_each_cpu(cpu, (m)->sums_shared ?				\
		     cpumask_of(cpumask_first(cpu_possible_mask)) :	\
		     cpu_possible_mask)

/* Sum @i of @elt as counted on @cpu. */
static inline atomic64_t *ie_elt_cpu_sum(const struct ie_map *m, int cpu,
					 struct ie_elt *elt, unsigned int i)
{
	return ie_elt_sums(m, per_cpu_ptr(m->cpu, cpu), elt) + i;
}

void ie_elt_read_sums(const struct ie_map *m, struct ie_elt *elt, u64 *sums);
u64 ie_elt_read_sum(const struct ie_map *m, struct ie_elt *elt,
		    unsigned int i);

static inline atomic64_t *ie_elt_var(const struct ie_map *m,
				     struct ie_elt *elt, unsigned int i)
{
	return (atomic64_t *)((u8 *)elt + m->vars_off) + i;
}

/* The entry data, or NULL if the map's entries have none. */
static inline void *ie_elt_data(const struct ie_map *m, struct ie_elt *elt)
{
	return m->elt_data_size ? (u8 *)elt + m->data_off : NULL;
}

/*
 * A sort key: a sum (field_idx < the map's n_sums: the sum's index) or a
 * key (field_idx - n_sums: the key's index).  Fields are numbered as
 * ie_hist_build_map() gives them out: the sums, then the keys.
 */
struct ie_sort_key {
	unsigned int		field_idx;
	bool			descending;
};

struct ie_hist {
	struct trace_event_file	*file;
	struct ie_map		*m;
	struct ie_field		keys[IE_MAX_KEYS];
	unsigned int		n_keys;
	/* vals[0]: hitcount; sums and statistics columns as listed */
	struct ie_field		vals[IE_MAX_VALS + 1 + IE_MAX_STATS];
	unsigned int		n_vals;
	unsigned int		n_stats;	/* of them, statistics */
	bool			pctl;		/* one is .percentiles */
	unsigned int		stats_off;	/* entry data: statistics last */
	struct ie_sort_key	sort[IE_MAX_SORT];
	/* A sort key that is a statistic: its index in vals (else 0). */
	unsigned int		sort_stat[IE_MAX_SORT];
	unsigned int		n_sort;
	unsigned int		key_size;
	bool			key_pad;	/* keys that don't fill their size */
	/* All numbers, 8 bytes each, no modifier that changes the value. */
	bool			plain_keys;
	/* Plain keys, nothing shared with other events: no event state. */
	bool			simple;
	/* Plain keys, numbers of the record as they are: flat_keys[]. */
	bool			keys_loaded;
	/* One reference, to a number: ie_ref_take_one(), at these offsets. */
	bool			ref_one;
	unsigned int		ref_tag_off;
	unsigned int		ref_val_off;
	/* Variables, all numbers: ie_vars_save_nums(). */
	bool			vars_nums;
	/*
	 * Simple, and its keys and sums numbers of the record as they are:
	 * the event path loads them with flat_keys[] and flat_vals[].
	 */
	bool			flat;
	unsigned int		n_flat_vals;
	struct ie_load		flat_keys[IE_MAX_KEYS];
	struct ie_load		flat_vals[IE_MAX_VALS];
	unsigned int		map_bits;
	bool			nohitcount;
	bool			has_execname;
	bool			is_aux;		/* a helper trigger of ours */
	u64			aux_id;		/* a helper's identity, never reused */
	bool			orphan;		/* trigger freed while referenced */
	struct ie_var		vars[IE_MAX_VARS];
	unsigned int		n_vars;
	struct ie_ref		refs[IE_MAX_REFS];
	unsigned int		n_refs;
	unsigned int		n_str_refs;	/* of them, to string vars */
	unsigned int		n_stack_vars;	/* stacks taken into scratch */
	unsigned int		users;		/* references to our vars */
	bool			uses_ts;
	/* Event path: the clock last seen, see ie_hist_ts_raw() (hist.c). */
	unsigned int		clock_seen;
	unsigned int		n_leaves;	/* operands, inlined: at most evaluated */
	char			*clock;
	/* Pins others: ie_refs_hold(), ie_actions_pin() done. */
	bool			holds_pins;
	struct ie_action	actions[IE_MAX_ACTIONS];
	unsigned int		n_actions;
	unsigned int		elt_data_size;	/* per-entry private data */
	unsigned int		tags_off;	/* the vars' read-once tags */
	struct ie_aux		aux[IE_MAX_AUX];	/* field variable helpers */
	unsigned int		n_aux;
	atomic64_t		actions_dropped;	/* past the nesting bound */
	struct ie_snap		*snap;		/* has a snapshot() action */
};

/*
 * Expressions: operands combined with + - * / and unary minus, with
 * parentheses.  Leaves are parsed as text and resolved by the histogram
 * that uses them (fields, common_timestamp, variable references).
 */
enum ie_expr_kind {
	IE_EX_LEAF,		/* operand not resolved yet: @text */
	IE_EX_CONST,
	IE_EX_FIELD,
	IE_EX_TIMESTAMP,
	IE_EX_CPU,
	IE_EX_REF,
	IE_EX_ADD,
	IE_EX_SUB,
	IE_EX_MUL,
	IE_EX_DIV,
	IE_EX_NEG,
};

#define IE_EXPR_MAX_OPERANDS	4	/* in the text of one expression */
/*
 * With the trigger's own variables inlined: operands and height of one
 * expression, and operands of all of a trigger's expressions (what an
 * event evaluates, at most).
 */
#define IE_EXPR_MAX_LEAVES	16
#define IE_EXPR_MAX_HEIGHT	16
#define IE_HIST_MAX_LEAVES	128

struct ie_expr {
	enum ie_expr_kind	kind;
	struct ie_expr		*l, *r;		/* an operator's operands */
	char			*text;		/* a leaf as written, then as shown */
	unsigned int		pos;		/* a leaf's or minus' offset */
	u64			konst;		/* IE_EX_CONST */
	bool			usecs;		/* IE_EX_TIMESTAMP */
	struct ie_field		*field;		/* IE_EX_FIELD */
	unsigned int		ref;		/* IE_EX_REF: index into refs */
	char			*alias;		/* "$var" inlined here, as listed */
};

struct ie_eval_ctx {
	void		*rec;
	u64		ts;
	bool		ts_raw;		/* clock not in ns: .usecs is @ts */
	const u64	*refs;
};

int ie_expr_parse(const char *text, struct ie_expr **out,
		  unsigned int *err_pos, enum ie_err *err);
void ie_expr_free(struct ie_expr *e);
int ie_expr_cmp(const struct ie_expr *a, const struct ie_expr *b);
const struct ie_expr *ie_expr_div_by_zero(const struct ie_expr *e);
int ie_expr_fold(struct ie_expr *e);
u64 ie_expr_eval(const struct ie_expr *e, const struct ie_eval_ctx *ctx);
int ie_expr_print(const struct ie_expr *e, char *buf, size_t len);
int ie_expr_print_expanded(const struct ie_expr *e, char *buf, size_t len);
void ie_expr_size(const struct ie_expr *e, unsigned int *leaves,
		  unsigned int *height);
typedef int (*ie_leaf_fn_t)(struct ie_expr *leaf, void *arg);
int ie_expr_walk_leaves(struct ie_expr *e, ie_leaf_fn_t fn, void *arg);

/* field.c */
int ie_field_resolve(struct ie_hist *hist, struct ie_field *f, char *text,
		     bool is_key, enum ie_err *err);
void ie_field_free(struct ie_field *f);

/* stats.c: the statistics value modifiers. */
const char *ie_stat_name(unsigned long mods);
unsigned long ie_stat_suffix(const char *text, size_t *len);
unsigned int ie_stat_size(unsigned long mods);
void ie_stat_update(const struct ie_field *f, void *data, u64 v);
u64 ie_stat_read(const struct ie_field *f, const void *data, u64 count);
bool ie_stat_take(const struct ie_field *f, void *data, void *copy);
void ie_stat_give_back(const struct ie_field *f, void *data, const void *copy);
u64 ie_stat_read_elt(const struct ie_map *m, const struct ie_field *f,
		     struct ie_elt *elt, unsigned int hits_idx);
u64 ie_u64_mul(u64 a, u64 b, u64 *hi);
u64 ie_u128_div(u64 hi, u64 lo, u64 d);
u64 ie_stat_stddev(u64 n, u64 sh, u64 sl, u64 qh, u64 ql, bool is_signed);

/*
 * Log-linear buckets (.loglin=N): each power-of-two range split into 2^N
 * equal sub-buckets; a bucket is at most 2^-N of its lowest value wide.
 */
#define IE_LOGLIN_MAX_BITS	8
u64 ie_loglin_floor(u64 v, unsigned int bits);
u64 ie_loglin_last(u64 floor, unsigned int bits);

/*
 * .percentiles: per entry, a count for each bucket of .loglin=5 (32 per
 * power of two) of the values below 39 * 2^30, one for all above, and
 * the exact maximum.  A quantile is shown as its bucket's middle value:
 * within 1/64 of the exact one.  The entries of a table with a sketch
 * take at most IE_PCTL_MAX_BYTES.
 */
#define IE_PCTL_BITS		5
#define IE_PCTL_BUCKETS		1000
#define IE_PCTL_MAX_BYTES	(32U << 20)
#define IE_PCTL_N		5	/* p50 p90 p99 p999 p100 */
struct ie_pctl {
	atomic64_t	max;
	atomic_t	wrapped;	/* a bucket counted 2^31 values */
	atomic_t	n[IE_PCTL_BUCKETS];
};

unsigned int ie_pctl_index(u64 v);
u64 ie_pctl_floor(unsigned int i);
void ie_pctl_read(const struct ie_pctl *pc, u32 *copy, u64 *out);
extern const char *const ie_pctl_names[IE_PCTL_N];

/* A numeric field of the record (or the CPU), as a u64.  Event path. */
static inline u64 ie_field_num(const struct ie_field *f, void *rec)
{
	void *p;

	if (f->type == IE_FT_CPU)
		return raw_smp_processor_id();

	p = rec + f->ev->offset;
	switch (f->ev->size) {
	case 1:
		return f->is_signed ? (u64)(s64)*(s8 *)p : *(u8 *)p;
	case 2:
		return f->is_signed ? (u64)(s64)*(s16 *)p : *(u16 *)p;
	case 4:
		return f->is_signed ? (u64)(s64)*(s32 *)p : *(u32 *)p;
	default:
		return *(u64 *)p;
	}
}

/*
 * Nanoseconds to microseconds rounded to the nearest, as the trace file
 * prints time stamps: common_timestamp.usecs is the time shown there.
 */
static __always_inline u64 ie_ns_to_us(u64 ns)
{
	u32 rem;
	u64 us = div_u64_rem(ns, NSEC_PER_USEC, &rem);

	return us + (rem >= NSEC_PER_USEC / 2);
}

/* Event path: common_timestamp of the event (@e); see ie_expr_eval(). */
static __always_inline u64 ie_ts_value(const struct ie_expr *e,
				       const struct ie_eval_ctx *ctx)
{
	/* A clock not counting in ns (counter, TSC) has no usecs. */
	return e->usecs && !ctx->ts_raw ? ie_ns_to_us(ctx->ts) : ctx->ts;
}

/*
 * Event path: ie_expr_eval() of @e, its commonest leaves (a field, a time
 * stamp, a reference) without a call.
 */
static __always_inline u64 ie_expr_value(const struct ie_expr *e,
					 const struct ie_eval_ctx *ctx)
{
	switch (e->kind) {
	case IE_EX_FIELD:
		return ie_field_num(e->field, ctx->rec);
	case IE_EX_TIMESTAMP:
		return ie_ts_value(e, ctx);
	case IE_EX_REF:
		return ctx->refs[e->ref];
	default:
		return ie_expr_eval(e, ctx);
	}
}

/* Event path: the number @l describes, as ie_field_num() reads it. */
static __always_inline u64 ie_load_num(const struct ie_load *l,
				       const void *rec)
{
	const void *p = rec + l->off;
	u64 v;

	if (l->size == 8)
		return *(const u64 *)p;
	if (l->size == 4)
		v = *(const u32 *)p;
	else if (l->size == 2)
		v = *(const u16 *)p;
	else
		v = *(const u8 *)p;
	return (u64)((s64)(v << l->shift) >> l->shift);
}

/*
 * Read-once variables.  Each variable of an entry has a tag beside its
 * value (an entry's variable): 0 when it holds no unread value, odd while
 * an event writes it, else the even tag of the write that stored it (see
 * ie_event_write_tag()), never the same twice.  A writer takes the tag
 * from even or 0 to odd, stores the value and publishes its own tag; a
 * writer finding it odd leaves the value to the other writer.  A reader
 * reads the tag, then the value, then takes the tag from what it read to
 * 0: if that fails a writer came in between (its value may be the one
 * just read), and the reader tries again.  So a value is consumed by one
 * event, and the value it consumed is the one the tag announced.
 */
#define IE_TAG_BUSY		1ULL
#define IE_TAKE_TRIES		4

static inline atomic64_t *ie_var_tag(const struct ie_hist *hist,
				     struct ie_elt *elt, unsigned int var)
{
	return ie_elt_data(hist->m, elt) + hist->tags_off +
	       var * sizeof(atomic64_t);
}

/* First half of a take: the tag and the value it announces, if any. */
static inline bool ie_var_peek(atomic64_t *tag, atomic64_t *val, s64 *t,
			       u64 *v)
{
	/* Pairs with the release of the writer's tag. */
	*t = atomic64_read_acquire(tag);
	if (!*t || (*t & IE_TAG_BUSY))
		return false;
	*v = atomic64_read(val);
	return true;
}

/*
 * Second half: consume the value if the tag is still the one peeked.  A
 * successful cmpxchg is fully ordered: the value was read before it.
 */
static inline bool ie_var_confirm(atomic64_t *tag, s64 t)
{
	return atomic64_try_cmpxchg(tag, &t, 0);
}

/*
 * First half of a write (ie_vars_save()): take the tag to odd, unless
 * another event is writing the variable (then leave it to that one).
 */
static __always_inline bool ie_var_claim(atomic64_t *tag)
{
	s64 old = atomic64_read(tag);

	do {
		if (old & IE_TAG_BUSY)
			return false;
	} while (!atomic64_try_cmpxchg(tag, &old, IE_TAG_BUSY));
	return true;
}

/**
 * ie_var_take - consume the value of a variable
 * @tag: the variable's read-once tag in its entry
 * @val: the variable's value in its entry
 * @v: set to the value consumed
 *
 * Event path: consume the value of a variable (see ie_var_peek()),
 * trying IE_TAKE_TRIES times while writers replace it.
 *
 * Context: event path, any context including NMI.
 * Return: true if a value was consumed; false if there is none, or if
 * writers kept replacing it.
 */
static __always_inline bool ie_var_take(atomic64_t *tag, atomic64_t *val,
					u64 *v)
{
	unsigned int tries;
	s64 t;

	for (tries = 0; tries < IE_TAKE_TRIES; tries++) {
		if (!ie_var_peek(tag, val, &t, v))
			return false;
		if (ie_var_confirm(tag, t))
			return true;
	}
	return false;
}

void ie_field_key(const struct ie_field *f, void *rec, void *key);
void __init ie_field_init(void);
const char *ie_field_str_ptr(const struct ie_field *f, void *rec,
			     unsigned int *len);

int ie_field_display_name(const struct ie_field *f, char *buf, size_t len);

/* resolve.c */
/* The state of one expression's resolution (resolve.c and var.c). */
struct ie_resolver {
	struct ie_hist	*hist;
	unsigned int	depth;
	unsigned int	*err_pos;
	enum ie_err	*err;
	struct ie_expr	*root;
	bool		allow_str;	/* the root may be a string */
};

/* Fail resolving at @leaf with @err. */
static inline int ie_resolve_fail(struct ie_resolver *rs,
				  struct ie_expr *leaf, enum ie_err err)
{
	*rs->err = err;
	*rs->err_pos = leaf->pos;
	return -EINVAL;
}

int ie_resolve_leaf(struct ie_expr *leaf, void *arg);
int ie_expr_resolve(struct ie_hist *hist, struct ie_expr *e,
		    unsigned int *err_pos, enum ie_err *err);
int ie_expr_resolve_str(struct ie_hist *hist, struct ie_expr *e,
			unsigned int *err_pos, enum ie_err *err);
bool ie_expr_is_str(const struct ie_hist *hist, const struct ie_expr *e,
		    unsigned int *size);
bool ie_expr_is_stack(const struct ie_hist *hist, const struct ie_expr *e);

struct ie_type {
	const char	*name;
	unsigned int	size;
	bool		is_signed;
};

void ie_expr_type(const struct ie_hist *hist, const struct ie_expr *e,
		  struct ie_type *t);

/* The variable reference @e (an IE_EX_REF of @hist) reads. */
static inline const struct ie_var *ie_ref_var(const struct ie_hist *hist,
					      const struct ie_expr *e)
{
	const struct ie_ref *ref = &hist->refs[e->ref];

	return &ref->def->vars[ref->var];
}

/* var.c */
int ie_resolve_var(struct ie_resolver *rs, struct ie_expr *leaf, char *text);
int ie_find_var(struct ie_hist *hist, const char *name);
int ie_var_add(struct ie_hist *hist, const char *name, const char *text,
	       unsigned int pos, unsigned int *err_pos, enum ie_err *err);
int ie_ref_add(struct ie_hist *hist, struct ie_hist *def, unsigned int var);
void ie_vars_save(struct ie_hist *hist, struct ie_elt *elt,
		  const u64 *vals, void *rec);
bool ie_refs_read(struct ie_hist *hist, void *key, u64 *vals,
		  struct ie_elt **elts, char *strs);
void ie_refs_release(struct ie_hist *hist);
void ie_refs_hold(struct ie_hist *hist);

/* hist.c */
struct ie_hist *ie_hist_create(struct trace_event_file *file,
			       struct ie_spec *spec, unsigned int *err_pos,
			       enum ie_err *err);
int ie_hist_init_map(struct ie_hist *hist);
int ie_hist_share_map(struct ie_hist *hist, struct ie_hist *owner);
void ie_map_cpu_counts(struct ie_map *m, int cpu, u64 *hits, u64 *drops);
void ie_map_cpu_clear(struct ie_map *m);

/* Event path: one more hit (or drop) of the table on this CPU. */
static __always_inline void ie_map_count(struct ie_map *m, bool hit)
{
	struct ie_cpu_counts *c = this_cpu_ptr(m->cpu);

	local64_inc(hit ? &c->hits : &c->drops);
}

void ie_map_put(struct ie_map *m);
void ie_map_totals(struct ie_map *m, u64 *hits, u64 *drops);

bool ie_hist_too_big(const struct ie_hist *hist);
void ie_hist_set_simple(struct ie_hist *hist);
bool ie_field_loadable(const struct ie_field *f, struct ie_load *l);
void ie_hist_destroy(struct ie_hist *hist);
#if IS_ENABLED(CONFIG_INTER_EVENT_HIST_KUNIT_TEST)
void ie_hist_event(struct ie_hist *hist, void *rec,
		   struct trace_buffer *buffer, struct ring_buffer_event *rbe);
#endif
void ie_hist_trigger(struct event_trigger_data *data,
		     struct trace_buffer *buffer, void *rec,
		     struct ring_buffer_event *rbe);
bool ie_hist_compatible(struct ie_hist *a, struct ie_hist *b);

/* index.c */
int ie_map_layout(struct ie_map *m, unsigned int key_size,
		  unsigned int n_sums, unsigned int n_vars,
		  unsigned int data_size);
int ie_map_alloc(struct ie_map *m, unsigned int map_bits);
void ie_map_free(struct ie_map *m);
void ie_map_clear(struct ie_map *m);
struct ie_elt *ie_index_add(struct ie_map *m, const u64 *key);

/* A multiplicative hash of a key's words; its top bits pick the slot. */
static __always_inline u64 ie_index_hash64(const struct ie_index *ix,
					   const u64 *key)
{
	u64 h = key[0];
	unsigned int i;

	for (i = 1; i < ix->words; i++)
		h = h * GOLDEN_RATIO_64 ^ key[i];
	return h * GOLDEN_RATIO_64;
}

static __always_inline u32 ie_index_hash(const struct ie_index *ix,
					 const u64 *key)
{
	/* Top bits, as hash_64() on 64-bit. */
	return ie_index_hash64(ix, key) >> ix->shift;
}

/*
 * A slot taken by an event adding a key, until the entry is published:
 * odd (entries are 8-byte aligned), the key's hash (see index.c).
 */
static __always_inline bool ie_index_is_mark(const struct ie_elt *elt)
{
	return (unsigned long)elt & 1;
}

static __always_inline struct ie_elt *ie_index_mark(const struct ie_index *ix,
						    const u64 *key)
{
	u64 h = ie_index_hash64(ix, key);

	/* Both halves count where a pointer has 32 bits. */
	return (struct ie_elt *)((unsigned long)(h ^ (h >> 32)) | 1);
}

static __always_inline bool ie_index_key_eq(const struct ie_index *ix,
					    const u64 *a, const u64 *b)
{
	unsigned int i;

	if (a[0] != b[0])
		return false;
	for (i = 1; i < ix->words; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/*
 * Event path: the entry of @key in the index @ix, or NULL if it has none
 * (yet).  The key may be longer than the map's: its leading words are
 * looked up (a reference's key, see ie_keys_fit()).
 */
static __always_inline struct ie_elt *
ie_index_find(const struct ie_index *ix, const u64 *key)
{
	u32 i = ie_index_hash(ix, key);
	struct ie_elt *elt;

	for (;; i = (i + 1) & ix->mask) {
		elt = READ_ONCE(ix->slots[i]);
		if (!elt)
			return NULL;
		/* A key being added: not there yet. */
		if (!ie_index_is_mark(elt) &&
		    ie_index_key_eq(ix, ie_elt_key(elt), key))
			return elt;
	}
}

/* Event path: the entry of @key in @m, added if new; NULL: @m is full. */
static __always_inline struct ie_elt *
ie_map_find_or_add(struct ie_map *m, const u64 *key)
{
	struct ie_elt *elt = ie_index_find(&m->index, key);

	if (likely(elt))
		return elt;
	/* Full: a drop costs no call (the bound: see __ie_index_add()). */
	if (atomic_read(&m->reserved) >= m->max_elts)
		return NULL;
	return ie_index_add(m, key);
}

/* event.c: the event whose triggers run, per CPU and context level. */
#define IE_CONTEXTS		4	/* task, softirq, hardirq, NMI */
#define IE_EVENT_NEST		8	/* events nested with a mark each */
#define IE_EVENT_TAKEN		16	/* variable values one event consumes */

struct ie_event_taken {
	const void	*slot;		/* the variable's tag in its entry */
	u64		val;
};

/*
 * An event whose triggers run on this CPU and context level: its
 * sequence number, once a trigger asked for it its time stamp, and the
 * variable values its triggers consumed (read once, by all of them).
 */
struct ie_event_mark {
	u64			seq;
	u64			ts;
	bool			have_ts;
	u8			n_taken;
	struct ie_event_taken	taken[IE_EVENT_TAKEN];
};

/*
 * Scratch space of the event path, per CPU, context level and nesting
 * depth, so that the event path's buffers are not on the stack: the
 * triggers of an event at depth d use slot d - 1; a synthetic event
 * built for its triggers only is laid out in the slot of the event whose
 * action generates it (its own triggers run one slot deeper).  Events
 * nested deeper than IE_SCRATCH_NEST at one level run no hist trigger:
 * their hits count as dropped.  That is the base event and
 * IE_SYNTH_MAX_DEPTH synthetic events generated in a chain.
 */
#define IE_SCRATCH_NEST		(IE_SYNTH_MAX_DEPTH + 1)
#define IE_SYNTH_STACK_REC	256	/* a record built in scratch space */

struct ie_scratch {
	u64			key[IE_KEY_SIZE_MAX / sizeof(u64)];
	u64			refs[IE_MAX_REFS];
	u64			var_vals[IE_MAX_VARS];
	struct ie_synth_args	params;
	u32			str_lens[IE_SYNTH_MAX_FIELDS];	/* measured */
	struct ie_elt	*elts[IE_MAX_REFS];
	u64			rec[IE_SYNTH_STACK_REC / sizeof(u64)];
	/*
	 * Copies of string variables, IE_MAX_STR_REFS x IE_STR_MAX bytes:
	 * an area of its own (per-CPU memory comes in units of 32 KB).
	 */
	char			*strs;
};

/* The events of one context level on one CPU (event.c). */
struct ie_event_level {
	unsigned int		depth;		/* events begun, not ended */
	/* This CPU's IE_SCRATCH_NEST slots for the level, once allocated. */
	struct ie_scratch	*scratch;
	local64_t		next;		/* last sequence number given */
	local64_t		writes;		/* write tags given */
	u64			tag_base;	/* see ie_event_write_tag() */
	struct ie_event_mark	marks[IE_EVENT_NEST + 1];	/* + the spare */
};

DECLARE_PER_CPU(struct ie_event_level [IE_CONTEXTS], ie_event_levels);
/* The level of the innermost event whose triggers run, or NULL. */
DECLARE_PER_CPU(struct ie_event_level *, ie_cur_level);
struct ie_event_level *ie_ctx_level_slow(void);

/*
 * The level of the event whose triggers run: the current one; outside
 * any event (only KUnit asks), the context's.
 */
static __always_inline struct ie_event_level *ie_this_level(void)
{
	struct ie_event_level *lv = __this_cpu_read(ie_cur_level);

	return likely(lv) ? lv : ie_ctx_level_slow();
}

/*
 * Event path (preemption off), any context including NMI: the scratch
 * space of the event whose triggers run, or NULL if it is nested too
 * deep (or no hist trigger was ever added).  The slot is that of this
 * CPU, the event's context level and its nesting depth at the level.
 */
static __always_inline struct ie_scratch *
ie_level_scratch(struct ie_event_level *lv, unsigned int depth)
{
	struct ie_scratch *sc = READ_ONCE(lv->scratch);
	unsigned int slot = depth ? depth - 1 : 0;

	if (unlikely(!sc || slot >= IE_SCRATCH_NEST))
		return NULL;
	return sc + slot;
}

static __always_inline struct ie_scratch *ie_event_scratch(void)
{
	struct ie_event_level *lv = ie_this_level();

	return ie_level_scratch(lv, READ_ONCE(lv->depth));
}

/* The mark of the event at @depth on @lv. */
static __always_inline struct ie_event_mark *
ie_level_mark(struct ie_event_level *lv, unsigned int depth)
{
	/* Outside any event (depth 0) only KUnit asks: the first mark. */
	return &lv->marks[depth ? min(depth, IE_EVENT_NEST + 1) - 1 : 0];
}

/* The value @mark's event consumed from @slot, if it did. */
static __always_inline bool ie_mark_taken(const struct ie_event_mark *mark,
					  const void *slot, u64 *val)
{
	unsigned int i;

	for (i = 0; i < mark->n_taken; i++) {
		if (mark->taken[i].slot == slot) {
			*val = mark->taken[i].val;
			return true;
		}
	}
	return false;
}

/* Note in @mark (room checked first) that its event consumed @val. */
static __always_inline void ie_mark_note(struct ie_event_mark *mark,
					 const void *slot, u64 val)
{
	if (WARN_ON_ONCE(mark->n_taken == IE_EVENT_TAKEN))
		return;
	mark->taken[mark->n_taken].slot = slot;
	mark->taken[mark->n_taken].val = val;
	mark->n_taken++;
}

/* The mark of the event whose triggers run (cleared at its begin). */
static __always_inline struct ie_event_mark *
ie_this_mark(struct ie_event_level *lv)
{
	return ie_level_mark(lv, READ_ONCE(lv->depth));
}

/* ie_event_ts() of the event whose mark is @mark. */
static __always_inline u64 ie_mark_ts(struct ie_event_mark *mark,
				      struct trace_buffer *buffer,
				      struct ring_buffer_event *rbe)
{
	if (!mark->have_ts) {
		mark->ts = rbe ? tracing_event_time_stamp(buffer, rbe) :
				 ring_buffer_time_stamp(buffer);
		mark->have_ts = true;
	}
	return mark->ts;
}

/**
 * ie_event_ts - the time stamp of the event whose triggers run
 * @buffer: the ring buffer of the event's instance
 * @rbe: the event's ring buffer event (maybe the per-CPU staging one),
 *	or NULL for a record built for the event's triggers only
 *
 * The event's time stamp, read once per event: the ring buffer's time
 * stamp of the event when it is written there (what the trace shows), or
 * the trace clock at the first trigger that asks when the event is only
 * staged per CPU or built on the stack for its triggers.  The event's
 * later triggers get the same value.
 *
 * Context: event path, any context including NMI.
 * Return: the time stamp, in the ring buffer's clock.
 */
static __always_inline u64 ie_event_ts(struct trace_buffer *buffer,
				       struct ring_buffer_event *rbe)
{
	return ie_mark_ts(ie_this_mark(ie_this_level()), buffer, rbe);
}

/**
 * ie_event_nest_room - may a nested event still run hist triggers?
 * @max: how many events deep a chain may go at this level, the new
 *	event included
 *
 * Event path: may an event begin inside the current one's triggers and
 * still run hist triggers, at most @max events deep (and within the
 * scratch space)?  An action asks before generating one.
 *
 * Context: event path, any context including NMI.
 * Return: true if the depth at the current event's level (this CPU's
 * context level) is below both @max and IE_SCRATCH_NEST.
 */
static __always_inline bool ie_event_nest_room(unsigned int max)
{
	return READ_ONCE(ie_this_level()->depth) <
	       min_t(unsigned int, max, IE_SCRATCH_NEST);
}

/**
 * ie_synth_fire - generate a synthetic event
 * @ev: the event
 * @args: one value per field; a string field's value is a pointer
 *
 * Called from the event path of a hist trigger: no allocation, no lock.
 * An event generated by a trigger of a synthetic event nests in that
 * event's probe, on the same stack, and its triggers need a level of the
 * event path's scratch space: IE_SYNTH_MAX_DEPTH synthetic events in a
 * chain from one event, fewer if other events with stateful triggers
 * (an eprobe's, say) nested before.  In an NMI, whose stack is small, a
 * synthetic event generates none.  Past that, @ev is not generated.
 *
 * Return: false if @ev was dropped for nesting too deep, else true.
 */
static __always_inline bool ie_synth_fire(struct ie_synth_event *ev,
					  const struct ie_synth_args *args)
{
	struct tracepoint_func *it;

	if (!static_key_enabled(&ev->tp.key))
		return true;
	it = rcu_dereference_sched(ev->tp.funcs);
	if (!it)
		return true;
	if (!ie_event_nest_room(in_nmi() ? 2 : IE_SCRATCH_NEST))
		return false;
	do {
		((void (*)(void *, const struct ie_synth_args *))it->func)
			(it->data, args);
	} while ((++it)->func);
	return true;
}

/* Event ids and write tags: a sequence number, the CPU, the level. */
#define IE_ID_LEVEL_BITS	2
#define IE_ID_CPU_BITS		order_base_2(CONFIG_NR_CPUS)
/*
 * A write tag: the count of writes, then the base: the CPU, the level and
 * IE_TAG_LOW_BITS bits, 2 (never 0, and IE_TAG_BUSY clear).
 */
#define IE_TAG_LOW_BITS		2
#define IE_TAG_SEQ_SHIFT	(IE_ID_LEVEL_BITS + IE_ID_CPU_BITS + \
				 IE_TAG_LOW_BITS)
#define IE_TAG_BASE(tag)	((tag) & GENMASK_ULL(IE_TAG_SEQ_SHIFT - 1, 0))

/**
 * ie_event_write_tag - a new tag for a write of variables
 *
 * A tag for a write of variables: even, never 0, and not given again
 * until the count of the writes made at this CPU's context level wraps
 * (the bits left of it after the CPU, the level and two: 47 with up to
 * 8192 CPUs, at least 40).  A reader's cmpxchg from the tag it read
 * tells a newer write by its tag alone, so nothing else is in it.  The
 * base (CPU, level, 2) of every possible CPU's levels is set before the
 * first trigger (ie_event_levels_init()).
 *
 * Context: event path, any context including NMI.
 * Return: the tag, for ie_vars_save() to publish.
 */
static __always_inline u64 ie_event_write_tag(void)
{
	struct ie_event_level *lv = ie_this_level();

	return (u64)local64_inc_return(&lv->writes) << IE_TAG_SEQ_SHIFT |
	       lv->tag_base;
}

void __init ie_event_levels_init(void);
int ie_scratch_init(void);
u64 ie_event_id(void);
bool ie_event_taken(const void *slot, u64 *val);
bool ie_event_take_room(unsigned int n);
void ie_event_take(const void *slot, u64 val);

/**
 * ie_mark_take_var - read a variable once, for all the event's triggers
 * @mark: the mark of the event whose triggers run (ie_this_mark())
 * @tag: the variable's read-once tag in its entry
 * @val: the variable's value in its entry
 * @v: set to the value
 *
 * What ie_event_taken(), ie_event_take_room(), ie_var_take() and
 * ie_event_take() do in turn for one variable, with the event's mark
 * found once by the caller: the value this event consumed from @tag
 * already, else one consumed now (room for it checked first) and noted
 * in the mark.
 *
 * Context: event path, any context including NMI.
 * Return: true if @v was set; false if the variable has no value for
 * this event, or the mark has no room to note one.
 */
static __always_inline bool ie_mark_take_var(struct ie_event_mark *mark,
					     atomic64_t *tag, atomic64_t *val,
					     u64 *v)
{
	if (ie_mark_taken(mark, tag, v))
		return true;
	if (mark->n_taken == IE_EVENT_TAKEN || !ie_var_take(tag, val, v))
		return false;
	ie_mark_note(mark, tag, *v);
	return true;
}

/*
 * Where the variable @ref reads is in an entry of its histogram's map:
 * the offsets of its tag (ie_var_tag()) and of its value (ie_elt_var()).
 */
static inline void ie_ref_offsets(const struct ie_ref *ref,
				  unsigned int *tag_off, unsigned int *val_off)
{
	const struct ie_hist *def = ref->def;

	*tag_off = def->m->data_off + def->tags_off +
		   ref->var * sizeof(atomic64_t);
	*val_off = def->m->vars_off +
		   def->vars[ref->var].map_idx * sizeof(atomic64_t);
}

/*
 * Event path: ie_refs_read() of a histogram with one reference, to a
 * number (ie_hist.ref_one), of histogram @def at the offsets given by
 * ie_ref_offsets(): no other reference must be checked first, so it is
 * taken at once (no peek), into @val, and noted in the event's @mark;
 * @elt is set to the entry.
 */
static __always_inline bool ie_ref_take_one(const struct ie_hist *def,
					    unsigned int tag_off,
					    unsigned int val_off,
					    const u64 *key, u64 *val,
					    struct ie_elt **elt,
					    struct ie_event_mark *mark)
{
	/* Pairs with the release in ie_hist_control(): see there. */
	if (smp_load_acquire(&def->m->clearing))
		return false;
	*elt = ie_index_find(&def->m->index, key);
	if (!*elt)
		return false;
	return ie_mark_take_var(mark, (atomic64_t *)((u8 *)*elt + tag_off),
				(atomic64_t *)((u8 *)*elt + val_off), val);
}

/*
 * Event path: ie_vars_save() of a histogram whose variables are all
 * numbers (ie_hist.vars_nums), inline.
 */
static __always_inline void ie_vars_save_nums(struct ie_hist *hist,
					      struct ie_elt *elt,
					      const u64 *vals)
{
	atomic64_t *tags = ie_var_tag(hist, elt, 0);
	u64 tag = ie_event_write_tag();
	unsigned int i;

	for (i = 0; i < hist->n_vars; i++) {
		if (!ie_var_claim(&tags[i]))
			continue;
		atomic64_set(ie_elt_var(hist->m, elt, hist->vars[i].map_idx),
			     vals[i]);
		atomic64_set_release(&tags[i], tag);
	}
}

/* trigger.c */
/* event_trigger_data flag: the trigger turned per-CPU staging off. */
#define IE_TRIGGER_FL_DIRECT	BIT(16)
/* event_trigger_data flag: the trigger holds a reference to its instance. */
#define IE_TRIGGER_FL_TR_REF	BIT(17)
/* event_trigger_data flag: the trigger holds its instance's cond snapshot. */
#define IE_TRIGGER_FL_SNAPSHOT	BIT(18)
/* event_trigger_data flag: the trigger holds its event's module. */
#define IE_TRIGGER_FL_MOD_REF	BIT(19)
/* event_trigger_data flag: registration failed: the module is not live. */
#define IE_TRIGGER_FL_MOD_BUSY	BIT(20)
/* event_trigger_data flag: registration failed: the clock= is unknown. */
#define IE_TRIGGER_FL_BAD_CLOCK	BIT(21)
struct event_trigger_data *ie_hist_add_aux(struct trace_event_file *file,
					   struct ie_hist *match,
					   const char *filter, const char *var,
					   const char *field);
void ie_hist_remove_aux(struct trace_event_file *file, u64 id);
void ie_hist_put(struct ie_hist *hist);

/* hist_file.c */
extern struct static_key_false_deferred ie_hist_polled;

/* One opener of a hist or hist_json file. */
struct ie_hist_file {
	struct file	*filp;
	u64		last_read;	/* hits when last read */
	u64		last_act;	/* hits when last polled or read */
	struct mutex	lock;		/* the first poll() turns the key on */
	bool		polled;		/* counted in ie_hist_polled */
	/*
	 * The document read: made by a read at offset 0 (or the first
	 * read, or the first after one that failed), read on from there;
	 * for hist_json after a "take", the document of the last take
	 * (@taken), until the next take.  @doc_lock is held by a read, and
	 * by a take from its start to its document installed; event_mutex
	 * nests inside it.
	 */
	struct mutex	doc_lock;
	struct seq_file	doc;		/* its buf, size and count only */
	bool		taken;
	/* Prints the document; NULL: the text of the histograms. */
	int		(*show)(struct seq_file *m, struct trace_event_file *file);
};

u64 ie_hist_file_hits(struct trace_event_file *file);
int ie_hist_open_show(struct inode *inode, struct file *filp,
		      int (*show)(struct seq_file *m,
				  struct trace_event_file *file));
ssize_t ie_hist_read(struct file *filp, char __user *ubuf, size_t cnt,
		     loff_t *ppos);
loff_t ie_hist_llseek(struct file *filp, loff_t off, int whence);
__poll_t ie_hist_poll(struct file *filp, poll_table *wait);
int ie_hist_release(struct inode *inode, struct file *filp);

/*
 * Event path: a histogram of the event counted a hit: wake the pollers
 * of hist files.  Cheap while no hist file is polled: a static branch.
 * Once one is, the poller's wait for a grace period (ie_hist_poll()) has
 * made every hit of an event that saw the branch off visible before the
 * poller looks, and later hits see the poller on the wait queue
 * (hist_poll_wakeup(), which goes through an irq_work: any context, NMI
 * included).
 */
static __always_inline void ie_hist_poll_wakeup(void)
{
	if (static_branch_unlikely(&ie_hist_polled.key))
		hist_poll_wakeup();
}

/* output.c */
int ie_hist_print_trigger(struct seq_file *m, struct event_trigger_data *data);
void ie_hist_show(struct seq_file *m, struct event_trigger_data *data);
/* An entry of a histogram being read, with the values it is sorted by. */
struct ie_row {
	struct ie_elt	*elt;
	u64			v[IE_MAX_SORT];
	u64			sums[IE_MAX_SUMS];	/* as read once */
};

int ie_hist_rows(struct ie_hist *hist, struct ie_row **rows);

/* The largest hist or hist_json document (-EFBIG for a take past it). */
#define IE_DOC_MAX		SZ_1G
bool ie_doc_fits(struct seq_file *m, size_t mark);
void ie_doc_puts(struct seq_file *m, const char *s);

void ie_print_key(struct seq_file *m, const struct ie_field *f,
		  const void *key, const void *data);

/* A take of one histogram (take.c): copies of the entries that counted. */
struct ie_take_hist {
	struct ie_hist		*hist;
	struct ie_elt	**elts;		/* the copies, in sort order */
	struct ie_elt	**live;		/* the entry of each copy */
	void			*mem;		/* what the copies are in */
	/* The copies as a map: their layout, their sums (not per CPU). */
	struct ie_map		*copies;
	unsigned int		n;
	u64			from_ns, to_ns;	/* the interval (monotonic) */
	bool			alias;		/* another's copies: same map */
};

/* A take of all histograms of an event. */
struct ie_take {
	unsigned int		n;
	struct ie_take_hist	h[];
};

struct ie_take *ie_take_event(struct trace_event_file *file);
void ie_take_give_back(struct ie_take *take);
void ie_take_free(struct ie_take *take);

/* spec.c */
int ie_spec_parse(const char *cmd, struct ie_spec *spec);
void ie_spec_free(struct ie_spec *spec);
bool ie_name_ok(const char *s);
bool ie_event_name_ok(const char *s);

/* errors.c */
void ie_log_err(struct trace_array *tr, const char *loc, const char *cmd,
		enum ie_err err, unsigned int pos);

/* action.c */
int ie_action_add(struct ie_hist *hist, struct ie_spec_action *spec,
		  unsigned int *err_pos, enum ie_err *err);
int ie_actions_add_refs(struct ie_hist *hist, struct ie_spec *spec);
void ie_actions_free(struct ie_hist *hist);
void ie_actions_reserve(struct ie_hist *hist);
void ie_actions_set_loads(struct ie_hist *hist);
int ie_actions_pin(struct ie_hist *hist, struct ie_spec *spec,
		   unsigned int *err_pos, enum ie_err *err);
void ie_actions_run(struct ie_hist *hist, struct ie_elt *elt,
		    const struct ie_eval_ctx *ctx, void *rec, const u64 *var_vals,
		    struct ie_synth_args *args);
void ie_actions_print(struct seq_file *m, struct ie_hist *hist);

/* snapshot.c: the snapshot() action. */
#ifdef CONFIG_TRACER_SNAPSHOT
int ie_snapshot_alloc(struct ie_hist *hist);
void ie_snapshot_free(struct ie_hist *hist);
void ie_snapshot_show(struct seq_file *m, struct ie_hist *hist);
void ie_snapshot_take(struct ie_hist *hist, struct ie_elt *elt,
		      unsigned int action, u64 value);
int ie_snapshot_hold(struct ie_hist *hist);
void ie_snapshot_release(struct trace_array *tr);
#else
/* ie_action_add() refuses snapshot(): no histogram has one. */
static inline int ie_snapshot_alloc(struct ie_hist *hist)
{
	return 0;
}

static inline void ie_snapshot_free(struct ie_hist *hist)
{
}

static inline void ie_snapshot_show(struct seq_file *m, struct ie_hist *hist)
{
}

static inline void ie_snapshot_take(struct ie_hist *hist,
				    struct ie_elt *elt,
				    unsigned int action, u64 value)
{
}

static inline int ie_snapshot_hold(struct ie_hist *hist)
{
	return -ENODEV;
}

static inline void ie_snapshot_release(struct trace_array *tr)
{
}
#endif
void ie_actions_show_entry(struct seq_file *m, struct ie_hist *hist,
			   struct ie_elt *elt);

#endif /* _KERNEL_TRACE_INTER_EVENT_H */
