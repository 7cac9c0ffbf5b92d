/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fcq_opts.h - what every fcq tc plugin shares: the port options
 * (TCA_FCQ_*), their help text, printing, and the common xstats.
 */
#ifndef FCQ_TC_OPTS_H
#define FCQ_TC_OPTS_H

#include "tc_api.h"

#define FCQ_PORT_USAGE							\
	"  [ rate RATE ] [ delay TIME ] [ overhead BYTES ] [ switch ID ]\n" \
	"  [ trust dscp | pcp | skb ] [ dscp_map DSCP:PRIO[,DSCP:PRIO...] ]\n" \
	"  [ limit PACKETS ] [ lossless PRIOS ] [ pause_max TIME ]\n"	\
	"  [ buffer SIZE ] [ xoff SIZE ] [ xon SIZE ] [ alpha FRACTION ]\n" \
	"  [ resume_offset SIZE ] [ reserve SIZE ] [ headroom SIZE | auto ]\n" \
	"  [ response TIME ] [ pause_quanta QUANTA ] [ refresh TIME | auto ]\n" \
	"  [ ecn KMIN KMAX PMAX | ecn off ]\n"				\
	"PRIOS := all | none | P[,P...]   (priorities 0..7)\n"

/* Room for the options of one qdisc request (addattr_l's maxlen). */
#define FCQ_MAXLEN	1024

/* Add a u8 or u32 attribute to the request. */
void fcq_put_u8(struct nlmsghdr *n, int type, __u8 v);
void fcq_put_u32(struct nlmsghdr *n, int type, __u32 v);

/* Report a bad option value and exit 2, as the kernel's NACK does. */
void fcq_bad(const char *opt, const char *value, const char *why)
	__attribute__((noreturn));

/*
 * Option values: the value, or exit 2 through fcq_bad() if @arg is not one.
 * Sizes as tc reads them (1500, 64kb: 1024-based); times in ns, at most
 * UINT32_MAX; non-negative integers; positive fractions (0.8 or 4/5) in
 * Q16, rounded, at least 1. Ranges beyond the encoding are the kernel's.
 */
__u32 fcq_size_arg(const char *opt, const char *arg);
__u32 fcq_time_arg(const char *opt, const char *arg);
__u32 fcq_uint_arg(const char *opt, const char *arg);
__u32 fcq_q16_arg(const char *opt, const char *arg);
/* The index of @arg in the NULL-terminated @words ("expected a, b or c"). */
int fcq_word_arg(const char *opt, const char *arg, const char *const *words);

/* Parse a priority set: all, none or a list "3,4". */
__u8 fcq_get_prios(const char *opt, const char *arg);

/*
 * If *argv is a port option, add it to @n, advance past it and return 1;
 * otherwise return 0. Exits 2 on a value it cannot encode.
 */
int fcq_parse_port_opt(int *argc, char ***argv, struct nlmsghdr *n);

/* Print a priority set as fcq_get_prios() reads it. */
void fcq_print_prios(const char *key, __u8 mask);

/*
 * Print "key VALUE " for a u32 attribute, if present: a time in ns or a
 * size in bytes (JSON: the number); a zero value prints as @zero if set.
 */
void fcq_print_time(const char *key, struct rtattr *a, const char *zero);
void fcq_print_size(const char *key, struct rtattr *a, const char *zero);

/* Print the port options found in @tb (parsed TCA_OPTIONS). */
void fcq_print_port_opts(struct rtattr **tb);

/* Print the common xstats (TCA_FCQ_STATS_*). */
int fcq_print_xstats(FILE *f, struct rtattr *xstats);

/* The scheme's own xstats nest (TCA_FCQ_STATS_SCHEME), or NULL. */
struct rtattr *fcq_xstats_scheme(struct rtattr *xstats);

#endif /* FCQ_TC_OPTS_H */
