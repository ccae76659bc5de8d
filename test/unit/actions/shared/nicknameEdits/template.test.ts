import { describe, expect, it } from 'vitest';
import { ErrorCodes, JobError } from '../../../../../src/errors.js';
import {
	expandTemplate,
	fitNickname,
	isExpansionOf,
	normalizeNickname,
	parseTemplate,
	templateIsPlain,
	templateUses,
} from '../../../../../src/actions/shared/nicknameEdits/index.js';

const alice = { id: '175928847299117063', username: 'alice', globalName: 'Alice W.', nick: 'ally' };
const bob = { id: '81384788765712384', username: 'bob', globalName: null, nick: null };

function codeOf(fn: () => unknown): string | undefined {
	try {
		fn();
	} catch (error) {
		expect(error).toBeInstanceOf(JobError);
		return (error as JobError).code;
	}
	return undefined;
}

function messageOf(fn: () => unknown): string {
	try {
		fn();
	} catch (error) {
		return (error as Error).message;
	}
	throw new Error('expected a throw');
}

describe('parseTemplate', () => {
	it('splits text and placeholders', () => {
		expect(parseTemplate('🎃 {display_name}!').parts).toEqual([
			{ type: 'text', text: '🎃 ' },
			{ type: 'placeholder', name: 'display_name' },
			{ type: 'text', text: '!' },
		]);
	});

	it('{{ and }} are literal braces', () => {
		const template = parseTemplate('{{team}} {username}');
		expect(template.parts[0]).toEqual({ type: 'text', text: '{team} ' });
		expect(expandTemplate(template, bob)).toBe('{team} bob');
	});

	it('keeps the source as written', () => {
		expect(parseTemplate('  a   b ').source).toBe('  a   b ');
	});

	it('an unknown placeholder is named, with the ones that exist', () => {
		const message = messageOf(() => parseTemplate('x {name}'));
		expect(message).toContain('{name}');
		expect(message).toContain('{username}, {display_name}, {nick}, {id}');
		expect(codeOf(() => parseTemplate('x {name}'))).toBe(ErrorCodes.TemplateInvalid);
	});

	it('a placeholder in the wrong case suggests the right one', () => {
		expect(messageOf(() => parseTemplate('{Display-Name}'))).toContain('Did you mean {display_name}?');
	});

	it.each([
		['{username', /never closed \(at character 1\)/],
		['a {nick {id}', /never closed \(at character 3\)/],
		['a } b', /'}' with no '{' before it \(at character 3\)/],
		['{}', /\{\} which is not|uses \{\}/],
	])('%j is refused as invalid', (text, pattern) => {
		expect(codeOf(() => parseTemplate(text))).toBe(ErrorCodes.TemplateInvalid);
		expect(messageOf(() => parseTemplate(text))).toMatch(pattern);
	});

	it('a plain name of 33 code points is refused, saying the length and the limit', () => {
		const name = 'x'.repeat(33);
		expect(codeOf(() => parseTemplate(name))).toBe(ErrorCodes.NameTooLong);
		expect(messageOf(() => parseTemplate(name))).toBe('The name is 33 characters; Discord allows at most 32.');
	});

	it('a plain name of 32 emoji is accepted: each is one code point', () => {
		expect(templateIsPlain(parseTemplate('🎃'.repeat(32)))).toBe(true);
		expect(codeOf(() => parseTemplate('🎃'.repeat(33)))).toBe(ErrorCodes.NameTooLong);
	});

	it('a plain name is measured after Discord trims and collapses whitespace', () => {
		expect(() => parseTemplate(`   ${'x'.repeat(16)}      ${'y'.repeat(15)}   `)).not.toThrow();
	});

	it('a configured maximum is the limit', () => {
		expect(messageOf(() => parseTemplate('x'.repeat(21), { maxLength: 20 }))).toBe('The name is 21 characters; Discord allows at most 20.');
	});

	it.each(['', '   ', '\t\n'])('the blank name %j is refused', (text) => {
		expect(codeOf(() => parseTemplate(text))).toBe(ErrorCodes.NameEmpty);
	});

	it('fixed text too long to leave room for any placeholder is refused', () => {
		expect(codeOf(() => parseTemplate(`${'x'.repeat(33)} {username}`))).toBe(ErrorCodes.NameTooLong);
		expect(() => parseTemplate(`${'x'.repeat(30)} {username}`)).not.toThrow();
	});

	it('templateIsPlain and templateUses tell what a template reads', () => {
		expect(templateIsPlain(parseTemplate('April {{fool}}'))).toBe(true);
		expect(templateIsPlain(parseTemplate('{id}'))).toBe(false);
		expect(templateUses(parseTemplate('🎃 {nick}'), 'nick')).toBe(true);
		expect(templateUses(parseTemplate('🎃 {nick}'), 'username')).toBe(false);
	});
});

describe('expandTemplate', () => {
	it.each([
		['{username}', alice, 'alice'],
		['{display_name}', alice, 'Alice W.'],
		['{display_name}', bob, 'bob'],
		['{nick}', alice, 'ally'],
		['{nick}', bob, 'bob'],
		['{nick}', { ...bob, globalName: 'Bobby' }, 'Bobby'],
		['{id}', alice, '175928847299117063'],
		['🎃 {display_name}', alice, '🎃 Alice W.'],
		['{username}/{nick}', alice, 'alice/ally'],
	])('%j for %o is %j', (text, member, expected) => {
		expect(expandTemplate(parseTemplate(text), member)).toBe(expected);
	});

	it('a blank display name or nick falls back like an absent one', () => {
		expect(expandTemplate(parseTemplate('{display_name}'), { ...bob, globalName: '   ' })).toBe('bob');
		expect(expandTemplate(parseTemplate('{nick}'), { ...bob, nick: ' ' })).toBe('bob');
	});

	it('trims and collapses whitespace runs, as Discord does', () => {
		expect(expandTemplate(parseTemplate('  🎃   {display_name}  '), { ...alice, globalName: 'Alice \t  W.' })).toBe('🎃 Alice W.');
	});

	it('cuts to 32 code points', () => {
		const result = expandTemplate(parseTemplate('{display_name}'), { ...alice, globalName: 'y'.repeat(40) });
		expect(result).toBe('y'.repeat(32));
	});

	it('cuts emoji whole: never half a surrogate pair', () => {
		const result = expandTemplate(parseTemplate('🎃 {display_name}'), { ...alice, globalName: '👻'.repeat(40) });
		expect(Array.from(result)).toHaveLength(32);
		expect(result).toBe(`🎃 ${'👻'.repeat(30)}`);
		expect(result).not.toMatch(/[\uD800-\uDBFF]$/);
	});

	it('does not leave a trailing space after the cut', () => {
		const result = expandTemplate(parseTemplate('{username} {id}'), { ...alice, username: 'z'.repeat(31) });
		expect(result).toBe('z'.repeat(31));
	});

	it('returns an empty string when everything is blank, for the caller to refuse', () => {
		expect(expandTemplate(parseTemplate('{nick}'), { ...bob, username: '   ' })).toBe('');
	});
});

describe('fitNickname and normalizeNickname', () => {
	it('a flag (two code points) is not split at the limit', () => {
		expect(fitNickname(`${'a'.repeat(31)}🇺🇸`, 32)).toBe('a'.repeat(31));
	});

	it('a ZWJ family emoji is dropped whole rather than cut into pieces', () => {
		const family = '👨‍👩‍👧'; // 5 code points
		expect(fitNickname(`${'a'.repeat(29)}${family}`, 32)).toBe('a'.repeat(29));
	});

	it('a single grapheme longer than the limit is cut by code points', () => {
		const zalgo = `a${'\u0301'.repeat(40)}`;
		expect(Array.from(fitNickname(zalgo, 32))).toHaveLength(32);
	});

	it('text within the limit is unchanged', () => {
		expect(fitNickname('🎃 short', 32)).toBe('🎃 short');
	});

	it('normalizeNickname collapses every kind of whitespace run to one space', () => {
		expect(normalizeNickname('\u00a0 a \n\t b\u3000')).toBe('a b');
	});
});

describe('isExpansionOf', () => {
	const pumpkin = parseTemplate('🎃 {nick}');

	it('a name the {nick} template already produced counts, whatever the nick was', () => {
		expect(isExpansionOf(pumpkin, { ...bob, nick: '🎃 robert' }, '🎃 robert')).toBe(true);
	});

	it('a name the template could not have produced does not count', () => {
		expect(isExpansionOf(pumpkin, bob, 'robert')).toBe(false);
		expect(isExpansionOf(pumpkin, bob, '👻 robert')).toBe(false);
	});

	it('a second {nick} followed by a digit is matched as the first nick again, not as an invalid backreference', () => {
		const twice = parseTemplate('{nick}{nick}1');
		expect(isExpansionOf(twice, bob, 'xx1')).toBe(true);
		expect(isExpansionOf(twice, bob, 'xy1')).toBe(false);
		expect(isExpansionOf(parseTemplate('{nick}-{nick}{id}'), bob, 'a-a81384788765712384')).toBe(true);
	});

	it('a suffix template is recognised too', () => {
		expect(isExpansionOf(parseTemplate('{nick} (guest)'), bob, 'robert (guest)')).toBe(true);
	});

	it('a name cut at the limit is recognised', () => {
		const template = parseTemplate('🎃 {nick} the great');
		const long = { ...bob, nick: 'bartholomew-the-magnificent-xyz' };
		const renamed = expandTemplate(template, long);
		expect(Array.from(renamed)).toHaveLength(32);
		expect(isExpansionOf(template, { ...long, nick: renamed }, renamed)).toBe(true);
	});

	it('other placeholders must match the member', () => {
		const template = parseTemplate('{username}: {nick}');
		expect(isExpansionOf(template, bob, 'bob: robert')).toBe(true);
		expect(isExpansionOf(template, bob, 'alice: robert')).toBe(false);
	});

	it('regex characters in the template are literal', () => {
		const template = parseTemplate('[.*] {nick}');
		expect(isExpansionOf(template, bob, '[.*] robert')).toBe(true);
		expect(isExpansionOf(template, bob, 'xxxx robert')).toBe(false);
	});

	it('without {nick}, it is equality with the expansion', () => {
		const template = parseTemplate('🎃 {display_name}');
		expect(isExpansionOf(template, bob, '🎃 bob')).toBe(true);
		expect(isExpansionOf(template, bob, '🎃 bobby')).toBe(false);
	});
});
