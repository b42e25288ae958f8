// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-event hist triggers: per-entry statistics of a value, the value
 * modifiers .min, .max, .avg, .stddev and .percentiles; and the buckets
 * of the key modifier .loglin=N, which .percentiles counts in.
 *
 * A statistics column keeps its own words in the entry's private data,
 * at ie_field.stat_off, updated with atomics on the event path, so that
 * the events of all CPUs on one entry add up exactly:
 *  - .min and .max: one word, the extreme so far in an order-preserving
 *    unsigned form (a signed value's sign bit flipped; for .min, all
 *    bits inverted too), raised with cmpxchg.  0, what a new or cleared
 *    entry holds, is at or below every value so encoded.
 *  - .avg: the sum of the values in 128 bits: the low word added with
 *    fetch-and-add, its carry added to the high word.  A signed sum is
 *    kept as high * 2^64 plus the low word read as signed: the high word
 *    counts the signed overflows of the low word, up or down, so that a
 *    value of either sign touches it only when the sum passes 2^63 plus
 *    a multiple of 2^64 (ie_stat_words() gives the two's complement).
 *    (The sum of the squares, unsigned, gets a square's high word too:
 *    values from 2^32 up touch both words.)  The count is
 *    the entry's hit count: every hit of the entry evaluates every value.
 *  - .stddev: the sum and the sum of the squares, 128 bits each, and a
 *    word set for good once the sum of the squares overflowed.
 *  - .percentiles: a sketch, struct ie_pctl: the maximum as .max keeps
 *    it, and a 32-bit count per bucket of .loglin=5 (ie_pctl_read()).
 * A reader racing with the events may see a sum before its hit count,
 * or, while a carry goes into a high word (when the low word wraps, or
 * for a square from 2^64 up), the low word without it; once they are
 * done, the figures are exact, as the sums of the values are.
 *
 * The mean is the sum divided by the count, rounded toward zero; the
 * standard deviation is that of the population, sqrt(n*Q - S^2) / n
 * for n values of sum S and sum of squares Q, rounded down, computed
 * in 256-bit integers: exact while Q stays below 2^128 (for instance,
 * 2^40 values below 2^44); once Q overflowed, the deviation shows as
 * U64_MAX.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "inter_event.h"

struct ie_stat_name {
	const char	*name;
	unsigned long	mod;
};

static const struct ie_stat_name ie_stat_names[] = {
	{ "min",	IE_MOD_MIN },
	{ "max",	IE_MOD_MAX },
	{ "avg",	IE_MOD_AVG },
	{ "stddev",	IE_MOD_STDDEV },
	{ "percentiles", IE_MOD_PCTL },
};

/**
 * ie_stat_name - the name of a statistics modifier
 * @mods: a column's modifiers
 *
 * Return: "min", "max", "avg", "stddev", "percentiles", or "" if none.
 */
const char *ie_stat_name(unsigned long mods)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ie_stat_names); i++) {
		if (mods & ie_stat_names[i].mod)
			return ie_stat_names[i].name;
	}
	return "";
}

/**
 * ie_stat_suffix - the statistic a value's text ends with
 * @text: a value as written in vals=, e.g. "lat.max" or "$a-$b.avg"
 * @len: set to the length of @text without the suffix (if any)
 *
 * The statistic applies to the whole value before it, an expression
 * included.
 *
 * Return: IE_MOD_MIN, IE_MOD_MAX, IE_MOD_AVG, IE_MOD_STDDEV, IE_MOD_PCTL,
 * or 0.
 */
unsigned long ie_stat_suffix(const char *text, size_t *len)
{
	const char *dot = strrchr(text, '.');
	unsigned int i;

	if (!dot || dot == text)
		return 0;
	for (i = 0; i < ARRAY_SIZE(ie_stat_names); i++) {
		if (!strcmp(dot + 1, ie_stat_names[i].name)) {
			*len = dot - text;
			return ie_stat_names[i].mod;
		}
	}
	return 0;
}

/**
 * ie_stat_size - bytes of entry data a statistics column keeps
 * @mods: the column's modifiers
 *
 * Return: 8 for .min and .max, 16 for .avg, 40 for .stddev, 4016 for
 * .percentiles, else 0.
 */
unsigned int ie_stat_size(unsigned long mods)
{
	if (mods & (IE_MOD_MIN | IE_MOD_MAX))
		return sizeof(u64);
	if (mods & IE_MOD_AVG)
		return 2 * sizeof(u64);
	if (mods & IE_MOD_STDDEV)
		return 5 * sizeof(u64);
	if (mods & IE_MOD_PCTL)
		return sizeof(struct ie_pctl);
	return 0;
}

/* A value in an unsigned form of the same order. */
static inline u64 ie_stat_ord(u64 v, bool is_signed)
{
	return is_signed ? v ^ BIT_ULL(63) : v;
}

static inline void ie_stat_raise(atomic64_t *slot, u64 v)
{
	s64 old = atomic64_read(slot);

	do {
		if (v <= (u64)old)
			return;
	} while (!atomic64_try_cmpxchg(slot, &old, v));
}

/*
 * Adds the 128-bit @hi:@lo to the 128-bit sum at @w (low word first).
 * Return: whether the high word wrapped (for unsigned sums: overflow).
 */
static inline bool ie_stat_add128(atomic64_t *w, u64 hi, u64 lo)
{
	u64 old = atomic64_fetch_add(lo, &w[0]);

	/* The low word wrapped: carry one into the high word. */
	if (old + lo < old)
		hi++;
	if (!hi)
		return false;
	old = atomic64_fetch_add(hi, &w[1]);
	return old + hi < old;
}

/*
 * Adds the signed @v to the signed sum at @w: the low word, and the high
 * word counting its signed overflows (see the top of the file).
 */
static inline void ie_stat_add_s128(atomic64_t *w, s64 v)
{
	s64 old = atomic64_fetch_add(v, &w[0]);
	s64 sum = (s64)((u64)old + (u64)v);

	/* Past S64_MAX up, or past S64_MIN down. */
	if (unlikely(((old ^ sum) & (v ^ sum)) < 0))
		atomic64_add(v < 0 ? -1 : 1, &w[1]);
}

/**
 * ie_u64_mul - the full 128-bit product of two 64-bit numbers
 * @a: a factor
 * @b: a factor
 * @hi: set to the high 64 bits of the product
 *
 * Return: the low 64 bits of the product.
 */
u64 ie_u64_mul(u64 a, u64 b, u64 *hi)
{
	*hi = mul_u64_u64_shr(a, b, 64);
	return a * b;
}

/**
 * ie_stat_update - account one value in an entry's statistics column
 * @f: the column: a value with one of the statistics modifiers
 * @data: the entry's private data
 * @v: the value
 *
 * Event path: atomics only.
 */
void ie_stat_update(const struct ie_field *f, void *data, u64 v)
{
	atomic64_t *w = data + f->stat_off;
	u64 mag, hi, lo;
	bool neg;

	if (f->mods & IE_MOD_PCTL) {
		struct ie_pctl *pc = data + f->stat_off;

		ie_stat_raise(&pc->max, v);
		/* Flagged at 2^31: long before a count can wrap. */
		if (unlikely(atomic_inc_return_relaxed(&pc->n[ie_pctl_index(v)]) < 0))
			atomic_set(&pc->wrapped, 1);
		return;
	}
	if (f->mods & IE_MOD_MAX) {
		ie_stat_raise(w, ie_stat_ord(v, f->is_signed));
		return;
	}
	if (f->mods & IE_MOD_MIN) {
		ie_stat_raise(w, ~ie_stat_ord(v, f->is_signed));
		return;
	}
	neg = f->is_signed && (s64)v < 0;
	if (f->is_signed)
		ie_stat_add_s128(w, v);
	else
		ie_stat_add128(w, 0, v);
	if (!(f->mods & IE_MOD_STDDEV))
		return;
	mag = neg ? -v : v;
	lo = ie_u64_mul(mag, mag, &hi);
	/* (hi is at most 2^64 - 2: the carry fits.) */
	if (unlikely(ie_stat_add128(w + 2, hi, lo)))
		atomic64_set(&w[4], 1);
}

/**
 * ie_stat_take - move an entry's statistics column into a copy
 * @f: the column: a value with one of the statistics modifiers
 * @data: the live entry's private data
 * @copy: the copy's private data, which gets the column's words
 *
 * Each word is exchanged with 0, the state of an empty column, so that
 * an event racing with the take counts either in the copy or in the
 * entry, never in both and never in neither.  The two words of a 128-bit
 * sum are taken one after the other: a carry on its way between them
 * lands in the next interval (a sum of 2^64 in one interval).
 *
 * Return: whether the column had counted anything.
 */
bool ie_stat_take(const struct ie_field *f, void *data, void *copy)
{
	unsigned int i, n = ie_stat_size(f->mods) / sizeof(u64);
	atomic64_t *w = data + f->stat_off;
	u64 *c = copy + f->stat_off;
	bool any = false;

	if (f->mods & IE_MOD_PCTL) {
		struct ie_pctl *pc = data + f->stat_off;
		struct ie_pctl *pcc = copy + f->stat_off;
		int v;

		atomic64_set(&pcc->max, atomic64_xchg(&pc->max, 0));
		atomic_set(&pcc->wrapped, atomic_xchg(&pc->wrapped, 0));
		for (i = 0; i < IE_PCTL_BUCKETS; i++) {
			v = atomic_xchg(&pc->n[i], 0);
			atomic_set(&pcc->n[i], v);
			any |= v != 0;
		}
		return any || atomic64_read(&pcc->max);
	}
	for (i = 0; i < n; i++) {
		c[i] = atomic64_xchg(&w[i], 0);
		any |= c[i] != 0;
	}
	return any;
}

/**
 * ie_stat_give_back - add a column taken by ie_stat_take() back
 * @f: the column
 * @data: the live entry's private data
 * @copy: the copy ie_stat_take() filled
 *
 * For a take whose result could not be delivered: every figure is a sum,
 * a count or an extreme, so adding the copy back loses nothing of what
 * the entry counted meanwhile.
 */
void ie_stat_give_back(const struct ie_field *f, void *data, const void *copy)
{
	atomic64_t *w = data + f->stat_off;
	const u64 *c = copy + f->stat_off;
	unsigned int i;

	if (f->mods & IE_MOD_PCTL) {
		struct ie_pctl *pc = data + f->stat_off;
		const struct ie_pctl *pcc = copy + f->stat_off;
		int v;

		ie_stat_raise(&pc->max, atomic64_read(&pcc->max));
		if (atomic_read(&pcc->wrapped))
			atomic_set(&pc->wrapped, 1);
		for (i = 0; i < IE_PCTL_BUCKETS; i++) {
			v = atomic_read(&pcc->n[i]);
			if (v && atomic_add_return_relaxed(v, &pc->n[i]) < 0)
				atomic_set(&pc->wrapped, 1);
		}
		return;
	}
	if (f->mods & (IE_MOD_MIN | IE_MOD_MAX)) {
		ie_stat_raise(w, c[0]);
		return;
	}
	if (f->is_signed) {
		ie_stat_add_s128(w, c[0]);
		if (c[1])
			atomic64_add(c[1], &w[1]);
	} else {
		ie_stat_add128(w, c[1], c[0]);
	}
	if (!(f->mods & IE_MOD_STDDEV))
		return;
	if (ie_stat_add128(w + 2, c[3], c[2]) || c[4])
		atomic64_set(&w[4], 1);
}

/**
 * ie_u128_div - divide a 128-bit number by a 64-bit one
 * @hi: high word of the dividend, below @d (the quotient fits in 64 bits)
 * @lo: low word of the dividend
 * @d: the divisor, not 0
 *
 * Return: the quotient, rounded down.
 */
u64 ie_u128_div(u64 hi, u64 lo, u64 d)
{
	bool top;
	int i;

	for (i = 0; i < 64; i++) {
		top = hi >> 63;
		hi = hi << 1 | lo >> 63;
		lo <<= 1;
		if (top || hi >= d) {
			hi -= d;
			lo |= 1;
		}
	}
	return lo;
}

/*
 * Reading: numbers of up to 256 bits, as 4 words, least significant
 * first.
 */
#define IE_W	4

static void ie_w_set(u64 *r, u64 w0, u64 w1, u64 w2, u64 w3)
{
	r[0] = w0;
	r[1] = w1;
	r[2] = w2;
	r[3] = w3;
}

static bool ie_w_ge(const u64 *a, const u64 *b)
{
	int i;

	for (i = IE_W - 1; i >= 0; i--) {
		if (a[i] != b[i])
			return a[i] > b[i];
	}
	return true;
}

static void ie_w_add(u64 *r, const u64 *a, const u64 *b)
{
	u64 c = 0, s;
	int i;

	for (i = 0; i < IE_W; i++) {
		s = a[i] + c;
		c = s < c;
		r[i] = s + b[i];
		c += r[i] < s;
	}
}

static void ie_w_sub(u64 *r, const u64 *a, const u64 *b)
{
	u64 borrow = 0, ai, bi, d;
	int i;

	for (i = 0; i < IE_W; i++) {
		ai = a[i];
		bi = b[i];
		d = ai - bi;
		r[i] = d - borrow;
		borrow = ai < bi || d < borrow;
	}
}

static void ie_w_shr(u64 *a, unsigned int n)
{
	int i;

	/* 0 < n < 64 */
	for (i = 0; i < IE_W; i++)
		a[i] = (a[i] >> n) | (i + 1 < IE_W ? a[i + 1] << (64 - n) : 0);
}

static bool ie_w_zero(const u64 *a)
{
	return !(a[0] | a[1] | a[2] | a[3]);
}

/* @r = @a * @b, for @a of 128 bits (@ah:@al) and @b of 64. */
static void ie_w_mul_128_64(u64 *r, u64 ah, u64 al, u64 b)
{
	u64 p[IE_W], q[IE_W], hi, lo;

	lo = ie_u64_mul(al, b, &hi);
	ie_w_set(p, lo, hi, 0, 0);
	lo = ie_u64_mul(ah, b, &hi);
	ie_w_set(q, 0, lo, hi, 0);
	ie_w_add(r, p, q);
}

/* @r = (@ah:@al)^2. */
static void ie_w_square_128(u64 *r, u64 ah, u64 al)
{
	u64 p[IE_W], q[IE_W], hi, lo;

	lo = ie_u64_mul(al, al, &hi);
	ie_w_set(p, lo, hi, 0, 0);
	lo = ie_u64_mul(ah, ah, &hi);
	ie_w_set(q, 0, 0, lo, hi);
	ie_w_add(p, p, q);
	/* 2 * ah * al, shifted by 64 bits, added in twice. */
	lo = ie_u64_mul(ah, al, &hi);
	ie_w_set(q, 0, lo, hi, 0);
	ie_w_add(p, p, q);
	ie_w_add(r, p, q);
}

/* floor(sqrt(@x)), which fits in 128 bits: @x is consumed. */
static void ie_w_isqrt(u64 *x, u64 *res)
{
	u64 bit[IE_W] = { 0 }, t[IE_W];
	int top, i;

	ie_w_set(res, 0, 0, 0, 0);
	for (top = IE_W - 1; top >= 0 && !x[top]; top--)
		;
	if (top < 0)
		return;
	/* The highest power of 4 not above x. */
	i = top * 64 + (fls64(x[top]) - 1);
	i &= ~1;
	bit[i / 64] = BIT_ULL(i % 64);
	while (!ie_w_zero(bit)) {
		ie_w_add(t, res, bit);
		if (ie_w_ge(x, t)) {
			ie_w_sub(x, x, t);
			ie_w_shr(res, 1);
			ie_w_add(res, res, bit);
		} else {
			ie_w_shr(res, 1);
		}
		ie_w_shr(bit, 2);
	}
}

/**
 * ie_stat_stddev - population standard deviation, rounded down
 * @n: the number of values
 * @sh: high word of their sum (two's complement for signed values)
 * @sl: low word of their sum
 * @qh: high word of the sum of their squares
 * @ql: low word of the sum of their squares
 * @is_signed: the values are signed
 *
 * Return: floor(sqrt(n*Q - S^2) / n), or 0 if @n is 0.
 */
u64 ie_stat_stddev(u64 n, u64 sh, u64 sl, u64 qh, u64 ql, bool is_signed)
{
	u64 nq[IE_W], s2[IE_W], d[IE_W], r[IE_W];

	if (!n)
		return 0;
	/* |S|: S^2 is the same. */
	if (is_signed && (s64)sh < 0) {
		sl = -sl;
		sh = ~sh + !sl;
	}
	ie_w_mul_128_64(nq, qh, ql, n);
	ie_w_square_128(s2, sh, sl);
	/* n*Q >= S^2 (Cauchy-Schwarz) unless read amid updates. */
	if (!ie_w_ge(nq, s2))
		return 0;
	ie_w_sub(d, nq, s2);
	ie_w_isqrt(d, r);
	/* The root fits in 128 bits, the deviation in 64. */
	if (r[1] >= n)
		return U64_MAX;
	return ie_u128_div(r[1], r[0], n);
}

/* Mean of @n values of 128-bit sum @sh:@sl, rounded toward zero. */
static u64 ie_stat_mean(u64 n, u64 sh, u64 sl, bool is_signed)
{
	bool neg = is_signed && (s64)sh < 0;
	u64 q;

	if (!n)
		return 0;
	if (neg) {
		sl = -sl;
		sh = ~sh + !sl;
	}
	/* |mean| < 2^64, since each |value| is (a read amid a carry aside). */
	q = sh >= n ? U64_MAX : ie_u128_div(sh, sl, n);
	if (neg)
		return q > (u64)S64_MAX + 1 ? (u64)S64_MIN : -q;
	return q;
}

/* A column's words, low word first. */
static void ie_stat_words(const struct ie_field *f, const void *data, u64 *v)
{
	const atomic64_t *w = data + f->stat_off;
	unsigned int i;

	memset(v, 0, 5 * sizeof(u64));
	/* Of a percentile sketch, its maximum (the first word). */
	if (f->mods & IE_MOD_PCTL) {
		v[0] = atomic64_read(&w[0]);
		return;
	}
	for (i = 0; i < ie_stat_size(f->mods) / sizeof(u64); i++)
		v[i] = atomic64_read(&w[i]);
	/* A signed sum's high word counts overflows: the two's complement. */
	if (f->is_signed && (f->mods & (IE_MOD_AVG | IE_MOD_STDDEV)) &&
	    (s64)v[0] < 0)
		v[1]--;
}

/* The statistic from a column's words and the entry's hit count. */
static u64 ie_stat_figure(const struct ie_field *f, const u64 *v, u64 count)
{
	if (f->mods & (IE_MOD_MAX | IE_MOD_PCTL))
		return ie_stat_ord(v[0], f->is_signed);
	if (f->mods & IE_MOD_MIN)
		return ie_stat_ord(~v[0], f->is_signed);
	if (f->mods & IE_MOD_AVG)
		return ie_stat_mean(count, v[1], v[0], f->is_signed);
	/* The sum of the squares overflowed: no deviation to tell. */
	if (v[4])
		return U64_MAX;
	return ie_stat_stddev(count, v[1], v[0], v[3], v[2], f->is_signed);
}

/**
 * ie_stat_read - an entry's statistic, as a value of the column's type
 * @f: the column
 * @data: the entry's private data (or a copy of it)
 * @count: the entry's hit count
 *
 * Return: the minimum, maximum, mean or standard deviation (of a
 * percentile sketch: its maximum).
 */
u64 ie_stat_read(const struct ie_field *f, const void *data, u64 count)
{
	u64 v[5];

	ie_stat_words(f, data, v);
	return ie_stat_figure(f, v, count);
}

/**
 * ie_stat_read_elt - an entry's statistic, live or taken
 * @m: the entry's map (or a take's copies, see take.c)
 * @f: the column
 * @elt: the entry
 * @hits_idx: the sum of the entry's hit count
 *
 * The figures first, the hit count after: an event adds to the hit count
 * before its value goes into the sums (fully ordered atomics), so the
 * count read covers at least the values summed, but for those that came
 * since an interval read took the entry's hit count (ie_take_event()): a
 * figure whose count is too small is clamped (ie_stat_figure()).
 *
 * Return: as ie_stat_read().
 */
u64 ie_stat_read_elt(const struct ie_map *m, const struct ie_field *f,
		     struct ie_elt *elt, unsigned int hits_idx)
{
	u64 v[5];

	ie_stat_words(f, ie_elt_data(m, elt), v);
	/* Pairs with the full ordering of the event's fetch-and-add. */
	smp_rmb();
	return ie_stat_figure(f, v, ie_elt_read_sum(m, elt, hits_idx));
}

/**
 * ie_loglin_floor - the lowest value of @v's log-linear bucket
 * @v: the value
 * @bits: log2 of the sub-buckets per power of two (0..IE_LOGLIN_MAX_BITS)
 *
 * Values below 2^(@bits + 1) have a bucket each; above, the bucket of a
 * value whose highest set bit is bit p is 2^(p - @bits) wide, so its
 * width is at most 2^-@bits of its floor.  Event path.
 *
 * Return: @v with its bits below the bucket's width cleared.
 */
u64 ie_loglin_floor(u64 v, unsigned int bits)
{
	int shift = fls64(v) - 1 - (int)bits;

	return shift > 0 ? round_down(v, 1ULL << shift) : v;
}

/**
 * ie_loglin_last - the highest value of a log-linear bucket
 * @floor: the bucket's lowest value, as ie_loglin_floor() returns it
 * @bits: as given to ie_loglin_floor()
 *
 * Return: the bucket's last value (never past U64_MAX).
 */
u64 ie_loglin_last(u64 floor, unsigned int bits)
{
	int shift = fls64(floor) - 1 - (int)bits;

	return shift > 0 ? floor + ((1ULL << shift) - 1) : floor;
}

/* The columns: p999 is the 99.9th percentile, p100 the maximum. */
const char *const ie_pctl_names[IE_PCTL_N] = {
	"p50", "p90", "p99", "p999", "p100"
};

/* The quantiles shown (but the maximum), in thousandths. */
static const unsigned int ie_pctl_permille[IE_PCTL_N - 1] = {
	500, 900, 990, 999
};

/**
 * ie_pctl_index - the bucket of a percentile sketch that counts @v
 * @v: the value
 *
 * The buckets of ie_loglin_floor(v, IE_PCTL_BITS) in order: one per value
 * below 64, then 32 per power of two; the last also counts all values
 * above it.  Event path.
 *
 * Return: 0 to IE_PCTL_BUCKETS - 1.
 */
unsigned int ie_pctl_index(u64 v)
{
	int p = fls64(v) - 1;
	u64 i;

	if (p <= IE_PCTL_BITS)
		return v;
	i = (2ULL << IE_PCTL_BITS) +
	    ((u64)(p - IE_PCTL_BITS - 1) << IE_PCTL_BITS) +
	    ((v >> (p - IE_PCTL_BITS)) & ((1U << IE_PCTL_BITS) - 1));
	return min_t(u64, i, IE_PCTL_BUCKETS - 1);
}

/**
 * ie_pctl_floor - the lowest value a sketch's bucket counts
 * @i: the bucket, below IE_PCTL_BUCKETS
 *
 * Return: the value; the bucket's last is ie_loglin_last(it, IE_PCTL_BITS)
 * (but the last bucket has no end).
 */
u64 ie_pctl_floor(unsigned int i)
{
	unsigned int j, p;

	if (i < (2U << IE_PCTL_BITS))
		return i;
	j = i - (2U << IE_PCTL_BITS);
	p = (j >> IE_PCTL_BITS) + IE_PCTL_BITS + 1;
	return (u64)((1U << IE_PCTL_BITS) + (j & ((1U << IE_PCTL_BITS) - 1))) <<
	       (p - IE_PCTL_BITS);
}

/**
 * ie_pctl_read - the quantiles of a percentile sketch
 * @pc: the sketch, live
 * @copy: room for IE_PCTL_BUCKETS counts
 * @out: set to p50, p90, p99, p99.9 and the maximum
 *
 * The q-quantile of n values is the ceil(q * n)-th smallest; shown as the
 * middle of its bucket (at most the maximum), or as the maximum when it
 * is in the last bucket.  The counts are read once, into @copy, and the
 * ranks found in that copy; events counted meanwhile are in the copy or
 * not.  The maximum is read after the counts; a value counted whose
 * maximum is not there yet shows at least as its bucket's floor.  Once a
 * bucket counted 2^31 values, the quantiles show as U64_MAX (the maximum
 * stays exact); all 0 when the sketch is empty, but for the maximum
 * when an interval read took it without its count (take.c).
 */
void ie_pctl_read(const struct ie_pctl *pc, u32 *copy, u64 *out)
{
	u64 n = 0, rank[IE_PCTL_N - 1], cum = 0, lo, mid, max;
	unsigned int i, k = 0, top = 0;
	bool wrapped;

	wrapped = atomic_read(&pc->wrapped);
	for (i = 0; i < IE_PCTL_BUCKETS; i++) {
		copy[i] = atomic_read(&pc->n[i]);
		n += copy[i];
		if (copy[i])
			top = i;
	}
	/*
	 * An event raises the maximum and then counts, unordered: a value
	 * counted may not be in the maximum yet, its bucket's floor is.
	 */
	max = max((u64)atomic64_read(&pc->max), ie_pctl_floor(top));
	wrapped |= atomic_read(&pc->wrapped);
	memset(out, 0, IE_PCTL_N * sizeof(*out));
	out[IE_PCTL_N - 1] = max;
	/* (A take may leave a maximum without its count: shown alone.) */
	if (!n && !wrapped)
		return;
	if (wrapped) {
		for (k = 0; k < IE_PCTL_N - 1; k++)
			out[k] = U64_MAX;
		return;
	}
	for (k = 0; k < IE_PCTL_N - 1; k++)
		rank[k] = div_u64(n * ie_pctl_permille[k] + 999, 1000);
	k = 0;
	for (i = 0; i < IE_PCTL_BUCKETS && k < IE_PCTL_N - 1; i++) {
		cum += copy[i];
		for (; k < IE_PCTL_N - 1 && cum >= rank[k]; k++) {
			lo = ie_pctl_floor(i);
			mid = lo + (ie_loglin_last(lo, IE_PCTL_BITS) - lo) / 2;
			out[k] = i == IE_PCTL_BUCKETS - 1 ? max : min(mid, max);
		}
	}
}
