import { describe, expect, it } from 'vitest';
import { ErrorCodes, JobError } from '../../../../src/errors.js';
import { decodeIdFile } from '../../../../src/jobs/filters/decodeIdFile.js';
import { checkIdFileSize, MAX_ID_FILE_BYTES } from '../../../../src/jobs/filters/idFileSize.js';
import { MAX_LISTED_IDS, parseIdList } from '../../../../src/jobs/filters/parseIdList.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');
/** Discord's documented example id (2016-04-30), and two later ones, in order of value. */
const A = '175928847299117063';
const B = '980000000000000001';
const C = '1250000000000000002';

const parse = (text: string) => parseIdList(text, { now: NOW });

function refusal(text: string): JobError {
	try {
		parse(text);
	} catch (error) {
		expect(error).toBeInstanceOf(JobError);
		expect((error as JobError).code).toBe(ErrorCodes.InvalidArgument);
		return error as JobError;
	}
	throw new Error(`${JSON.stringify(text.slice(0, 80))} was accepted`);
}

describe('parseIdList reads the files moderators export', () => {
	const cases: ReadonlyArray<readonly [string, string, readonly string[]]> = [
		['one id a line', `${A}\n${B}\n${C}\n`, [A, B, C]],
		['Windows line ends and a byte order mark', `\uFEFF${A}\r\n${B}\r\n`, [A, B]],
		['old Mac line ends', `${A}\r${B}`, [A, B]],
		['commas, semicolons and spaces', `${A}, ${B};${C}`, [A, B, C]],
		['tabs and several separators', `${A}\t\t${B} ,; ${C}`, [A, B, C]],
		['mentions', `<@${A}> <@!${B}>`, [A, B]],
		['quoted ids', `"${A}", '${B}'`, [A, B]],
		['blank lines and comments', `# raid of 1 June\n\n${A}\n   \n  # ${B} was a mistake\n${C} # the ringleader\n`, [A, C]],
		['sorted by value, not by text', `${C}\n${A}\n${B}`, [A, B, C]],
		['a CSV with a User ID column', `Username,User ID,Joined\nalice#1234,${B},2026-05-31\nbob,${A},2026-05-31`, [A, B]],
		['a CSV column named user_id', `name;user_id\nalice;${C}\nbob;${A}`, [A, C]],
		['a CSV column named id among others with ids', `message_id,id\n${C},${A}`, [A]],
		['user id is preferred to a bare id column', `id,user id\n${C},${B}`, [B]],
		['a CSV whose id column is not named: the first holding ids', `Name,Account,Note\nalice,${A},x\nbob,${B},"says ""hi"", twice"`, [A, B]],
		['a CSV with quoted fields holding commas and line breaks', `"User ID","Name"\n"${A}","Smith, Jo"\n"${B}","two\nlines"\n${C},x`, [A, B, C]],
		['a tab-separated export', `User ID\tName\n${A}\talice\n${B}\tbob`, [A, B]],
		['a CSV with empty id cells and blank rows', `id,name\n${A},a\n,b\n\n${B},c`, [A, B]],
		['a CSV with mentions in its id column', `User,id\nalice,<@${A}>`, [A]],
		['a one-column CSV', `user_id\n${A}\n${B}\n`, [A, B]],
	];
	for (const [what, text, ids] of cases) {
		it(what, () => {
			expect(parse(text).ids).toEqual(ids);
		});
	}

	it('counts an id given twice once, and says how many repeats it dropped', () => {
		expect(parse(`${A}\n${B}\n<@${A}>\n${A}`)).toEqual({ ids: [A, B], duplicates: 2 });
	});
});

describe('parseIdList refuses what is not a user id, naming the line and the entry', () => {
	const cases: ReadonlyArray<readonly [string, string, string]> = [
		['a word', `${A}\nalice\n${B}`, 'line 2 “alice”'],
		['too short a number', `${A}\n1234567890123456`, 'line 2 “1234567890123456”'],
		['too long a number', `${A} 123456789012345678901`, 'line 1 “123456789012345678901”'],
		['beyond 64 bits', '18446744073709551616', 'line 1 “18446744073709551616”'],
		['a leading zero', '0175928847299117063', 'line 1 “0175928847299117063”'],
		['an id from the future', '9223372036854775807', 'line 1 “9223372036854775807”'],
		['a role mention', `<@&${A}>`, `line 1 “<@&${A}>”`],
		['a channel mention', `${A}\n<#${B}>`, `line 2 “<#${B}>”`],
		['a name beside an id without a header', `${A},alice`, 'line 1 “alice”'],
		['a bad entry in a CSV id column', `name,id\nalice,${A}\nbob,bob#0001`, 'line 3 “bob#0001”'],
	];
	for (const [what, text, named] of cases) {
		it(what, () => {
			const error = refusal(text);
			expect(error.message).toContain(named);
			expect(error.message).toContain('17 to 20 digits');
		});
	}

	it('names the CSV column it read', () => {
		expect(refusal(`Name,User ID\nalice,nope`).message).toContain('in the column “User ID”');
	});

	it('shows at most five mistakes and counts the rest', () => {
		const lines = Array.from({ length: 9 }, (_, i) => `bad${i}`);
		const error = refusal([A, ...lines].join('\n'));
		expect(error.message).toContain(
			'has 9 entries that are not user ids: line 2 “bad0”, line 3 “bad1”, line 4 “bad2”, line 5 “bad3”, line 6 “bad4” and 4 more.',
		);
		expect(error.message).not.toContain('bad5');
		expect(error.context.mistakes).toHaveLength(5);
	});

	it('cuts a long entry short and shows control characters', () => {
		const error = refusal(`${'x'.repeat(100)}\u0007 ${A}`);
		expect(error.message).toContain(`“${'x'.repeat(40)}…”`);
		expect(refusal(`a\u0007b ${A}`).message).toContain('“a\\u0007b”');
	});

	it('refuses a file with no id', () => {
		for (const text of ['', '\n\n', '# only a comment\n', 'id,name\n']) expect(refusal(text).message).toMatch(/^holds no user id\./);
	});

	it('refuses a CSV whose header names no id column and whose columns hold none', () => {
		expect(refusal('name,note\nalice,x\n').message).toContain('starts with the header row “name,note” (line 1), but no column is named id');
	});

	it(`refuses more than ${MAX_LISTED_IDS.toLocaleString('en-US')} ids, saying to split the file`, () => {
		const base = 1_000_000_000_000_000_000n;
		const ids = Array.from({ length: MAX_LISTED_IDS + 1 }, (_, i) => String(base + BigInt(i)));
		expect(parse(ids.slice(0, MAX_LISTED_IDS).join('\n')).ids).toHaveLength(MAX_LISTED_IDS);
		expect(refusal(ids.join('\n')).message).toContain('holds 100,001 user ids; one job takes at most 100,000. Split the file');
	});

	it(`refuses a text longer than ${MAX_ID_FILE_BYTES / 1024 / 1024} MB`, () => {
		expect(refusal(`${A}\n`.repeat(MAX_ID_FILE_BYTES / 19 + 1)).message).toMatch(/^is 4\.0 MB; a file of ids may be at most 4 MB\. .*split the file/);
	});
});

describe('decodeIdFile and checkIdFileSize', () => {
	it('reads UTF-8 with or without its byte order mark, and UTF-16 with one', () => {
		const text = `User ID,Name\n${A},Zoë`;
		expect(decodeIdFile(new TextEncoder().encode(text))).toBe(text);
		expect(decodeIdFile(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]))).toBe(text);
		const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
		expect(decodeIdFile(utf16)).toBe(text);
		const utf16be = Buffer.from(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]));
		expect(decodeIdFile(utf16be)).toBe(text);
	});

	it('refuses a file that is not text', () => {
		const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00, 0xff, 0xd8]);
		expect(() => decodeIdFile(zip)).toThrow(/is not a text file \(UTF-8 or UTF-16\)/);
		expect(() => decodeIdFile(new Uint8Array([0xc3, 0x28]))).toThrow(/is not a text file/);
	});

	it('refuses more bytes than the bound, before reading them', () => {
		expect(() => checkIdFileSize(MAX_ID_FILE_BYTES)).not.toThrow();
		expect(() => checkIdFileSize(MAX_ID_FILE_BYTES + 1)).toThrow(/^is 4\.0 MB; a file of ids may be at most 4 MB/);
		expect(() => checkIdFileSize(25 * 1024 * 1024)).toThrow(/^is 25\.0 MB/);
	});
});
