import fc from 'fast-check';

/**
 * Discord's limit on a string option's value (without a `max_length` of its own), in characters.
 * @see https://discord.com/developers/docs/interactions/application-commands#application-command-object-application-command-option-structure
 */
export const DISCORD_STRING_OPTION_MAX = 6000;

/** Whitespace of every kind, and the invisible characters that are not whitespace to `\s`. */
const BLANKS = [' ', '\t', '\n', '\r', '\u00a0', '\u1680', '\u2003', '\u2028', '\u2029', '\u202f', '\u3000', '\ufeff', '\u200b', '\u200c', '\u200d', '\u2060'];

/** What a template may hold besides text: every placeholder, escaped and broken braces. */
const TEMPLATE_BITS = [
	'{username}',
	'{display_name}',
	'{nick}',
	'{id}',
	'{{',
	'}}',
	'{',
	'}',
	'{}',
	'{ nick }',
	'{Display Name}',
	'{display-name}',
	'{NICK}',
	'{unknown}',
	'{{nick}}',
	'{{{nick}}}',
];

/**
 * Mentions of a role and of a member, by ids no guild has: a test swaps in real ones (a
 * mentionable role, the owner) to see that nothing the bots post pings anyone.
 */
export const ROLE_MENTION = '<@&281552675818965825>';
export const USER_MENTION = '<@123>';

/** Text that has broken bots before: mentions, markdown, direction marks, zalgo, long graphemes. */
const SPICE = [
	'@everyone',
	'@here',
	ROLE_MENTION,
	USER_MENTION,
	'<#1>',
	'</massnick:1>',
	'**',
	'`',
	'```',
	'||',
	'\\',
	'"',
	"'",
	// A template literal's placeholder, as text: what a user may paste into a name.
	// biome-ignore lint/suspicious/noTemplateCurlyInString: the text itself is the case
	'${x}',
	'%s',
	'\u202e', // right-to-left override
	'\u200f', // right-to-left mark
	'\u2066', // left-to-right isolate
	'\u061c', // Arabic letter mark
	'Z\u0351\u0307\u0310\u0361\u0334\u0358\u0337\u0335\u0489a\u0336\u0321\u0322\u0338l\u0334\u035cg\u0336o\u0335', // zalgo
	'\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301', // 33 marks, nothing to sit on
	'👨‍👩‍👧‍👦', // one grapheme, seven code points
	'🏳️‍🌈',
	'🇺🇳',
	'🎃',
	'\ufdfd', // the widest glyph
	'Ｆｕｌｌ',
	'\u0000',
	'\u0007',
	'\u001b[31m',
	'\ud83d\ude00',
	'\u{10ffff}',
	'\ufffd',
	'\ufe0f',
];

type Unit = 'binary' | 'grapheme' | 'grapheme-composite' | 'binary-ascii' | 'grapheme-ascii';
const UNITS: readonly Unit[] = ['binary', 'grapheme', 'grapheme-composite', 'binary-ascii', 'grapheme-ascii'];

/** Lengths where limits sit: Discord's 32 for a nickname, 100 for the commands' options, 6,000 for any string option. */
const EDGE_LENGTHS = [0, 1, 2, 31, 32, 33, 99, 100, 101, 2000, DISCORD_STRING_OPTION_MAX - 1, DISCORD_STRING_OPTION_MAX];

/** Any well-formed string of exactly `length` units (code points, or graphemes) of one class. */
function exactly(length: number): fc.Arbitrary<string> {
	return fc.constantFrom(...UNITS).chain((unit) => fc.string({ unit, minLength: length, maxLength: length }));
}

/**
 * Text a user could type into a string option or a flag: every Unicode class (well-formed UTF-16:
 * JSON, and so Discord, cannot carry a lone surrogate), whitespace only, placeholders only, the
 * mentions and marks that trip up bots, and lengths at every limit up to `maxLength` (default
 * Discord's 6,000).
 */
export function hostileText(maxLength = DISCORD_STRING_OPTION_MAX): fc.Arbitrary<string> {
	const lengths = EDGE_LENGTHS.filter((length) => length <= maxLength);
	const piece = fc.oneof(
		{ arbitrary: fc.constantFrom(...TEMPLATE_BITS), weight: 3 },
		{ arbitrary: fc.constantFrom(...SPICE), weight: 3 },
		{ arbitrary: fc.constantFrom(...BLANKS), weight: 2 },
		{ arbitrary: fc.constantFrom(...UNITS).chain((unit) => fc.string({ unit, maxLength: 12 })), weight: 3 },
	);
	return fc
		.oneof(
			// Short mixes of everything: where the edge cases meet.
			{ arbitrary: fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join('')), weight: 6 },
			{ arbitrary: fc.constantFrom(...UNITS).chain((unit) => fc.string({ unit, maxLength: 40 })), weight: 3 },
			{ arbitrary: fc.array(fc.constantFrom(...BLANKS), { maxLength: 8 }).map((blanks) => blanks.join('')), weight: 1 },
			{ arbitrary: fc.array(fc.constantFrom(...TEMPLATE_BITS.slice(0, 4)), { minLength: 1, maxLength: 40 }).map((parts) => parts.join('')), weight: 1 },
			{ arbitrary: fc.constantFrom(...lengths).chain(exactly), weight: 2 },
			// A placeholder buried in long text, so a check that only looks at the start or the end misses it.
			{
				arbitrary: fc
					.tuple(fc.constantFrom(...lengths), fc.constantFrom(...TEMPLATE_BITS))
					.chain(([length, bit]) => exactly(Math.max(0, Math.floor((length - bit.length) / 2))).map((half) => `${half}${bit}${half}`)),
				weight: 1,
			},
		)
		.map((text) => cutToCodePoints(text, maxLength));
}

/** `text` cut to `maxLength` code points (never inside a surrogate pair). */
export function cutToCodePoints(text: string, maxLength: number): string {
	const points = Array.from(text);
	return points.length <= maxLength ? text : points.slice(0, maxLength).join('');
}

/** How long `text` is in code points, as Discord measures option values and nicknames. */
export function codePoints(text: string): number {
	return Array.from(text).length;
}
