// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: the index of a map's entries by key.
 *
 * tracing_map finds an entry by a jhash of the key, then compares the
 * key with memcmp(), and counts every hit in one shared atomic.  Most
 * keys are one or two numbers, and the event path asks for the same
 * keys again and again: the index answers those from an open-addressed
 * table of its own and leaves tracing_map the adding of new entries
 * (its preallocated elements, sums, variables and sorting stay).
 *
 * The table has twice as many slots as the map has entries, each a
 * pointer to an entry (struct tracing_map_elt), NULL when free.  The
 * slot of a key is a multiplicative hash of its 64-bit words (keys are
 * laid out in whole words, see ie_hist_create()), then the next slots;
 * keys are compared word by word with the entry's copy of the key.
 *
 * Adding: an event whose key isn't in the index asks tracing_map, which
 * finds or adds the entry (never two entries for one key), then puts
 * the entry in the first free slot of the key's probe sequence with
 * cmpxchg(); if another CPU's event put the same entry there first, it
 * is done.  Slots are written only from NULL, and only cleared with the
 * map (ie_hist_control(): no event is in the map meanwhile), so a probe
 * sequence only grows, and an entry once indexed is found by every later
 * lookup.  A reader loads a slot with READ_ONCE() and the entry's key
 * through it (address dependency); cmpxchg() orders the key tracing_map
 * wrote before the pointer.  The map has at most half as many entries
 * as the table has slots: a probe always ends at a free slot, and every
 * entry finds one.
 *
 * A full map: tracing_map takes no more entries, so a key missing from
 * the index is dropped without asking it.  That is not exact for a key
 * being added at that moment, by an event on another CPU or by the
 * event this one interrupted: its entry is taken but not yet indexed,
 * and this hit counts as dropped.  (The drop path stays as cheap as a
 * hit: no jhash, no tracing_map probe.)
 *
 * Lookups take no lock and write nothing; any context, NMI included.
 * Memory: 2 * 2^map_bits pointers (32 KiB at the default size=2048).
 */
#include <linux/hash.h>
#include <linux/slab.h>

#include "inter_event.h"

/**
 * ie_index_alloc - allocate the index of a map
 * @ix: the index, zeroed
 * @map_bits: the map's log2 of entries
 * @key_size: the map's key size in bytes, a multiple of 8
 *
 * Context: process context, may sleep.
 * Return: 0 or -ENOMEM.
 */
int ie_index_alloc(struct ie_index *ix, unsigned int map_bits,
		   unsigned int key_size)
{
	ix->bits = map_bits + 1;
	ix->mask = (1U << ix->bits) - 1;
	ix->shift = 64 - ix->bits;
	ix->words = key_size / sizeof(u64);
	ix->slots = kvcalloc(1UL << ix->bits, sizeof(*ix->slots), GFP_KERNEL);
	return ix->slots ? 0 : -ENOMEM;
}

/**
 * ie_index_free - free the index of a map
 * @ix: the index (its slots may be NULL)
 */
void ie_index_free(struct ie_index *ix)
{
	kvfree(ix->slots);
	ix->slots = NULL;
}

/**
 * ie_index_clear - empty the index, with its map
 * @ix: the index
 *
 * Context: no event may use the map meanwhile (see ie_hist_control()).
 */
void ie_index_clear(struct ie_index *ix)
{
	if (ix->slots)
		memset(ix->slots, 0, sizeof(*ix->slots) << ix->bits);
}

/*
 * Put @elt, just found or added by tracing_map, in the first free slot of
 * its key's probe sequence, unless an event on another CPU put it there.
 */
static void ie_index_put(struct ie_index *ix, struct tracing_map_elt *elt)
{
	const u64 *key = elt->key;
	struct tracing_map_elt *old;
	u32 i;

	for (i = ie_index_hash(ix, key); ; i = (i + 1) & ix->mask) {
		old = READ_ONCE(ix->slots[i]);
		if (!old) {
			old = cmpxchg(&ix->slots[i], NULL, elt);
			if (!old)
				return;
		}
		if (old == elt || ie_index_key_eq(ix, old->key, key))
			return;
	}
}

/**
 * ie_index_add - find or add the entry of a key missing from the index
 * @m: the map
 * @key: the key, @m's key size
 *
 * The slow path of ie_map_find_or_add(): tracing_map finds or adds the
 * entry, which is then indexed.  A full map is not asked (see the top of
 * this file).
 *
 * Context: event path, any context including NMI.
 * Return: the entry, or NULL if the map is full (or tracing_map gave up
 * waiting for another event adding a key of the same jhash: a drop too).
 */
struct tracing_map_elt *ie_index_add(struct ie_map *m, const u64 *key)
{
	struct tracing_map *map = m->map;
	struct tracing_map_elt *elt;

	if (atomic_read(&map->next_elt) >= map->max_elts)
		return NULL;
	elt = tracing_map_insert(map, (void *)key);
	if (elt)
		ie_index_put(&m->index, elt);
	return elt;
}
