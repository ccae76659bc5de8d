/**
 * Takes out what shows nothing: Unicode's Default_Ignorable_Code_Point set (zero-width spaces,
 * bidi controls such as the right-to-left override, the soft hyphen, Khmer's invisible vowels
 * U+17B4/U+17B5), control characters and lone surrogates; and turns the characters people type as
 * a visible-but-blank space (the Hangul fillers, the blank Braille pattern) into a space.
 *
 * Discord's docs say only that "some zero-width and non-rendering characters" are limited in names;
 * in practice many get through, and they are how a name is hoisted without showing it (an
 * invisible first character sorts before every letter) or made to look blank.
 *
 * What an invisible character does for a visible one stays: a zero-width joiner or non-joiner
 * between two visible characters (emoji sequences such as 👩‍👩‍👧, Persian and Indic spelling), a
 * variation selector after a visible character (❤️), and the tag characters that follow 🏴 in a
 * subdivision flag.
 *
 * @see https://www.unicode.org/reports/tr44/#Default_Ignorable_Code_Point
 * @see https://discord.com/developers/docs/resources/user#usernames-and-nicknames
 */
export function removeInvisibles(name: string): string {
	if (!ANY_TO_REMOVE.test(name)) return name;
	const kept: string[] = [];
	const points = Array.from(name);
	for (let i = 0; i < points.length; i++) {
		const point = points[i] as string;
		const previous = kept.at(-1);
		if (BLANK_LOOKING.test(point) || WHITESPACE_CONTROL.test(point)) {
			kept.push(' ');
		} else if (JOIN_CONTROL.test(point)) {
			if (isVisible(previous) && isVisible(points[i + 1])) kept.push(point);
		} else if (VARIATION_SELECTOR.test(point)) {
			if (isVisible(previous)) kept.push(point);
		} else if (TAG.test(point)) {
			if (previous === BLACK_FLAG || (previous !== undefined && TAG.test(previous))) kept.push(point);
		} else if (!INVISIBLE.test(point)) {
			kept.push(point);
		}
	}
	return kept.join('');
}

/** Letters and symbols that draw an empty box's worth of nothing; used in place of spaces. */
const BLANK_LOOKING = /^[\u115F\u1160\u3164\uFFA0\u2800]$/u;
const WHITESPACE_CONTROL = /^[\t\n\v\f\r\u0085]$/u;
const JOIN_CONTROL = /^\p{Join_Control}$/u;
const VARIATION_SELECTOR = /^\p{Variation_Selector}$/u;
/** The tag characters of emoji tag sequences (🏴 + tags + cancel tag). */
const TAG = /^[\u{E0020}-\u{E007F}]$/u;
const BLACK_FLAG = '\u{1F3F4}';
const INVISIBLE = /^[\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cs}]$/u;
/** Whether anything at all is to be done: the blank-looking ones are Default_Ignorable too, but U+2800. */
const ANY_TO_REMOVE = /[\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cs}\u2800]/u;

function isVisible(point: string | undefined): boolean {
	return point !== undefined && point !== ' ' && !/^[\s\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cs}\u2800]$/u.test(point);
}
