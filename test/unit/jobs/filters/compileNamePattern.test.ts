import { describe, expect, it } from 'vitest';
import { ErrorCodes, JobError } from '../../../../src/errors.js';
import { compileNamePattern, MAX_NAME_PATTERN_LENGTH } from '../../../../src/jobs/filters/compileNamePattern.js';

function refusal(text: string): JobError {
	try {
		compileNamePattern(text);
	} catch (error) {
		expect(error).toBeInstanceOf(JobError);
		expect((error as JobError).code).toBe(ErrorCodes.InvalidArgument);
		return error as JobError;
	}
	throw new Error(`${text} was accepted`);
}

describe('compileNamePattern', () => {
	it('plain text is a substring, whatever the case', () => {
		const matches = compileNamePattern('bot');
		expect(matches('RoboTed')).toBe(true);
		expect(matches('Robert')).toBe(false);
		expect(matches('MusicBOT')).toBe(true);
		expect(matches('botanist')).toBe(true);
		expect(matches('b-o-t')).toBe(false);
	});

	it("a substring's special characters are only characters", () => {
		const matches = compileNamePattern('a.b*(c');
		expect(matches('xa.b*(cx')).toBe(true);
		expect(matches('axbbbc')).toBe(false);
		expect(compileNamePattern('/r')('/r/discord')).toBe(true);
	});

	it('a substring folds case beyond ASCII', () => {
		expect(compileNamePattern('ÉLODIE')('élodie_')).toBe(true);
		expect(compileNamePattern('σ')('ΣΙΓΜΑ')).toBe(true);
	});

	it('/pattern/ is a regular expression, case-sensitive unless i is given', () => {
		expect(compileNamePattern('/^bot/')('botanist')).toBe(true);
		expect(compileNamePattern('/^bot/')('Botanist')).toBe(false);
		expect(compileNamePattern('/^bot/i')('Botanist')).toBe(true);
		expect(compileNamePattern('/^[a-z]+\\d{2,}$/')('user42')).toBe(true);
		expect(compileNamePattern('/^[a-z]+\\d{2,}$/')('user4')).toBe(false);
	});

	it("takes JavaScript's syntax: escaped slashes, named groups, code point escapes", () => {
		expect(compileNamePattern('/^\\/r\\//')('/r/discord')).toBe(true);
		expect(compileNamePattern('/(?<word>ab)+/')('xabab')).toBe(true);
		expect(compileNamePattern('/\\u{1F600}/u')('hi 😀')).toBe(true);
		expect(compileNamePattern('/^\\p{Lu}/u')('Élodie')).toBe(true);
	});

	it('(a+)+$ on a long run of a ending in b answers, where a backtracking engine would stall', () => {
		const matches = compileNamePattern('/(a+)+$/');
		expect(matches(`${'a'.repeat(10_000)}b`)).toBe(false);
		expect(matches(`${'a'.repeat(10_000)}`)).toBe(true);
		expect(compileNamePattern('/^(a|aa)+$/')(`${'a'.repeat(5_000)}!`)).toBe(false);
	});

	it('refuses lookaround and backreferences, saying why', () => {
		expect(refusal('/a(?=b)/').message).toMatch(/\/a\(\?=b\)\/ is not a regular expression massnick can run: .*`\(\?=`.*lookaround/);
		expect(refusal('/(?<!a)b/').message).toContain('lookaround and backreferences');
		expect(refusal('/(a)\\1/').message).toContain('`\\1`');
	});

	it('names what is wrong with a broken regular expression', () => {
		expect(refusal('/(ab/').message).toBe('/(ab/ is not a regular expression massnick can run: missing closing ): `(ab`.');
		expect(refusal('/[z-a]/').message).toContain('invalid character class range: `z-a`');
		expect(refusal('/a{1001}/').message).toContain('invalid repeat count');
	});

	it('refuses flags that mean nothing for a name, and says how to look for slashes', () => {
		const error = refusal('/r/discord');
		expect(error.message).toContain('the flag "d"');
		expect(error.message).toContain('/\\/r\\/discord/i');
		expect(refusal('/x/g').message).toContain('the flag "g"');
		expect(compileNamePattern('/a.b/siu')('A\nB')).toBe(true);
	});

	it('refuses an empty pattern, which would match everyone', () => {
		expect(refusal('').message).toContain('empty');
		expect(refusal('//').message).toContain('empty regular expression');
	});

	it('refuses a pattern longer than the limit before compiling it', () => {
		expect(refusal('x'.repeat(MAX_NAME_PATTERN_LENGTH + 1)).message).toContain(`at most ${MAX_NAME_PATTERN_LENGTH}`);
		expect(compileNamePattern('x'.repeat(MAX_NAME_PATTERN_LENGTH))('x'.repeat(MAX_NAME_PATTERN_LENGTH))).toBe(true);
	});
});
