import { afterEach, describe, expect, it } from 'vitest';
import { secondsToCeiling, sharedCapFigures } from '../../bench/sharedcap/sharedCapFigures.js';
import type { Job } from '../../src/jobs/Job.js';
import { type Stack, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const WORKERS = 10;
const TIME_SCALE = 10;
/** The guild's cap on member writes from every bot, in Discord's time: far below ten workers' 100 per 10 s. */
const CAP = { limit: 20, windowMs: 10_000 };
/** Each worker's own ceiling on Modify Guild Member: the sandbox's 10 per 10 s per token. */
const CEILING = WORKERS * 10;

/**
 * Ten workers under the guild's shared write cap, on the sandbox with real discord.js: the
 * process learns the cap from the first shared 429 and spreads it over its workers, and finds its
 * way back to its own pace once the cap lifts. Times are Discord's, from the sandbox's request log.
 */
describe('pacing under a shared write cap', () => {
	let stack: Stack | undefined;

	afterEach(async () => {
		await stack?.close();
		stack = undefined;
	});

	/** Starts `/massnick` and returns its job while it runs. */
	const startRename = async (running: Stack, name: string): Promise<Job> => {
		const { sandbox, control, massnick } = running;
		const previous = massnick.jobs.last;
		const id = await control.invoke(sandbox.guildId, sandbox.ownerId, 'massnick', { name }, sandbox.channelId);
		await control.waitForResponses(id, 1);
		await waitUntil(() => massnick.jobs.last !== previous && massnick.jobs.last !== undefined, { what: '/massnick to start' });
		return massnick.jobs.last!;
	};
	const ended = (running: Stack, job: Job) =>
		waitUntil(() => job.result !== undefined && running.massnick.jobs.current === undefined, { what: 'the job to end', timeoutMs: 150_000 });

	it('a job under a cap of 20 writes per 10 s uses nearly all of it, with a fraction of the refused requests of every worker at its own pace', async () => {
		stack = await startStack({ members: 800, workers: WORKERS, timeScale: TIME_SCALE, seed: 27 });
		await stack.control.faults({ sharedWriteLimit: CAP });
		const from = (await stack.control.requests(0, 1)).lastSeq;
		const job = await startRename(stack, 'Capped {username}');
		await ended(stack, job);
		expect(job.result?.state).toBe('finished');
		const counted = job.progress.snapshot();
		expect(counted.failed).toBe(0);
		const figures = sharedCapFigures((await stack.control.requests(from)).requests, CAP, TIME_SCALE);
		expect(figures.changes).toBe(counted.changed);
		expect(figures.changes).toBeGreaterThan(700);
		// Today's behaviour, every worker at its own pace, was refused about once every two renames
		// (0.47). The figures (95% of the cap, 0.05 a rename) are the bench's to measure, on
		// a quiet machine (`--scenario shared-cap`: 97.3%, 0.032); this bounds them with room for a
		// loaded one, where the workers' own waits eat into the cap.
		expect(figures.shareOfCap, JSON.stringify(figures)).toBeGreaterThanOrEqual(0.85);
		expect(figures.refusedPerChange, JSON.stringify(figures)).toBeLessThanOrEqual(0.15);
	}, 180_000);

	it('once the cap lifts mid-run, the workers are back at 95% of their own ceiling within 30 s', async () => {
		stack = await startStack({ members: 1500, workers: WORKERS, timeScale: TIME_SCALE, seed: 28 });
		const running = stack;
		await running.control.faults({ sharedWriteLimit: CAP });
		const from = (await running.control.requests(0, 1)).lastSeq;
		const job = await startRename(running, 'Lifted {username}');
		// Some 100 s of Discord's time under the cap: learnt, held to and probed a few times.
		await waitUntil(() => job.progress.snapshot().changed >= 200, { what: '200 renames under the cap', timeoutMs: 60_000 });
		await running.control.faults({ sharedWriteLimit: null });
		const liftedAt = Date.now();
		await ended(running, job);
		expect(job.result?.state).toBe('finished');
		const requests = (await running.control.requests(from)).requests;
		const capped = sharedCapFigures(
			requests.filter((request) => request.at < liftedAt),
			CAP,
			TIME_SCALE,
		);
		expect(capped.shareOfCap, JSON.stringify(capped)).toBeGreaterThanOrEqual(0.85);
		const back = secondsToCeiling(requests, liftedAt, { ceiling: CEILING, windowMs: CAP.windowMs, share: 0.95, timeScale: TIME_SCALE });
		expect(back, 'never back at 95% of the workers’ ceiling').toBeDefined();
		expect(back!).toBeLessThanOrEqual(30);
		// Nothing refused once the cap is gone.
		expect(requests.filter((request) => request.at > liftedAt && request.status === 429)).toEqual([]);
	}, 180_000);
});
