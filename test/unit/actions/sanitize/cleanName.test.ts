import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanName, needsCleaning } from '../../../../src/actions/sanitize/index.js';
import { isPlainName } from '../../../../src/actions/sanitize/isPlainName.js';

/** Property runs are reproducible: a failure names this seed and the shrunk input. */
const SEED = 20_260_824;

/** Pieces that each step of the cleaning reacts to, mixed with plain letters. */
const PIECES = [
	'a',
	'B',
	'z',
	'e',
	'o',
	'x',
	'0',
	'7',
	' ',
	'  ',
	'\t',
	'\n',
	'!',
	'.',
	'-',
	'_',
	'[',
	']',
	'(',
	')',
	'{',
	'}',
	'"',
	"'",
	'«',
	'»',
	'„',
	'“',
	'\u200B',
	'\u200C',
	'\u200D',
	'\u2060',
	'\u202E',
	'\u17B5',
	'\uFEFF',
	'\u00AD',
	'\uFE0F',
	'\uFE0E',
	'\u20E3',
	'\u0301',
	'\u0308',
	'\u0323',
	'\u0336',
	'\u0332',
	'\u0489',
	'\u0E47',
	'\u0E49',
	'ส',
	'ㅤ',
	'⠀',
	'🏴',
	'\u{E0067}',
	'\u{E0062}',
	'\u{E007F}',
	'𝐁',
	'𝓈',
	'ｆ',
	'Ａ',
	'　',
	'ⓒ',
	'Ⓜ',
	'⒜',
	'⑴',
	'🅱',
	'🅐',
	'❶',
	'ᴀ',
	'ʜ',
	'ɪ',
	'Р',
	'а',
	'І',
	'Ι',
	'ο',
	'д',
	'й',
	'é',
	'ß',
	'ø',
	'ə',
	'日',
	'ㅋ',
	'한',
	'ﷺ',
	'ﷻ',
	'´',
	'²',
	'™',
	'…',
	'ـ',
	'ー',
	'م',
	'ُ',
	'ש',
	'ָ',
	'क',
	'ि',
	'👩',
	'🎃',
	'❤',
	'🇯',
	'🇵',
	'\u{1F3FB}',
	'★',
	'彡',
	'꧁',
	'༺',
	'༻',
];
const piecesOf = fc.array(fc.constantFrom(...PIECES), { maxLength: 48 }).map((pieces) => pieces.join(''));
const anyName = fc.oneof(piecesOf, fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 }));

describe('cleanName', () => {
	it.each(['alice', 'Bob Smith', 'xX_Sniper_Xx', "O'Brien", 'Jean-Luc Picard', 'bob.the.builder', 'R2-D2', '2Pac', 'a'.repeat(32)])(
		'a plain ASCII name comes back identical: %s',
		(name) => {
			expect(cleanName(name)).toBe(name);
		},
	);

	it.each([
		'José',
		'Zoë',
		'François Dupont',
		'Straße',
		'Łukasz',
		'Søren Kierkegaard',
		'Þórr',
		'Ədalət',
		'İlkay Çağrı',
		'Dvořák',
		'Nguyễn Văn An',
		'Ọlọ́run',
		'日本語',
		'李小龍',
		'やまだ たろう',
		'김민준',
		'ㅋㅋㅋ',
		'Ελληνικά',
		'Αλέξανδρος',
		'Дмитрий',
		'Иван Петров',
		'Ivan Иван',
		'Bob/Боб',
		'محمد',
		'مُحَمَّد',
		'ﷺ Ahmad',
		'שָׁלוֹם',
		'अमित',
		'தமிழ்',
		'ไทย',
		'Ali 🎃 Ba',
		'Zoë 👩‍👩‍👧',
		'Taro 🇯🇵',
		'Anna ❤️',
		'Scot 🏴󠁧󠁢󠁳󠁣󠁴󠁿',
		'Hi 1️⃣',
		'Sam 👍🏽',
	])('a legitimate name in any script comes back unchanged: %s', (name) => {
		expect(cleanName(name)).toBe(name);
	});

	it.each([
		['𝐁𝐨𝐥𝐝 𝐍𝐚𝐦𝐞', 'Bold Name'],
		['𝓈𝒸𝓇𝒾𝓅𝓉', 'script'],
		['𝕯𝖗𝖆𝖌𝖔𝖓', 'Dragon'],
		['𝔻𝕠𝕦𝕓𝕝𝕖 𝕊𝕥𝕣𝕦𝕔𝕜', 'Double Struck'],
		['𝙼𝚘𝚗𝚘', 'Mono'],
		['𝟎𝟎𝟕 Bond', '007 Bond'],
	])('mathematical alphanumerics become plain letters: %s', (name, cleaned) => {
		expect(cleanName(name)).toBe(cleaned);
	});

	it.each([
		['ｆｕｌｌ　ｗｉｄｔｈ', 'full width'],
		['Ｔｅｓｔ１２３', 'Test123'],
		['ⓒⓘⓡⓒⓛⓔ', 'circle'],
		['Ⓐⓛⓘⓒⓔ', 'Alice'],
		['🄰🄱🄲', 'ABC'],
		['⒫⒜⒭⒠⒩', 'paren'],
		['Ⓜ️ario', 'Mario'],
	])('fullwidth, circled, squared and parenthesized letters become the letter alone: %s', (name, cleaned) => {
		expect(cleanName(name)).toBe(cleaned);
	});

	it.each([
		['🅱🅻🅾🅲🅺', 'BLOCK'],
		['🅐🅛🅘🅒🅔', 'ALICE'],
		['🅱️ob', 'Bob'],
		['❶ Lucky', '1 Lucky'],
	])('negative circled and squared letters become letters, emoji style and all: %s', (name, cleaned) => {
		expect(cleanName(name)).toBe(cleaned);
	});

	it.each([
		['ᴊᴏʜɴ ꜱᴍɪᴛʜ', 'john smith'],
		['ʜᴇʟʟᴏ', 'hello'],
		['Jᴏʜɴ', 'John'],
	])('small capitals read as the lowercase letters they stand for: %s', (name, cleaned) => {
		expect(cleanName(name)).toBe(cleaned);
	});

	it.each([
		['h̴̡̛e̵͎͝ḽ̷l̶o̸', 'hello'],
		['Z̷̧̛a̶̡͝l̸̨̛g̵̢͠o̶̧͝ ̵t̸e̵x̶t̷', 'Zalgo text'],
		['J̴o̵s̶é̷', 'Jose'],
		['s̶t̶r̶i̶k̶e̶', 'strike'],
		['u̲n̲d̲e̲r̲ l̲i̲n̲e̲', 'under line'],
		['h҉e҉l҉l҉o҉', 'hello'],
		['ส็็็็็็็็็็็็็', 'ส็'],
	])('combining marks piled on as decoration come off: %s', (name, cleaned) => {
		expect(cleanName(name)).toBe(cleaned);
	});

	it.each([
		['Рaypal', 'Paypal'],
		['Аdmin', 'Admin'],
		['Gοοgle', 'Google'],
		['Іvan', 'Ivan'],
	])('look-alike Cyrillic and Greek letters inside a Latin word become Latin: %s', (name, cleaned) => {
		expect(cleanName(name)).toBe(cleaned);
	});

	it('a word written in one script is kept even when it looks Latin', () => {
		expect(cleanName('Рара')).toBe('Рара');
		expect(cleanName('ВОХ')).toBe('ВОХ');
	});

	it.each([
		['!!!Admin', 'Admin'],
		['.bob', 'bob'],
		['-_-Bob', 'Bob'],
		['~~Neo~~', 'Neo~~'],
		['¡Hola', 'Hola'],
		['ꜝAdmin', 'Admin'],
		['‼Admin', 'Admin'],
		['‼️𝓑𝓸𝓫', 'Bob'],
		['ـــAli', 'Ali'],
		['\u0301Bob', 'Bob'],
	])('whatever punctuation is in front, the name starts at its first letter: %s', (name, cleaned) => {
		expect(cleanName(name)).toBe(cleaned);
	});

	it.each([
		['🎃 Pumpkin', 'Pumpkin'],
		['★ Ｓａｋｕｒａ ★', 'Sakura ★'],
		['꧁༺ Kira ༻꧂', 'Kira ꧂'],
	])('emoji and symbols in front are dropped while those after the first letter stay: %s', (name, cleaned) => {
		expect(cleanName(name)).toBe(cleaned);
	});

	it.each([
		['\u200BInvisible', 'Invisible'],
		['\u2060\uFEFFBob', 'Bob'],
		['\u17B5Bob', 'Bob'],
		['ㅤㅤBob', 'Bob'],
		['\u202EBob', 'Bob'],
		['Bo\u200Bb', 'Bob'],
		['Bobㅤㅤㅤ', 'Bob'],
		['Bobㅤㅤㅤ Smith', 'Bob Smith'],
	])('invisible and blank characters neither hoist nor pad: %j', (name, cleaned) => {
		expect(cleanName(name)).toBe(cleaned);
	});

	it.each([
		['[CLAN] Bob', 'CLAN Bob'],
		['[CLAN]Bob', 'CLAN Bob'],
		['(Bob)', 'Bob'],
		['「ユキ」', 'ユキ'],
		['"Bob\'s"', "Bob's"],
		['„Hans“', 'Hans'],
		['«Léa»', 'Léa'],
	])('a bracket or quote dropped from the front takes its partner along: %s', (name, cleaned) => {
		expect(cleanName(name)).toBe(cleaned);
	});

	it('leading digits stay unless they are set to hoist', () => {
		expect(cleanName('007 Bond')).toBe('007 Bond');
		expect(cleanName('007 Bond', { dehoistDigits: true })).toBe('Bond');
		expect(cleanName('𝟎𝟎𝟕 Bond', { dehoistDigits: true })).toBe('Bond');
		expect(cleanName('12345', { dehoistDigits: true })).toBeUndefined();
	});

	it.each(['', '   ', '!!!', '...', 'ㅤ', '⠀⠀⠀', '\u200B\u200B', '🎃🎃', '★☆★', '\u0336\u0336'])('a name with nothing readable gives undefined: %j', (name) => {
		expect(cleanName(name)).toBeUndefined();
	});

	it('whitespace is trimmed and collapsed as Discord does', () => {
		expect(cleanName('  Bob     Smith \t\n')).toBe('Bob Smith');
	});

	it('a long name is cut to 32 code points, never inside an emoji', () => {
		expect(cleanName('𝐀'.repeat(40))).toBe('A'.repeat(32));
		expect(cleanName(`${'a'.repeat(30)}👩‍👩‍👧`)).toBe('a'.repeat(30));
		expect(cleanName(`${'a'.repeat(31)}🇯🇵`)).toBe('a'.repeat(31));
		expect(cleanName('Ａｌｉｃｅ　ｏｆ　ｔｈｅ　Ｆａｒ　Ｅａｓｔ　Ｗｏｎｄｅｒｌａｎｄ')).toBe('Alice of the Far East Wonderland');
		expect(cleanName('Alice Wonderland', { maxLength: 8 })).toBe('Alice Wo');
	});

	it('a rerun changes nothing: cleanName(cleanName(x)) === cleanName(x)', () => {
		fc.assert(
			fc.property(anyName, (name) => {
				const cleaned = cleanName(name);
				if (cleaned !== undefined) expect(cleanName(cleaned)).toBe(cleaned);
			}),
			{ seed: SEED, numRuns: 3_000 },
		);
	});

	it('what comes out fits Discord and starts with a letter or number', () => {
		fc.assert(
			fc.property(anyName, (name) => {
				const cleaned = cleanName(name);
				if (cleaned === undefined) return;
				expect(Array.from(cleaned).length).toBeLessThanOrEqual(32);
				expect(cleaned).toBe(cleaned.trim());
				expect(cleaned).toMatch(/^[\p{Lu}\p{Ll}\p{Lt}\p{Lo}\p{N}]/u);
				expect(cleaned).not.toMatch(/\s\s|\u200B|\u202E/u);
			}),
			{ seed: SEED, numRuns: 2_000 },
		);
	});

	it('the plain-name shortcut skips only names the full cleaning would keep', () => {
		// An invisible character in front sends the name through every step, which must give it back.
		fc.assert(
			fc.property(fc.string({ unit: 'binary-ascii', maxLength: 40 }), (name) => {
				if (isPlainName(name)) expect(cleanName(`\u200B${name}`)).toBe(name);
			}),
			{ seed: SEED, numRuns: 3_000 },
		);
	});
});

describe('needsCleaning', () => {
	it('is false for a plain name and for what cleanName returns', () => {
		expect(needsCleaning('alice')).toBe(false);
		expect(needsCleaning('José')).toBe(false);
		expect(needsCleaning(cleanName('𝐁𝐨𝐥𝐝 𝐍𝐚𝐦𝐞') as string)).toBe(false);
	});

	it('is true for a decorated or hoisted name, and for one with nothing readable', () => {
		expect(needsCleaning('𝐁𝐨𝐥𝐝')).toBe(true);
		expect(needsCleaning('!alice')).toBe(true);
		expect(needsCleaning('ㅤ')).toBe(true);
	});

	it('follows the options', () => {
		expect(needsCleaning('007 Bond')).toBe(false);
		expect(needsCleaning('007 Bond', { dehoistDigits: true })).toBe(true);
		expect(needsCleaning('Alice Wonderland', { maxLength: 8 })).toBe(true);
	});

	it('agrees with cleanName on any name', () => {
		fc.assert(
			fc.property(anyName, (name) => {
				expect(needsCleaning(name)).toBe(cleanName(name) !== name);
			}),
			{ seed: SEED, numRuns: 1_000 },
		);
	});
});
