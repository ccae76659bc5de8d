import { describe, expect, it } from 'vitest';
import type { ActionArgs } from '../../../src/actions/ActionModule.js';
import { readKeep } from '../../../src/actions/readKeep.js';
import { JobError } from '../../../src/errors.js';

const NOW = Date.parse('2026-12-03T12:00:00Z');
const read = { now: NOW, optionName: (option: string) => `${option}:` };

function args(values: Record<string, string | boolean>): ActionArgs {
	return {
		subcommand: undefined,
		string: (name) => (typeof values[name] === 'string' ? (values[name] as string) : undefined),
		role: () => undefined,
		boolean: (name) => values[name] === true,
	} as ActionArgs;
}

function refusal(values: Record<string, string | boolean>): string {
	try {
		readKeep(args(values), read);
	} catch (error) {
		expect(error).toBeInstanceOf(JobError);
		return (error as Error).message;
	}
	throw new Error(`${JSON.stringify(values)} was accepted`);
}

describe('readKeep', () => {
	it('is no rule without keep, a rule without end with it, and reads until forward from now or as a date', () => {
		expect(readKeep(args({}), read)).toBeUndefined();
		expect(readKeep(args({ keep: true }), read)).toEqual({});
		expect(readKeep(args({ keep: true, until: '30d' }), read)).toEqual({ until: NOW + 30 * 86_400_000 });
		expect(readKeep(args({ keep: true, until: '2027-01-31' }), read)).toEqual({ until: Date.parse('2027-01-31T00:00:00Z') });
		expect(readKeep(args({ keep: true, created_after: '2026-12-01' }), read)).toEqual({});
	});

	it('refuses until without keep, an until that has passed, and one it cannot read, naming the option', () => {
		expect(refusal({ until: '30d' })).toBe('until: ends a standing rule: give keep: with it, or leave it out.');
		expect(refusal({ keep: true, until: '2020-01-01' })).toMatch(/^until: "2020-01-01" \(2020-01-01T00:00:00\.000Z\) has passed/);
		expect(refusal({ keep: true, until: 'soon' })).toMatch(/^until: "soon" is not a date or a duration\. .*a duration from now/);
	});

	it('lets a rule take a time back from now, which the rule reads anew as it plans (see RuleFilters)', () => {
		expect(readKeep(args({ keep: true, created_after: '1d' }), read)).toEqual({});
		expect(readKeep(args({ keep: true, joined_before: '2w', until: '30d' }), read)).toEqual({ until: NOW + 30 * 86_400_000 });
	});
});
