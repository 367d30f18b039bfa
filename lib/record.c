// SPDX-License-Identifier: GPL-2.0-only
/*
 * Record writer.  A record that would not fit RECORD_MAX is cut and marked
 * "truncated=1" rather than emitted malformed; callers size sample lists
 * with rec_room() so that this does not happen.
 */
#include <stdarg.h>
#include "lib/format.h"
#include "lib/record.h"
#include "lib/string.h"

u32 crc32_ieee(const void *data, size_t len)
{
	const u8 *p = data;
	u32 crc = ~0u;

	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	return ~crc;
}

void rec_writer_init(struct rec_writer *w, void (*emit)(void *, const char *),
		     void *ctx)
{
	w->emit = emit;
	w->ctx = ctx;
	w->lock = NULL;
	w->unlock = NULL;
	w->seq = 0;
}

/* Keep 32 bytes for " truncated=1 #xxxxxxxx\n". */
#define TAIL 32

static void put(struct rec *r, const char *fmt, ...) __printf(2, 3);

static void put(struct rec *r, const char *fmt, ...)
{
	size_t room = RECORD_MAX - TAIL - r->len;
	char *at = r->buf + REC_PREFIX + r->len;
	va_list ap;
	int n;

	if (r->overflow)
		return;
	va_start(ap, fmt);
	n = kvsnprintf(at, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		*at = '\0';
		r->overflow = true;
		return;
	}
	r->len += (size_t)n;
}

/* The sequence number is taken when the record ends, not here: records
 * built at once on several CPUs are numbered in the order they go out. */
void rec_begin(struct rec_writer *w, struct rec *r, const char *type)
{
	(void)w;
	r->len = 0;
	r->overflow = false;
	r->buf[REC_PREFIX] = '\0';
	put(r, " %s", type);
}

void rec_u64(struct rec *r, const char *key, u64 v)
{
	put(r, " %s=%llu", key, (unsigned long long)v);
}

void rec_s64(struct rec *r, const char *key, s64 v)
{
	put(r, " %s=%lld", key, (long long)v);
}

void rec_hex(struct rec *r, const char *key, u64 v)
{
	put(r, " %s=%#llx", key, (unsigned long long)v);
}

static bool needs_quotes(const char *v)
{
	if (!*v)
		return true;
	for (; *v; v++)
		if (*v == ' ' || *v == '"' || *v == '\\' || *v == '#' ||
		    *v == '=' || (u8)*v < 0x21 || (u8)*v > 0x7e)
			return true;
	return false;
}

void rec_str(struct rec *r, const char *key, const char *v)
{
	if (!needs_quotes(v)) {
		put(r, " %s=%s", key, v);
		return;
	}
	put(r, " %s=\"", key);
	for (; *v; v++) {
		u8 c = (u8)*v;

		if (c == '"' || c == '\\')
			put(r, "\\%c", c);
		else if (c < 0x20 || c > 0x7e)
			put(r, "\\x%02x", c);	/* keep records ASCII */
		else
			put(r, "%c", c);
	}
	put(r, "\"");
}

size_t rec_room(const struct rec *r)
{
	return r->overflow ? 0 : RECORD_MAX - TAIL - r->len - 1;
}

void rec_raw(struct rec *r, const char *text)
{
	put(r, "%s", text);
}

u32 rec_end(struct rec_writer *w, struct rec *r)
{
	char *body = r->buf + REC_PREFIX, *line, seq[REC_PREFIX];
	size_t size = RECORD_MAX - r->len, n;
	u32 crc, no;

	/* TAIL bytes were kept free for exactly this. */
	if (r->overflow)
		r->len += (size_t)ksnprintf(body + r->len, size, " truncated=1");
	if (w->lock && !w->lock(w->ctx))
		return 0;		/* never numbered: no gap */
	no = ++w->seq;
	n = (size_t)ksnprintf(seq, sizeof(seq), "%s %u", RECORD_MAGIC, no);
	line = body - n;
	memcpy(line, seq, n);
	/* The checksum covers everything before the '#'. */
	body[r->len++] = ' ';
	crc = crc32_ieee(line, n + r->len);
	ksnprintf(body + r->len, RECORD_MAX - r->len, "#%08x\n", crc);
	w->emit(w->ctx, line);
	if (w->unlock)
		w->unlock(w->ctx);
	return no;
}

/* Eight lowercase hex digits, or ~0ULL. */
static u64 hex8(const char *s)
{
	u64 v = 0;

	for (int i = 0; i < 8; i++) {
		char c = s[i];

		if (c >= '0' && c <= '9')
			v = v << 4 | (u64)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v << 4 | (u64)(c - 'a' + 10);
		else
			return ~0ULL;
	}
	return v;
}

/* The text from the space after SEQ up to and including the space before
 * '#', or NULL when @line is not an intact record. */
static const char *restamp_body(const char *line, size_t *len)
{
	size_t n = strlen(line), magic = sizeof(RECORD_MAGIC) - 1;
	const char *seq = line + magic + 1, *p = seq, *hash;

	if (n < magic + 14 || memcmp(line, RECORD_MAGIC " ", magic + 1) != 0 ||
	    line[n - 1] != '\n')
		return NULL;
	hash = line + n - 10;		/* "#xxxxxxxx\n" */
	if (*hash != '#' || hash[-1] != ' ' ||
	    hex8(hash + 1) != crc32_ieee(line, (size_t)(hash - line)))
		return NULL;
	while (p < hash && *p >= '0' && *p <= '9')
		p++;
	if (p == seq || *p != ' ' || p == hash - 1)
		return NULL;
	*len = (size_t)(hash - p);
	return p;
}

bool rec_restamp(struct rec_writer *w, const char *line)
{
	/* The new SEQ may have more digits than the old one. */
	char buf[RECORD_MAX + 32];
	const char *body;
	size_t len, n;

	body = restamp_body(line, &len);
	if (!body || len > RECORD_MAX)
		return false;
	if (w->lock && !w->lock(w->ctx))
		return false;
	n = (size_t)ksnprintf(buf, sizeof(buf), "%s %u", RECORD_MAGIC, ++w->seq);
	memcpy(buf + n, body, len);
	n += len;
	ksnprintf(buf + n, sizeof(buf) - n, "#%08x\n", crc32_ieee(buf, n));
	w->emit(w->ctx, buf);
	if (w->unlock)
		w->unlock(w->ctx);
	return true;
}
