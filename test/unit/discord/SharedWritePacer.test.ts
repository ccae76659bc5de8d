import { REST } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { SharedWritePacer } from '../../../src/discord/SharedWritePacer.js';
import { flushPromises } from '../../support/flushPromises.js';

/** A pacer watching a real REST client, on a clock the test moves; answers are emitted as discord.js emits them. */
function pacerAt(start = 5_000_000) {
	let now = start;
	const rest = new REST();
	const pacer = new SharedWritePacer({ now: () => now, margin: 0, maxWireWaitMs: 60_000 });
	pacer.watch(rest);
	const answer = (method: string, status: number, headers: Record<string, string> = {}) =>
		rest.emit(
			'response',
			{ method, path: '/guilds/1/members/2', route: '/guilds/:id/members/:id', options: {}, data: {}, retries: 0 } as never,
			{
				status,
				headers: new Headers(headers),
			} as never,
		);
	return {
		pacer,
		answer,
		at: (ms: number) => {
			now = start + ms;
		},
	};
}

describe('SharedWritePacer', () => {
	it('learns from writes and shared 429s only: a read, a 5xx and a 429 of the token’s own bucket change nothing', () => {
		const { pacer, answer, at } = pacerAt();
		for (let i = 0; i < 20; i++) answer('PATCH', 200);
		answer('GET', 429, { 'x-ratelimit-scope': 'shared', 'retry-after': '9' });
		answer('PATCH', 502);
		answer('PATCH', 429, { 'x-ratelimit-scope': 'user', 'retry-after': '9' });
		expect(pacer.pacing.pacing).toBe(false);
		at(1_000);
		answer('PATCH', 429, { 'x-ratelimit-scope': 'shared', 'retry-after': '9' });
		expect(pacer.pacing.state).toEqual({ limit: 20, windowMs: 10_000, factor: 2 });
	});

	it('admits any number of a worker’s writes while not paced, and two at a time while paced', async () => {
		const { pacer, answer, at } = pacerAt();
		const worker = pacer.admission();
		const free = await Promise.all(Array.from({ length: 30 }, () => worker.admit()));
		for (const release of free) release();
		for (let i = 0; i < 20; i++) answer('PATCH', 200);
		at(1_000);
		answer('PATCH', 429, { 'x-ratelimit-scope': 'shared', 'retry-after': '9' });
		const first = await worker.admit();
		await worker.admit();
		let third = false;
		const waiting = worker.admit().then((release) => {
			third = true;
			return release;
		});
		// Another worker's writes are not held by this one's.
		await pacer.admission().admit();
		await flushPromises();
		expect(third).toBe(false);
		first();
		// Released twice, the room is counted once.
		first();
		(await waiting)();
		expect(third).toBe(true);
	});

	it('a write waiting for admission gives up when its signal aborts, and all go once the pacing ends', async () => {
		const { pacer, answer, at } = pacerAt();
		const worker = pacer.admission();
		for (let i = 0; i < 20; i++) answer('PATCH', 200);
		at(1_000);
		answer('PATCH', 429, { 'x-ratelimit-scope': 'shared', 'retry-after': '9' });
		await worker.admit();
		await worker.admit();
		const controller = new AbortController();
		const aborted = worker.admit(controller.signal);
		controller.abort(new Error('cancelled'));
		await expect(aborted).rejects.toThrow('cancelled');
		let admitted = 0;
		for (let i = 0; i < 3; i++) void worker.admit().then(() => admitted++);
		await flushPromises();
		expect(admitted).toBe(0);
		// Two quiet windows after the reset at 10 s: the pacing ends, and so does the wait.
		at(30_100);
		answer('PATCH', 200);
		await flushPromises();
		expect(admitted).toBe(3);
	});

	it('a read never waits at the wire, and a write goes at once while not paced', async () => {
		const { pacer, answer, at } = pacerAt();
		await pacer.beforeWrite('PATCH');
		for (let i = 0; i < 20; i++) answer('PATCH', 200);
		at(1_000);
		answer('PATCH', 429, { 'x-ratelimit-scope': 'shared', 'retry-after': '9' });
		await pacer.beforeWrite('GET');
		let sent = false;
		void pacer.beforeWrite('PATCH').then(() => (sent = true));
		await flushPromises();
		// Held for the window's reset, 9 s away on the pacer's clock.
		expect(sent).toBe(false);
		pacer.close();
		await flushPromises();
		expect(sent).toBe(true);
	});
});
