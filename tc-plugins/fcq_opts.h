/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every fcq tc plugin shares: the port options
 * (TCA_FCQ_*), their help text, printing, and the common xstats.
 */
#ifndef FCQ_TC_OPTS_H
#define FCQ_TC_OPTS_H

#include "tc_api.h"

#define FCQ_PORT_USAGE							\
	"  [ rate RATE ] [ delay TIME ] [ overhead BYTES ] [ switch ID ]\n" \
	"  [ trust dscp | pcp | skb ] [ dscp_map DSCP:PRIO[,DSCP:PRIO...] ]\n" \
	"  [ limit PACKETS ] [ lossless PRIOS ] [ pause_max TIME | any ]\n" \
	"  [ buffer SIZE ] [ xoff SIZE ] [ xon SIZE ] [ alpha FRACTION ]\n" \
	"  [ resume_offset SIZE ] [ reserve SIZE ] [ headroom SIZE | auto ]\n" \
	"  [ response TIME ] [ pause_quanta QUANTA ] [ refresh TIME | auto ]\n" \
	"  [ ecn KMIN KMAX PMAX | ecn off ]\n"				\
	"  [ pfcwd TIME | off ] [ pfcwd_restore TIME ]\n"		\
	"  [ pfcwd_action drop | forward | alert ]\n"			\
	"PRIOS := all | none | P[,P...]   (priorities 0..7)\n"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))	/* as iproute2's utils.h */
#endif

/* Room for the options of one qdisc request (addattr_l's maxlen). */
#define FCQ_MAXLEN	1024

/* Add a u8 or u32 attribute to the request. */
void fcq_put_u8(struct nlmsghdr *n, int type, __u8 v);
void fcq_put_u32(struct nlmsghdr *n, int type, __u32 v);

/*
 * An array option: nest @nest with one @type attribute per value, each a
 * u8 (@size 1) or u32 (@size 4); and read back, in order, at most @max
 * values (each attribute's own size) into @v, returning their number.
 */
void fcq_put_array(struct nlmsghdr *n, int nest, int type, int size,
		   const __u32 *v, int count);
int fcq_get_array(struct rtattr *nest, int type, __u32 *v, int max);

/*
 * The scheme's own attributes, built apart while the port's go straight
 * into TCA_OPTIONS (the words come in any order), then nested into
 * TCA_FCQ_SCHEME; and its flags, gathered from several words.
 */
struct fcq_scheme_req {
	struct nlmsghdr n;
	char buf[FCQ_MAXLEN];
	struct nla_bitfield32 flags;
};

/* A scheme's u32 option: its word, attribute, parser and word for 0. */
struct fcq_u32_opt {
	const char *name;
	int type;
	int (*get)(const char *opt, const char *arg, __u32 *v);
	const char *zero;	/* NULL: none */
};

/*
 * A scheme's u8 option that takes one of the words @words (NULL-ended):
 * the value sent is @first plus the word's index.
 */
struct fcq_word_opt {
	const char *name;
	int type;
	const char *const *words;
	int first;
};

/* A scheme's flag: its word, bit, and the words that clear and set it. */
struct fcq_flag_opt {
	const char *name;
	__u32 bit;
	const char *w0, *w1;
};

/*
 * A scheme's part of its plugin's parse_qopt. @u32s, @words and @flags
 * are its table-driven words; @strict_type, if not 0, its u8 attribute
 * of "strict PRIOS" (the classes served strictly first); @opt (or NULL)
 * takes any other of the
 * scheme's words as fcq_parse_port_opt() takes a port's: adds it to
 * @own (or to own->flags), advances past it and returns 1; 0 if the word
 * is not one; -1 (reported) on a bad value. @flags_type, if not 0, is the
 * scheme's NLA_BITFIELD32 attribute, sent if a word set a flag. @explain
 * prints the usage (for "help" and unknown words).
 */
struct fcq_scheme_parser {
	const struct fcq_u32_opt *u32s;
	int nu32s;
	const struct fcq_word_opt *words;
	int nwords;
	const struct fcq_flag_opt *flags;
	int nflags;
	int strict_type;
	int (*opt)(int *argc, char ***argv, struct fcq_scheme_req *own);
	int flags_type;
	void (*explain)(void);
};

/* A plugin's parse_qopt: the port's and the scheme's options; 0 or -1. */
int fcq_parse_qopt(int argc, char **argv, struct nlmsghdr *n,
		   const struct fcq_scheme_parser *p);

/*
 * Report a bad option value, naming the option; returns -1, which the
 * plugin's parse_qopt returns (tc exits 1, tc -batch -force goes on).
 */
int fcq_bad(const char *opt, const char *value, const char *why);

/*
 * Option values into *@v: 0, or -1 through fcq_bad() if @arg is not one.
 * Sizes as tc reads them (1500, 64kb: 1024-based); times in ns, at most
 * UINT32_MAX; non-negative integers; positive fractions (0.8 or 4/5) in
 * Q16, rounded, at least 1. Ranges in units are the kernel's to check.
 */
int fcq_size_arg(const char *opt, const char *arg, __u32 *v);
int fcq_time_arg(const char *opt, const char *arg, __u32 *v);
int fcq_uint_arg(const char *opt, const char *arg, __u32 *v);
int fcq_q16_arg(const char *opt, const char *arg, __u32 *v);
/* A frequency (160, 160hz, 20khz) in mHz; "default" is 0. */
int fcq_freq_arg(const char *opt, const char *arg, __u32 *v);
/* The index of @arg in the NULL-terminated @words, or -1 ("expected a, b or c"). */
int fcq_word_arg(const char *opt, const char *arg, const char *const *words);

/* A priority set: all, none or a list "3,4"; 0 or -1. */
int fcq_get_prios(const char *opt, const char *arg, __u8 *mask);

/*
 * If *argv is a port option, add it to @n, advance past it and return 1;
 * 0 if it is not one; -1 (reported) on a value it cannot take.
 */
int fcq_parse_port_opt(int *argc, char ***argv, struct nlmsghdr *n);

/*
 * Print "key WORD " for a u8 attribute, if present: @words[value -
 * @first] ("?" if out of range), as a struct fcq_word_opt reads it.
 */
void fcq_print_word(const char *key, struct rtattr *a,
		    const char *const *words, int first);

/* Print a priority set as fcq_get_prios() reads it. */
void fcq_print_prios(const char *key, __u8 mask);

/*
 * Print "key VALUE " for a u32 attribute, if present: a time in ns or a
 * size in bytes (JSON: the number); a zero value prints as @zero if set.
 */
void fcq_print_time(const char *key, struct rtattr *a, const char *zero);
void fcq_print_size(const char *key, struct rtattr *a, const char *zero);

/*
 * Print "key 160Hz " for a u32 attribute in mHz, and "key 5.875 " for one
 * in Q16, if present (JSON: Hz, and the number).
 */
void fcq_print_freq(const char *key, struct rtattr *a);
void fcq_print_q16(const char *key, struct rtattr *a);

/* Print "key N " for a u32 attribute, if present. */
void fcq_print_u32(const char *key, struct rtattr *a);

/*
 * Print each of the @n flags of a bitfield32 attribute, if present, as
 * "name WORD " (JSON: the word), WORD being the flag's w1 or w0.
 */
void fcq_print_flag_words(struct rtattr *a, const struct fcq_flag_opt *o,
			  int n);

/*
 * Print the port options in TCA_OPTIONS @opt (NULL: none) and parse the
 * scheme's nest (TCA_FCQ_SCHEME) into @own[0..@max]; false if it has none.
 */
bool fcq_print_port_opts(struct rtattr *opt, struct rtattr **own, int max);

/* A u64 counter of a stats nest: its attribute, its key, on a new line. */
struct fcq_counter {
	int type;
	const char *key;
	bool nl;
};

/* Print " key N" for each of @c present in @tb (JSON: key: N). */
void fcq_print_counters(struct rtattr **tb, const struct fcq_counter *c,
			int n);

/* Print the common xstats (TCA_FCQ_STATS_*). */
int fcq_print_xstats(FILE *f, struct rtattr *xstats);

/* The scheme's own xstats nest (TCA_FCQ_STATS_SCHEME), or NULL. */
struct rtattr *fcq_xstats_scheme(struct rtattr *xstats);

/*
 * Print the common xstats and, if the scheme has its own, open its JSON
 * object @name and print " name:" on a new line: then its nest, which the
 * caller prints and ends with close_json_object(). NULL if none.
 */
struct rtattr *fcq_print_xstats_open(FILE *f, struct rtattr *xstats,
				     const char *name);

#endif /* FCQ_TC_OPTS_H */
