import { DiscordAPIError, HTTPError } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { backoffDelay, classifyError } from '../../../src/discord/classifyError.js';

function apiError(status: number, code: number, message = 'x'): DiscordAPIError {
	return new DiscordAPIError({ code, message }, code, status, 'PATCH', 'http://127.0.0.1/api/v10/guilds/1/members/2', { body: undefined });
}

describe('classifyError', () => {
	it('a member who is gone (10007) counts as left, not failed', () => {
		expect(classifyError(apiError(404, 10007))).toEqual({ kind: 'left' });
	});

	it('50013 and 50035 are permanent: never retried', () => {
		expect(classifyError(apiError(403, 50013))).toEqual({ kind: 'permanent', reason: 'missing-permissions' });
		expect(classifyError(apiError(400, 50035))).toEqual({ kind: 'permanent', reason: 'invalid-nickname' });
	});

	it('a 401 means the token was revoked', () => {
		expect(classifyError(apiError(401, 0))).toEqual({ kind: 'revoked' });
	});

	it('5xx and dropped connections are transient', () => {
		const http = new HTTPError(502, 'Bad Gateway', 'PATCH', 'http://x', { body: undefined });
		expect(classifyError(http)).toEqual({ kind: 'transient', reason: 'http-502' });
		const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		expect(classifyError(reset)).toEqual({ kind: 'transient', reason: 'connection' });
	});

	it('anything after cancel is an abort', () => {
		const controller = new AbortController();
		controller.abort();
		expect(classifyError(apiError(502, 0), controller.signal)).toEqual({ kind: 'aborted' });
	});
});

describe('backoffDelay', () => {
	it('grows exponentially, is capped, and jitters down from the cap', () => {
		expect(backoffDelay(0, 500, 30_000, () => 1)).toBe(500);
		expect(backoffDelay(3, 500, 30_000, () => 1)).toBe(4000);
		expect(backoffDelay(10, 500, 30_000, () => 1)).toBe(30_000);
		expect(backoffDelay(3, 500, 30_000, () => 0.5)).toBe(2000);
	});
});
