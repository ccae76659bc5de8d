import { DiscordAPIError, HTTPError } from 'discord.js';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { StartAborted, waitOutTransient } from '../../../src/discord/waitOutTransient.js';

const serverError = (status: number): HTTPError => new HTTPError(status, 'Server Error', 'GET', 'http://127.0.0.1/api/v10/gateway/bot', { body: undefined });
const unauthorized = (): DiscordAPIError =>
	new DiscordAPIError({ code: 0, message: '401: Unauthorized' }, 0, 401, 'GET', 'http://127.0.0.1/api/v10/gateway/bot', { body: undefined });

/** A logger that keeps what it was told, as pino writes it. */
function recordingLogger(): { logger: pino.Logger; lines: () => Array<Record<string, unknown>> } {
	const chunks: string[] = [];
	const logger = pino({ level: 'info' }, { write: (chunk: string) => void chunks.push(chunk) });
	return { logger, lines: () => chunks.map((chunk) => JSON.parse(chunk) as Record<string, unknown>) };
}

const retry = { baseDelayMs: 100, maxDelayMs: 1000 };

describe('waitOutTransient: a start step through a Discord incident', () => {
	it('tries again after every 5xx, past the changes’ attempt count, logging what it waits for each time', async () => {
		const { logger, lines } = recordingLogger();
		const delays: number[] = [];
		let calls = 0;
		const value = await waitOutTransient(
			async () => {
				if (++calls <= 8) throw serverError(calls % 2 === 0 ? 502 : 500);
				return 'connected';
			},
			{ what: 'worker 2 logging in', logger, retry, sleep: async (ms) => void delays.push(ms), random: () => 1 },
		);
		expect(value).toBe('connected');
		expect(calls).toBe(9);
		// The changes' backoff: doubling from baseDelayMs, capped at maxDelayMs (full jitter at its top here).
		expect(delays).toEqual([100, 200, 400, 800, 1000, 1000, 1000, 1000]);
		const waits = lines().filter((line) => line.level === 40);
		expect(waits).toHaveLength(8);
		expect(waits[0]).toMatchObject({ what: 'worker 2 logging in', reason: 'http-500', retry: 1, retryInMs: 100 });
		expect(waits[0]!.msg).toBe('waiting for Discord: worker 2 logging in failed (http-500); trying again in 0.1 s');
	});

	it('throws what will not pass at once, as it came, without waiting', async () => {
		const delays: number[] = [];
		const error = unauthorized();
		await expect(
			waitOutTransient(
				async () => {
					throw error;
				},
				{ what: 'the boss logging in', logger: pino({ level: 'silent' }), retry, sleep: async (ms) => void delays.push(ms) },
			),
		).rejects.toBe(error);
		expect(delays).toEqual([]);
	});

	it('stops waiting when its signal aborts (SIGTERM during a start), naming what it was doing', async () => {
		const stop = new AbortController();
		const attempt = waitOutTransient(
			async () => {
				throw serverError(503);
			},
			{
				what: 'the boss registering its commands',
				logger: pino({ level: 'silent' }),
				retry: { baseDelayMs: 60_000, maxDelayMs: 60_000 },
				signal: stop.signal,
				random: () => 1,
			},
		);
		stop.abort();
		const error = await attempt.catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(StartAborted);
		expect((error as Error).message).toBe('stopped while waiting for Discord (the boss registering its commands)');
	});
});
