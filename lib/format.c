// SPDX-License-Identifier: GPL-2.0-only
/*
 * Formatting into a bounded buffer.  Every write goes through put(), which
 * counts what would have been written past the end, so callers can detect
 * truncation the C99 way.
 */
#include "lib/format.h"
#include "lib/string.h"

struct out {
	char *buf;
	size_t size;
	size_t pos;
};

struct spec {
	bool left, zero, plus, space, alt;
	int width;
	int prec;		/* -1: none */
};

static void put(struct out *o, char c)
{
	if (o->pos + 1 < o->size)
		o->buf[o->pos] = c;
	o->pos++;
}

static void pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

static void put_str(struct out *o, const char *s, const struct spec *sp)
{
	size_t len;
	int fill;

	if (!s)
		s = "(null)";
	len = sp->prec >= 0 ? strnlen(s, (size_t)sp->prec) : strlen(s);
	fill = sp->width > (int)len ? sp->width - (int)len : 0;
	if (!sp->left)
		pad(o, ' ', fill);
	while (len--)
		put(o, *s++);
	if (sp->left)
		pad(o, ' ', fill);
}

static void put_num(struct out *o, u64 v, bool neg, unsigned int base,
		    bool upper, const struct spec *sp, const char *prefix)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, plen = (int)strlen(prefix), sign, zeros, fill;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	if (sp->prec == 0 && n == 1 && tmp[0] == '0')
		n = 0;
	sign = neg || sp->plus || sp->space;
	zeros = sp->prec > n ? sp->prec - n : 0;
	fill = sp->width - (n + zeros + sign + plen);
	if (fill < 0)
		fill = 0;
	if (sp->zero && !sp->left && sp->prec < 0) {
		zeros += fill;
		fill = 0;
	}
	if (!sp->left)
		pad(o, ' ', fill);
	if (sign)
		put(o, neg ? '-' : (sp->plus ? '+' : ' '));
	while (*prefix)
		put(o, *prefix++);
	pad(o, '0', zeros);
	while (n)
		put(o, tmp[--n]);
	if (sp->left)
		pad(o, ' ', fill);
}

static const char *parse_spec(const char *f, struct spec *sp, va_list *ap)
{
	memset(sp, 0, sizeof(*sp));
	sp->prec = -1;
	for (;; f++) {
		if (*f == '-')
			sp->left = true;
		else if (*f == '0')
			sp->zero = true;
		else if (*f == '+')
			sp->plus = true;
		else if (*f == ' ')
			sp->space = true;
		else if (*f == '#')
			sp->alt = true;
		else
			break;
	}
	if (*f == '*') {
		sp->width = va_arg(*ap, int);
		if (sp->width < 0) {
			sp->left = true;
			sp->width = -sp->width;
		}
		f++;
	}
	while (*f >= '0' && *f <= '9')
		sp->width = sp->width * 10 + (*f++ - '0');
	if (*f == '.') {
		f++;
		sp->prec = 0;
		if (*f == '*') {
			sp->prec = va_arg(*ap, int);
			f++;
		}
		while (*f >= '0' && *f <= '9')
			sp->prec = sp->prec * 10 + (*f++ - '0');
	}
	return f;
}

/* Length modifier: 0 int, 1 long, 2 long long, 3 size_t/ptrdiff/intmax, -1 char, -2 short */
static const char *parse_len(const char *f, int *len)
{
	*len = 0;
	if (f[0] == 'h' && f[1] == 'h') {
		*len = -1;
		return f + 2;
	}
	if (f[0] == 'l' && f[1] == 'l') {
		*len = 2;
		return f + 2;
	}
	switch (*f) {
	case 'h': *len = -2; return f + 1;
	case 'l': *len = 1; return f + 1;
	case 'z': case 't': case 'j': *len = 3; return f + 1;
	}
	return f;
}

static u64 arg_unsigned(va_list *ap, int len)
{
	switch (len) {
	case -1: return (u8)va_arg(*ap, unsigned int);
	case -2: return (u16)va_arg(*ap, unsigned int);
	case 1: return va_arg(*ap, unsigned long);
	case 2: return va_arg(*ap, unsigned long long);
	case 3: return va_arg(*ap, size_t);
	}
	return va_arg(*ap, unsigned int);
}

static s64 arg_signed(va_list *ap, int len)
{
	switch (len) {
	case -1: return (s8)va_arg(*ap, int);
	case -2: return (s16)va_arg(*ap, int);
	case 1: return va_arg(*ap, long);
	case 2: return va_arg(*ap, long long);
	case 3: return (s64)va_arg(*ap, size_t);
	}
	return va_arg(*ap, int);
}

static void convert(struct out *o, char c, const struct spec *sp, int len,
		    va_list *ap)
{
	struct spec s2;
	s64 sv;
	char ch[2] = { 0, 0 };

	switch (c) {
	case 'd':
	case 'i':
		sv = arg_signed(ap, len);
		put_num(o, sv < 0 ? -(u64)sv : (u64)sv, sv < 0, 10, false, sp, "");
		break;
	case 'u':
		put_num(o, arg_unsigned(ap, len), false, 10, false, sp, "");
		break;
	case 'x':
	case 'X': {
		u64 v = arg_unsigned(ap, len);

		put_num(o, v, false, 16, c == 'X', sp,
			sp->alt && v ? (c == 'X' ? "0X" : "0x") : "");
		break;
	}
	case 'o':
		put_num(o, arg_unsigned(ap, len), false, 8, false, sp, "");
		break;
	case 'p':
		s2 = *sp;
		s2.plus = s2.space = false;
		put_num(o, (u64)(uintptr_t)va_arg(*ap, void *), false, 16, false,
			&s2, "0x");
		break;
	case 'c':
		ch[0] = (char)va_arg(*ap, int);
		s2 = *sp;
		s2.prec = -1;
		put_str(o, ch, &s2);
		break;
	case 's':
		put_str(o, va_arg(*ap, const char *), sp);
		break;
	case '%':
		put(o, '%');
		break;
	default:
		/* Unknown conversion: show it rather than guess. */
		put(o, '%');
		put(o, c);
	}
}

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };
	struct spec sp;
	va_list aq;
	int len;

	va_copy(aq, ap);
	while (*fmt) {
		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		fmt = parse_spec(fmt + 1, &sp, &aq);
		fmt = parse_len(fmt, &len);
		if (!*fmt)
			break;
		convert(&o, *fmt++, &sp, len, &aq);
	}
	va_end(aq);
	if (size)
		buf[o.pos < size ? o.pos : size - 1] = '\0';
	return (int)o.pos;
}

int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

bool parse_u64(const char *s, size_t len, u64 *out)
{
	unsigned int base = 10;
	u64 v = 0;
	size_t i = 0;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == len)
		return false;
	for (; i < len; i++) {
		int d = digit_value(s[i]);

		if (d >= (int)base)
			return false;
		if (v > (UINT64_MAX - (u64)d) / base)
			return false;
		v = v * base + (u64)d;
	}
	*out = v;
	return true;
}

bool parse_size(const char *s, size_t len, u64 *out)
{
	unsigned int shift = 0;
	u64 v;

	if (len > 1) {
		switch (s[len - 1]) {
		case 'K': case 'k': shift = 10; break;
		case 'M': case 'm': shift = 20; break;
		case 'G': case 'g': shift = 30; break;
		case 'T': case 't': shift = 40; break;
		}
		if (shift)
			len--;
	}
	if (!parse_u64(s, len, &v))
		return false;
	if (shift && v > (UINT64_MAX >> shift))
		return false;
	*out = v << shift;
	return true;
}
