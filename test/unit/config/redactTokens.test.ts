import { describe, expect, it } from 'vitest';
import { redactTokens, secretsOf } from '../../../src/config/redactTokens.js';

const config = { bossToken: 'boss.token.aaaa', workerTokens: ['worker.one.bbbb', 'worker.two.cccc'] };

describe('redactTokens', () => {
	it('every token in the text is replaced, every time it appears', () => {
		const text = 'boss.token.aaaa then worker.two.cccc and again worker.two.cccc';
		expect(redactTokens(text, config)).toBe('[redacted] then [redacted] and again [redacted]');
	});

	it('takes the list of secrets as well as the config', () => {
		expect(redactTokens('x worker.one.bbbb y', secretsOf(config))).toBe('x [redacted] y');
	});

	it('a secret containing another is hidden whole', () => {
		expect(redactTokens('abcdef', ['abc', 'abcdef'])).toBe('[redacted]');
	});

	it('empty secrets are ignored rather than matching everywhere', () => {
		expect(secretsOf({ bossToken: '', workerTokens: ['w'] })).toEqual(['w']);
		expect(redactTokens('hello', [''])).toBe('hello');
	});
});
