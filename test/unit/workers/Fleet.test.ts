import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { MassnickError } from '../../../src/errors.js';
import { Fleet, type FleetOptions } from '../../../src/workers/Fleet.js';
import { HoldsEveryWorker } from '../../../src/workers/HoldsEveryWorker.js';

/** A fleet that is never started: building one connects nothing. */
function fleet(workers: FleetOptions['workers'], count?: number): Fleet {
	return new Fleet({
		...(count === undefined ? {} : { count }),
		workers,
		guildId: '175928847299117063',
		client: { restOffsetMs: 0, restTimeoutMs: 1000, restRetries: 0 },
		startRetry: { baseDelayMs: 10, maxDelayMs: 100 },
		logger: pino({ level: 'silent' }),
		invalidRequestBudget: 100,
	});
}

const held = (...ids: number[]) => ids.map((id) => ({ id, token: `token-${id}` }));

describe('Fleet', () => {
	it('holds every worker by default: one per token, ids 0 to N-1', () => {
		const all = fleet(held(0, 1, 2));
		expect([all.count, all.size, all.scope instanceof HoldsEveryWorker]).toEqual([3, 3, true]);
		expect(all.ids).toEqual([0, 1, 2]);
	});

	it('holds workers 3 to 5 of 10 by their ids, lowest first, each named by its id', () => {
		const part = fleet(held(5, 3, 4), 10);
		expect([part.count, part.size, part.scope instanceof HoldsEveryWorker]).toEqual([10, 3, false]);
		expect(part.ids).toEqual([3, 4, 5]);
		expect(part.workers.map((worker) => worker.label)).toEqual(['worker 3', 'worker 4', 'worker 5']);
		expect(part.get(4)?.index).toBe(4);
		expect(part.get(0)).toBeUndefined();
	});

	it('may hold no worker: a boss whose workers all run elsewhere', () => {
		const none = fleet([], 4);
		expect([none.count, none.size, none.scope instanceof HoldsEveryWorker, none.active]).toEqual([4, 0, false, []]);
	});

	it('refuses an id outside the count, or one held twice', () => {
		expect(() => fleet(held(0, 4), 4)).toThrow(MassnickError);
		expect(() => fleet(held(1, 1), 4)).toThrow(/held twice/);
	});
});
