// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the index of a map's entries (index.c), on real
 * tracing_maps of the smallest size: keys whose probe sequences collide
 * and wrap around the end of the table, keys of two words equal in their
 * first, a full map, a lookup with a longer key, and a clear.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "inter_event.h"

struct index_fixture {
	struct ie_map		m;
	unsigned int		words;
};

KUNIT_DEFINE_ACTION_WRAPPER(index_map_destroy, tracing_map_destroy,
			    struct tracing_map *);
KUNIT_DEFINE_ACTION_WRAPPER(index_free, ie_index_free, struct ie_index *);

static struct index_fixture *index_fixture(struct kunit *test,
					   unsigned int words)
{
	struct index_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct tracing_map *map;
	unsigned int i;
	int idx;

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->words = words;
	map = tracing_map_create(TRACING_MAP_BITS_MIN, words * sizeof(u64),
				 NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, index_map_destroy,
							map), 0);
	for (i = 0; i < words; i++) {
		idx = tracing_map_add_key_field(map, i * sizeof(u64),
						tracing_map_cmp_num(sizeof(u64),
								    false));
		KUNIT_ASSERT_GE(test, idx, 0);
	}
	KUNIT_ASSERT_GE(test, tracing_map_add_sum_field(map), 0);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);
	f->m.map = map;
	KUNIT_ASSERT_EQ(test, ie_index_alloc(&f->m.index, map->map_bits,
					     map->key_size), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, index_free,
							&f->m.index), 0);
	return f;
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
 * each is found with its own entry, by the index and by tracing_map.
 */
static void index_fill(struct kunit *test, struct index_fixture *f,
		       u64 *keys, unsigned int n, unsigned int collide)
{
	const struct ie_index *ix = &f->m.index;
	u32 last = ix->mask;
	struct tracing_map_elt *elt, *again;
	u64 key[2], k = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		do {
			index_key(f, key, 7, ++k);
		} while (i < collide && ie_index_hash(ix, key) != last);
		keys[i] = k;
		KUNIT_ASSERT_NULL(test, ie_index_find(ix, key));
		elt = ie_map_find_or_add(&f->m, key);
		KUNIT_ASSERT_NOT_NULL_MSG(test, elt, "key %u of %u", i, n);
		KUNIT_EXPECT_EQ(test, memcmp(elt->key, key, f->words * 8), 0);
		KUNIT_EXPECT_PTR_EQ(test, ie_index_find(ix, key), elt);
	}
	for (i = 0; i < n; i++) {
		index_key(f, key, 7, keys[i]);
		elt = ie_index_find(ix, key);
		again = tracing_map_lookup(f->m.map, key);
		KUNIT_EXPECT_NOT_NULL(test, elt);
		KUNIT_EXPECT_PTR_EQ(test, elt, again);
		KUNIT_EXPECT_PTR_EQ(test, ie_map_find_or_add(&f->m, key), elt);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&f->m.map->next_elt), n);
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
	struct tracing_map_elt *elt;
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
	KUNIT_EXPECT_PTR_EQ(test, elt, tracing_map_lookup(f->m.map, key));
}

static void index_test_full(struct kunit *test)
{
	struct index_fixture *f = index_fixture(test, 1);
	unsigned int max = f->m.map->max_elts;
	u64 *keys = kunit_kcalloc(test, max, sizeof(*keys), GFP_KERNEL);
	u64 key[1];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, keys);
	index_fill(test, f, keys, max, 3);
	/* Full: a new key has no entry, the others keep theirs. */
	key[0] = 1ULL << 40;
	KUNIT_EXPECT_NULL(test, ie_map_find_or_add(&f->m, key));
	KUNIT_EXPECT_NULL(test, tracing_map_lookup(f->m.map, key));
	for (i = 0; i < max; i++) {
		key[0] = keys[i];
		KUNIT_EXPECT_NOT_NULL(test, ie_map_find_or_add(&f->m, key));
	}
	/* Cleared with its map: empty, then filled again. */
	tracing_map_clear(f->m.map);
	ie_index_clear(&f->m.index);
	for (i = 0; i < (1U << f->m.index.bits); i++)
		KUNIT_EXPECT_NULL(test, f->m.index.slots[i]);
	key[0] = keys[0];
	KUNIT_EXPECT_NULL(test, ie_index_find(&f->m.index, key));
	index_fill(test, f, keys, max, 0);
}

static struct kunit_case index_test_cases[] = {
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
