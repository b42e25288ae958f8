// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the statistics value modifiers: the wide arithmetic,
 * and columns updated and read as the event path and the hist file do.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/sort.h>

#include "inter_event.h"

/* A fixed pseudo-random sequence (xorshift64). */
static u64 stats_next(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void stats_test_mul_div(struct kunit *test)
{
	u64 hi, lo, a, b, seed = 0x9e3779b97f4a7c15ULL;
	int i;

	lo = ie_u64_mul(U64_MAX, U64_MAX, &hi);
	KUNIT_EXPECT_EQ(test, hi, U64_MAX - 1);
	KUNIT_EXPECT_EQ(test, lo, 1ULL);
	lo = ie_u64_mul(1ULL << 32, 1ULL << 32, &hi);
	KUNIT_EXPECT_EQ(test, hi, 1ULL);
	KUNIT_EXPECT_EQ(test, lo, 0ULL);
	/* (2^64 + 4) / 3 */
	KUNIT_EXPECT_EQ(test, ie_u128_div(1, 4, 3), 6148914691236517206ULL);
	KUNIT_EXPECT_EQ(test, ie_u128_div(U64_MAX - 1, U64_MAX, U64_MAX),
			U64_MAX);

	/* Products divided back, with and without a remainder. */
	for (i = 0; i < 1000; i++) {
		a = stats_next(&seed);
		b = stats_next(&seed) | 1;
		if (i & 1)
			b >>= i % 64;
		b |= 1;
		lo = ie_u64_mul(a, b, &hi);
		KUNIT_EXPECT_EQ(test, ie_u128_div(hi, lo, b), a);
		/* + (b - 1): still a, rounded down. */
		if (lo + (b - 1) < lo)
			hi++;
		lo += b - 1;
		KUNIT_EXPECT_EQ(test, ie_u128_div(hi, lo, b), a);
#ifdef CONFIG_ARCH_SUPPORTS_INT128
		{
			unsigned __int128 p = (unsigned __int128)a * b;

			lo = ie_u64_mul(a, b, &hi);
			KUNIT_EXPECT_EQ(test, hi, (u64)(p >> 64));
			KUNIT_EXPECT_EQ(test, lo, (u64)p);
		}
#endif
	}
}

static void stats_test_stddev_wide(struct kunit *test)
{
	/* 2, 4, 4, 4, 5, 5, 7, 9: mean 5, deviation 2. */
	KUNIT_EXPECT_EQ(test, ie_stat_stddev(8, 0, 40, 0, 232, false), 2ULL);
	/*
	 * 2^40 values, half 2^43 - 2^20, half 2^43 + 2^20: the sum is 2^83,
	 * the sum of squares 2^126 + 2^80, n * Q needs 167 bits.
	 */
	KUNIT_EXPECT_EQ(test,
			ie_stat_stddev(1ULL << 40, 1ULL << 19, 0,
				       (1ULL << 62) + (1ULL << 16), 0, false),
			1ULL << 20);
	/* All equal: 0. */
	KUNIT_EXPECT_EQ(test,
			ie_stat_stddev(1ULL << 40, 1ULL << 19, 0, 1ULL << 62, 0,
				       false), 0ULL);
	KUNIT_EXPECT_EQ(test, ie_stat_stddev(0, 0, 0, 0, 0, false), 0ULL);
}

struct stats_case {
	unsigned long	mod;
	bool		is_signed;
	u64		expect;
};

/* Feeds @vals into one column of each kind and checks what is read. */
static void stats_run(struct kunit *test, const u64 *vals, unsigned int n,
		      const struct stats_case *c, unsigned int n_cases)
{
	struct ie_field f = {};
	u64 data[5];
	unsigned int i, j;

	for (i = 0; i < n_cases; i++) {
		memset(data, 0, sizeof(data));
		f.mods = c[i].mod;
		f.is_signed = c[i].is_signed;
		f.stat_off = 0;
		KUNIT_ASSERT_LE(test, ie_stat_size(f.mods), sizeof(data));
		for (j = 0; j < n; j++)
			ie_stat_update(&f, data, vals[j]);
		KUNIT_EXPECT_EQ_MSG(test, ie_stat_read(&f, data, n),
				    c[i].expect, "case %u", i);
	}
}

static void stats_test_columns(struct kunit *test)
{
	static const u64 sv[] = { -5LL, 3, -100LL, 7 };
	static const struct stats_case sc[] = {
		{ IE_MOD_MIN, true, -100LL },
		{ IE_MOD_MAX, true, 7 },
		/* -95 / 4, toward zero */
		{ IE_MOD_AVG, true, -23LL },
		/* floor(sqrt(4 * 10083 - 95^2) / 4) = floor(176.9 / 4) */
		{ IE_MOD_STDDEV, true, 44 },
		/* The same bits unsigned. */
		{ IE_MOD_MIN, false, 3 },
		{ IE_MOD_MAX, false, -5LL },
	};
	static const u64 uv[] = { U64_MAX, 0, 5 };
	static const struct stats_case uc[] = {
		{ IE_MOD_MIN, false, 0 },
		{ IE_MOD_MAX, false, U64_MAX },
		/* (2^64 + 4) / 3: the sum carried into its high word */
		{ IE_MOD_AVG, false, 6148914691236517206ULL },
		{ IE_MOD_MIN, true, -1LL },
		{ IE_MOD_MAX, true, 5 },
	};
	static const u64 one[] = { 42 };
	static const struct stats_case oc[] = {
		{ IE_MOD_MIN, false, 42 },
		{ IE_MOD_MAX, false, 42 },
		{ IE_MOD_AVG, false, 42 },
		{ IE_MOD_STDDEV, false, 0 },
		{ IE_MOD_MIN, true, 42 },
	};
	/* A large mean with a deviation of 1: no cancellation. */
	u64 big[64];
	static const struct stats_case bc[] = {
		{ IE_MOD_AVG, false, 1000000000001ULL },
		{ IE_MOD_STDDEV, false, 1 },
		{ IE_MOD_MIN, false, 1000000000000ULL },
	};
	/*
	 * A sum of 2^64 + 6, both words set: the square's cross term; the
	 * deviation of two values is half their distance.
	 */
	static const u64 wide[] = { (1ULL << 63) + 5, (1ULL << 63) + 1 };
	static const struct stats_case wc[] = {
		{ IE_MOD_AVG, false, (1ULL << 63) + 3 },
		{ IE_MOD_STDDEV, false, 2 },
		/* As signed: -2^63 + 5 and -2^63 + 1, a sum below -2^64. */
		{ IE_MOD_AVG, true, (u64)(S64_MIN + 3) },
		{ IE_MOD_STDDEV, true, 2 },
	};
	static const u64 neg[] = { -7LL, -3LL };
	static const struct stats_case nc[] = {
		{ IE_MOD_AVG, true, -5LL },
		{ IE_MOD_STDDEV, true, 2 },
		{ IE_MOD_MIN, true, -7LL },
	};
	/* Squares of U64_MAX: the second overflows the sum of squares. */
	static const u64 huge[] = { U64_MAX, U64_MAX };
	static const struct stats_case hc[] = {
		{ IE_MOD_STDDEV, false, U64_MAX },
		{ IE_MOD_AVG, false, U64_MAX },
	};
	unsigned int i;

	stats_run(test, wide, ARRAY_SIZE(wide), wc, ARRAY_SIZE(wc));
	stats_run(test, neg, ARRAY_SIZE(neg), nc, ARRAY_SIZE(nc));
	stats_run(test, huge, ARRAY_SIZE(huge), hc, ARRAY_SIZE(hc));
	stats_run(test, sv, ARRAY_SIZE(sv), sc, ARRAY_SIZE(sc));
	stats_run(test, uv, ARRAY_SIZE(uv), uc, ARRAY_SIZE(uc));
	stats_run(test, one, ARRAY_SIZE(one), oc, ARRAY_SIZE(oc));
	for (i = 0; i < ARRAY_SIZE(big); i++)
		big[i] = 1000000000000ULL + (i & 1) * 2;
	stats_run(test, big, ARRAY_SIZE(big), bc, ARRAY_SIZE(bc));
}

static void stats_test_suffix(struct kunit *test)
{
	size_t len = 0;

	KUNIT_EXPECT_EQ(test, ie_stat_suffix("lat.max", &len), IE_MOD_MAX);
	KUNIT_EXPECT_EQ(test, len, (size_t)3);
	KUNIT_EXPECT_EQ(test, ie_stat_suffix("$a-$b.stddev", &len),
			IE_MOD_STDDEV);
	KUNIT_EXPECT_EQ(test, len, (size_t)5);
	KUNIT_EXPECT_EQ(test, ie_stat_suffix("common_timestamp.usecs.avg", &len),
			IE_MOD_AVG);
	KUNIT_EXPECT_EQ(test, len, (size_t)22);
	KUNIT_EXPECT_EQ(test, ie_stat_suffix("lat.maxx", &len), 0UL);
	KUNIT_EXPECT_EQ(test, ie_stat_suffix(".min", &len), 0UL);
	KUNIT_EXPECT_EQ(test, ie_stat_suffix("min", &len), 0UL);
	KUNIT_EXPECT_EQ(test, ie_stat_suffix("bytes.hex", &len), 0UL);
}

/* The bucket of @v computed another way: its width from a bit count. */
static u64 loglin_ref_floor(u64 v, unsigned int bits)
{
	unsigned int p = 0;
	u64 w = 1;

	while (p < 63 && (v >> (p + 1)))
		p++;
	if (p > bits)
		w = 1ULL << (p - bits);
	return v & ~(w - 1);
}

static void stats_test_loglin(struct kunit *test)
{
	static const u64 edge[] = { 0, 1, 2, 3, 7, 8, 9, 255, 256, 257, 1000,
				    1023, 1024, 1025, 123456789, 1ULL << 40,
				    (1ULL << 40) - 1, U64_MAX - 1, U64_MAX };
	unsigned int bits, i;
	u64 v, lo, hi, seed = 42;

	for (bits = 0; bits <= IE_LOGLIN_MAX_BITS; bits++) {
		for (i = 0; i < ARRAY_SIZE(edge) + 4000; i++) {
			if (i < ARRAY_SIZE(edge)) {
				v = edge[i];
			} else {
				seed = seed * 6364136223846793005ULL +
				       1442695040888963407ULL;
				v = seed >> (seed & 63);
			}
			lo = ie_loglin_floor(v, bits);
			hi = ie_loglin_last(lo, bits);
			KUNIT_ASSERT_EQ(test, lo, loglin_ref_floor(v, bits));
			KUNIT_ASSERT_TRUE(test, lo <= v && v <= hi);
			/* At most 2^-bits of the floor wide (1 below). */
			KUNIT_ASSERT_TRUE(test, hi - lo <= (lo >> bits));
			/* Buckets tile the line: the next starts after it. */
			if (hi != U64_MAX)
				KUNIT_ASSERT_EQ(test,
						ie_loglin_floor(hi + 1, bits),
						hi + 1);
			KUNIT_ASSERT_EQ(test, ie_loglin_floor(hi, bits), lo);
		}
	}
	/* Below 2^(bits + 1), every value is its own bucket. */
	for (v = 0; v < 512; v++)
		KUNIT_EXPECT_EQ(test, ie_loglin_last(v, 8), v);
	KUNIT_EXPECT_EQ(test, ie_loglin_floor(1000, 2), 896ULL);
	KUNIT_EXPECT_EQ(test, ie_loglin_last(896, 2), 1023ULL);
	KUNIT_EXPECT_EQ(test, ie_loglin_floor(U64_MAX, 0), 1ULL << 63);
	KUNIT_EXPECT_EQ(test, ie_loglin_last(1ULL << 63, 0), U64_MAX);
}

static int pctl_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * A sketch fed @n values: each quantile within 1/64 of the exact one (the
 * ceil(q n)-th smallest, from the sorted values), the maximum exact.
 */
static void pctl_check(struct kunit *test, u64 *v, unsigned int n)
{
	static const unsigned int pm[] = { 500, 900, 990, 999 };
	struct ie_field f = { .type = IE_FT_NUM, .mods = IE_MOD_PCTL };
	struct ie_pctl *pc;
	u64 out[IE_PCTL_N], exact, diff, lo, mid;
	unsigned int i, r;
	u32 *copy;

	pc = kunit_kzalloc(test, sizeof(*pc), GFP_KERNEL);
	copy = kunit_kcalloc(test, IE_PCTL_BUCKETS, sizeof(*copy), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pc);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	for (i = 0; i < n; i++)
		ie_stat_update(&f, pc, v[i]);
	ie_pctl_read(pc, copy, out);
	sort(v, n, sizeof(*v), pctl_cmp, NULL);
	for (i = 0; i < ARRAY_SIZE(pm); i++) {
		r = DIV_ROUND_UP(n * pm[i], 1000);
		exact = v[r - 1];
		diff = out[i] > exact ? out[i] - exact : exact - out[i];
		/* (No bound in the last bucket: shown as the maximum.) */
		if (ie_pctl_index(exact) == IE_PCTL_BUCKETS - 1)
			diff = 0;
		KUNIT_EXPECT_LE_MSG(test, diff * 64, exact,
				    "n %u p%u: sketch %llu, exact %llu", n,
				    pm[i], out[i], exact);
		/* The reported quantile is never above the maximum. */
		KUNIT_EXPECT_LE(test, out[i], v[n - 1]);
		/* Exactly: the middle of the exact value's bucket. */
		lo = ie_loglin_floor(exact, IE_PCTL_BITS);
		mid = lo + (ie_loglin_last(lo, IE_PCTL_BITS) - lo) / 2;
		if (ie_pctl_index(exact) == IE_PCTL_BUCKETS - 1)
			mid = v[n - 1];
		KUNIT_EXPECT_EQ(test, out[i], min(mid, v[n - 1]));
	}
	KUNIT_EXPECT_EQ(test, out[IE_PCTL_N - 1], v[n - 1]);
	/* The maximum as the entry's single figure. */
	KUNIT_EXPECT_EQ(test, ie_stat_read(&f, pc, n), v[n - 1]);
}

static void stats_test_pctl(struct kunit *test)
{
	struct ie_field f = { .type = IE_FT_NUM, .mods = IE_MOD_PCTL };
	unsigned int n = 20000, i, k;
	u64 *v, seed = 7, x, out[IE_PCTL_N];
	struct ie_pctl *pc;
	u32 *copy, r;

	/* The buckets are those of .loglin=5, in order. */
	for (i = 0; i < IE_PCTL_BUCKETS; i++) {
		x = ie_pctl_floor(i);
		KUNIT_ASSERT_EQ(test, ie_pctl_index(x), i);
		KUNIT_ASSERT_EQ(test, ie_loglin_floor(x, IE_PCTL_BITS), x);
		if (i + 1 < IE_PCTL_BUCKETS)
			KUNIT_ASSERT_EQ(test, ie_pctl_floor(i + 1),
					ie_loglin_last(x, IE_PCTL_BITS) + 1);
	}
	KUNIT_EXPECT_EQ(test, ie_pctl_floor(IE_PCTL_BUCKETS - 1), 39ULL << 30);
	KUNIT_EXPECT_EQ(test, ie_pctl_index(U64_MAX), IE_PCTL_BUCKETS - 1);
	KUNIT_EXPECT_EQ(test, ie_pctl_index((39ULL << 30) - 1),
			IE_PCTL_BUCKETS - 2);

	v = kunit_kmalloc_array(test, n, sizeof(*v), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, v);
	/*
	 * Skewed: a body around 2000-4000 and a tail of powers of ten up
	 * to 10^10 (about 1 in 100 values), as latencies in ns look.
	 */
	for (k = 0; k < 3; k++) {
		for (i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ULL +
			       1442695040888963407ULL;
			/* 31 bits: u32 arithmetic, no libgcc on 32-bit. */
			r = seed >> 33;
			v[i] = 2000 + r % 2000;
			if (r % 100 == 0)
				v[i] *= int_pow(10, 1 + (r >> 8) % 7);
			if (k == 1)
				v[i] = r % 50;		/* all exact buckets */
		}
		pctl_check(test, v, k == 2 ? 7 : n);
	}
	/* Many small sketches of random sizes and spreads. */
	for (k = 0; k < 200; k++) {
		unsigned int m = 1 + (u32)(seed >> 40) % 3000;

		for (i = 0; i < m; i++) {
			seed = seed * 6364136223846793005ULL +
			       1442695040888963407ULL;
			x = seed >> 20;
			div_u64_rem(x, 44, &r);
			v[i] = x >> r;
		}
		pctl_check(test, v, m);
	}
	/* Values in the last bucket: shown as the maximum. */
	for (i = 0; i < 100; i++)
		v[i] = i < 10 ? 5000 : (39ULL << 30) + i;
	pctl_check(test, v, 100);
	/* One value; and an empty sketch reads all 0. */
	v[0] = 123456;
	pctl_check(test, v, 1);
	pc = kunit_kzalloc(test, sizeof(*pc), GFP_KERNEL);
	copy = kunit_kcalloc(test, IE_PCTL_BUCKETS, sizeof(*copy), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pc);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	ie_pctl_read(pc, copy, out);
	for (i = 0; i < IE_PCTL_N; i++)
		KUNIT_EXPECT_EQ(test, out[i], 0ULL);
	/*
	 * A count that reaches 2^31 (before it can wrap): the quantiles show
	 * U64_MAX, the maximum stays.
	 */
	atomic_set(&pc->n[ie_pctl_index(5)], S32_MAX);
	ie_stat_update(&f, pc, 5);
	ie_pctl_read(pc, copy, out);
	for (i = 0; i < IE_PCTL_N - 1; i++)
		KUNIT_EXPECT_EQ(test, out[i], U64_MAX);
	KUNIT_EXPECT_EQ(test, out[IE_PCTL_N - 1], 5ULL);
	/*
	 * A value counted whose maximum is not there yet (an event between
	 * its two updates): the maximum read is at least its bucket's floor.
	 */
	memset(pc, 0, sizeof(*pc));
	atomic64_set(&pc->max, 100);
	atomic_set(&pc->n[ie_pctl_index(100)], 1);
	atomic_set(&pc->n[ie_pctl_index(5000)], 1);
	ie_pctl_read(pc, copy, out);
	KUNIT_EXPECT_EQ(test, out[IE_PCTL_N - 1], ie_loglin_floor(5000, 5));
	KUNIT_EXPECT_EQ(test, out[0], 100ULL);
}

/*
 * A take moves a column's words into a copy and leaves the column empty;
 * giving the copy back after more values equals counting all of them.
 */
static void stats_test_take(struct kunit *test)
{
	static const unsigned long mods[] = {
		IE_MOD_MIN, IE_MOD_MAX, IE_MOD_AVG, IE_MOD_STDDEV, IE_MOD_PCTL,
	};
	size_t size = sizeof(struct ie_pctl);
	void *live, *ref, *ref2, *copy, *zero;
	struct ie_field f = { .type = IE_FT_NUM };
	unsigned int i, j, k, n1 = 300, n2 = 200;
	u64 seed = 11, x;
	u32 sh;

	live = kunit_kzalloc(test, size, GFP_KERNEL);
	ref = kunit_kzalloc(test, size, GFP_KERNEL);
	ref2 = kunit_kzalloc(test, size, GFP_KERNEL);
	copy = kunit_kzalloc(test, size, GFP_KERNEL);
	zero = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, live && ref && ref2 && copy && zero);

	for (i = 0; i < ARRAY_SIZE(mods) * 2; i++) {
		f.mods = mods[i / 2];
		f.is_signed = i % 2 && !(f.mods & IE_MOD_PCTL);
		size = ie_stat_size(f.mods);
		memset(live, 0, size);
		memset(ref, 0, size);
		memset(ref2, 0, size);
		memset(copy, 0xa5, size);
		KUNIT_EXPECT_FALSE(test, ie_stat_take(&f, live, copy));
		for (k = 0; k < 2; k++) {
			for (j = 0; j < (k ? n2 : n1); j++) {
				seed = seed * 6364136223846793005ULL +
				       1442695040888963407ULL;
				div_u64_rem(seed, 40, &sh);
				x = seed >> sh;
				/* Sums that carry into their high words. */
				if (j % 7 == 0)
					x = U64_MAX - (x & 0xff);
				ie_stat_update(&f, live, x);
				ie_stat_update(&f, ref, x);
				if (k)
					ie_stat_update(&f, ref2, x);
			}
			if (k)
				break;
			/* The copy is what was counted; the column is empty. */
			KUNIT_EXPECT_TRUE(test, ie_stat_take(&f, live, copy));
			/* (Not the sketch's padding, which the take skips.) */
			KUNIT_EXPECT_MEMEQ_MSG(test, copy, ref,
					       f.mods & IE_MOD_PCTL ?
					       offsetofend(struct ie_pctl, n) : size,
					       "mods %lx", f.mods);
			KUNIT_EXPECT_MEMEQ_MSG(test, live, zero, size, "mods %lx",
					       f.mods);
		}
		/* The next interval alone, then everything once given back. */
		KUNIT_EXPECT_MEMEQ_MSG(test, live, ref2, size, "mods %lx", f.mods);
		ie_stat_give_back(&f, live, copy);
		KUNIT_EXPECT_MEMEQ_MSG(test, live, ref, size, "mods %lx", f.mods);
		KUNIT_EXPECT_EQ(test, ie_stat_read(&f, live, n1 + n2),
				ie_stat_read(&f, ref, n1 + n2));
	}
}

/*
 * A signed sum of values of either sign keeps its high word at 0 until
 * the sum passes 2^63: an event racing with a take then touches one
 * word only, and the two intervals' sums are each exact.
 */
static void stats_test_signed_words(struct kunit *test)
{
	struct ie_field f = { .type = IE_FT_NUM, .is_signed = true };
	u64 w[5], seed = 5, x;
	s64 v, sum = 0;
	unsigned int i, k;

	for (k = 0; k < 2; k++) {
		f.mods = k ? IE_MOD_STDDEV : IE_MOD_AVG;
		memset(w, 0, sizeof(w));
		sum = 0;
		for (i = 0; i < 1000; i++) {
			seed = seed * 6364136223846793005ULL +
			       1442695040888963407ULL;
			x = seed >> 20;
			v = (s64)(x & ((1ULL << 40) - 1)) - (1LL << 39);
			ie_stat_update(&f, w, v);
			sum += v;
			KUNIT_ASSERT_EQ(test, w[1], 0ULL);
		}
		KUNIT_EXPECT_EQ(test, (s64)w[0], sum);
		if (!k)
			KUNIT_EXPECT_EQ(test, (s64)ie_stat_read(&f, w, 1000),
					div_s64(sum, 1000));
	}
	/* Past S64_MAX and back: the high word counts, the mean is exact. */
	f.mods = IE_MOD_AVG;
	memset(w, 0, sizeof(w));
	for (i = 0; i < 4; i++)
		ie_stat_update(&f, w, S64_MAX);
	KUNIT_EXPECT_EQ(test, w[1], 2ULL);
	KUNIT_EXPECT_EQ(test, (s64)ie_stat_read(&f, w, 4), S64_MAX);
	for (i = 0; i < 8; i++)
		ie_stat_update(&f, w, (u64)S64_MIN);
	/* 4 * (2^63 - 1) - 8 * 2^63 = -4 * (2^63 + 1): mean -(2^63 + 1) / 3. */
	KUNIT_EXPECT_EQ(test, w[1], -2ULL);
	KUNIT_EXPECT_EQ(test, (s64)ie_stat_read(&f, w, 12),
			-(s64)(div_u64((1ULL << 63) + 1, 3)));
}

static struct kunit_case stats_test_cases[] = {
	KUNIT_CASE(stats_test_signed_words),
	KUNIT_CASE(stats_test_take),
	KUNIT_CASE(stats_test_pctl),
	KUNIT_CASE(stats_test_loglin),
	KUNIT_CASE(stats_test_mul_div),
	KUNIT_CASE(stats_test_stddev_wide),
	KUNIT_CASE(stats_test_columns),
	KUNIT_CASE(stats_test_suffix),
	{}
};

static struct kunit_suite stats_test_suite = {
	.name = "inter_event_stats",
	.test_cases = stats_test_cases,
};

kunit_test_suite(stats_test_suite);
