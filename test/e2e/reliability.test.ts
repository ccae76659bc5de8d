import { Routes } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { ControlMember } from '@massnick/discord-sandbox';
import { afterLeaving, byWrongWorker, memberPatches, notRestored, renamedTwice } from '../../bench/soak/invariants.js';
import { lostMembers } from '../support/lostMembers.js';
import { reportFigures } from '../support/reportFigures.js';
import { type Stack, startMassnickOn, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const NAME = 'Ghost {username}';
const nameOf = (member: ControlMember): string => `Ghost ${member.username}`;

/** The sequence number of the request log's latest entry. */
async function lastSeq(stack: Pick<Stack, 'control'>): Promise<number> {
	return (await stack.control.requests(0, 1)).lastSeq;
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
		const leavers = members
			.filter((member) => !member.bot)
			.slice(-8)
			.map((member) => member.id);
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
		const joinerRenames = memberPatches(requests).filter((request) => joiners.includes(request.targetId!) && request.status === 200);
		expect(new Set(joinerRenames.map((request) => request.targetId))).toEqual(new Set(joiners));
		expect(byWrongWorker(joinerRenames, (request) => ({ index: workerOf.get(request.botUserId!)!, count: 4 }))).toEqual([]);
		expect(afterLeaving(memberPatches(requests), leftAt)).toEqual([]);
		const counts = job.progress.snapshot();
		expect(counts.failed).toBe(0);
		const twice = renamedTwice(requests);
		expect(twice).toEqual([]);
		reportFigures('joiners and leavers', {
			joined: joiners.length,
			left: leavers.length,
			renamed: counts.changed,
			countedLeft: counts.left,
			failed: counts.failed,
			twice: twice.length,
		});
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
		const injected = memberPatches(requests).filter((request) => request.status >= 500).length;
		expect(injected).toBeGreaterThan(0);
		const lost = await lostMembers(stack, nameOf);
		expect(lost).toEqual([]);
		const twice = renamedTwice(requests);
		expect(twice).toEqual([]);
		reportFigures('5xx answers', { injected, renamed: job.progress.snapshot().changed, lost: lost.length, twice: twice.length });
	});

	it('retries requests that time out, and the members end renamed once in effect', async () => {
		stack = await startStack({
			members: 200,
			workers: 2,
			timeScale: 50,
			settings: (config) => ({
				...config,
				// Short enough to meet often, long enough that a loaded machine's own slowness (CI runs
				// the suites side by side) does not time out the boss's requests before the job starts.
				rest: { ...config.rest, timeoutMs: 600 },
				workers: { ...config.workers, retry: { attempts: 8, baseDelayMs: 20, maxDelayMs: 200 } },
			}),
		});
		const job = await startJob(stack, 'massnick', { name: NAME });
		await waitUntil(() => job.progress.snapshot().changed >= 5);
		const { control } = stack;
		await control.faults({ latencyMs: 1_500 });
		const faultAt = Date.now();
		const faultFrom = await lastSeq(stack);
		const onTheWire = stack.massnick.fleet.workers.length;
		// The latency stays until the sandbox has applied a rename the client had given up on.
		// discord.js has at most one rename per worker on the wire (one bucket, one request at a
		// time), so of the renames answered 200 after `faultFrom`, all but that many arrived after
		// the latency was on: answered 1,500 ms late, after the 600 ms time-out, and bound to be retried.
		await waitUntil(async () => memberPatches((await control.requests(faultFrom)).requests).filter((request) => request.status === 200).length > onTheWire, {
			what: 'a rename applied after its time-out',
		});
		await control.faults({ resetFaults: true });
		const latencyForMs = Date.now() - faultAt;
		await settled(stack);
		expect(job.result?.state).toBe('finished');
		expect(job.progress.snapshot().failed).toBe(0);
		const members = await stack.control.members(stack.sandbox.guildId);
		const renamed = members.filter((member) => member.nick === nameOf(member)).length;
		expect(renamed).toBe(job.progress.snapshot().changed);
		const lost = await lostMembers(stack, nameOf);
		expect(lost).toEqual([]);
		// The sandbox applied the timed-out requests (as Discord may); their retries changed nothing.
		const { requests } = await stack.control.requests();
		const attempts = new Map<string, number>();
		for (const request of memberPatches(requests)) attempts.set(request.targetId!, (attempts.get(request.targetId!) ?? 0) + 1);
		const retried = [...attempts.values()].filter((count) => count > 1).length;
		expect(retried).toBeGreaterThan(0);
		reportFigures('time-outs', { injected: `1,500 ms latency against a 600 ms time-out, for ${latencyForMs} ms`, retried, renamed, lost: lost.length });
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
		expect(job.progress.snapshot().failed).toBe(0);
		const lost = await lostMembers(stack, nameOf);
		expect(lost).toEqual([]);
		const twice = renamedTwice(requests);
		expect(twice).toEqual([]);
		reportFigures('gateway drops', { injected: 'close all + op 7', renamed: job.progress.snapshot().changed, lost: lost.length, twice: twice.length });
	});

	it('/cancel stops every worker within seconds; /massnick then continues and /restore undoes it all', async () => {
		stack = await startStack({ members: 800, workers: 4, timeScale: 40 });
		const { guildId } = stack.sandbox;
		const before = new Map((await stack.control.members(guildId)).map((member) => [member.id, member.nick]));
		const workers = stack.massnick.fleet.workers;
		const workerIds = new Set(workers.map((worker) => worker.client.user!.id));
		const firstFrom = await lastSeq(stack);
		const job = await startJob(stack, 'massnick', { name: NAME });
		await waitUntil(() => job.progress.snapshot().changed >= 40);
		const cancelledAt = Date.now();
		const id = await stack.control.invoke(guildId, stack.sandbox.ownerId, 'cancel', {}, stack.sandbox.channelId);
		await stack.control.waitForResponses(id, 1);
		await settled(stack);
		expect(job.result?.state).toBe('cancelled');
		expect(Date.now() - cancelledAt).toBeLessThan(5_000);
		const firstTo = await lastSeq(stack);
		// Each worker now sends a no-op PATCH of its own member, on the very rate-limit bucket of its
		// renames. discord.js sends one bucket's requests one at a time in the order they were
		// queued, so when these are answered every rename the cancelled job had handed discord.js
		// has been answered (and logged) or dropped unsent; the job has ended, so it hands over no
		// more. Checked there, "no PATCH after the end" is final, not a matter of waiting long enough.
		await Promise.all(workers.map((worker) => worker.client.rest.patch(Routes.guildMember(guildId, worker.client.user!.id), { body: {} })));
		const afterEnd = memberPatches((await stack.control.requests(firstTo)).requests);
		expect(afterEnd.filter((request) => workerIds.has(request.targetId!)).map((request) => request.status)).toEqual(workers.map(() => 200));
		expect(afterEnd.filter((request) => !workerIds.has(request.targetId!))).toEqual([]);
		const renamedFirst = job.progress.snapshot().changed;

		const restFrom = await lastSeq(stack);
		const rest = await stack.runJob('massnick', { name: NAME });
		const restTo = await lastSeq(stack);
		expect(rest.result?.state).toBe('finished');
		expect(rest.progress.snapshot().alreadyDone).toBeGreaterThanOrEqual(renamedFirst);
		const lost = await lostMembers(stack, nameOf);
		expect(lost).toEqual([]);

		const restoreFrom = await lastSeq(stack);
		const restore = await stack.runJob('restore', {});
		expect(restore.result?.state).toBe('finished');
		const notBack = notRestored(await stack.control.members(guildId), before);
		expect(notBack).toEqual([]);
		// Renamed twice by one job: each job's own stretch of the request log (a member is renamed
		// by the first run or the rerun, then once more by the restore).
		const { requests } = await stack.control.requests(firstFrom);
		const stretch = (from: number, to?: number) => requests.filter((request) => request.seq > from && (to === undefined || request.seq <= to));
		const twice = [stretch(firstFrom, firstTo), stretch(restFrom, restTo), stretch(restoreFrom)].flatMap((requests) => renamedTwice(requests));
		expect(twice).toEqual([]);
		reportFigures('/cancel, rerun, restore', {
			renamedBeforeCancel: renamedFirst,
			renamedAfter: rest.progress.snapshot().changed,
			restored: restore.progress.snapshot().changed,
			lost: lost.length,
			notRestored: notBack.length,
			renamedTwiceByOneJob: twice.length,
		});
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
		const again = await startMassnickOn(
			stack.sandbox,
			stack.dataDir,
			stack.sandbox.workerTokens.filter((_, index) => index !== 2),
		);
		try {
			const rerun = await again.runJob('massnick', { name: NAME });
			expect(rerun.result?.state).toBe('finished');
			const counts = rerun.progress.snapshot();
			expect(counts.failed).toBe(0);
			expect(counts.alreadyDone).toBeGreaterThan(0);
			expect(counts.changed + counts.alreadyDone + counts.cant + counts.skipped).toBe(counts.total);
			const named = (await again.control.members(stack.sandbox.guildId)).filter((member) => member.nick?.startsWith('Ghost '));
			expect(named.length).toBe(counts.changed + counts.alreadyDone);
			const lost = await lostMembers(again, nameOf);
			expect(lost).toEqual([]);
			// Over both runs: the rerun must not rename again whom the first run renamed.
			const twice = renamedTwice((await again.control.requests()).requests);
			expect(twice).toEqual([]);
			reportFigures('revoked token', {
				injected: 'worker 2 revoked',
				notDoneByStoppedWorker: job.progress.snapshot().failedByReason['worker-stopped'] ?? 0,
				finishedByRerun: counts.changed,
				lost: lost.length,
				twice: twice.length,
			});
		} finally {
			await again.close();
		}
	});

	it('holds a bounded number of members per worker however large the guild', async () => {
		stack = await startStack({ members: 20_000, workers: 4, timeScale: 1 });
		const { guildId } = stack.sandbox;
		const from = await lastSeq(stack);
		const job = await startJob(stack, 'massnick', { name: NAME });
		// At one rename a second per worker the slices drain slowly: once a queue is full, the
		// listing must wait for room.
		await waitUntil(() => job.peakQueued >= job.queueCapacity, { what: "the listing to fill a worker's queue" });
		// A listing that did not wait would ask for its next page in the same turn as it hands out
		// the previous one. Each round below sends a request of our own on the listing's route and
		// bucket, which discord.js sends only after every page asked for before it (one request per
		// bucket at a time, in order), then waits until the listing has handed out those pages. So
		// each round would take such a listing at least one page further: after four it would hold
		// six pages or more, past the bound below, while a listing that waits stays where it is.
		const listers = stack.massnick.listers();
		let probes = 0;
		let pages = 0;
		for (let round = 0; round < 4; round++) {
			for (const { rest } of listers) await rest.get(Routes.guildMembers(guildId), { query: new URLSearchParams({ limit: '1' }) });
			probes += listers.length;
			const { requests } = await stack.control.requests(from);
			pages = requests.filter((request) => request.method === 'GET' && request.route === '/guilds/:id/members' && request.status === 200).length - probes;
			const asked = pages;
			await waitUntil(() => job.progress.snapshot().total >= asked * 1000, { what: `the listing to hand out ${asked} pages` });
		}
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
