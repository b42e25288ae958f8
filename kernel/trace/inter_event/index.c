// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: a map's entries, and their index by key.
 *
 * A map's entries are one array, allocated whole when its first trigger
 * is registered (ie_map_alloc()): 2^map_bits entries of elt_size bytes,
 * each its key, its variables and its entry data, in this order
 * (ie_map_layout()), nothing else; each possible CPU has its sums of the
 * entries (n_sums each) in an array of its own, at the entry's number
 * (or, past IE_SUMS_PERCPU_MAX for all CPUs, one array all CPUs share).
 * Entries are taken in the array's order (next_elt) and given back only
 * when the map is cleared or freed.
 *
 * The index has twice as many slots as the map has entries, each a
 * pointer to an entry, NULL when free.  The slot of a key is a
 * multiplicative hash of its 64-bit words (keys are laid out in whole
 * words, see ie_hist_create()), then the next slots; keys are compared
 * word by word with the entry's, which starts it.
 *
 * Adding, for an event whose key isn't in the index: at the first free
 * slot of the key's probe sequence the event reserves room for one entry
 * (reserved, an atomic counter bounded by the map's size; none: the map
 * is full) and takes the slot with cmpxchg(), writing a mark there (an
 * odd value: the key's hash, ie_index_mark()) instead of a pointer
 * (the slot taken by another event meanwhile: the room is given back,
 * and the probe goes on from that slot).  Then it takes the next entry
 * of the array (next_elt), writes the key (and an .execname key's task
 * name) into it and publishes it in the slot, the mark's place
 * (release).  An event whose probe meets the mark of another hash goes
 * on; one meeting the mark of its own hash waits for the entry to be
 * published, then compares keys.  So a key has one entry, and the map
 * holds exactly as many entries as keys were added, up to its size.
 * The wait is bounded (IE_INDEX_WAIT reads): an event whose key's adder
 * is slow counts as dropped, and so, at once, does one that interrupted
 * an add on its CPU (which can't go on meanwhile).
 *
 * Slots are written only from NULL to a mark or to a pointer, and from a
 * mark to a pointer; they are only cleared with the map
 * (ie_hist_control(): no event is in the map meanwhile).  So a probe
 * sequence only grows, and an entry once indexed is found by every later
 * lookup.  A reader loads a slot with READ_ONCE() and, if it is a
 * pointer, the entry's key through it (address dependency): published
 * with release, the key was written before.  Room is reserved before a
 * slot is taken, so a mark always becomes a pointer.  The map has at
 * most half as many entries as the table has slots: a probe always ends
 * at a free slot, and every entry finds one.  The entries of a map are
 * the pointers of its index (ie_hist_rows()).
 *
 * A full map: a key missing from the index is dropped.  That is not
 * exact for a key being added at that moment, by an event on another
 * CPU or by the event this one interrupted: its entry is not yet
 * indexed, and this hit counts as dropped.  Nor is it for the map's last
 * free entry: an event that lost the race for a slot holds its
 * reservation until it has given it back, and a new key added meanwhile
 * finds the map full.  (The drop path is as cheap as a hit: the full
 * check is inline, see ie_map_find_or_add().)
 *
 * Lookups take no lock and write nothing; any context, NMI included.
 *
 * Memory: the entries, 2^map_bits * elt_size bytes (16 KiB at the default
 * size=2048 for one key), their sums, 2^map_bits * n_sums * 8 bytes per
 * possible CPU (16 KiB for the hit count alone), and the index,
 * 2 * 2^map_bits pointers (32 KiB at size=2048 on 64-bit).
 */
#include <linux/hash.h>
#include <linux/slab.h>

#include "inter_event.h"

/**
 * ie_map_layout - lay out the entries of a map
 * @m: the map, its entries not allocated yet
 * @key_size: bytes of the key, a multiple of 8
 * @n_sums: sums, the hit count's included (per CPU, not in the entry)
 * @n_vars: variables (atomic64_t each)
 * @data_size: bytes of entry data, a multiple of 8
 *
 * Return: 0, or -E2BIG if an entry would not fit in 64 KiB.
 */
int ie_map_layout(struct ie_map *m, unsigned int key_size,
		  unsigned int n_sums, unsigned int n_vars,
		  unsigned int data_size)
{
	size_t size;

	size = (size_t)key_size + n_vars * sizeof(atomic64_t) + data_size;
	if (!key_size || key_size % sizeof(u64) || data_size % sizeof(u64) ||
	    size > SZ_64K || !n_sums)
		return -E2BIG;
	m->key_size = key_size;
	m->n_sums = n_sums;
	m->n_vars = n_vars;
	m->vars_off = key_size;
	m->data_off = m->vars_off + n_vars * sizeof(atomic64_t);
	m->elt_data_size = data_size;
	m->elt_size = size;
	/* ceil(2^32 / size): see ie_elt_num(). */
	m->num_mul = div_u64(U32_MAX, size) + 1;
	return 0;
}

/**
 * ie_elt_read_sum - a sum of an entry, added up over the CPUs
 * @m: the entry's map (or a take's copies, see take.c)
 * @elt: the entry
 * @i: the sum
 *
 * Context: not the event path (every possible CPU's sum is read).
 * Return: the sum, of the values that each CPU's adds made visible.
 */
u64 ie_elt_read_sum(const struct ie_map *m, struct ie_elt *elt,
		    unsigned int i)
{
	size_t at = (size_t)ie_elt_num(m, elt) * m->n_sums + i;
	u64 sum = 0;
	int cpu;

	if (m->sums)
		return atomic64_read(&m->sums[at]);
	for_each_ie_sums_cpu(m, cpu)
		sum += atomic64_read(&per_cpu_ptr(m->cpu, cpu)->sums[at]);
	return sum;
}

/**
 * ie_elt_read_sums - all the sums of an entry, added up over the CPUs
 * @m: the entry's map (or a take's copies, see take.c)
 * @elt: the entry
 * @sums: set to the entry's @m->n_sums sums (room for IE_MAX_SUMS)
 *
 * One walk over the CPUs for all of them: a read of the hist file takes
 * an entry's numbers once, so that its columns and their totals (.percent,
 * .graph) are of the same numbers while events go on adding.
 *
 * Context: not the event path (every possible CPU's sums are read).
 */
void ie_elt_read_sums(const struct ie_map *m, struct ie_elt *elt, u64 *sums)
{
	size_t at = (size_t)ie_elt_num(m, elt) * m->n_sums;
	unsigned int i, n = m->n_sums;
	const atomic64_t *s;
	int cpu;

	/* ie_hist_build_map() refuses more. */
	if (WARN_ON_ONCE(n > IE_MAX_SUMS))
		n = IE_MAX_SUMS;
	if (m->sums) {
		for (i = 0; i < n; i++)
			sums[i] = atomic64_read(&m->sums[at + i]);
		return;
	}
	memset(sums, 0, n * sizeof(*sums));
	for_each_ie_sums_cpu(m, cpu) {
		s = per_cpu_ptr(m->cpu, cpu)->sums + at;
		for (i = 0; i < n; i++)
			sums[i] += atomic64_read(&s[i]);
	}
}

/* Free the sums of a map's entries, per CPU or shared (maybe NULL). */
static void ie_map_free_sums(struct ie_map *m)
{
	int cpu;

	if (!m->cpu)
		return;
	for_each_ie_sums_cpu(m, cpu)
		kvfree(per_cpu_ptr(m->cpu, cpu)->sums);
	for_each_possible_cpu(cpu)
		per_cpu_ptr(m->cpu, cpu)->sums = NULL;
}

/**
 * ie_map_alloc - allocate the entries of a map and their index
 * @m: the map, laid out by ie_map_layout(), its per-CPU counts allocated
 * @map_bits: log2 of the entries
 *
 * The entries are zeroed: each a key never added, with no hits.  Each
 * possible CPU gets its sums of the entries, on its node.
 *
 * Context: process context, may sleep.
 * Return: 0 or -ENOMEM (nothing allocated).
 */
int ie_map_alloc(struct ie_map *m, unsigned int map_bits)
{
	struct ie_index *ix = &m->index;
	struct ie_cpu_counts *c;
	atomic64_t *sums;
	size_t n;
	int cpu;

	ix->bits = map_bits + 1;
	ix->mask = (1U << ix->bits) - 1;
	ix->shift = 64 - ix->bits;
	ix->words = m->key_size / sizeof(u64);
	m->max_elts = 1U << map_bits;
	atomic_set(&m->next_elt, 0);
	atomic_set(&m->reserved, 0);
	/*
	 * Entries are numbered by a multiply that is exact below INT_MAX
	 * bytes (ie_elt_num()), where kvcalloc() stops anyway: a larger
	 * table fails, quietly, as the user asked too much.
	 */
	if ((u64)m->max_elts * m->elt_size > INT_MAX)
		return -ENOMEM;
	ix->slots = kvcalloc(1UL << ix->bits, sizeof(*ix->slots),
			     GFP_KERNEL_ACCOUNT);
	m->elts = kvcalloc(m->max_elts, m->elt_size,
			   GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!ix->slots || !m->elts)
		goto nomem;
	n = (size_t)m->max_elts * m->n_sums;
	m->sums_shared = (u64)n * sizeof(*sums) * num_possible_cpus() >
			 IE_SUMS_PERCPU_MAX;
	for_each_possible_cpu(cpu) {
		if (m->sums_shared)
			break;
		c = per_cpu_ptr(m->cpu, cpu);
		c->sums = kvcalloc_node(n, sizeof(*c->sums),
					GFP_KERNEL_ACCOUNT | __GFP_NOWARN,
					cpu_to_node(cpu));
		if (c->sums)
			continue;
		/* No room for every CPU's: one array for all then. */
		ie_map_free_sums(m);
		m->sums_shared = true;
	}
	if (!m->sums_shared)
		return 0;
	sums = kvcalloc(n, sizeof(*sums), GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!sums)
		goto nomem;
	for_each_possible_cpu(cpu)
		per_cpu_ptr(m->cpu, cpu)->sums = sums;
	return 0;
nomem:
	ie_map_free(m);
	return -ENOMEM;
}

/**
 * ie_map_free - free the entries of a map, their sums and their index
 * @m: the map (its entries may be unallocated)
 */
void ie_map_free(struct ie_map *m)
{
	ie_map_free_sums(m);
	kvfree(m->index.slots);
	m->index.slots = NULL;
	kvfree(m->elts);
	m->elts = NULL;
}

/**
 * ie_map_clear - empty a map: no entries, all of them zeroed
 * @m: the map
 *
 * Context: no event may use the map meanwhile (see ie_hist_control()).
 */
void ie_map_clear(struct ie_map *m)
{
	unsigned int n = atomic_read(&m->next_elt);
	int cpu;

	if (!m->elts)
		return;
	memset(m->index.slots, 0, sizeof(*m->index.slots) << m->index.bits);
	memset(m->elts, 0, (size_t)n * m->elt_size);
	for_each_ie_sums_cpu(m, cpu)
		memset(per_cpu_ptr(m->cpu, cpu)->sums, 0,
		       (size_t)n * m->n_sums * sizeof(atomic64_t));
	atomic_set(&m->next_elt, 0);
	atomic_set(&m->reserved, 0);
}

/* Reads of a slot holding another event's mark before giving up. */
#define IE_INDEX_WAIT	256

/* Keys being added on this CPU: an event nested in an add doesn't wait. */
static DEFINE_PER_CPU(unsigned int, ie_index_adding);

static struct ie_elt *__ie_index_add(struct ie_map *m, const u64 *key)
{
	struct ie_index *ix = &m->index;
	struct ie_elt *old, *mark, *elt;
	unsigned int wait;
	u32 i;
	int n;

	mark = ie_index_mark(ix, key);
	for (i = ie_index_hash(ix, key); ; i = (i + 1) & ix->mask) {
		old = READ_ONCE(ix->slots[i]);
		if (!old) {
			/* Room for the entry before the slot: see the top. */
			if (atomic_fetch_add_unless(&m->reserved, 1,
						    m->max_elts) >= m->max_elts)
				return NULL;
			old = cmpxchg(&ix->slots[i], NULL, mark);
			if (!old)
				break;
			atomic_dec(&m->reserved);
		}
		if (old == mark) {
			/*
			 * Its key is being added, on another CPU or by an
			 * event this one interrupted (then no wait: it can't
			 * go on meanwhile).
			 */
			wait = this_cpu_read(ie_index_adding) > 1 ?
			       IE_INDEX_WAIT : 0;
			for (; old == mark && wait < IE_INDEX_WAIT; wait++) {
				cpu_relax();
				old = READ_ONCE(ix->slots[i]);
			}
			if (old == mark)
				return NULL;
		}
		if (ie_index_is_mark(old))
			continue;
		if (ie_index_key_eq(ix, ie_elt_key(old), key))
			return old;
	}
	/* Below reserved, so below the map's size. */
	n = atomic_inc_return(&m->next_elt) - 1;
	elt = (struct ie_elt *)(m->elts + (size_t)n * m->elt_size);
	memcpy(ie_elt_key(elt), key, m->key_size);
	/* The task name comes first in the entry data. */
	if (m->has_execname)
		strscpy(ie_elt_data(m, elt), current->comm, TASK_COMM_LEN);
	/* The key is seen before the pointer. */
	smp_store_release(&ix->slots[i], elt);
	return elt;
}

/**
 * ie_index_add - add the entry of a key missing from the index
 * @m: the map
 * @key: the key, @m's key size
 *
 * The slow path of ie_map_find_or_add(), called once it found the map
 * not full (a full map's drop takes no call): takes a slot with a mark,
 * then an entry, writes the key into it and publishes it (unless another
 * event added the key first: then its entry).  The map may fill in the
 * meantime: the entry is reserved under its bound.  See the top of this
 * file.
 *
 * Context: event path, any context including NMI.
 * Return: the key's entry, or NULL if the map is full (or the event
 * adding the key didn't publish it in time).
 */
struct ie_elt *ie_index_add(struct ie_map *m, const u64 *key)
{
	struct ie_elt *elt;

	this_cpu_inc(ie_index_adding);
	elt = __ie_index_add(m, key);
	this_cpu_dec(ie_index_adding);
	return elt;
}
