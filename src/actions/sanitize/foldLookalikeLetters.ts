import unhomoglyph from 'unhomoglyph';

/**
 * Spells Latin words that borrow look-alike letters from another script (`Рaypal` with a Cyrillic
 * Р, `Аdmin` with a Cyrillic А, `Gοοgle` with Greek omicrons) in Latin letters only.
 *
 * A word is folded only when it is mixed: it has Latin letters, and every letter it has of another
 * script looks like a Latin letter in Unicode's confusables data (through `unhomoglyph`). A word in
 * one script is left alone, whatever it looks like (`Дмитрий`, `Ελληνικά`, even `Рара`), and so is
 * a mixed word with a letter that looks like nothing Latin (`Bob/Боб`): that is someone writing two
 * scripts, not disguising one. This is UTS #39's mixed-script confusable test, applied to words
 * rather than whole names so that `Ivan Иван` keeps both.
 *
 * @see https://www.unicode.org/reports/tr39/#Mixed_Script_Confusables
 */
export function foldLookalikeLetters(name: string): string {
	if (!LATIN_LETTER.test(name) || !OTHER_SCRIPT_LETTER.test(name)) return name;
	return name.replace(WORD, foldWord);
}

const WORD = /\S+/gu;
const LATIN_LETTER = /\p{Script=Latin}/u;
const OTHER_SCRIPT_LETTER = /[^\P{L}\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;
const OTHER_SCRIPT_LETTERS = /[^\P{L}\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/gu;

function foldWord(word: string): string {
	if (!LATIN_LETTER.test(word) || !OTHER_SCRIPT_LETTER.test(word)) return word;
	const letters = word.match(OTHER_SCRIPT_LETTERS) ?? [];
	if (!letters.every((letter) => latinLookalike(letter) !== undefined)) return word;
	return word.replace(OTHER_SCRIPT_LETTERS, (letter) => latinLookalike(letter) ?? letter);
}

const memo = new Map<string, string | null>();

/**
 * The Latin letter `letter` is confusable with, if one. The confusables "skeleton" stands for
 * I, l and 1 with `l`; an uppercase letter of that shape (Cyrillic І, Greek Ι) reads as `I`.
 */
function latinLookalike(letter: string): string | undefined {
	let lookalike = memo.get(letter);
	if (lookalike === undefined) {
		const skeleton = unhomoglyph(letter);
		lookalike = /^[A-Za-z]$/.test(skeleton) ? skeleton : null;
		if (lookalike === 'l' && letter !== letter.toLowerCase()) lookalike = 'I';
		memo.set(letter, lookalike);
	}
	return lookalike ?? undefined;
}
