import { generatedPlainName } from './names.js';
import { hash32 } from './random.js';

/**
 * How a decorated name is made: the styles moderators meet in real servers, from "font"
 * generators (mathematical letters, fullwidth, circled, small capitals, zalgo), hoisting tricks
 * (punctuation, spaces, a click letter that looks like `!`) and names with nothing readable left.
 */
export type DecorationStyle =
	| 'mathematical-bold'
	| 'mathematical-bold-script'
	| 'fullwidth'
	| 'circled'
	| 'small-capitals'
	| 'zalgo'
	| 'hoisting-exclamation'
	| 'hoisting-dot'
	| 'hoisting-click-letter'
	| 'unreadable-stars'
	| 'unreadable-filler';

/** A member's decorated name, and what it was made from. */
export interface DecoratedName {
	style: DecorationStyle;
	/** The name as the member shows it: `𝐁𝐨𝐛`, `!!! Bob`, `★☆★`. */
	name: string;
	/**
	 * The readable name the decoration was drawn over, as a name cleaner would give it back
	 * (`Bob`; lowercase for small capitals, which generators make from lowercase text); `null` when
	 * nothing readable is in the name.
	 */
	plain: string | null;
}

const SALT_CHOSEN = 6;
const SALT_STYLE = 7;
const SALT_PLAIN = 8;
const SALT_MARKS = 9;

/** Latin small capitals by the lowercase letter they stand for; `x` has none, and generators leave it. */
const SMALL_CAPITALS: Readonly<Record<string, string>> = Object.fromEntries(
	Array.from('abcdefghijklmnopqrstuvwyz').map((letter, n) => [letter, 'ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘꞯʀꜱᴛᴜᴠᴡʏᴢ'[n]!]),
);

interface Style {
	style: DecorationStyle;
	/** Zalgo piles marks on every letter, so it is drawn over a short name to stay within Discord's 32. */
	short?: boolean;
	make(plain: string, seed: number, index: number): string;
	/** What a cleaner should give back, from the name drawn over. */
	plain(base: string): string | null;
}

const same = (base: string): string => base;

/** Equally likely, in this order (the order is part of what a seed gives). */
const STYLES: readonly Style[] = [
	{ style: 'mathematical-bold', make: (plain) => shiftLetters(plain, 0x1d400, 0x1d41a), plain: same },
	{ style: 'mathematical-bold-script', make: (plain) => shiftLetters(plain, 0x1d4d0, 0x1d4ea), plain: same },
	{ style: 'fullwidth', make: (plain) => shiftLetters(plain, 0xff21, 0xff41), plain: same },
	{ style: 'circled', make: (plain) => shiftLetters(plain, 0x24b6, 0x24d0), plain: same },
	{
		style: 'small-capitals',
		make: (plain) => Array.from(plain.toLowerCase(), (letter) => SMALL_CAPITALS[letter] ?? letter).join(''),
		plain: (base) => base.toLowerCase(),
	},
	{ style: 'zalgo', short: true, make: zalgo, plain: same },
	{ style: 'hoisting-exclamation', make: (plain) => `!!! ${plain}`, plain: same },
	{ style: 'hoisting-dot', make: (plain) => `  .${plain}`, plain: same },
	// U+01C3 LATIN LETTER RETROFLEX CLICK: a letter that looks like "!".
	{ style: 'hoisting-click-letter', make: (plain) => `\u01c3${plain}`, plain: same },
	{ style: 'unreadable-stars', make: () => '★☆★', plain: () => null },
	// U+3164 HANGUL FILLER: a letter that draws nothing, a favourite "blank" name.
	{ style: 'unreadable-filler', make: () => '\u3164', plain: () => null },
];

/** Every style a decorated name can have, in the order they are drawn. */
export const DECORATION_STYLES: readonly DecorationStyle[] = STYLES.map((style) => style.style);

/**
 * Whether the generated member at `index` has a decorated name: about `share` of them, chosen by
 * the seed and the index alone, so nothing is stored to know it.
 */
export function isDecorated(seed: number, index: number, share: number): boolean {
	return share > 0 && hash32(seed, index, SALT_CHOSEN) < share * 4_294_967_296;
}

/** The decorated name of the member at `index`, computed from the seed and the index. */
export function decoratedName(seed: number, index: number): DecoratedName {
	const style = STYLES[hash32(seed, index, SALT_STYLE) % STYLES.length]!;
	const base = generatedPlainName(seed, index, SALT_PLAIN, style.short);
	return { style: style.style, name: style.make(base, seed, index), plain: style.plain(base) };
}

/** Each ASCII letter moved to the block whose `A` is at `upper` and `a` at `lower`; the rest as it is. */
function shiftLetters(text: string, upper: number, lower: number): string {
	let shifted = '';
	for (const char of text) {
		const code = char.charCodeAt(0);
		if (code >= 65 && code <= 90) shifted += String.fromCodePoint(upper + code - 65);
		else if (code >= 97 && code <= 122) shifted += String.fromCodePoint(lower + code - 97);
		else shifted += char;
	}
	return shifted;
}

/** Three or four combining marks (U+0300–U+036F, what zalgo generators draw on) piled on every letter. */
function zalgo(plain: string, seed: number, index: number): string {
	let piled = '';
	let n = 0;
	for (const char of plain) {
		piled += char;
		if (char === ' ') continue;
		const h = hash32(seed, index, SALT_MARKS + n++);
		const marks = 3 + (h & 1);
		for (let k = 0; k < marks; k++) piled += String.fromCharCode(0x300 + ((h >>> (1 + 7 * k)) % 0x70));
	}
	return piled;
}
