/**
 * Takes off combining marks used as decoration rather than spelling: zalgo (`h̴̡̛e̵͎͝ḽ̷l̶o̸`),
 * strikethrough and underline styles (`s̶t̶r̶i̶k̶e̶`, `u̲n̲d̲e̲r̲`), and one mark repeated to tower
 * over the line (`ส็็็็็็็`, a Thai mark stacked dozens of times).
 *
 * A mark repeated on the same letter is always decoration, so the repeats go everywhere. The
 * generic combining blocks (Combining Diacritical Marks and its supplements, the marks for symbols,
 * half marks), which every zalgo generator draws on, are judged per word: a word is decorated when
 * one letter carries three or more of them, or when three or more letters and at least three in
 * four carry one. No orthography does that once the text is composed (NFC): Vietnamese and French
 * accents compose into single letters, and a Yoruba or Navajo word leaves only a few letters with
 * a loose tone mark. In a decorated word every generic mark goes, accents included (`J̴o̵s̶é̷`
 * becomes `Jose`: a random zalgo mark often composes into a real accent, and `hello` reads better
 * than `ĥèḽḽő`). Marks of a script's own block (Arabic harakat, Hebrew points, Indic vowel signs,
 * Thai tone marks) are never counted or removed, nor is the keycap mark of `1️⃣`.
 *
 * @see https://www.unicode.org/charts/PDF/U0300.pdf
 */
export function stripPiledMarks(name: string): string {
	if (!MARK.test(name)) return name;
	const unrepeated = name.replace(REPEATED_MARK, '$1');
	if (!GENERIC_MARK.test(unrepeated)) return unrepeated;
	return unrepeated.replace(WORD, (word) => (isDecorated(word) ? withoutGenericMarks(word) : word));
}

/** The generic combining blocks, and the Cyrillic enclosing signs (҈ ҉) zalgo also uses. */
const GENERIC_MARK_CLASS = '[\\u0300-\\u036F\\u0488\\u0489\\u1AB0-\\u1AFF\\u1DC0-\\u1DFF\\u20D0-\\u20FF\\uFE20-\\uFE2F]';
const GENERIC_MARK = new RegExp(GENERIC_MARK_CLASS, 'u');
const GENERIC_MARKS = new RegExp(GENERIC_MARK_CLASS, 'gu');
const REPEATED_MARK = /(\p{M})\1+/gu;
const WORD = /\S+/gu;
const KEYCAP = '\u20E3';
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const MARK = /\p{M}/u;

function isDecorated(word: string): boolean {
	let letters = 0;
	let marked = 0;
	let onThisLetter = 0;
	for (const point of word) {
		if (point !== KEYCAP && GENERIC_MARK.test(point)) {
			onThisLetter++;
			if (onThisLetter === 1) marked++;
			if (onThisLetter >= 3) return true;
		} else if (!MARK.test(point)) {
			if (LETTER_OR_DIGIT.test(point)) letters++;
			onThisLetter = 0;
		}
	}
	return marked >= 3 && marked * 4 >= letters * 3;
}

function withoutGenericMarks(word: string): string {
	return word
		.normalize('NFD')
		.replace(GENERIC_MARKS, (mark) => (mark === KEYCAP ? mark : ''))
		.normalize('NFC');
}
