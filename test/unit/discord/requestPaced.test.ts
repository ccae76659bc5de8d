import { type REST, RequestMethod } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { requestPaced } from '../../../src/discord/requestPaced.js';

/** A REST client whose one answer has these rate-limit headers; records the sleeps asked for. */
function answering(headers: Record<string, string>) {
	const rest = {
		options: { offset: 50 },
		queueRequest: async () =>
			new Response(JSON.stringify({ banned_users: ['1'], failed_users: [] }), { headers: { 'content-type': 'application/json', ...headers } }),
	} as unknown as REST;
	const slept: number[] = [];
	const sleep = async (ms: number): Promise<void> => void slept.push(ms);
	return { rest, slept, sleep };
}

const request = { method: RequestMethod.Post, fullRoute: '/guilds/1/bulk-ban' as const, body: {} };

describe('requestPaced', () => {
	it('waits out the reset (and the offset) when the answer leaves nothing of the bucket, then gives the body', async () => {
		const { rest, slept, sleep } = answering({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '1.5' });
		expect(await requestPaced(rest, request, sleep)).toEqual({ banned_users: ['1'], failed_users: [] });
		expect(slept).toEqual([1550]);
	});

	it('does not wait while the bucket has room, or with no rate-limit headers', async () => {
		for (const headers of [{ 'x-ratelimit-remaining': '3', 'x-ratelimit-reset-after': '1' }, {}] as Record<string, string>[]) {
			const { rest, slept, sleep } = answering(headers);
			await requestPaced(rest, request, sleep);
			expect(slept).toEqual([]);
		}
	});

	it('a wait cut short by the signal still resolves with the answer: the request was made', async () => {
		const { rest } = answering({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '60' });
		const controller = new AbortController();
		const answer = requestPaced(rest, { ...request, signal: controller.signal });
		controller.abort();
		expect(await answer).toEqual({ banned_users: ['1'], failed_users: [] });
	});
});
