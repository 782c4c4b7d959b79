/*-------------------------------------------------------------------------
 *
 * generators_text.c
 *	  Short text forms of a uuid key, the same 16 bytes both ways:
 *
 * - ULID (uuid_to_ulid, uuid_from_ulid): Crockford's base32, 26 characters
 *	 of 5 bits, the first holding 3 (26 x 5 = 130 bits: the first character
 *	 is 0 to 7).  The alphabet leaves out I, L, O and U; input is
 *	 case-insensitive and must be exactly 26 characters of the alphabet, as in
 *	 the ULID specification (no hyphens, no I/L read as 1 nor O as 0): every
 *	 key has one text, upper case, and every accepted text one key.  The
 *	 alphabet is in ASCII order, so a key's ULID sorts (in the C collation)
 *	 as the key does.
 *
 * - base32hex (uuid_to_base32hex, uuid_from_base32hex): RFC 4648's
 *	 "Extended Hex" alphabet, 0-9 A-V, 26 characters of 5 bits, the last
 *	 holding 3 and two zero bits; the text PostgreSQL 19 gives with
 *	 rtrim(encode(id::bytea, 'base32hex'), '=').  Input: case-insensitive, 26
 *	 characters with or without the six '=' of padding, the two unused bits
 *	 zero.
 *
 * Errors on input are 22P02 (invalid_text_representation).
 *
 * IDENTIFICATION
 *	  src/generators_text.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/uuid.h"

#include "generators.h"

PG_FUNCTION_INFO_V1(uuid_to_ulid);
PG_FUNCTION_INFO_V1(uuid_from_ulid);
PG_FUNCTION_INFO_V1(uuid_to_base32hex);
PG_FUNCTION_INFO_V1(uuid_from_base32hex);

/* characters of 5 bits in a 128-bit key's text */
#define TEXT_CHARS	26

static const char crockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
static const char base32hex[] = "0123456789ABCDEFGHIJKLMNOPQRSTUV";

/*
 * The 128 bits of a uuid as two 64-bit halves, and back.
 */
static void
uuid_to_halves(const pg_uuid_t *uuid, uint64 *hi, uint64 *lo)
{
	int			i;

	*hi = *lo = 0;
	for (i = 0; i < 8; i++)
	{
		*hi = (*hi << 8) | uuid->data[i];
		*lo = (*lo << 8) | uuid->data[i + 8];
	}
}

static pg_uuid_t *
uuid_from_halves(uint64 hi, uint64 lo)
{
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));
	int			i;

	for (i = 0; i < 8; i++)
	{
		uuid->data[i] = (uint8) (hi >> (56 - 8 * i));
		uuid->data[i + 8] = (uint8) (lo >> (56 - 8 * i));
	}
	return uuid;
}

/*
 * digit_at
 *		The 5 bits at bit offset pos (0 = most significant) of the 130-bit
 *		number whose top two bits are zero (ULID, shift 2) or of the 130-bit
 *		number whose bottom two bits are zero (base32hex, shift 0), given as
 *		its 128-bit part hi:lo.
 */
static int
digit_at(uint64 hi, uint64 lo, int pos, int shift)
{
	int			v = 0;
	int			b;

	for (b = pos; b < pos + 5; b++)
	{
		int			bit = b - shift;	/* bit of the 128 */
		int			one = 0;

		if (bit >= 0 && bit < 64)
			one = (hi >> (63 - bit)) & 1;
		else if (bit >= 64 && bit < 128)
			one = (lo >> (127 - bit)) & 1;
		v = (v << 1) | one;
	}
	return v;
}

/*
 * encode_text
 *		The 26-character text of a uuid in alphabet, the two bits of padding
 *		in front (shift 2: ULID) or at the end (shift 0: base32hex).
 */
static text *
encode_text(const pg_uuid_t *uuid, const char *alphabet, int shift)
{
	char		buf[TEXT_CHARS];
	uint64		hi;
	uint64		lo;
	int			i;

	uuid_to_halves(uuid, &hi, &lo);
	for (i = 0; i < TEXT_CHARS; i++)
		buf[i] = alphabet[digit_at(hi, lo, 5 * i, shift)];
	return cstring_to_text_with_len(buf, TEXT_CHARS);
}

/*
 * digit_value
 *		The value of character c in alphabet, either case, or -1.
 */
static int
digit_value(const char *alphabet, char c)
{
	const char *p;

	if (c >= 'a' && c <= 'z')
		c = c - 'a' + 'A';
	if (c == '\0')
		return -1;
	p = strchr(alphabet, c);
	return p ? (int) (p - alphabet) : -1;
}

/*
 * bad_text
 *		Raise 22P02 for the input string s, with detail.
 */
static void
bad_text(const char *form, const char *s, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid %s: \"%s\"", form, s),
			 errdetail_internal("%s", detail)));
}

/*
 * decode_text
 *		The uuid of the 26 characters of s in alphabet, the two bits of
 *		padding in front (shift 2) or at the end (shift 0), which must be
 *		zero.  The caller has checked the length.
 */
static pg_uuid_t *
decode_text(const char *s, const char *alphabet, int shift, const char *form)
{
	uint64		hi = 0;
	uint64		lo = 0;
	int			i;

	for (i = 0; i < TEXT_CHARS; i++)
	{
		int			v = digit_value(alphabet, s[i]);
		int			b;

		if (v < 0)
			bad_text(form, s, psprintf("Character %d is not one of \"%s\" (either case).", i + 1, alphabet));
		for (b = 0; b < 5; b++)
		{
			int			bit = 5 * i + b - shift;
			uint64		one = (v >> (4 - b)) & 1;

			if (bit < 0 || bit >= 128)
			{
				if (one)
					bad_text(form, s, shift ? "The first character of 26 holds 3 bits: it is 0 to 7." :
							 "The last character of 26 holds 3 bits and two zero bits.");
			}
			else if (bit < 64)
				hi |= one << (63 - bit);
			else
				lo |= one << (127 - bit);
		}
	}
	return uuid_from_halves(hi, lo);
}

/*
 * uuid_to_ulid(id uuid)
 *		The ULID text of the 16 bytes of id.
 */
Datum
uuid_to_ulid(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(encode_text(PG_GETARG_UUID_P(0), crockford, 2));
}

/*
 * uuid_from_ulid(ulid text)
 *		The uuid of the same 16 bytes as a ULID text.
 */
Datum
uuid_from_ulid(PG_FUNCTION_ARGS)
{
	char	   *s = text_to_cstring(PG_GETARG_TEXT_PP(0));

	if (strlen(s) != TEXT_CHARS)
		bad_text("ULID", s, "A ULID is 26 characters of Crockford's base32.");
	PG_RETURN_UUID_P(decode_text(s, crockford, 2, "ULID"));
}

/*
 * uuid_to_base32hex(id uuid)
 *		The base32hex text (RFC 4648, no padding) of the 16 bytes of id.
 */
Datum
uuid_to_base32hex(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(encode_text(PG_GETARG_UUID_P(0), base32hex, 0));
}

/*
 * uuid_from_base32hex(b32 text)
 *		The uuid of a base32hex text of 16 bytes, padded with '=' or not.
 */
Datum
uuid_from_base32hex(PG_FUNCTION_ARGS)
{
	char	   *s = text_to_cstring(PG_GETARG_TEXT_PP(0));
	size_t		len = strlen(s);

	if (len == TEXT_CHARS + 6 && strcmp(s + TEXT_CHARS, "======") == 0)
		s[TEXT_CHARS] = '\0';
	else if (len != TEXT_CHARS)
		bad_text("base32hex UUID", s, "A UUID in base32hex is 26 characters of 0-9 and A-V, with or without six \"=\" of padding.");
	PG_RETURN_UUID_P(decode_text(s, base32hex, 0, "base32hex UUID"));
}
