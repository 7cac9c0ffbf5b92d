/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one header every core/ file includes.
 *
 * core/ holds fcq's algorithms as plain C: integer arithmetic, explicit
 * `now` (ns) and `len` (bytes) inputs, no allocation, no locks, no globals.
 * The same files are compiled into fcq.ko and into the userspace unit tests,
 * so this header is the only place that knows which world it is in.
 */
#ifndef FCQ_CORE_H
#define FCQ_CORE_H

#ifdef __KERNEL__
#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/math64.h>
#include <linux/string.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef unsigned long long u64;
typedef long long s64;
typedef int32_t s32;
typedef int16_t s16;
#endif

#define FCQ_NS_PER_SEC 1000000000ULL

/* A store that a lockless reader may load at any time (READ_ONCE there). */
#ifdef __KERNEL__
#define FCQ_WRITE_ONCE(x, val)	WRITE_ONCE(x, val)
#else
#define FCQ_WRITE_ONCE(x, val)	(*(volatile __typeof__(x) *)&(x) = (val))
#endif

/* 64-bit division that also links on 32-bit kernels. */
static inline u64 fcq_div64(u64 a, u64 b)
{
#ifdef __KERNEL__
	return div64_u64(a, b);
#else
	return a / b;
#endif
}

/* The same, signed: truncates toward 0 as C's / does. */
static inline s64 fcq_sdiv64(s64 a, s64 b)
{
#ifdef __KERNEL__
	return div64_s64(a, b);
#else
	return a / b;
#endif
}

static inline u64 fcq_min64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static inline u64 fcq_max64(u64 a, u64 b)
{
	return a > b ? a : b;
}

/*
 * xorshift32 (Marsaglia, 2003): the next number of the sequence in *@s,
 * which must not be 0 (seed it with seed | 1). Cheap and reproducible from
 * a seed, for the random choices the papers' algorithms make.
 */
static inline u32 fcq_xorshift32(u32 *s)
{
	u32 x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

/* a * b / c with a 128-bit intermediate (rates x times overflow 64 bits). */
static inline u64 fcq_mul_div(u64 a, u64 b, u64 c)
{
#ifdef __KERNEL__
	return mul_u64_u64_div_u64(a, b, c);
#else
	return (u64)((unsigned __int128)a * b / c);
#endif
}

/* (a * b) >> shift with a 128-bit intermediate. */
static inline u64 fcq_mul_shr(u64 a, u32 b, unsigned int shift)
{
#ifdef __KERNEL__
	return mul_u64_u32_shr(a, b, shift);
#else
	return (u64)(((unsigned __int128)a * b) >> shift);
#endif
}

/* The lowest set bit of @x, which is not 0. */
static inline int fcq_ctz64(u64 x)
{
	return __builtin_ctzll(x);
}

#endif /* FCQ_CORE_H */
