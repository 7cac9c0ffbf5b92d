// SPDX-License-Identifier: GPL-2.0
/*
 * frame_fuzz - send N random and malformed control frames on a device at a
 * given pace, from a seed, and tell how many of each class it sent.
 *
 *   frame_fuzz [--count N] [--rate FPS] [--seed S] [--lossless MASK] DEV PEER
 *
 * Every frame is built by core/frames.c, then broken in one way that
 * decides, alone, what a receiving fcq port must do with it (the class);
 * the rest of the frame is random. PEER is the receiving port's MAC: the
 * address of the CNMs meant for it. MASK is its lossless classes (default
 * 0x08), which decide what a valid frame for a class does there.
 *
 * The frames bypass DEV's qdisc (PACKET_QDISC_BYPASS): a rogue peer's
 * frames, not the local port's. Sent in batches (sendmmsg) on the
 * CLOCK_MONOTONIC schedule FPS asks; behind it, as fast as the device
 * takes them. Prints one JSON object: the seed, the frames sent per
 * class, and the valid XONs per priority (the port applies them to its
 * lossless classes and counts the others as not lossless). Progress on
 * stderr every 10 %.
 */
#include <errno.h>
#include <getopt.h>
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

#define BATCH		32
#define FRAME_MAX	1514	/* a 1500-byte MTU's frames */

/*
 * The classes, each with what the receiving port counts for it (the xstats
 * of `tc -s qdisc show`; qcnrp's under "qcnrp", in every other kind such
 * frames are not control frames and pass the hook).
 */
enum fuzz_class {
	MACCTL_SHORT,		/* PAUSE/PFC under 60 bytes: rx_malformed */
	MACCTL_DST,		/* not to 01:80:C2:00:00:01: rx_malformed */
	MACCTL_OPCODE,		/* neither PAUSE nor PFC: rx_bad_opcode */
	PFC_XON,		/* valid, random vector, quanta 0 where
				 * enabled, garbage elsewhere: per priority */
	PAUSE_XON,		/* 802.3x, quanta 0: rx_pause */
	EXT_SHORT,		/* extension frame under 60: rx_malformed */
	EXT_HEADER,		/* bad magic, version, priority or
				 * destination: rx_malformed */
	EXT_TYPE,		/* unknown type: rx_bad_opcode */
	EXT_KEYS,		/* unknown key type or keys past the end:
				 * kp.rx_bad */
	EXT_PAUSE_LOSSY,	/* a timed pause of a class not lossless:
				 * rx_not_lossless */
	CNM_BAD,		/* version over 1, MSDU too long or past
				 * the end, or short: qcnrp.cnm_bad */
	CNM_ZERO,		/* valid, QntzFb 0: qcnrp.cnm_zero */
	CNM_OTHER,		/* valid, to another address:
				 * qcnrp.cnm_not_ours */
	RANDOM,			/* another EtherType, random bytes: none */
	NR_CLASSES
};

static const char *const class_names[NR_CLASSES] = {
	[MACCTL_SHORT] = "macctl_short", [MACCTL_DST] = "macctl_dst",
	[MACCTL_OPCODE] = "macctl_opcode", [PFC_XON] = "pfc_xon",
	[PAUSE_XON] = "pause_xon", [EXT_SHORT] = "ext_short",
	[EXT_HEADER] = "ext_header", [EXT_TYPE] = "ext_type",
	[EXT_KEYS] = "ext_keys", [EXT_PAUSE_LOSSY] = "ext_pause_lossy",
	[CNM_BAD] = "cnm_bad", [CNM_ZERO] = "cnm_zero",
	[CNM_OTHER] = "cnm_other", [RANDOM] = "random",
};

struct fuzz {
	u64 rng;
	u8 src[FCQ_ETH_ALEN];
	u8 peer[FCQ_ETH_ALEN];
	u8 lossless;
	unsigned long sent[NR_CLASSES];
	unsigned long xon[FCQ_NUM_PRIO];	/* PFC_XON's enabled bits */
};

static void __attribute__((noreturn)) usage(FILE *f, int status)
{
	fprintf(f,
		"usage: frame_fuzz [--count N] [--rate FPS] [--seed S] [--lossless MASK] DEV PEER\n"
		"       frame_fuzz -h | --help\n"
		"Sends N (default 100000) random and malformed MAC Control, fcq extension,\n"
		"802.1Qau CNM and random-EtherType frames on DEV at FPS frames/s (default\n"
		"25000; 0: as fast as it goes), bypassing DEV's qdisc. PEER: the receiving\n"
		"port's MAC; MASK: its lossless classes (default 0x08). The same seed sends\n"
		"the same frames (default: from the clock; printed). Prints the frames sent\n"
		"per class as JSON; progress on stderr.\n");
	exit(status);
}

static unsigned long long number(const char *opt, const char *s,
				 unsigned long long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || end == s || *s == '-' || v > max) {
		fprintf(stderr, "frame_fuzz: %s \"%s\": not a number up to %llu\n",
			opt, s, max);
		exit(2);
	}
	return v;
}

/* xorshift64*: small, fast, and the same frames from the same seed. */
static u64 rnd(struct fuzz *z)
{
	z->rng ^= z->rng >> 12;
	z->rng ^= z->rng << 25;
	z->rng ^= z->rng >> 27;
	return z->rng * 0x2545f4914f6cdd1dULL;
}

/* Uniform in [lo, hi]. */
static u32 between(struct fuzz *z, u32 lo, u32 hi)
{
	return lo + (u32)(rnd(z) % ((u64)hi - lo + 1));
}

static void fill(struct fuzz *z, u8 *p, size_t n)
{
	while (n--)
		*p++ = rnd(z);
}

static void put16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/*
 * A valid frame's length: mostly the minimum or a little over, sometimes
 * up to a full frame, the bytes past @len random (padding no one reads).
 */
static size_t padded(struct fuzz *z, u8 *f, size_t len)
{
	size_t to = len;

	switch (rnd(z) % 4) {
	case 0:
		break;
	case 1:
		to = between(z, len, 128);
		break;
	default:
		to = between(z, len, rnd(z) % 8 ? 256 : FRAME_MAX);
	}
	if (to < len)
		to = len;
	fill(z, f + len, to - len);
	return to;
}

/* A destination that is not @not: unicast, multicast or broadcast. */
static void other_dst(struct fuzz *z, u8 *dst, const u8 *not)
{
	do {
		switch (rnd(z) % 4) {
		case 0:
			memset(dst, 0xff, FCQ_ETH_ALEN);
			break;
		case 1:		/* another link-local group address */
			memcpy(dst, fcq_macctl_dst, FCQ_ETH_ALEN);
			dst[5] = rnd(z);
			break;
		case 2:		/* the receiver's own */
			memcpy(dst, z->peer, FCQ_ETH_ALEN);
			break;
		default:
			fill(z, dst, FCQ_ETH_ALEN);
		}
	} while (!memcmp(dst, not, FCQ_ETH_ALEN));
}

/* A priority not lossless at the receiver, or -1 if there is none. */
static int lossy_prio(struct fuzz *z)
{
	int p;

	if (z->lossless == 0xff)
		return -1;
	do
		p = rnd(z) % FCQ_NUM_PRIO;
	while (z->lossless & (1u << p));
	return p;
}

static size_t macctl(struct fuzz *z, u8 *f, enum fuzz_class c)
{
	u16 quanta[FCQ_NUM_PRIO] = { 0 };
	u8 enable = rnd(z);
	size_t len;
	int p;

	if (c == PAUSE_XON || (c != PFC_XON && rnd(z) % 2))
		len = fcq_pause_build(f, FRAME_MAX, z->src, 0);
	else
		len = fcq_pfc_build(f, FRAME_MAX, z->src, enable, quanta);
	switch (c) {
	case MACCTL_SHORT:
		fill(z, f + 16, 44);
		return between(z, FCQ_ETH_HLEN, FCQ_ETH_ZLEN - 1);
	case MACCTL_DST:
		other_dst(z, f, fcq_macctl_dst);
		fill(z, f + 16, 44);
		break;
	case MACCTL_OPCODE:
		do
			put16(f + 14, rnd(z));
		while ((f[14] << 8 | f[15]) == FCQ_MACCTL_PAUSE ||
		       (f[14] << 8 | f[15]) == FCQ_MACCTL_PFC);
		fill(z, f + 16, 44);
		break;
	case PFC_XON:
		/* the reserved octet and the disabled classes' times */
		f[16] = rnd(z);
		for (p = 0; p < FCQ_NUM_PRIO; p++) {
			if (enable & (1u << p))
				z->xon[p]++;
			else
				put16(f + 18 + 2 * p, rnd(z));
		}
		break;
	default:	/* PAUSE_XON: what follows its quanta is padding */
		fill(z, f + 18, 42);
	}
	return padded(z, f, len);
}

static size_t ext(struct fuzz *z, u8 *f, enum fuzz_class c)
{
	struct fcq_ext e = {
		.type = FCQ_EXT_PAUSE, .prio = rnd(z) % FCQ_NUM_PRIO,
		.flags = rnd(z), .seq = rnd(z), .tx_ns = rnd(z),
		.pause_ns = rnd(z),
	};
	size_t len, ksize;
	int p;

	if (c == EXT_TYPE || c == EXT_KEYS || rnd(z) % 2)
		e.type = between(z, FCQ_EXT_KEYS_PAUSE, FCQ_EXT_KEYS_RESUME);
	len = fcq_ext_build(f, FRAME_MAX, z->src, &e);
	/* keyed frames' key type and count, random */
	if (e.type != FCQ_EXT_PAUSE)
		fill(z, f + 32, 4);
	fill(z, f + 36, len - 36);
	switch (c) {
	case EXT_SHORT:
		return between(z, FCQ_ETH_HLEN, FCQ_ETH_ZLEN - 1);
	case EXT_HEADER:
		switch (rnd(z) % 4) {
		case 0:
			do
				put16(f + 14, rnd(z));
			while ((f[14] << 8 | f[15]) == FCQ_EXT_MAGIC);
			break;
		case 1:
			f[16] = between(z, FCQ_EXT_VERSION + 1, 0xff +
					FCQ_EXT_VERSION) & 0xff;
			break;
		case 2:
			f[18] = between(z, FCQ_NUM_PRIO, 0xff);
			break;
		default:
			other_dst(z, f, fcq_macctl_dst);
		}
		break;
	case EXT_TYPE:
		f[17] = between(z, FCQ_EXT_KEYS_RESUME + 1, 0xff + 1) & 0xff;
		break;
	case EXT_KEYS:
		/* an unknown key type (0 with keys), or too many keys */
		len = padded(z, f, len);
		if (rnd(z) % 2) {
			do
				f[32] = rnd(z);
			while (fcq_key_wire_size(f[32]));
			if (!f[32] && !f[34] && !f[35])
				f[35] = between(z, 1, 0xff);
		} else {
			f[32] = between(z, 1, 0xff);
			while (!(ksize = fcq_key_wire_size(f[32])))
				f[32] = between(z, 1, 0xff);
			put16(f + 34, between(z, (len - FCQ_EXT_KEYS_HLEN) /
					      ksize + 1, 0xffff));
		}
		return len;
	default:	/* EXT_PAUSE_LOSSY */
		p = lossy_prio(z);
		f[17] = FCQ_EXT_PAUSE;
		f[18] = p;
	}
	return padded(z, f, len);
}

static size_t cnm(struct fuzz *z, u8 *f, enum fuzz_class c)
{
	struct fcq_cnm m = {
		.version = FCQ_CNM_VERSION_QCN, .qfb = between(z, 1, 63),
		.qoffset = rnd(z), .qdelta = rnd(z),
		.prio = rnd(z) % FCQ_NUM_PRIO,
		.msdu_len = between(z, 0, FCQ_CNM_MSDU_MAX),
	};
	u8 msdu[FCQ_CNM_MSDU_MAX], dst[FCQ_ETH_ALEN];
	size_t len;

	fill(z, m.cpid, sizeof(m.cpid));
	fill(z, m.encap_da, sizeof(m.encap_da));
	fill(z, msdu, sizeof(msdu));
	if (c == CNM_ZERO)
		m.qfb = 0;
	if (c == CNM_OTHER)
		other_dst(z, dst, z->peer);
	else
		memcpy(dst, z->peer, FCQ_ETH_ALEN);
	len = fcq_cnm_build(f, FRAME_MAX, dst, z->src, &m, msdu);
	/* the reserved bits, ignored */
	f[14] |= (rnd(z) & 0x3) << 2;
	f[15] |= rnd(z) & 0xc0;
	if (c != CNM_BAD)
		return padded(z, f, len);
	switch (rnd(z) % 4) {
	case 0:
		f[14] = (f[14] & 0x0f) | between(z, 2, 15) << 4;
		break;
	case 1:
		put16(f + 36, between(z, FCQ_CNM_MSDU_MAX + 1, 0xffff));
		break;
	case 2:		/* an MSDU past the frame's end */
		if (len - FCQ_CNM_HLEN < FCQ_CNM_MSDU_MAX)
			put16(f + 36, between(z, len - FCQ_CNM_HLEN + 1,
					      FCQ_CNM_MSDU_MAX));
		else		/* no room for a longer one: version 2 */
			f[14] |= 0x20;
		return len;
	default:
		return between(z, FCQ_ETH_HLEN, FCQ_ETH_ZLEN - 1);
	}
	return padded(z, f, len);
}

/*
 * Any EtherType but the control frames' and those the receiving host's
 * stack acts on (IPv4, ARP, IPv6: a random ARP frame could rewrite its
 * neighbours) or unwraps (VLAN tags, which could carry a control frame).
 */
static bool inert(u16 type)
{
	switch (type) {
	case FCQ_ETHERTYPE_MACCTL:
	case FCQ_ETHERTYPE_EXT:
	case FCQ_ETHERTYPE_CNM:
	case 0x0800: case 0x0806: case 0x86dd:
	case 0x8100: case 0x88a8: case 0x9100:
		return false;
	}
	return true;
}

static size_t random_frame(struct fuzz *z, u8 *f)
{
	size_t len = between(z, FCQ_ETH_HLEN, rnd(z) % 8 ? 128 : FRAME_MAX);
	u16 type;

	fill(z, f, len);
	/* 802.1Qau's CN-TAG, others, and 802.3 lengths */
	do
		type = rnd(z) % 4 ? rnd(z) : 0x22e9;
	while (!inert(type));
	put16(f + 12, type);
	return len;
}

/* The next frame into @f; returns its length and counts its class. */
static size_t next_frame(struct fuzz *z, u8 *f)
{
	enum fuzz_class c = rnd(z) % NR_CLASSES;
	size_t len;

	if (c == EXT_PAUSE_LOSSY && z->lossless == 0xff)
		c = RANDOM;
	if (c <= PAUSE_XON)
		len = macctl(z, f, c);
	else if (c <= EXT_PAUSE_LOSSY)
		len = ext(z, f, c);
	else if (c <= CNM_OTHER)
		len = cnm(z, f, c);
	else
		len = random_frame(z, f);
	/* spoofed sources, but never a multicast one */
	if (rnd(z) % 2)
		fill(z, f + FCQ_ETH_ALEN, FCQ_ETH_ALEN);
	f[FCQ_ETH_ALEN] &= 0xfe;
	z->sent[c]++;
	return len;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_until(long long ns)
{
	struct timespec ts = { ns / 1000000000LL, ns % 1000000000LL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

static int open_dev(const char *dev, struct sockaddr_ll *sll, u8 *src)
{
	struct ifreq ifr = { 0 };
	int fd, one = 1;

	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0) {
		perror("frame_fuzz: socket");
		exit(1);
	}
	if (strlen(dev) >= sizeof(ifr.ifr_name)) {
		fprintf(stderr, "frame_fuzz: %s: name too long\n", dev);
		exit(2);
	}
	strcpy(ifr.ifr_name, dev);
	if (ioctl(fd, SIOCGIFINDEX, &ifr)) {
		fprintf(stderr, "frame_fuzz: %s: %s\n", dev, strerror(errno));
		exit(1);
	}
	sll->sll_ifindex = ifr.ifr_ifindex;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr)) {
		fprintf(stderr, "frame_fuzz: %s: %s\n", dev, strerror(errno));
		exit(1);
	}
	memcpy(src, ifr.ifr_hwaddr.sa_data, FCQ_ETH_ALEN);
	if (setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one,
		       sizeof(one))) {
		perror("frame_fuzz: PACKET_QDISC_BYPASS");
		exit(1);
	}
	return fd;
}

static void mac_arg(const char *s, u8 *mac)
{
	unsigned int b[FCQ_ETH_ALEN];
	char end;
	int i;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2],
		   &b[3], &b[4], &b[5], &end) != FCQ_ETH_ALEN) {
		fprintf(stderr, "frame_fuzz: PEER \"%s\": not a MAC address\n",
			s);
		exit(2);
	}
	for (i = 0; i < FCQ_ETH_ALEN; i++)
		mac[i] = b[i];
}

static void report(const struct fuzz *z, u64 seed, unsigned long n,
		   long long ns)
{
	int c, p;

	printf("{\"seed\": %llu, \"frames\": %lu, \"ns\": %lld, \"sent\": {",
	       (unsigned long long)seed, n, ns);
	for (c = 0; c < NR_CLASSES; c++)
		printf("%s\"%s\": %lu", c ? ", " : "", class_names[c],
		       z->sent[c]);
	printf("}, \"xon\": [");
	for (p = 0; p < FCQ_NUM_PRIO; p++)
		printf("%s%lu", p ? ", " : "", z->xon[p]);
	printf("]}\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'n' },
		{ "rate", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "lossless", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static u8 frames[BATCH][FRAME_MAX];
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_halen = FCQ_ETH_ALEN };
	struct fuzz z = { .lossless = 0x08 };
	unsigned long count = 100000, rate = 25000, sent = 0, tick;
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	long long t0;
	u64 seed;
	int fd, o, i;

	seed = now_ns();
	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (o) {
		case 'n':
			count = number("--count", optarg, 100000000);
			break;
		case 'r':
			rate = number("--rate", optarg, 10000000);
			break;
		case 's':
			seed = number("--seed", optarg, ~0ULL);
			break;
		case 'l':
			z.lossless = number("--lossless", optarg, 0xff);
			break;
		case 'h':
			usage(stdout, 0);
		default:
			usage(stderr, 2);
		}
	}
	if (argc - optind != 2)
		usage(stderr, 2);
	mac_arg(argv[optind + 1], z.peer);
	fd = open_dev(argv[optind], &sll, z.src);
	/* xorshift's state must not be 0 */
	z.rng = seed ^ 0x9e3779b97f4a7c15ULL;
	if (!z.rng)
		z.rng = 1;
	fprintf(stderr, "frame_fuzz: seed %llu, %lu frames at %lu/s on %s\n",
		(unsigned long long)seed, count, rate, argv[optind]);

	memset(msgs, 0, sizeof(msgs));
	for (i = 0; i < BATCH; i++) {
		iov[i].iov_base = frames[i];
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
		msgs[i].msg_hdr.msg_name = &sll;
		msgs[i].msg_hdr.msg_namelen = sizeof(sll);
	}
	t0 = now_ns();
	tick = count / 10;
	while (sent < count) {
		int n = count - sent < BATCH ? count - sent : BATCH, done = 0;

		if (rate)
			sleep_until(t0 + (long long)(sent * 1e9 / rate));
		for (i = 0; i < n; i++)
			iov[i].iov_len = next_frame(&z, frames[i]);
		/* a full device queue: wait for it, every frame goes out */
		while (done < n) {
			int r = sendmmsg(fd, msgs + done, n - done, 0);

			if (r < 0 && errno == ENOBUFS) {
				usleep(100);
				continue;
			}
			if (r < 0) {
				perror("frame_fuzz: sendmmsg");
				return 1;
			}
			done += r;
		}
		if (tick && sent / tick != (sent + n) / tick)
			fprintf(stderr, "frame_fuzz: %lu frames sent\n",
				sent + n);
		sent += n;
	}
	report(&z, seed, sent, now_ns() - t0);
	close(fd);
	return 0;
}
