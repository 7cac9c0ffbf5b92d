// SPDX-License-Identifier: GPL-2.0
/*
 * fcq-frame - put PFC, 802.3x PAUSE, fcq extension or 802.1Qau CNM frames
 * on a device, well-formed or deliberately broken, to exercise a port's
 * receive path.
 *
 *   fcq-frame DEV FRAME [MUTATION...] [--wait TIME FRAME [MUTATION...]]...
 *   fcq-frame -h | --help
 *
 *   FRAME    := pfc PRIO:QUANTA[,PRIO:QUANTA...] | pause QUANTA
 *             | fafc PRIO:NS[:acc]  (FAFC pause of NS ns; acc: ACCUMULATE)
 *             | keys pause|resume PRIO[:all][:origin][:more] [KEY[,KEY...]]
 *             | cnm QNTZFB[:PRIO]   (to --dst, naming a frame to --encap)
 *   KEY      := SRC>DST | >DST | SRC:SPORT>DST:DPORT/udp|tcp
 *               (IPv4 or IPv6; an IPv6 address with a port in brackets)
 *   MUTATION := --len N (send only N bytes) | --dst MAC
 *             | --count N (send N copies)
 *             | --opcode HEX                        (pfc, pause)
 *             | --magic HEX | --version N | --type N (fafc, keys)
 *             | --keytype N | --keycount N          (keys)
 *             | --encap MAC | --qoff BYTES | --qdelta BYTES
 *             | --fb KBPS (version 1, DSM's F_b, signed)
 *             | --cpid ID (8 bytes; default: the port's MAC, index 0)
 *             | --msdu N (bytes encapsulated, 22) | --version N
 *             | --msdulen N (the length field alone) (cnm)
 *   TIME     := a number with s, ms or us
 *
 * Frames in one invocation are sent --wait apart, more precisely than
 * separate invocations could. They are built by core/frames.c, the same
 * code the qdiscs use, anew for each copy: extension frames are numbered
 * 1, 2, ... across the invocation, copies included, so a capture shows
 * losses and reordering. Prints the CLOCK_MONOTONIC time (ns) at which
 * each frame was sent, one per line, read just before it is handed to the
 * device; an extension frame carries the same time as its tx time.
 * A keyed frame (keys) names keys of one wire type, as many as the
 * device's MTU allows. A CNM goes to --dst (broadcast if not given) from
 * the device's MAC, its CPID that MAC and index 0; its MSDU is the bytes
 * 0x88 0xb5 0x00 0x01 ... (an EtherType and a count). With --fb it is a
 * DSM CNM (version 1): F_b, in kbit/s, where cnmQOffset and cnmQDelta
 * would be, and QNTZFB as its informational QntzFb.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <netpacket/packet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/frames.h"

/* The mutations given after a frame; -1: not given. */
struct mutation {
	long len;
	long word;		/* bytes 14-15: --opcode or --magic */
	long version;
	long type;
	long key_type;		/* byte 32 */
	long key_count;		/* bytes 34-35 */
	long count;		/* copies to send, 1 if not given */
	long msdu_len;		/* cnm: bytes 36-37 */
	int set_dst;
	u8 dst[FCQ_ETH_ALEN];
	int hdr;		/* the frame's headers */
};

/* A CNM's fields given after it (not mutations: they build it). */
struct cnm_args {
	struct fcq_cnm c;
	long long qoff, qdelta;
	int set_q;		/* --qoff or --qdelta given */
	int set_cpid;		/* --cpid given; else the port's MAC, index 0 */
};

/* The keys of a keyed frame, as given on the command line. */
struct keys {
	struct fcq_fkey *k;
	size_t n;
};

/* The headers a frame has: what its mutations may change. */
enum { HDR_MACCTL, HDR_EXT, HDR_KEYS, HDR_CNM };

static u32 ext_seq;

static void __attribute__((noreturn)) usage_to(FILE *f, int status)
{
	fprintf(f,
		"usage: fcq-frame DEV FRAME [MUTATION...] [--wait TIME FRAME [MUTATION...]]...\n"
		"       fcq-frame -h | --help\n"
		"FRAME:    pfc PRIO:QUANTA[,PRIO:QUANTA...] | pause QUANTA | fafc PRIO:NS[:acc]\n"
		"          | keys pause|resume PRIO[:all][:origin][:more] [KEY[,KEY...]]\n"
		"          | cnm QNTZFB[:PRIO]\n"
		"KEY:      SRC>DST | >DST | SRC:SPORT>DST:DPORT/udp|tcp\n"
		"          IPv4 or IPv6, [ADDR]:PORT for IPv6; one wire type per frame;\n"
		"          quote them (> is the shell's)\n"
		"MUTATION: --len N | --dst MAC | --count N\n"
		"          pfc, pause: --opcode HEX\n"
		"          fafc, keys: --magic HEX | --version N | --type N\n"
		"          keys:       --keytype N | --keycount N\n"
		"          cnm:        --encap MAC | --qoff BYTES | --qdelta BYTES | --msdu N\n"
		"                      | --fb KBPS (version 1: DSM's F_b, signed)\n"
		"                      | --cpid ID (8 bytes; default the port's MAC, 0)\n"
		"                      | --version N | --msdulen N\n"
		"TIME:     a number with s, ms or us\n"
		"Prints the CLOCK_MONOTONIC time (ns) at which each frame was sent.\n");
	exit(status);
}

static void __attribute__((noreturn)) usage(void)
{
	usage_to(stderr, 2);
}

static long num_base(const char *s, int base, long max)
{
	char *end;
	long v = strtol(s, &end, base);

	if (*end || end == s || v < 0 || v > max) {
		fprintf(stderr, "fcq-frame: bad number \"%s\"\n", s);
		exit(2);
	}
	return v;
}

static long num(const char *s, long max)
{
	return num_base(s, 0, max);
}

/* A signed number of bytes: cnm --qoff, --qdelta. */
static long long snum(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 0);

	if (*end || end == s) {
		fprintf(stderr, "fcq-frame: bad number \"%s\"\n", s);
		exit(2);
	}
	return v;
}

/* cnm --fb: F_b in kbit/s, as the frame's 32 signed bits hold it. */
static s32 fb_arg(const char *s)
{
	long long v = snum(s);

	if (v < INT32_MIN || v > INT32_MAX) {
		fprintf(stderr, "fcq-frame: --fb %s: over 32 signed bits\n", s);
		exit(2);
	}
	return v;
}

/*
 * @n bytes in hex, colon-separated, into @out; @what names them in the
 * error (a MAC address, a CPID: 02:00:00:00:00:09:00:01).
 */
static void hex_bytes_arg(const char *s, u8 *out, int n, const char *what)
{
	const char *p = s;
	char *end;
	int k;

	for (k = 0; k < n; k++) {
		unsigned long d = strtoul(p, &end, 16);

		if (end == p || end - p > 2 || d > 0xff ||
		    *end != (k + 1 < n ? ':' : '\0')) {
			fprintf(stderr, "fcq-frame: bad %s \"%s\"\n", what, s);
			exit(2);
		}
		out[k] = d;
		p = end + 1;
	}
}

/* cnm --cpid: 8 bytes, as 02:00:00:00:00:09:00:01. */
static void cpid_arg(const char *s, u8 cpid[8])
{
	hex_bytes_arg(s, cpid, 8, "CPID (8 bytes: 02:00:00:00:00:09:00:01)");
}

static void mac_arg(const char *s, u8 mac[FCQ_ETH_ALEN])
{
	hex_bytes_arg(s, mac, FCQ_ETH_ALEN, "MAC address");
}

/* QNTZFB[:PRIO] */
static void cnm_arg(const char *arg, struct cnm_args *a)
{
	char *copy = strdup(arg), *prio = strchr(copy, ':');

	if (prio)
		*prio++ = '\0';
	a->c.qfb = num(copy, 63);
	a->c.prio = prio ? num(prio, 7) : 0;
	a->c.msdu_len = 22;
	free(copy);
}

static void wait_arg(const char *s)
{
	char *unit;
	double t = strtod(s, &unit);
	struct timespec ts;

	if (!strcmp(unit, "us"))
		t /= 1e6;
	else if (!strcmp(unit, "ms"))
		t /= 1e3;
	else if (strcmp(unit, "s"))
		usage();
	ts.tv_sec = t;
	ts.tv_nsec = (t - ts.tv_sec) * 1e9;
	nanosleep(&ts, NULL);
}

static void pfc_arg(const char *arg, u8 *enable, u16 quanta[FCQ_NUM_PRIO])
{
	char *copy = strdup(arg), *tok, *save = NULL, *colon;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		long p;

		colon = strchr(tok, ':');
		if (!colon)
			usage();
		*colon = '\0';
		p = num(tok, 7);
		quanta[p] = num(colon + 1, 0xffff);
		*enable |= 1u << p;
	}
	free(copy);
}

static void fafc_arg(const char *arg, struct fcq_ext *f)
{
	char *copy = strdup(arg), *ns, *acc;

	ns = strchr(copy, ':');
	if (!ns)
		usage();
	*ns++ = '\0';
	acc = strchr(ns, ':');
	if (acc) {
		*acc++ = '\0';
		if (strcmp(acc, "acc"))
			usage();
		f->flags = FCQ_EXT_F_ACCUMULATE;
	}
	f->type = FCQ_EXT_PAUSE;
	f->prio = num(copy, 7);
	f->pause_ns = num(ns, 0xffffffff);
	free(copy);
}

static void __attribute__((noreturn)) bad_key(const char *key,
					      const char *why)
{
	fprintf(stderr, "fcq-frame: key \"%s\": %s\n", key, why);
	exit(2);
}

/* An IPv4 or IPv6 address of @key into @a; returns the family, 4 or 6. */
static int addr_arg(const char *s, u8 a[16], const char *key)
{
	if (inet_pton(AF_INET, s, a) == 1)
		return 4;
	if (inet_pton(AF_INET6, s, a) == 1)
		return 6;
	bad_key(key, "bad address");
}

/* ADDR:PORT or [ADDR6]:PORT of @key into @a and @port; returns the family. */
static int endpoint_arg(char *s, u8 a[16], u16 *port, const char *key)
{
	char *colon = strrchr(s, ':'), *end;
	size_t n;

	if (!colon)
		bad_key(key, "a 5-tuple needs both ports");
	*colon = '\0';
	*port = num(colon + 1, 0xffff);
	if (*s != '[') {
		if (strchr(s, ':'))
			bad_key(key, "an IPv6 address with a port goes in brackets");
		return addr_arg(s, a, key);
	}
	n = strlen(s);
	end = s + n - 1;
	if (n < 2 || *end != ']')
		bad_key(key, "no closing bracket");
	*end = '\0';
	if (addr_arg(s + 1, a, key) != 6)
		bad_key(key, "brackets are for IPv6 addresses");
	return 6;
}

/* KEY := SRC>DST | >DST | SRC:SPORT>DST:DPORT/udp|tcp */
static void key_arg(const char *arg, struct fcq_fkey *k)
{
	char *copy = strdup(arg), *dst, *proto;
	int sfam = 0, dfam;	/* a DST key has no source */

	memset(k, 0, sizeof(*k));
	dst = strchr(copy, '>');
	if (!dst)
		bad_key(arg, "no '>'");
	*dst++ = '\0';
	proto = strchr(dst, '/');
	if (proto) {
		*proto++ = '\0';
		if (!strcmp(proto, "udp"))
			k->proto = IPPROTO_UDP;
		else if (!strcmp(proto, "tcp"))
			k->proto = IPPROTO_TCP;
		else
			bad_key(arg, "the protocol is udp or tcp");
		k->type = FCQ_KEY_5TUPLE;
		sfam = endpoint_arg(copy, k->saddr, &k->sport, arg);
		dfam = endpoint_arg(dst, k->daddr, &k->dport, arg);
	} else if (*copy) {
		k->type = FCQ_KEY_PAIR;
		sfam = addr_arg(copy, k->saddr, arg);
		dfam = addr_arg(dst, k->daddr, arg);
	} else {
		k->type = FCQ_KEY_DST;
		dfam = addr_arg(dst, k->daddr, arg);
	}
	if (sfam && sfam != dfam)
		bad_key(arg, "IPv4 and IPv6 mixed");
	k->family = dfam;
	free(copy);
}

static const char *const wire_names[] = {
	[FCQ_WK_PAIR4] = "PAIR4", [FCQ_WK_PAIR6] = "PAIR6",
	[FCQ_WK_DST4] = "DST4", [FCQ_WK_DST6] = "DST6",
	[FCQ_WK_TUPLE4] = "TUPLE4", [FCQ_WK_TUPLE6] = "TUPLE6",
};

/*
 * pause|resume PRIO[:all][:origin][:more] [KEY[,KEY...]] from argv[*i + 1]
 * on; the keys must share a wire type and fit a frame of @size bytes.
 */
static void keys_arg(int argc, char **argv, int *i, size_t size,
		     struct fcq_ext *f, struct keys *keys)
{
	char *copy, *tok, *save = NULL;
	size_t n = 1, len;

	if (*i + 2 >= argc)
		usage();
	if (!strcmp(argv[*i + 1], "pause"))
		f->type = FCQ_EXT_KEYS_PAUSE;
	else if (!strcmp(argv[*i + 1], "resume"))
		f->type = FCQ_EXT_KEYS_RESUME;
	else
		usage();
	copy = strdup(argv[*i + 2]);
	tok = strtok_r(copy, ":", &save);
	if (!tok)
		usage();
	f->prio = num(tok, 7);
	while ((tok = strtok_r(NULL, ":", &save))) {
		if (!strcmp(tok, "all"))
			f->flags |= FCQ_EXT_F_ALL;
		else if (!strcmp(tok, "origin"))
			f->flags |= FCQ_EXT_F_ORIGIN;
		else if (!strcmp(tok, "more"))
			f->flags |= FCQ_EXT_F_MORE;
		else
			usage();
	}
	free(copy);
	*i += 3;
	if (*i >= argc || !strncmp(argv[*i], "--", 2))
		return;		/* no keys: ALL, or a frame that names none */

	for (tok = argv[*i]; (tok = strchr(tok, ',')); tok++)
		n++;
	keys->k = calloc(n, sizeof(*keys->k));
	copy = strdup(argv[(*i)++]);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		struct fcq_fkey *k = &keys->k[keys->n++];

		key_arg(tok, k);
		if (fcq_key_wire(k) != fcq_key_wire(keys->k)) {
			fprintf(stderr,
				"fcq-frame: key \"%s\" is %s, the frame's first key is %s: one wire type per frame\n",
				tok, wire_names[fcq_key_wire(k)],
				wire_names[fcq_key_wire(keys->k)]);
			exit(2);
		}
	}
	free(copy);
	if (!keys->n)
		usage();
	f->key_type = fcq_key_wire(keys->k);
	len = FCQ_EXT_KEYS_HLEN + keys->n * fcq_key_wire_size(f->key_type);
	if (len > size) {
		fprintf(stderr,
			"fcq-frame: %zu %s keys make a %zu-byte frame, over the device's %zu (MTU + 14)\n",
			keys->n, wire_names[f->key_type], len, size);
		exit(2);
	}
	f->count = keys->n;
}

static int frame_hdr(const char *kind)
{
	if (!strcmp(kind, "keys"))
		return HDR_KEYS;
	if (!strcmp(kind, "cnm"))
		return HDR_CNM;
	return !strcmp(kind, "fafc") ? HDR_EXT : HDR_MACCTL;
}

/* A mutation of a header the frame does not have is an error. */
static void applies(const char *opt, const char *kind, int hdr)
{
	int has = frame_hdr(kind);

	/* A keyed frame is an extension frame. */
	if (has == hdr || (hdr == HDR_EXT && has == HDR_KEYS))
		return;
	fprintf(stderr, "fcq-frame: %s does not apply to a %s frame\n",
		opt, kind);
	exit(2);
}

/* Parse the mutations from argv[*i] up to the next --wait. */
static void mutation_args(int argc, char **argv, int *i, const char *kind,
			  struct mutation *m, struct cnm_args *cnm)
{
	*m = (struct mutation){ .len = -1, .word = -1, .version = -1,
				.type = -1, .key_type = -1, .key_count = -1,
				.count = 1, .msdu_len = -1,
				.hdr = frame_hdr(kind) };
	for (; *i + 1 < argc && strcmp(argv[*i], "--wait"); *i += 2) {
		const char *opt = argv[*i], *val = argv[*i + 1];

		if (!strcmp(opt, "--len")) {
			m->len = num(val, LONG_MAX);
		} else if (!strcmp(opt, "--opcode")) {
			applies(opt, kind, HDR_MACCTL);
			m->word = num_base(val, 16, 0xffff);
		} else if (!strcmp(opt, "--magic")) {
			applies(opt, kind, HDR_EXT);
			m->word = num_base(val, 16, 0xffff);
		} else if (!strcmp(opt, "--version")) {
			if (m->hdr == HDR_CNM) {
				m->version = num(val, 0xf);
			} else {
				applies(opt, kind, HDR_EXT);
				m->version = num(val, 0xff);
			}
		} else if (!strcmp(opt, "--encap")) {
			applies(opt, kind, HDR_CNM);
			mac_arg(val, cnm->c.encap_da);
		} else if (!strcmp(opt, "--qoff")) {
			applies(opt, kind, HDR_CNM);
			cnm->qoff = snum(val);
			cnm->set_q = 1;
		} else if (!strcmp(opt, "--qdelta")) {
			applies(opt, kind, HDR_CNM);
			cnm->qdelta = snum(val);
			cnm->set_q = 1;
		} else if (!strcmp(opt, "--fb")) {
			applies(opt, kind, HDR_CNM);
			cnm->c.version = FCQ_CNM_VERSION_DSM;
			cnm->c.fb_kbps = fb_arg(val);
		} else if (!strcmp(opt, "--cpid")) {
			applies(opt, kind, HDR_CNM);
			cpid_arg(val, cnm->c.cpid);
			cnm->set_cpid = 1;
		} else if (!strcmp(opt, "--msdu")) {
			applies(opt, kind, HDR_CNM);
			cnm->c.msdu_len = num(val, FCQ_CNM_MSDU_MAX);
		} else if (!strcmp(opt, "--msdulen")) {
			applies(opt, kind, HDR_CNM);
			m->msdu_len = num(val, 0xffff);
		} else if (!strcmp(opt, "--type")) {
			applies(opt, kind, HDR_EXT);
			m->type = num(val, 0xff);
		} else if (!strcmp(opt, "--keytype")) {
			applies(opt, kind, HDR_KEYS);
			m->key_type = num(val, 0xff);
		} else if (!strcmp(opt, "--keycount")) {
			applies(opt, kind, HDR_KEYS);
			m->key_count = num(val, 0xffff);
		} else if (!strcmp(opt, "--dst")) {
			mac_arg(val, m->dst);
			m->set_dst = 1;
		} else if (!strcmp(opt, "--count")) {
			m->count = num(val, 1000000);
		} else {
			usage();
		}
	}
	if (*i < argc && strcmp(argv[*i], "--wait"))
		usage();	/* a mutation without its value */
	/* A DSM CNM has F_b where they would go: they would be lost. */
	if (cnm->c.version == FCQ_CNM_VERSION_DSM && cnm->set_q) {
		fprintf(stderr,
			"fcq-frame: --qoff and --qdelta do not apply to a CNM with --fb\n");
		exit(2);
	}
}

/* Returns the number of bytes to send. */
static size_t mutate(u8 *frame, size_t len, const struct mutation *m)
{
	if (m->word >= 0) {
		frame[14] = m->word >> 8;
		frame[15] = m->word & 0xff;
	}
	if (m->version >= 0 && m->hdr == HDR_CNM)
		frame[14] = (frame[14] & 0x0f) | m->version << 4;
	else if (m->version >= 0)
		frame[16] = m->version;
	if (m->msdu_len >= 0) {
		frame[36] = m->msdu_len >> 8;
		frame[37] = m->msdu_len & 0xff;
	}
	if (m->type >= 0)
		frame[17] = m->type;
	if (m->key_type >= 0)
		frame[32] = m->key_type;
	if (m->key_count >= 0) {
		frame[34] = m->key_count >> 8;
		frame[35] = m->key_count & 0xff;
	}
	if (m->set_dst)
		memcpy(frame, m->dst, FCQ_ETH_ALEN);
	if (m->len > (long)len) {
		fprintf(stderr, "fcq-frame: --len %ld: the frame has %zu bytes\n",
			m->len, len);
		exit(2);
	}
	return m->len >= 0 ? (size_t)m->len : len;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * Build the frame at argv[*i] with its mutations in @frame, of @size bytes
 * (the device's MTU + 14); send it.
 */
static void send_one(int fd, struct sockaddr_ll *sll, const u8 *src,
		     u8 *frame, size_t size, int argc, char **argv, int *i)
{
	u16 quanta[FCQ_NUM_PRIO] = { 0 };
	static const u8 bcast[FCQ_ETH_ALEN] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff
	};
	struct keys keys = { NULL, 0 };
	struct cnm_args cnm = { 0 };
	struct fcq_ext ext = { 0 };
	u8 msdu[FCQ_CNM_MSDU_MAX];
	const char *kind = argv[*i];
	struct mutation m;
	u8 enable = 0;

	if (*i + 1 >= argc)
		usage();
	if (!strcmp(kind, "keys")) {
		keys_arg(argc, argv, i, size, &ext, &keys);
	} else {
		if (!strcmp(kind, "pfc"))
			pfc_arg(argv[*i + 1], &enable, quanta);
		else if (!strcmp(kind, "pause"))
			quanta[0] = num(argv[*i + 1], 0xffff);
		else if (!strcmp(kind, "fafc"))
			fafc_arg(argv[*i + 1], &ext);
		else if (!strcmp(kind, "cnm"))
			cnm_arg(argv[*i + 1], &cnm);
		else
			usage();
		*i += 2;
	}
	mutation_args(argc, argv, i, kind, &m, &cnm);
	if (m.hdr == HDR_CNM) {
		size_t k;

		if (!cnm.set_cpid)
			memcpy(cnm.c.cpid, src, FCQ_ETH_ALEN);
		cnm.c.qoffset = fcq_cnm_units(cnm.qoff);
		cnm.c.qdelta = fcq_cnm_units(cnm.qdelta);
		msdu[0] = 0x88;
		msdu[1] = 0xb5;
		for (k = 2; k < sizeof(msdu); k++)
			msdu[k] = k - 2;
	}

	while (m.count--) {
		long long sent = now_ns();
		size_t len;

		if (frame_hdr(kind) != HDR_MACCTL) {
			ext.seq = ++ext_seq;
			ext.tx_ns = sent;
		}
		if (!strcmp(kind, "keys"))
			len = fcq_ext_keys_build(frame, size, src, &ext,
						 keys.k);
		else if (!strcmp(kind, "fafc"))
			len = fcq_ext_build(frame, size, src, &ext);
		else if (!strcmp(kind, "pfc"))
			len = fcq_pfc_build(frame, size, src, enable, quanta);
		else if (!strcmp(kind, "cnm"))
			len = fcq_cnm_build(frame, size, bcast, src, &cnm.c,
					    msdu);
		else
			len = fcq_pause_build(frame, size, src, quanta[0]);
		len = mutate(frame, len, &m);
		memcpy(sll->sll_addr, frame, FCQ_ETH_ALEN);
		if (sendto(fd, frame, len, 0, (struct sockaddr *)sll,
			   sizeof(*sll)) != (ssize_t)len) {
			perror("fcq-frame: sendto");
			exit(1);
		}
		printf("%lld\n", sent);
	}
	free(keys.k);
}

int main(int argc, char **argv)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_halen = FCQ_ETH_ALEN };
	struct ifreq ifr = { 0 };
	u8 src[FCQ_ETH_ALEN], *frame;
	int fd, i = 2, a;
	size_t size;

	/* Anywhere: no value (MAC, number, HEX, TIME) can be one of these. */
	for (a = 1; a < argc; a++)
		if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help"))
			usage_to(stdout, 0);
	if (argc < 4)
		usage();
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0) {
		perror("fcq-frame: socket");
		return 1;
	}
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", argv[1]);
	if (ioctl(fd, SIOCGIFINDEX, &ifr)) {
		fprintf(stderr, "fcq-frame: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	sll.sll_ifindex = ifr.ifr_ifindex;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr)) {
		fprintf(stderr, "fcq-frame: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	memcpy(src, ifr.ifr_hwaddr.sa_data, FCQ_ETH_ALEN);
	if (ioctl(fd, SIOCGIFMTU, &ifr)) {
		fprintf(stderr, "fcq-frame: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	/* The longest frame the device sends; never below the minimum. */
	size = ifr.ifr_mtu + FCQ_ETH_HLEN;
	if (size < FCQ_ETH_ZLEN)
		size = FCQ_ETH_ZLEN;
	frame = malloc(size);

	for (;;) {
		send_one(fd, &sll, src, frame, size, argc, argv, &i);
		if (i >= argc)
			break;
		if (i + 2 >= argc)	/* --wait TIME FRAME ... */
			usage();
		wait_arg(argv[i + 1]);
		i += 2;
	}
	free(frame);
	close(fd);
	return 0;
}
