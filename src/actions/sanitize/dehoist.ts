import unhomoglyph from 'unhomoglyph';

/**
 * Drops what sits in front of a name's first letter so the name no longer sorts to the top of the
 * member list: `!!Admin`, `.bob`, `[CLAN] Bob`, `🎃 Pumpkin`, `‼️𝓑𝓸𝓫`.
 *
 * Discord does not document how it sorts the member list; dehoisting bots agree that whatever
 * comes before the letters hoists, and differ only in how much of it they list (Kreusada's
 * Dehoister `!"#$%&'()*+,-./:;<=>?@`, Skyra anything below `A` but digits, KBot digits, space and
 * ASCII punctuation up to `_`). A fixed list loses as soon as users switch to a character it does
 * not name, so this keeps a name from its first letter of any script on (an uppercase, lowercase,
 * titlecase or other letter; not a modifier letter such as `ˈ`, `ー` or the Arabic tatweel `ـ`),
 * and everything before that goes: punctuation, symbols, emoji, spaces, marks.
 *
 * Digits hoist as well (`0` sorts before `A`), but `2Pac`, `47 Ronin` and `1st Squad` are names,
 * so a leading number stays unless `digitsHoist` is true.
 *
 * A bracket or quote dropped from the front takes its partner with it (`[CLAN] Bob` becomes
 * `CLAN Bob`, not `CLAN] Bob`; `"Bob's"` becomes `Bob's`).
 */
export function dehoist(name: string, { digitsHoist = false }: { readonly digitsHoist?: boolean } = {}): string {
	const first = firstLetter(name, digitsHoist ? LETTER : LETTER_OR_NUMBER);
	if (first <= 0) return first === 0 ? name : '';
	let rest = name.slice(first);
	for (const dropped of name.slice(0, first)) {
		const partner = closerOf(dropped);
		if (partner === undefined) continue;
		const at = partner === dropped ? rest.lastIndexOf(partner) : rest.indexOf(partner);
		if (at === -1) continue;
		const between = /\S/.test(rest[at - 1] ?? ' ') && /\S/.test(rest[at + partner.length] ?? ' ');
		rest = rest.slice(0, at) + (between ? ' ' : '') + rest.slice(at + partner.length);
	}
	return rest;
}

/**
 * Where the name's first letter (or number) is, or -1: a letter that Unicode's confusables data
 * says looks like punctuation (`ǃ`, the click letter that passes for `!`, or `ꓸ` for `.`) hoists
 * as the punctuation it imitates, since that is what users swap in when `!` is blocked. A name
 * in a script that writes clicks loses its leading one; on a server's member list that trade is
 * the one dehoisting bots make.
 */
function firstLetter(name: string, letters: RegExp): number {
	let index = 0;
	for (const char of name) {
		if (letters.test(char) && !LOOKS_LIKE_PUNCTUATION.test(unhomoglyph(char))) return index;
		index += char.length;
	}
	return -1;
}

const LOOKS_LIKE_PUNCTUATION = /^[!-/:-@[-`{-~]+$/;
const LETTER = /[\p{Lu}\p{Ll}\p{Lt}\p{Lo}]/u;
const LETTER_OR_NUMBER = /[\p{Lu}\p{Ll}\p{Lt}\p{Lo}\p{N}]/u;
const OPENING = /^[\p{Ps}\p{Pi}]$/u;
const CLOSING = /^[\p{Pe}\p{Pf}]$/u;
/** Quotes that close with themselves; the last one in the name is the partner (`"Bob's"`). */
const SAME_BOTH_SIDES = new Set(['"', "'", '`']);

/**
 * The character that closes `opening`. Unicode places nearly every closing bracket or quote just
 * after its opening one (`(` `)`, `「` `」`, `“` `”`), or one further on for ASCII's `[` `]` and
 * `{` `}`; the pairs that do not follow that are named.
 */
function closerOf(opening: string): string | undefined {
	if (SAME_BOTH_SIDES.has(opening)) return opening;
	const named = NAMED_PAIRS.get(opening);
	if (named !== undefined || !OPENING.test(opening)) return named;
	const code = opening.codePointAt(0) as number;
	return [code + 1, code + 2].map((next) => String.fromCodePoint(next)).find((next) => CLOSING.test(next));
}

const NAMED_PAIRS = new Map([
	['«', '»'],
	['„', '“'],
	['‚', '‘'],
]);
