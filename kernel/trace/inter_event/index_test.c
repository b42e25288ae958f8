// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of a map's entries and their index (index.c), on maps of
 * the smallest size: keys whose probe sequences collide and wrap around
 * the end of the table, keys of two words equal in their first, a full
 * map, a lookup with a longer key, a key being added by another event,
 * keys of one hash, and a clear; each key found checked against a scan
 * of the entries.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "inter_event.h"

struct index_fixture {
	struct ie_map		m;
	unsigned int		words;
};

KUNIT_DEFINE_ACTION_WRAPPER(index_map_free, ie_map_free, struct ie_map *);

static void index_counts_free(void *arg)
{
	struct ie_map *m = arg;

	free_percpu(m->cpu);
}

static struct index_fixture *index_fixture(struct kunit *test,
					   unsigned int words)
{
	struct index_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->words = words;
	f->m.cpu = alloc_percpu(struct ie_cpu_counts);
	KUNIT_ASSERT_NOT_NULL(test, f->m.cpu);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, index_counts_free,
							&f->m), 0);
	KUNIT_ASSERT_EQ(test, ie_map_layout(&f->m, words * sizeof(u64), 2, 0,
					    0), 0);
	KUNIT_ASSERT_EQ(test, ie_map_alloc(&f->m, IE_MAP_BITS_MIN), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, index_map_free,
							&f->m), 0);
	return f;
}

/*
 * The one entry taken with @key, by a scan of the array (NULL if none);
 * a second one fails the test.
 */
static struct ie_elt *index_scan(struct kunit *test, struct index_fixture *f,
				 const u64 *key)
{
	unsigned int i, n = atomic_read(&f->m.next_elt);
	struct ie_elt *elt, *found = NULL;

	for (i = 0; i < n; i++) {
		elt = (struct ie_elt *)(f->m.elts + i * f->m.elt_size);
		if (memcmp(ie_elt_key(elt), key, f->words * sizeof(u64)))
			continue;
		KUNIT_EXPECT_NULL_MSG(test, found, "entry %u: key twice", i);
		found = elt;
	}
	return found;
}

/* ie_map_find_or_add() as at an event: on one CPU throughout. */
static struct ie_elt *index_add(struct index_fixture *f, const u64 *key)
{
	struct ie_elt *elt;

	preempt_disable();
	elt = ie_map_find_or_add(&f->m, key);
	preempt_enable();
	return elt;
}

/* The key of number @n: its last word @n, the others @first. */
static void index_key(const struct index_fixture *f, u64 *key, u64 first,
		      u64 n)
{
	unsigned int i;

	for (i = 0; i + 1 < f->words; i++)
		key[i] = first;
	key[f->words - 1] = n;
}

/*
 * Add @n keys, the first @collide of them all starting their probe at
 * the table's last slot (so that they wrap around to slot 0), and check
 * each is found with its own entry, by the index and by a scan.
 */
static void index_fill(struct kunit *test, struct index_fixture *f,
		       u64 *keys, unsigned int n, unsigned int collide)
{
	const struct ie_index *ix = &f->m.index;
	u32 last = ix->mask;
	struct ie_elt *elt, *again;
	u64 key[2], k = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		do {
			index_key(f, key, 7, ++k);
		} while (i < collide && ie_index_hash(ix, key) != last);
		keys[i] = k;
		KUNIT_ASSERT_NULL(test, ie_index_find(ix, key));
		elt = index_add(f, key);
		KUNIT_ASSERT_NOT_NULL_MSG(test, elt, "key %u of %u", i, n);
		KUNIT_EXPECT_EQ(test, memcmp(ie_elt_key(elt), key, f->words * 8),
				0);
		KUNIT_EXPECT_PTR_EQ(test, ie_index_find(ix, key), elt);
	}
	for (i = 0; i < n; i++) {
		index_key(f, key, 7, keys[i]);
		elt = ie_index_find(ix, key);
		again = index_scan(test, f, key);
		KUNIT_EXPECT_NOT_NULL(test, elt);
		KUNIT_EXPECT_PTR_EQ(test, elt, again);
		KUNIT_EXPECT_PTR_EQ(test, index_add(f, key), elt);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&f->m.next_elt), n);
}

static void index_test_collide_wrap(struct kunit *test)
{
	struct index_fixture *f = index_fixture(test, 1);
	u64 keys[40], key[1];
	unsigned int i;

	/* 10 keys all hashed to the last slot, then 30 more. */
	index_fill(test, f, keys, ARRAY_SIZE(keys), 10);
	/* Their probe went around: slot 0 holds one of them. */
	KUNIT_EXPECT_NOT_NULL(test, f->m.index.slots[0]);
	/* A key never added is not found, wherever its probe starts. */
	for (i = 0; i < 1000; i++) {
		key[0] = 1000000 + i;
		KUNIT_EXPECT_NULL(test, ie_index_find(&f->m.index, key));
	}
}

static void index_test_two_words(struct kunit *test)
{
	struct index_fixture *f = index_fixture(test, 2);
	struct ie_elt *elt;
	u64 keys[60], key[3];

	index_fill(test, f, keys, ARRAY_SIZE(keys), 5);
	/* The same last word under another first word: a new key. */
	index_key(f, key, 8, keys[0]);
	KUNIT_EXPECT_NULL(test, ie_index_find(&f->m.index, key));
	/* A longer key (a reference's) is looked up by its leading words. */
	key[0] = 7;
	key[1] = keys[3];
	key[2] = 0xdead;
	elt = ie_index_find(&f->m.index, key);
	KUNIT_EXPECT_NOT_NULL(test, elt);
	KUNIT_EXPECT_PTR_EQ(test, elt, index_scan(test, f, key));
}

static void index_test_full(struct kunit *test)
{
	struct index_fixture *f = index_fixture(test, 1);
	unsigned int max = f->m.max_elts;
	u64 *keys = kunit_kcalloc(test, max, sizeof(*keys), GFP_KERNEL);
	struct ie_elt *elt;
	u64 key[1];
	unsigned int i;
	int cpu;

	KUNIT_ASSERT_NOT_NULL(test, keys);
	index_fill(test, f, keys, max, 3);
	/* Full: a new key has no entry, the others keep theirs. */
	key[0] = 1ULL << 40;
	KUNIT_EXPECT_NULL(test, index_add(f, key));
	KUNIT_EXPECT_NULL(test, index_scan(test, f, key));
	/*
	 * The slow path alone (as when the map filled after the inline
	 * check): its reservation is the bound, and nothing is taken.
	 */
	preempt_disable();
	elt = ie_index_add(&f->m, key);
	preempt_enable();
	KUNIT_EXPECT_NULL(test, elt);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->m.reserved), max);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->m.next_elt), max);
	KUNIT_EXPECT_NULL(test, index_scan(test, f, key));
	for (i = 0; i < max; i++) {
		key[0] = keys[i];
		KUNIT_EXPECT_NOT_NULL(test, index_add(f, key));
	}
	/* Cleared with its map: empty, then filled again. */
	elt = index_add(f, key);
	KUNIT_ASSERT_NOT_NULL(test, elt);
	atomic64_inc(ie_elt_cpu_sum(&f->m, cpumask_last(cpu_possible_mask),
				    elt, 1));
	ie_map_clear(&f->m);
	for (i = 0; i < (1U << f->m.index.bits); i++)
		KUNIT_EXPECT_NULL(test, f->m.index.slots[i]);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->m.next_elt), 0);
	/* Every entry zeroed: keys, every CPU's sums. */
	KUNIT_EXPECT_TRUE(test, !memchr_inv(f->m.elts, 0,
					    max * f->m.elt_size));
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_TRUE(test, !memchr_inv(per_cpu_ptr(f->m.cpu, cpu)->sums,
						    0, max * f->m.n_sums *
						    sizeof(u64)));
	key[0] = keys[0];
	KUNIT_EXPECT_NULL(test, ie_index_find(&f->m.index, key));
	index_fill(test, f, keys, max, 0);
}

/*
 * A key being added by another event: its slot holds the key's mark.
 * Lookups don't see it, an event adding the same key waits for it and
 * gives up (a drop, no room taken), another key probes past it.
 */
static void index_test_mark(struct kunit *test)
{
	struct index_fixture *f = index_fixture(test, 1);
	struct ie_index *ix = &f->m.index;
	u64 a[1] = { 12345 }, b[1];
	u32 slot = ie_index_hash(ix, a);
	struct ie_elt *eb;

	/* What ie_index_add() does before it takes an entry. */
	atomic_inc(&f->m.reserved);
	ix->slots[slot] = ie_index_mark(ix, a);
	KUNIT_EXPECT_TRUE(test, ie_index_is_mark(ix->slots[slot]));
	KUNIT_EXPECT_NULL(test, ie_index_find(ix, a));
	KUNIT_EXPECT_NULL(test, index_add(f, a));
	KUNIT_EXPECT_EQ(test, atomic_read(&f->m.reserved), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->m.next_elt), 0);
	KUNIT_EXPECT_PTR_EQ(test, ix->slots[slot], ie_index_mark(ix, a));
	/* Another key of the same first slot goes past the mark. */
	b[0] = 0;
	do {
		b[0]++;
	} while (b[0] == a[0] || ie_index_hash(ix, b) != slot);
	eb = index_add(f, b);
	KUNIT_ASSERT_NOT_NULL(test, eb);
	KUNIT_EXPECT_PTR_EQ(test, ix->slots[(slot + 1) & ix->mask], eb);
	KUNIT_EXPECT_PTR_EQ(test, ie_index_find(ix, b), eb);
	KUNIT_EXPECT_PTR_EQ(test, index_scan(test, f, b), eb);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->m.reserved), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->m.next_elt), 1);
}

/*
 * Keys of one hash (two words: k0 * G ^ k1 the same): each gets its own
 * entry, the second probing past the first; a third, meeting the mark
 * of a fourth being added, waits and gives up, taking no room.
 */
static void index_test_same_hash(struct kunit *test)
{
	struct index_fixture *f = index_fixture(test, 2);
	struct ie_index *ix = &f->m.index;
	u64 k[4][2];
	struct ie_elt *e0, *e1;
	unsigned int i;
	u32 slot;

	for (i = 0; i < 4; i++) {
		k[i][0] = 100 + i;
		k[i][1] = (k[0][0] * GOLDEN_RATIO_64 ^ 7) ^ (k[i][0] * GOLDEN_RATIO_64);
	}
	for (i = 1; i < 4; i++) {
		KUNIT_ASSERT_EQ(test, ie_index_hash64(ix, k[i]),
				ie_index_hash64(ix, k[0]));
		KUNIT_ASSERT_PTR_EQ(test, ie_index_mark(ix, k[i]),
				    ie_index_mark(ix, k[0]));
	}
	slot = ie_index_hash(ix, k[0]);
	e0 = index_add(f, k[0]);
	e1 = index_add(f, k[1]);
	KUNIT_ASSERT_NOT_NULL(test, e0);
	KUNIT_ASSERT_NOT_NULL(test, e1);
	KUNIT_EXPECT_PTR_NE(test, e0, e1);
	KUNIT_EXPECT_PTR_EQ(test, ix->slots[slot], e0);
	KUNIT_EXPECT_PTR_EQ(test, ix->slots[(slot + 1) & ix->mask], e1);
	KUNIT_EXPECT_PTR_EQ(test, index_scan(test, f, k[0]), e0);
	KUNIT_EXPECT_PTR_EQ(test, index_scan(test, f, k[1]), e1);
	KUNIT_EXPECT_PTR_EQ(test, index_add(f, k[0]), e0);
	KUNIT_EXPECT_PTR_EQ(test, index_add(f, k[1]), e1);
	/* k[3] being added, its mark in the next slot; k[2] meets it. */
	atomic_inc(&f->m.reserved);
	ix->slots[(slot + 2) & ix->mask] = ie_index_mark(ix, k[3]);
	KUNIT_EXPECT_NULL(test, index_add(f, k[2]));
	KUNIT_EXPECT_NULL(test, ie_index_find(ix, k[2]));
	KUNIT_EXPECT_NULL(test, ie_index_find(ix, k[3]));
	KUNIT_EXPECT_EQ(test, atomic_read(&f->m.reserved), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->m.next_elt), 2);
}

/*
 * An entry's number, by which its sums are found, for every entry of a
 * map and for entries of every size at numbers up to the largest map's
 * (as far as an array can reach: INT_MAX bytes); and a sum, added up
 * over the CPUs that counted it.
 */
static void index_test_sums(struct kunit *test)
{
	struct index_fixture *f = index_fixture(test, 1);
	unsigned int first = cpumask_first(cpu_possible_mask);
	unsigned int last = cpumask_last(cpu_possible_mask);
	const u64 ks[] = { 0, 1, 2, 3, 127, 4097, (1U << 17) - 1 };
	unsigned int i, size, k;
	struct ie_map lay = {};
	struct ie_elt *elt, *other;
	u64 key[1], sums[IE_MAX_SUMS];

	KUNIT_EXPECT_FALSE(test, f->m.sums_shared);
	for (i = 0; i < f->m.max_elts; i++) {
		elt = (struct ie_elt *)(f->m.elts + i * f->m.elt_size);
		KUNIT_EXPECT_EQ(test, ie_elt_num(&f->m, elt), i);
	}
	for (size = 8; size <= SZ_64K; size += 8) {
		KUNIT_ASSERT_EQ(test, ie_map_layout(&lay, 8, 1, 0, size - 8), 0);
		KUNIT_ASSERT_EQ(test, lay.elt_size, size);
		lay.elts = (u8 *)SZ_4K;
		for (k = 0; k < ARRAY_SIZE(ks); k++) {
			if (ks[k] * size > INT_MAX)
				continue;
			elt = (struct ie_elt *)(lay.elts + (size_t)ks[k] * size);
			KUNIT_EXPECT_EQ_MSG(test, ie_elt_num(&lay, elt), ks[k],
					    "size %u", size);
		}
		/* The last entry an array under INT_MAX bytes can have. */
		k = INT_MAX / size - 1;
		elt = (struct ie_elt *)(lay.elts + (size_t)k * size);
		KUNIT_EXPECT_EQ_MSG(test, ie_elt_num(&lay, elt), k, "size %u",
				    size);
	}
	key[0] = 42;
	elt = index_add(f, key);
	key[0] = 43;
	other = index_add(f, key);
	KUNIT_ASSERT_NOT_NULL(test, elt);
	KUNIT_ASSERT_NOT_NULL(test, other);
	atomic64_add(5, ie_elt_cpu_sum(&f->m, first, elt, 1));
	atomic64_add(7, ie_elt_cpu_sum(&f->m, last, elt, 1));
	atomic64_add(100, ie_elt_cpu_sum(&f->m, last, elt, 0));
	KUNIT_EXPECT_EQ(test, ie_elt_read_sum(&f->m, elt, 1), 12);
	KUNIT_EXPECT_EQ(test, ie_elt_read_sum(&f->m, elt, 0), 100);
	/* The other entry's sums are its own. */
	KUNIT_EXPECT_EQ(test, ie_elt_read_sum(&f->m, other, 0), 0);
	KUNIT_EXPECT_EQ(test, ie_elt_read_sum(&f->m, other, 1), 0);
	/* All of an entry's sums in one walk: the same numbers. */
	KUNIT_ASSERT_LE(test, f->m.n_sums, IE_MAX_SUMS);
	sums[1] = 1;
	ie_elt_read_sums(&f->m, elt, sums);
	KUNIT_EXPECT_EQ(test, sums[0], 100);
	KUNIT_EXPECT_EQ(test, sums[1], 12);
	ie_elt_read_sums(&f->m, other, sums);
	KUNIT_EXPECT_EQ(test, sums[0], 0);
	KUNIT_EXPECT_EQ(test, sums[1], 0);
}

/*
 * Sums too large for every CPU to have its own: one array, which every
 * CPU's pointer names, read once, cleared once, freed once.
 */
static void index_test_sums_shared(struct kunit *test)
{
	struct index_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	unsigned int first, last, n_sums = 33;
	struct ie_elt *elt;
	u64 key[1] = { 7 };
	int cpu;

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->words = 1;
	f->m.cpu = alloc_percpu(struct ie_cpu_counts);
	KUNIT_ASSERT_NOT_NULL(test, f->m.cpu);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, index_counts_free,
							&f->m), 0);
	/* 2^17 entries of 33 sums: over IE_SUMS_PERCPU_MAX on one CPU. */
	KUNIT_ASSERT_GT(test, (u64)n_sums * sizeof(u64) << IE_MAP_BITS_MAX,
			(u64)IE_SUMS_PERCPU_MAX);
	KUNIT_ASSERT_EQ(test, ie_map_layout(&f->m, sizeof(u64), n_sums, 0, 0),
			0);
	if (ie_map_alloc(&f->m, IE_MAP_BITS_MAX))
		kunit_skip(test, "no room for 2^17 entries of 33 sums");
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, index_map_free,
							&f->m), 0);
	KUNIT_EXPECT_TRUE(test, f->m.sums_shared);
	first = cpumask_first(cpu_possible_mask);
	last = cpumask_last(cpu_possible_mask);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_PTR_EQ(test, per_cpu_ptr(f->m.cpu, cpu)->sums,
				    per_cpu_ptr(f->m.cpu, first)->sums);
	elt = index_add(f, key);
	KUNIT_ASSERT_NOT_NULL(test, elt);
	atomic64_add(3, ie_elt_cpu_sum(&f->m, first, elt, n_sums - 1));
	atomic64_add(4, ie_elt_cpu_sum(&f->m, last, elt, n_sums - 1));
	/* Counted once, whichever CPU's pointer added. */
	KUNIT_EXPECT_EQ(test, ie_elt_read_sum(&f->m, elt, n_sums - 1), 7);
	ie_map_clear(&f->m);
	KUNIT_EXPECT_EQ(test, atomic64_read(ie_elt_cpu_sum(&f->m, last, elt,
							   n_sums - 1)), 0);
}

static struct kunit_case index_test_cases[] = {
	KUNIT_CASE(index_test_sums),
	KUNIT_CASE(index_test_sums_shared),
	KUNIT_CASE(index_test_mark),
	KUNIT_CASE(index_test_same_hash),
	KUNIT_CASE(index_test_collide_wrap),
	KUNIT_CASE(index_test_two_words),
	KUNIT_CASE(index_test_full),
	{}
};

static struct kunit_suite index_test_suite = {
	.name = "inter_event_index",
	.test_cases = index_test_cases,
};

kunit_test_suite(index_test_suite);
