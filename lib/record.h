/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_RECORD_H
#define LIB_RECORD_H

#include "lib/types.h"

/*
 * Result records: one line each, self-describing, versioned, numbered and
 * checksummed, so a parser can tell a record from noise and notice every
 * line a serial console dropped or changed (docs/records.md):
 *
 *   @hz1 SEQ TYPE key=value key="quoted value" ... #CRC32
 *
 * CRC32 is IEEE 802.3 (zlib's crc32) of everything before the '#',
 * including the space, in 8 lowercase hex digits.  SEQ counts from 1 per
 * boot; the last record, "end", carries the number of records written.
 */

#define RECORD_MAGIC "@hz1"
#define RECORD_MAX 1024

struct rec_writer {
	void (*emit)(void *ctx, const char *line);	/* line ends in '\n' */
	void *ctx;
	/*
	 * Optional, for writers shared by several CPUs: held from taking a
	 * sequence number to emitting the line, so numbers reach the wire
	 * in order and lines whole.  lock() false: this writer may write no
	 * more (another CPU has taken the console over to end the run), and
	 * the record is dropped before it is numbered, so that the numbers
	 * on the wire have no gap for it.
	 */
	bool (*lock)(void *ctx);
	void (*unlock)(void *ctx);
	u32 seq;
};

/* Room before the body for "@hz1 SEQ", filled in when the record ends. */
#define REC_PREFIX 16

struct rec {
	char buf[REC_PREFIX + RECORD_MAX];
	size_t len;		/* of the body, from buf + REC_PREFIX */
	bool overflow;
};

u32 crc32_ieee(const void *data, size_t len);

void rec_writer_init(struct rec_writer *w, void (*emit)(void *, const char *),
		     void *ctx);
void rec_begin(struct rec_writer *w, struct rec *r, const char *type);
void rec_u64(struct rec *r, const char *key, u64 v);
void rec_s64(struct rec *r, const char *key, s64 v);
void rec_hex(struct rec *r, const char *key, u64 v);
void rec_str(struct rec *r, const char *key, const char *v);
/* Room left for values (so callers can pack sample lists). */
size_t rec_room(const struct rec *r);
/* Append text as is (for a comma list value being built). */
void rec_raw(struct rec *r, const char *text);
/* Number, checksum and emit the record; returns its sequence number. */
u32 rec_end(struct rec_writer *w, struct rec *r);
/*
 * Re-number a finished record of another writer (one line, '\n' ended, as
 * an emit callback got it) as @w's next and emit it with a new checksum:
 * so that one writer numbers the records of several processes.  False,
 * emitting nothing, when @line is not an intact record.
 */
bool rec_restamp(struct rec_writer *w, const char *line);

#endif
