/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of iproute2's tc that a qdisc plugin (q_<kind>.so)
 * uses, declared here because Debian ships no tc development headers.
 *
 * tc dlopen()s $TC_LIB_DIR/q_<kind>.so (default
 * /usr/lib/x86_64-linux-gnu/tc) and looks up `<kind>_qdisc_util`. The layout
 * of struct qdisc_util and the prototypes below are those of iproute2 6.1
 * (tc/tc_util.h, include/utils.h, include/json_print.h,
 * include/libnetlink.h); tc exports the functions (-Wl,-export-dynamic).
 * iproute2 has no stable plugin ABI: this pins what Debian bookworm ships.
 */
#ifndef FCQ_TC_API_H
#define FCQ_TC_API_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/types.h>

struct qdisc_util {
	struct qdisc_util *next;
	const char *id;
	int (*parse_qopt)(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev);
	int (*print_qopt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*print_xstats)(struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats);
	int (*parse_copt)(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev);
	int (*print_copt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*has_block)(struct qdisc_util *qu, struct rtattr *opt,
			 __u32 block_idx, bool *p_has);
};

/* include/utils.h */
void incomplete_command(void) __attribute__((noreturn));
#define NEXT_ARG() do { argv++; if (--argc <= 0) incomplete_command(); } while (0)
bool matches(const char *prefix, const char *string);
int get_u8(__u8 *val, const char *arg, int base);
int get_u16(__u16 *val, const char *arg, int base);
int get_u32(__u32 *val, const char *arg, int base);
int get_size(unsigned int *size, const char *str);
int get_rate64(__u64 *rate, const char *str);
int get_time64(__s64 *time, const char *str);
char *sprint_time64(__s64 time, char *buf);
char *sprint_size(__u32 sz, char *buf);
#define SPRINT_BSIZE 64

/* include/libnetlink.h */
int addattr_l(struct nlmsghdr *n, int maxlen, int type, const void *data,
	      int alen);
struct rtattr *addattr_nest(struct nlmsghdr *n, int maxlen, int type);
int addattr_nest_end(struct nlmsghdr *n, struct rtattr *nest);
int parse_rtattr_flags(struct rtattr *tb[], int max, struct rtattr *rta,
		       int len, unsigned short flags);
#define parse_rtattr_nested(tb, max, rta) \
	(parse_rtattr_flags((tb), (max), RTA_DATA(rta), RTA_PAYLOAD(rta), \
			    NLA_F_NESTED))

/* include/json_print.h */
enum output_type {
	PRINT_FP = 1,
	PRINT_JSON = 2,
	PRINT_ANY = 4,
};
enum color_attr { COLOR_NONE = 6 };
bool is_json_context(void);
void open_json_object(const char *str);
void close_json_object(void);
void open_json_array(enum output_type type, const char *delim);
void close_json_array(enum output_type type, const char *delim);
void print_nl(void);
int print_color_string(enum output_type t, enum color_attr c, const char *key,
		       const char *fmt, const char *value);
int print_color_uint(enum output_type t, enum color_attr c, const char *key,
		     const char *fmt, unsigned int value);
int print_color_u64(enum output_type t, enum color_attr c, const char *key,
		    const char *fmt, uint64_t value);
int print_color_s64(enum output_type t, enum color_attr c, const char *key,
		    const char *fmt, int64_t value);
int print_color_on_off(enum output_type t, enum color_attr c, const char *key,
		       const char *fmt, bool value);
int print_color_float(enum output_type t, enum color_attr c, const char *key,
		      const char *fmt, double value);
void tc_print_rate(enum output_type t, const char *key, const char *fmt,
		   unsigned long long rate);
const char *ll_addr_n2a(const unsigned char *addr, int alen, int type,
			char *buf, int blen);

#define print_string(t, k, f, v) print_color_string(t, COLOR_NONE, k, f, v)
#define print_uint(t, k, f, v) print_color_uint(t, COLOR_NONE, k, f, v)
#define print_u64(t, k, f, v) print_color_u64(t, COLOR_NONE, k, f, v)
#define print_s64(t, k, f, v) print_color_s64(t, COLOR_NONE, k, f, v)
/* text: fmt with "on"/"off"; JSON: true/false */
#define print_on_off(t, k, f, v) print_color_on_off(t, COLOR_NONE, k, f, v)
#define print_float(t, k, f, v) print_color_float(t, COLOR_NONE, k, f, v)

#endif /* FCQ_TC_API_H */
