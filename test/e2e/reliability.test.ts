import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxRequest } from '../../src/cli/SandboxControl.js';
import { workerIndexOf } from '../../src/workers/partition.js';
import { reportFigures } from '../support/reportFigures.js';
import { type Stack, startMassnickOn, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const NAME = 'Ghost {username}';
const MEMBER_PATCH = '/guilds/:id/members/:id';

function patchesOf(requests: SandboxRequest[]): SandboxRequest[] {
	return requests.filter((request) => request.method === 'PATCH' && request.route === MEMBER_PATCH);
}

/** Member id → how many PATCH requests were answered 200 for it. */
function renamesPerMember(requests: SandboxRequest[]): Map<string, number> {
	const counts = new Map<string, number>();
	for (const request of patchesOf(requests)) if (request.status === 200) counts.set(request.targetId!, (counts.get(request.targetId!) ?? 0) + 1);
	return counts;
}

async function startJob(stack: Stack, command: string, options: Record<string, unknown>) {
	const previous = stack.massnick.jobs.last;
	const id = await stack.control.invoke(stack.sandbox.guildId, stack.sandbox.ownerId, command, options, stack.sandbox.channelId);
	await stack.control.waitForResponses(id, 1);
	await waitUntil(() => stack.massnick.jobs.last !== previous && stack.massnick.jobs.last !== undefined);
	return stack.massnick.jobs.last!;
}

async function settled(stack: Stack): Promise<void> {
	await waitUntil(() => stack.massnick.jobs.current === undefined, { timeoutMs: 60_000 });
}

describe('long runs on a live guild', () => {
	let stack: Stack | undefined;
	afterEach(async () => {
		await stack?.close();
		stack = undefined;
	});

	it('renames joiners by their owner and counts leavers as left, sending nothing after they left', async () => {
		stack = await startStack({ members: 600, workers: 4, timeScale: 25 });
		const { guildId } = stack.sandbox;
		const members = await stack.control.members(guildId);
		const job = await startJob(stack, 'massnick', { name: NAME });
		// Leavers: the members listed last are renamed last.
		const leavers = members.filter((member) => !member.bot).slice(-8).map((member) => member.id);
		await waitUntil(() => job.progress.snapshot().changed >= 20);
		const leftAt = new Map<string, number>();
		for (const id of leavers) {
			await stack.control.removeMember(guildId, id);
			leftAt.set(id, (await stack.control.requests()).lastSeq);
		}
		const { ids: joiners } = await stack.control.addMembers(guildId, 6);
		await settled(stack);
		expect(job.result?.state).toBe('finished');

		const { requests } = await stack.control.requests();
		const workerOf = new Map(stack.massnick.fleet.workers.map((worker) => [worker.client.user!.id, worker.index]));
		for (const id of joiners) {
			const patch = patchesOf(requests).find((request) => request.targetId === id && request.status === 200);
			expect(patch, `joiner ${id} renamed`).toBeDefined();
			expect(workerOf.get(patch!.botUserId!)).toBe(workerIndexOf(id, 4));
		}
		for (const id of leavers) {
			const after = patchesOf(requests).filter((request) => request.targetId === id && request.seq > leftAt.get(id)!);
			expect(after).toEqual([]);
		}
		const counts = job.progress.snapshot();
		expect(counts.failed).toBe(0);
		const twice = [...renamesPerMember(requests).values()].filter((count) => count > 1).length;
		expect(twice).toBe(0);
		reportFigures('joiners and leavers', { joined: joiners.length, left: leavers.length, renamed: counts.changed, countedLeft: counts.left, failed: counts.failed, twice });
	});

	it('retries 5xx answers with backoff and still renames everyone exactly once', async () => {
		stack = await startStack({
			members: 300,
			workers: 3,
			timeScale: 50,
			settings: (config) => ({ ...config, workers: { ...config.workers, retry: { attempts: 8, baseDelayMs: 5, maxDelayMs: 50 } } }),
		});
		await stack.control.faults({ errorRate: 0.25 });
		const job = await stack.runJob('massnick', { name: NAME });
		await stack.control.faults({ resetFaults: true });
		expect(job.result?.state).toBe('finished');
		expect(job.progress.snapshot().failed).toBe(0);
		const { requests } = await stack.control.requests();
		const injected = patchesOf(requests).filter((request) => request.status >= 500).length;
		expect(injected).toBeGreaterThan(0);
		for (const [id, count] of renamesPerMember(requests)) expect(count, id).toBe(1);
		reportFigures('5xx answers', { injected, renamed: job.progress.snapshot().changed, lost: job.progress.snapshot().failed, twice: 0 });
	});

	it('retries requests that time out, and the members end renamed once in effect', async () => {
		stack = await startStack({
			members: 200,
			workers: 2,
			timeScale: 50,
			settings: (config) => ({
				...config,
				rest: { ...config.rest, timeoutMs: 150 },
				workers: { ...config.workers, retry: { attempts: 8, baseDelayMs: 20, maxDelayMs: 200 } },
			}),
		});
		const job = await startJob(stack, 'massnick', { name: NAME });
		await waitUntil(() => job.progress.snapshot().changed >= 5);
		await stack.control.faults({ latencyMs: 400 });
		await new Promise((resolve) => setTimeout(resolve, 800));
		await stack.control.faults({ resetFaults: true });
		await settled(stack);
		expect(job.result?.state).toBe('finished');
		expect(job.progress.snapshot().failed).toBe(0);
		const members = await stack.control.members(stack.sandbox.guildId);
		const renamed = members.filter((member) => member.nick === `Ghost ${member.username}`).length;
		expect(renamed).toBe(job.progress.snapshot().changed);
		// The sandbox applied the timed-out requests (as Discord may); their retries changed nothing.
		const { requests } = await stack.control.requests();
		const attempts = new Map<string, number>();
		for (const request of patchesOf(requests)) attempts.set(request.targetId!, (attempts.get(request.targetId!) ?? 0) + 1);
		const retried = [...attempts.values()].filter((count) => count > 1).length;
		expect(retried).toBeGreaterThan(0);
		reportFigures('time-outs', { injected: '400 ms latency against a 150 ms time-out', retried, renamed, lost: 0 });
	});

	it('survives dropped gateway connections and Discord asking to reconnect, with no duplicate work', async () => {
		stack = await startStack({ members: 500, workers: 4, timeScale: 20 });
		const job = await startJob(stack, 'massnick', { name: NAME });
		await waitUntil(() => job.progress.snapshot().changed >= 30);
		await stack.control.faults({ closeGateway: {} });
		await waitUntil(() => job.progress.snapshot().changed >= 120);
		await stack.control.faults({ reconnect: {} });
		await settled(stack);
		expect(job.result?.state).toBe('finished');
		const { requests } = await stack.control.requests();
		for (const [id, count] of renamesPerMember(requests)) expect(count, id).toBe(1);
		expect(job.progress.snapshot().failed).toBe(0);
		reportFigures('gateway drops', { injected: 'close all + op 7', renamed: job.progress.snapshot().changed, lost: 0, twice: 0 });
	});

	it('/cancel stops every worker within seconds; /massnick then continues and /restore undoes it all', async () => {
		stack = await startStack({ members: 800, workers: 4, timeScale: 40 });
		const { guildId } = stack.sandbox;
		const before = new Map((await stack.control.members(guildId)).map((member) => [member.id, member.nick]));
		const job = await startJob(stack, 'massnick', { name: NAME });
		await waitUntil(() => job.progress.snapshot().changed >= 40);
		const cancelledAt = Date.now();
		const id = await stack.control.invoke(guildId, stack.sandbox.ownerId, 'cancel', {}, stack.sandbox.channelId);
		await stack.control.waitForResponses(id, 1);
		await settled(stack);
		expect(job.result?.state).toBe('cancelled');
		expect(Date.now() - cancelledAt).toBeLessThan(5_000);
		const { lastSeq } = await stack.control.requests();
		await new Promise((resolve) => setTimeout(resolve, 500));
		expect(patchesOf((await stack.control.requests(lastSeq)).requests)).toEqual([]);
		const renamedFirst = job.progress.snapshot().changed;

		const rest = await stack.runJob('massnick', { name: NAME });
		expect(rest.result?.state).toBe('finished');
		expect(rest.progress.snapshot().alreadyDone).toBeGreaterThanOrEqual(renamedFirst);

		const restore = await stack.runJob('restore', {});
		expect(restore.result?.state).toBe('finished');
		for (const member of await stack.control.members(guildId)) expect(member.nick, member.id).toBe(before.get(member.id) ?? null);
		const twice = [...renamesPerMember((await stack.control.requests()).requests).values()].filter((count) => count > 2).length;
		reportFigures('/cancel, rerun, restore', { renamedBeforeCancel: renamedFirst, renamedAfter: rest.progress.snapshot().changed, restored: restore.progress.snapshot().changed, lost: 0, renamedTwiceByOneJob: twice });
	});

	it('a worker whose token is revoked stops and is named; without it, a rerun finishes the job', async () => {
		stack = await startStack({ members: 400, workers: 4, timeScale: 10 });
		const victim = stack.massnick.fleet.workers[2]!;
		const job = await startJob(stack, 'massnick', { name: NAME });
		await waitUntil(() => job.progress.snapshot().changed >= 20);
		await stack.control.faults({ revokeToken: { appId: victim.client.user!.id } });
		await settled(stack);
		expect(job.result?.stoppedWorkers).toEqual([2]);
		expect(victim.state).toBe('revoked');
		expect(stack.logs()).toContain("worker 2's token was rejected by Discord");
		expect(stack.logs()).not.toContain(stack.sandbox.workerTokens[2]!);
		// The operator removes the revoked token and runs again: the split changes with N, and the
		// done marker makes that safe.
		await stack.massnick.stop();
		const again = await startMassnickOn(stack.sandbox, stack.dataDir, stack.sandbox.workerTokens.filter((_, index) => index !== 2));
		try {
			const rerun = await again.runJob('massnick', { name: NAME });
			expect(rerun.result?.state).toBe('finished');
			const counts = rerun.progress.snapshot();
			expect(counts.failed).toBe(0);
			expect(counts.alreadyDone).toBeGreaterThan(0);
			expect(counts.changed + counts.alreadyDone + counts.cant + counts.skipped).toBe(counts.total);
			const named = (await again.control.members(stack.sandbox.guildId)).filter((member) => member.nick?.startsWith('Ghost '));
			expect(named.length).toBe(counts.changed + counts.alreadyDone);
			const twice = [...renamesPerMember((await again.control.requests()).requests).values()].filter((count) => count > 1).length;
			expect(twice).toBe(0);
			reportFigures('revoked token', { injected: 'worker 2 revoked', notDoneByStoppedWorker: job.progress.snapshot().failedByReason['worker-stopped'] ?? 0, finishedByRerun: counts.changed, lost: 0, twice });
		} finally {
			await again.close();
		}
	});

	it('holds a bounded number of members per worker however large the guild', async () => {
		stack = await startStack({ members: 20_000, workers: 4, timeScale: 1 });
		const job = await startJob(stack, 'massnick', { name: NAME });
		await waitUntil(() => job.progress.snapshot().total >= 1_000);
		// At one rename a second per worker the slices drain slowly; the listing must wait for them.
		await new Promise((resolve) => setTimeout(resolve, 1_500));
		const { total, done } = job.progress.snapshot();
		const perWorker = job.queueCapacity + Math.ceil(1000 / 4) + stack.config.workers.maxInFlight;
		expect(total - done).toBeLessThanOrEqual(4 * perWorker);
		expect(total).toBeLessThan(20_000);
		expect(job.peakQueued).toBeLessThanOrEqual(job.queueCapacity + Math.ceil(1000 / 4) * 2);
		stack.massnick.jobs.cancel();
		await settled(stack);
		expect(job.result?.state).toBe('cancelled');
	});
});
