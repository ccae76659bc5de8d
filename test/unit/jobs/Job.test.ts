import { type APIGuildMember, DiscordAPIError, type GuildMemberFlags, type REST, RESTJSONErrorCodes, Routes } from 'discord.js';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { InvalidRequestGuard } from '../../../src/discord/InvalidRequestGuard.js';
import type { MemberRecord } from '../../../src/discord/MemberRecord.js';
import { toMemberRecord } from '../../../src/discord/toMemberRecord.js';
import { ErrorCodes, JobError } from '../../../src/errors.js';
import { Job, type JobOptions, type JobState } from '../../../src/jobs/Job.js';
import { QUEUE_OVERFILL } from '../../../src/jobs/job/pageRoom.js';
import type { ListingClient } from '../../../src/jobs/listMembers.js';
import type { BatchApply, ChangeRequest, ChangeTarget, MassAction, NonMemberReach } from '../../../src/jobs/MassAction.js';
import { DONE, type Plan, type SlotValue } from '../../../src/jobs/Plan.js';
import type { PendingChange } from '../../../src/jobs/runSlice.js';
import type { Fleet } from '../../../src/workers/Fleet.js';
import { workerIndexOf } from '../../../src/workers/partition.js';
import type { WorkerState } from '../../../src/workers/Worker.js';
import { flushPromises } from '../../support/flushPromises.js';

const GUILD_ID = '222222222222222222';
const url = 'http://127.0.0.1/api/v10/guilds/1/members';
const apiError = (status: number, code: number): DiscordAPIError => new DiscordAPIError({ code, message: 'x' }, code, status, 'GET', url, { body: undefined });

/** The i-th member's id: a snowflake made at millisecond 10^11 + i, so owners go round the workers. */
function memberId(i: number): string {
	return String((100_000_000_000n + BigInt(i)) << 22n);
}

/** The same millisecond as member i, a later increment: an id between member i and member i + 1. */
function idAfter(i: number): string {
	return String(BigInt(memberId(i)) + 1n);
}

/** A member's nickname says how the test plan treats them: `done`, `cant`, `skip`, or a change. */
function apiMember(id: string, nick: string | null = null): APIGuildMember {
	return {
		user: { id, username: `user${id}`, global_name: null, discriminator: '0', avatar: null },
		nick,
		roles: [],
		joined_at: '2020-01-01T00:00:00.000Z',
		deaf: false,
		mute: false,
		flags: 0 as GuildMemberFlags,
	};
}

/** Promises that resolve once their condition holds, checked whenever the fake changes: no clock. */
class Waiters {
	#waiters: Array<{ ready: () => boolean; resolve: () => void }> = [];

	until(ready: () => boolean): Promise<void> {
		if (ready()) return Promise.resolve();
		return new Promise((resolve) => this.#waiters.push({ ready, resolve }));
	}

	check(): void {
		for (const waiter of this.#waiters.filter((waiter) => waiter.ready())) {
			this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
			waiter.resolve();
		}
	}
}

/**
 * The guild as List Guild Members serves it: pages of up to `limit` members after `after`, in id
 * order. A test may hold a page (`gate`) or fail a request (`fail`) by its place in the calls.
 */
class FakeGuild {
	readonly members: APIGuildMember[];
	readonly gets: Array<{ label: string; after: string }> = [];
	readonly #waiters = new Waiters();
	gate: (call: number) => Promise<void> | undefined = () => undefined;
	fail: (call: number, label: string) => unknown = () => undefined;

	constructor(members: APIGuildMember[]) {
		this.members = [...members].sort((a, b) => (BigInt(a.user.id) < BigInt(b.user.id) ? -1 : 1));
	}

	lister(label: string): ListingClient {
		const get = async (route: string, options: { query: URLSearchParams; signal?: AbortSignal }): Promise<APIGuildMember[]> => {
			expect(route).toBe(Routes.guildMembers(GUILD_ID));
			const call = this.gets.length;
			const after = BigInt(options.query.get('after') ?? '0');
			const limit = Number(options.query.get('limit'));
			this.gets.push({ label, after: String(after) });
			this.#waiters.check();
			await this.gate(call);
			options.signal?.throwIfAborted();
			const failure = this.fail(call, label);
			if (failure !== undefined) throw failure;
			return this.members.filter((member) => BigInt(member.user.id) > after).slice(0, limit);
		};
		return { label, rest: { get } as unknown as REST };
	}

	waitForGets(count: number): Promise<void> {
		return this.#waiters.until(() => this.gets.length >= count);
	}
}

interface FakeWorker {
	readonly index: number;
	readonly label: string;
	state: WorkerState;
	readonly client: { rest: REST };
	markRevoked(): void;
}

/**
 * What the job uses of a fleet: its workers' states and REST clients, and the shared guard. A
 * fleet of `size` workers, of which this process holds `held` (all by default).
 */
function fakeFleet(size: number, held?: readonly number[]): { fleet: Fleet; workers: FakeWorker[]; workerOf: (rest: REST) => number } {
	const ids = held ?? Array.from({ length: size }, (_, id) => id);
	const workers = ids.map(
		(index): FakeWorker => ({
			index,
			label: `worker ${index}`,
			state: 'ready',
			// Only its identity matters: the fake action reads which worker's client it was handed.
			client: { rest: { worker: index } as unknown as REST },
			markRevoked() {
				this.state = 'revoked';
			},
		}),
	);
	const fleet = {
		workers,
		size: workers.length,
		count: size,
		get: (id: number) => workers.find((worker) => worker.index === id),
		guard: new InvalidRequestGuard(10_000),
		get active() {
			return workers.filter((worker) => worker.state === 'ready' || worker.state === 'reconnecting');
		},
	};
	const workerOf = (rest: REST): number => workers.find((worker) => worker.client.rest === rest)!.index;
	return { fleet: fleet as unknown as Fleet, workers, workerOf };
}

interface Applied {
	worker: number;
	memberId: string;
	to: SlotValue;
	request: ChangeRequest;
}

/** An action that sends nothing: it records each change and which worker's client sent it. */
class FakeAction implements MassAction {
	readonly type = 'fake';
	readonly target = 'target';
	readonly permission = 0n;
	readonly words = { doing: 'Faking', undoing: 'Unfaking', changed: 'faked', holds: 'fake' };
	readonly applied: Applied[] = [];
	readonly #waiters = new Waiters();
	/** How each request ends; by default at once, successfully. */
	respond: (applied: Applied) => Promise<void> = async () => {};

	constructor(readonly workerOf: (rest: REST) => number) {}

	plan(): Plan {
		throw new Error('the job plans with its `plan` option');
	}

	holds(): boolean {
		return false;
	}

	outOfReach(): string | undefined {
		return undefined;
	}

	async apply(target: ChangeTarget, memberId: string, to: SlotValue, request: ChangeRequest): Promise<void> {
		expect(target.guildId).toBe(GUILD_ID);
		const applied = { worker: this.workerOf(target.rest), memberId, to, request };
		this.applied.push(applied);
		this.#waiters.check();
		return this.respond(applied);
	}

	waitForApplied(count: number): Promise<void> {
		return this.#waiters.until(() => this.applied.length >= count);
	}

	/** How many times each member was sent a change. */
	timesApplied(): Map<string, number> {
		const times = new Map<string, number>();
		for (const { memberId } of this.applied) times.set(memberId, (times.get(memberId) ?? 0) + 1);
		return times;
	}
}

/** A request that stays out until its signal aborts, as one waiting on a rate-limit reset. */
function heldUntilAborted(applied: Applied): Promise<void> {
	const { signal } = applied.request;
	return new Promise((_, reject) => {
		if (signal.aborted) reject(signal.reason);
		signal.addEventListener('abort', () => reject(signal.reason), { once: true });
	});
}

/** The test plan: by nickname, `done`, `cant`, `skip`, or else a change to `new`. */
function planByNick(member: MemberRecord): Plan {
	switch (member.nick) {
		case 'done':
			return DONE;
		case 'cant':
			return { action: 'cant', reason: 'above-worker' };
		case 'skip':
			return { action: 'skip', reason: 'own-bot' };
		default:
			return { action: 'change', from: member.nick, to: 'new' };
	}
}

interface Setup {
	job: Job;
	guild: FakeGuild;
	action: FakeAction;
	workers: FakeWorker[];
	/** How many times each member was planned. */
	planned: Map<string, number>;
	states: JobState[];
	logs: string[];
}

function setup(
	options: {
		members?: APIGuildMember[];
		count?: number;
		size?: number;
		held?: number[];
		listerLabels?: string[];
		/** Gives the fake action a batched path. */
		batch?: (action: FakeAction) => BatchApply;
		/** Makes the fake action reach users who are not members. */
		nonMembers?: NonMemberReach;
	} & Partial<JobOptions> = {},
): Setup {
	const { members, count = 0, size = 3, held, listerLabels = ['the boss'], batch, nonMembers, ...rest } = options;
	const guild = new FakeGuild(members ?? Array.from({ length: count }, (_, i) => apiMember(memberId(i))));
	const { fleet, workers, workerOf } = fakeFleet(size, held);
	const action = new FakeAction(workerOf);
	if (batch) Object.assign(action, { applyBatch: batch(action) });
	if (nonMembers) Object.assign(action, { nonMembers });
	const planned = new Map<string, number>();
	const logs: string[] = [];
	const job = new Job({
		id: 'job-1',
		action,
		mode: 'apply',
		dryRun: false,
		startedBy: { id: '1', tag: 'mod' },
		fleet,
		listers: listerLabels.map((label) => guild.lister(label)),
		guildId: GUILD_ID,
		plan: (member) => {
			planned.set(member.id, (planned.get(member.id) ?? 0) + 1);
			return planByNick(member);
		},
		reason: 'test',
		maxInFlight: 4,
		retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
		logger: pino({ level: 'info' }, { write: (line: string) => void logs.push(line) }),
		...rest,
	});
	const states: JobState[] = [job.state];
	job.on('state', (state) => states.push(state));
	return { job, guild, action, workers, planned, states, logs };
}

/** How many of `ids` each worker owns among `size`. */
function owned(ids: string[], size: number): number[] {
	const counts = Array.from({ length: size }, () => 0);
	for (const id of ids) counts[workerIndexOf(id, size)]!++;
	return counts;
}

describe('Job', () => {
	it('every member is planned once and changed once, by the worker that owns them', async () => {
		const { job, action, planned, guild } = setup({ count: 2500, size: 3 });
		const result = await job.run();
		expect(result).toEqual({ state: 'finished', stoppedWorkers: [] });
		const ids = guild.members.map((member) => member.user.id);
		expect([...planned.values()].every((times) => times === 1)).toBe(true);
		expect([...planned.keys()].sort()).toEqual([...ids].sort());
		const times = action.timesApplied();
		expect(times.size).toBe(2500);
		expect([...times.values()].every((count) => count === 1)).toBe(true);
		for (const applied of action.applied) expect(applied.worker).toBe(workerIndexOf(applied.memberId, 3));
		expect(action.applied.every((applied) => applied.to === 'new' && applied.request.reason === 'test')).toBe(true);
		// Three pages: 1000, 1000 and 500 (a short page ends the listing).
		expect(guild.gets.map((get) => get.after)).toEqual(['0', memberId(999), memberId(1999)]);
	});

	it('progress adds up: changed, already done, can’t and skipped make the total, per worker and in all', async () => {
		const nicks = [null, 'done', 'cant', 'skip'];
		const members = Array.from({ length: 1200 }, (_, i) => apiMember(memberId(i), nicks[i % 4]!));
		const { job, action } = setup({ members, size: 3 });
		await job.run();
		const snapshot = job.progress.snapshot();
		expect(snapshot).toMatchObject({
			total: 1200,
			done: 1200,
			remaining: 0,
			changed: 300,
			alreadyDone: 300,
			cant: 300,
			skipped: 300,
			left: 0,
			failed: 0,
			inFlight: 0,
			listingDone: true,
		});
		expect(action.applied).toHaveLength(300);
		const ids = members.map((member) => member.user.id);
		expect(snapshot.workers.map((worker) => worker.inSlice)).toEqual(owned(ids, 3));
		for (const worker of snapshot.workers) expect(worker.done).toBe(worker.inSlice);
	});

	it('its progress tells each outcome and failure as an event with the owner worker’s id, matching its counts', async () => {
		const nicks = [null, 'done', 'cant', 'fail'];
		const members = Array.from({ length: 120 }, (_, i) => apiMember(memberId(i), nicks[i % 4]!));
		const { job, action } = setup({ members, size: 3 });
		action.respond = async (applied) => {
			if (members.find((member) => member.user.id === applied.memberId)!.nick === 'fail') throw apiError(403, RESTJSONErrorCodes.MissingPermissions);
		};
		const told = new Map<string, number>();
		const tell = (key: string) => told.set(key, (told.get(key) ?? 0) + 1);
		job.progress.on('outcome', (worker, outcome) => tell(`${worker} ${outcome}`));
		job.progress.on('failure', (worker, reason) => tell(`${worker} failed ${reason}`));
		await job.run();
		const counted = new Map<string, number>();
		for (const worker of job.progress.snapshot().workers) {
			for (const [key, count] of [
				[`${worker.index} changed`, worker.changed],
				[`${worker.index} alreadyDone`, worker.alreadyDone],
				[`${worker.index} cant`, worker.cant],
				[`${worker.index} failed missing-permissions`, worker.failed['missing-permissions'] ?? 0],
			] as const) {
				if (count > 0) counted.set(key, count);
			}
		}
		expect(told).toEqual(counted);
		expect([...told.values()].reduce((sum, count) => sum + count, 0)).toBe(120);
	});

	it('its progress counts what waits in each worker’s queue as queued, by worker id', async () => {
		const { job, action, guild } = setup({ count: 1000, size: 3, held: [0, 2] });
		action.respond = heldUntilAborted;
		const run = job.run();
		await guild.waitForGets(1);
		await flushPromises();
		const owners = owned(
			guild.members.map((member) => member.user.id),
			3,
		);
		// Each worker sent the first change it took (alone, until its bucket is known); the rest wait in its queue.
		const queued = job.progress.snapshot().workers.map((worker) => [worker.index, worker.queued, worker.inFlight]);
		expect(queued).toEqual([
			[0, owners[0]! - 1, 1],
			[2, owners[2]! - 1, 1],
		]);
		job.cancel(0);
		expect((await run).state).toBe('cancelled');
	});

	it('goes planned → running → finished, and ended() resolves with the result', async () => {
		const { job, states } = setup({ count: 10 });
		expect(job.state).toBe('planned');
		const ended = job.ended();
		const result = await job.run();
		expect(await ended).toBe(result);
		expect(job.result).toBe(result);
		expect(states).toEqual(['planned', 'running', 'finished']);
		expect(job.listingDone).toBe(true);
	});

	it('a dry run sends and journals nothing, but counts each change it would make', async () => {
		const journaled: PendingChange[] = [];
		const members = Array.from({ length: 20 }, (_, i) => apiMember(memberId(i), i < 5 ? 'done' : null));
		const { job, action } = setup({ members, dryRun: true, beforeChange: async (changes) => void journaled.push(...changes) });
		await job.run();
		expect(action.applied).toEqual([]);
		expect(journaled).toEqual([]);
		expect(job.progress.snapshot()).toMatchObject({ changed: 15, alreadyDone: 5, done: 20 });
	});

	it('journals each change before it is sent', async () => {
		const journaled = new Set<string>();
		const { job, action } = setup({
			count: 50,
			beforeChange: async (changes) => {
				for (const change of changes) {
					expect(change).toEqual({ id: change.id, from: null, to: 'new' });
					journaled.add(change.id);
				}
			},
		});
		action.respond = async ({ memberId }) => {
			expect(journaled.has(memberId)).toBe(true);
		};
		expect((await job.run()).state).toBe('finished');
		expect(journaled.size).toBe(50);
	});

	it('a journal that cannot be written fails the job with its error and stops the listing', async () => {
		const diskFull = new Error('disk full');
		const { job, action, guild, states } = setup({
			count: 5000,
			beforeChange: async () => {
				throw diskFull;
			},
		});
		const result = await job.run();
		expect(result.state).toBe('failed');
		expect(result.error).toBe(diskFull);
		expect(action.applied).toEqual([]);
		expect(guild.gets.length).toBeLessThan(5);
		expect(states.at(-1)).toBe('failed');
	});

	it('a cancel mid-run ends cancelled: no member is taken after it, and what is held is dropped after the grace period', async () => {
		const { job, action, guild, states } = setup({ count: 5000, size: 3, maxInFlight: 2 });
		action.respond = heldUntilAborted;
		const run = job.run();
		// The first change of each slice goes out alone and is held: three requests, then nothing moves.
		await action.waitForApplied(3);
		await flushPromises();
		expect(action.applied).toHaveLength(3);
		job.cancel(20);
		expect(job.state).toBe('cancelling');
		expect(job.signal.aborted).toBe(true);
		const result = await run;
		expect(result).toEqual({ state: 'cancelled', stoppedWorkers: [] });
		expect(states).toEqual(['planned', 'running', 'cancelling', 'cancelled']);
		expect(action.applied.every((applied) => applied.request.signal.aborted)).toBe(true);
		await flushPromises();
		expect(action.applied).toHaveLength(3);
		const snapshot = job.progress.snapshot();
		expect(snapshot.changed).toBe(0);
		expect(snapshot.inFlight).toBe(0);
		expect(snapshot.remaining).toBeGreaterThan(0);
		expect(guild.gets.length).toBeLessThan(5);
	});

	it('a change journaled when the cancel comes still goes out within the grace period', async () => {
		let releaseJournal!: () => void;
		const journal = new Promise<void>((resolve) => {
			releaseJournal = resolve;
		});
		let journalStarted!: () => void;
		const journaling = new Promise<void>((resolve) => {
			journalStarted = resolve;
		});
		const { job, action } = setup({
			count: 30,
			size: 1,
			beforeChange: () => {
				journalStarted();
				return journal;
			},
		});
		const run = job.run();
		await journaling;
		job.cancel(60_000);
		releaseJournal();
		await action.waitForApplied(1);
		expect(action.applied[0]!.request.signal.aborted).toBe(false);
		expect((await run).state).toBe('cancelled');
		expect(action.applied).toHaveLength(1);
		expect(job.progress.snapshot().changed).toBe(1);
	});

	it('nothing is sent after a cancel’s grace period, even a change whose journal write outlasts it', async () => {
		let releaseJournal!: () => void;
		let journalStarted!: () => void;
		const journaling = new Promise<void>((resolve) => {
			journalStarted = resolve;
		});
		const { job, action } = setup({
			count: 30,
			size: 1,
			beforeChange: () => {
				journalStarted();
				return new Promise<void>((resolve) => {
					releaseJournal = resolve;
				});
			},
		});
		const run = job.run();
		await journaling;
		job.cancel(10);
		expect((await run).state).toBe('cancelled');
		releaseJournal();
		await flushPromises();
		expect(action.applied).toEqual([]);
		expect(job.progress.snapshot()).toMatchObject({ changed: 0, failed: 0, inFlight: 0 });
	});

	it('a joiner the listing has yet to reach is assigned once, whether or not the listing returns them', async () => {
		const members = Array.from({ length: 1500 }, (_, i) => apiMember(memberId(i)));
		const { job, action, guild } = setup({ members, size: 2 });
		let releasePage2!: () => void;
		const page2 = new Promise<void>((resolve) => {
			releasePage2 = resolve;
		});
		guild.gate = (call) => (call === 1 ? page2 : undefined);
		const run = job.run();
		// The second page is asked for once the first is handed out: the listing has reached member 999.
		await guild.waitForGets(2);
		const joiners = {
			/** In page 2: the listing returns them too. */
			listedLater: toMemberRecord(members[1200]!),
			/** Above the listing's position, joined after their page was read: the listing never sees them. */
			unlisted: toMemberRecord(apiMember(idAfter(1200))),
			/** Below it (an old account joining now): the listing has passed them. */
			passed: toMemberRecord(apiMember(idAfter(500))),
			/** Past the guild's last member. */
			beyond: toMemberRecord(apiMember(memberId(9000))),
			/** A late join event for a member the listing already handed out. */
			lateEvent: toMemberRecord(members[10]!),
		};
		for (const joiner of Object.values(joiners)) job.memberJoined(joiner);
		releasePage2();
		expect((await run).state).toBe('finished');
		const times = action.timesApplied();
		for (const [name, joiner] of Object.entries(joiners)) expect({ name, times: times.get(joiner.id) }).toEqual({ name, times: 1 });
		expect(times.size).toBe(1503);
		expect([...times.values()].every((count) => count === 1)).toBe(true);
		for (const applied of action.applied) expect(applied.worker).toBe(workerIndexOf(applied.memberId, 2));
		expect(job.progress.snapshot()).toMatchObject({ total: 1503, changed: 1503, remaining: 0 });
	});

	it('a member who leaves is counted left and sent nothing', async () => {
		const members = Array.from({ length: 1500 }, (_, i) => apiMember(memberId(i)));
		const { job, action, guild } = setup({ members, size: 2 });
		let releasePage2!: () => void;
		guild.gate = (call) =>
			call === 1
				? new Promise<void>((resolve) => {
						releasePage2 = resolve;
					})
				: undefined;
		// One leaves before the run, one while the listing has yet to reach them.
		job.memberLeft(memberId(3));
		const run = job.run();
		await guild.waitForGets(2);
		job.memberLeft(memberId(1300));
		releasePage2();
		await run;
		const times = action.timesApplied();
		expect(times.has(memberId(3))).toBe(false);
		expect(times.has(memberId(1300))).toBe(false);
		expect(job.progress.snapshot()).toMatchObject({ total: 1500, changed: 1498, left: 2, failed: 0, remaining: 0 });
	});

	it('a listing the members intent refuses fails the job with a JobError that says what to do', async () => {
		const { job, action, guild, states, logs } = setup({ count: 100 });
		guild.fail = () => apiError(403, RESTJSONErrorCodes.MissingAccess);
		const result = await job.run();
		expect(result.state).toBe('failed');
		expect(result.error).toBeInstanceOf(JobError);
		expect((result.error as JobError).code).toBe(ErrorCodes.MembersIntentDisabled);
		expect(states).toEqual(['planned', 'running', 'failed']);
		expect(action.applied).toEqual([]);
		expect(logs.some((line) => line.includes('job failed'))).toBe(true);
	});

	it('a listing that fails part way fails the job, and the workers stop', async () => {
		const { job, guild } = setup({ count: 5000, size: 2 });
		guild.fail = (call) => (call === 2 ? apiError(400, RESTJSONErrorCodes.InvalidFormBodyOrContentType) : undefined);
		const result = await job.run();
		expect(result.state).toBe('failed');
		expect((result.error as JobError).code).toBe(ErrorCodes.ListingFailed);
		expect(guild.gets).toHaveLength(3);
	});

	it('a listing token revoked mid-listing leaves the rotation; the other lister lists the rest', async () => {
		const { job, action, guild } = setup({ count: 3500, listerLabels: ['the boss', 'worker 1'] });
		guild.fail = (_, label) => (label === 'worker 1' ? apiError(401, 0) : undefined);
		expect((await job.run()).state).toBe('finished');
		expect(action.applied).toHaveLength(3500);
		expect(guild.gets.filter((get) => get.label === 'worker 1')).toHaveLength(1);
	});

	it('a worker whose token is revoked mid-run stops; its members count failed, worker-stopped, and the others finish', async () => {
		const { job, action, workers } = setup({ count: 3000, size: 3 });
		action.respond = async ({ worker }) => {
			if (worker === 1) throw apiError(401, 0);
		};
		const stopped: number[] = [];
		job.on('workerStopped', (worker) => stopped.push(worker.index));
		const result = await job.run();
		expect(result).toEqual({ state: 'finished', stoppedWorkers: [1] });
		expect(stopped).toEqual([1]);
		expect(workers[1]!.state).toBe('revoked');
		const snapshot = job.progress.snapshot();
		const revoked = snapshot.workers[1]!;
		const sentByRevoked = action.applied.filter((applied) => applied.worker === 1).length;
		expect(revoked.changed).toBe(0);
		expect(revoked.failed['token-revoked']).toBe(sentByRevoked);
		expect(revoked.failed['worker-stopped']).toBe(revoked.inSlice - sentByRevoked);
		expect(revoked.done).toBe(revoked.inSlice);
		for (const index of [0, 2]) expect(snapshot.workers[index]).toMatchObject({ changed: snapshot.workers[index]!.inSlice, failedTotal: 0 });
		expect(snapshot.total).toBe(3000);
	});

	it('a worker revoked before the run is sent nothing; its members count failed, worker-stopped', async () => {
		const { job, action, workers } = setup({ count: 600, size: 3 });
		workers[2]!.state = 'revoked';
		const result = await job.run();
		expect(result).toEqual({ state: 'finished', stoppedWorkers: [2] });
		expect(action.applied.some((applied) => applied.worker === 2)).toBe(false);
		const snapshot = job.progress.snapshot();
		expect(snapshot.workers[2]).toMatchObject({ changed: 0, failed: { 'worker-stopped': snapshot.workers[2]!.inSlice } });
		expect(snapshot.remaining).toBe(0);
	});

	it('a job cancelled before it runs never goes back to running', async () => {
		const { job, states } = setup({ count: 10 });
		job.cancel();
		await job.run();
		expect(states).toEqual(['planned', 'cancelling', 'cancelled']);
	});

	it('a worker stopped before the run leaves no member unaccounted for', async () => {
		const { job, workers } = setup({ count: 600, size: 3 });
		workers[1]!.state = 'stopped';
		const result = await job.run();
		expect(result.stoppedWorkers).toEqual([1]);
		expect(job.progress.snapshot().remaining).toBe(0);
	});
});

describe('Job in a fleet split over processes', () => {
	it('a process holding some workers changes only their members; the others are elsewhere, in none of its counts', async () => {
		const { job, action, guild, planned } = setup({ count: 2500, size: 5, held: [1, 3] });
		expect((await job.run()).state).toBe('finished');
		const ids = guild.members.map((member) => member.user.id);
		const owners = owned(ids, 5);
		const mine = ids.filter((id) => [1, 3].includes(workerIndexOf(id, 5)));
		expect(new Set(action.applied.map((applied) => applied.memberId))).toEqual(new Set(mine));
		for (const applied of action.applied) expect(applied.worker).toBe(workerIndexOf(applied.memberId, 5));
		// Members of other processes' workers are not even planned.
		expect([...planned.keys()].sort()).toEqual([...mine].sort());
		const snapshot = job.progress.snapshot();
		expect(snapshot).toMatchObject({ total: mine.length, changed: mine.length, remaining: 0, elsewhere: ids.length - mine.length });
		expect(snapshot.workers.map((worker) => [worker.index, worker.inSlice])).toEqual([
			[1, owners[1]],
			[3, owners[3]],
		]);
	});

	it('processes holding complementary ids together change every member exactly once', async () => {
		const members = Array.from({ length: 1800 }, (_, i) => apiMember(memberId(i)));
		const sent = new Map<string, number>();
		for (const held of [[0, 2], [1], [3]]) {
			const { job, action } = setup({ members, size: 4, held });
			await job.run();
			for (const { memberId: id } of action.applied) sent.set(id, (sent.get(id) ?? 0) + 1);
		}
		expect(sent.size).toBe(1800);
		expect([...sent.values()].every((times) => times === 1)).toBe(true);
	});

	it('a joiner whose worker runs in another process is left to it', async () => {
		const members = Array.from({ length: 1500 }, (_, i) => apiMember(memberId(i)));
		const { job, action, guild } = setup({ members, size: 2, held: [0] });
		let releasePage2!: () => void;
		guild.gate = (call) =>
			call === 1
				? new Promise<void>((resolve) => {
						releasePage2 = resolve;
					})
				: undefined;
		const run = job.run();
		await guild.waitForGets(2);
		// Joined after their page was read: the listing never sees them, so only the join assigns them.
		const joiners = [0, 1, 2, 3].map((i) => toMemberRecord(apiMember(idAfter(200 + i))));
		for (const joiner of joiners) job.memberJoined(joiner);
		releasePage2();
		await run;
		const sent = new Set(action.applied.map((applied) => applied.memberId));
		for (const joiner of joiners) expect(sent.has(joiner.id), joiner.id).toBe(workerIndexOf(joiner.id, 2) === 0);
		expect(job.progress.snapshot().elsewhere).toBe(
			owned(
				members.map((member) => member.user.id),
				2,
			)[1],
		);
	});

	it('a count plans the whole guild, even in a process that holds no worker', async () => {
		const nicks = [null, 'done', 'cant'];
		const members = Array.from({ length: 900 }, (_, i) => apiMember(memberId(i), nicks[i % 3]!));
		const { job, action } = setup({ members, size: 3, held: [], dryRun: true, wholeGuild: true });
		expect((await job.run()).state).toBe('finished');
		expect(action.applied).toEqual([]);
		const snapshot = job.progress.snapshot();
		expect(snapshot).toMatchObject({ total: 900, elsewhere: 0, changed: 300, alreadyDone: 300, cant: 300 });
		expect(snapshot.workers.map((worker) => worker.index)).toEqual([0, 1, 2]);
	});

	it('only a dry run may plan the members of workers held elsewhere', () => {
		expect(() => setup({ count: 1, size: 2, held: [0], wholeGuild: true })).toThrow(RangeError);
	});

	it('a revoked worker of a fleet process is reported by its id', async () => {
		const { job, workers, action, guild } = setup({ count: 600, size: 5, held: [2, 4] });
		workers.find((worker) => worker.index === 4)!.state = 'revoked';
		const result = await job.run();
		expect(result.stoppedWorkers).toEqual([4]);
		const owners = owned(
			guild.members.map((member) => member.user.id),
			5,
		);
		expect(job.progress.snapshot().failedByReason['worker-stopped']).toBe(owners[4]);
		expect(action.applied).toHaveLength(owners[2]!);
	});
});

describe("Job's listing, paced by the workers' queues", () => {
	// 3 workers, maxInFlight 4: each queue holds 667 members (a page's share past 2 × 1000 / 3), and
	// a page of 1000 gives each worker 333 or 334 (these ids go round the workers).
	const PAGES = 40;

	it('stops at a queue past its room when every worker is slow, as one waiting queue would', async () => {
		const { job, action, guild } = setup({ count: PAGES * 1000 });
		action.respond = heldUntilAborted;
		const run = job.run();
		await guild.waitForGets(3);
		await flushPromises();
		// Pages 1 and 2 leave every queue below 667; page 3 fills them past it, and nothing drains.
		expect(guild.gets).toHaveLength(3);
		expect(job.peakQueued).toBeLessThan(job.queueCapacity + 334);
		job.cancel();
		expect((await run).state).toBe('cancelled');
	});

	it('goes on for the workers that run low while one is stalled, up to the overfill bound, and no further', async () => {
		const { job, action, guild } = setup({ count: PAGES * 1000 });
		// Worker 0's requests never come back; the others' come back at once.
		action.respond = (applied) => (applied.worker === 0 ? heldUntilAborted(applied) : Promise.resolve());
		const run = job.run();
		const bound = job.queueCapacity * QUEUE_OVERFILL;
		// Waiting for room in every queue would stop at page 3; workers 1 and 2 drain, so they call
		// the pages in until worker 0 holds the overfill bound.
		await guild.waitForGets(Math.ceil(bound / 333));
		await flushPromises();
		const pages = guild.gets.length;
		expect(pages).toBeLessThan(PAGES);
		expect(job.peakQueued).toBeGreaterThanOrEqual(bound - 4);
		expect(job.peakQueued).toBeLessThan(bound + 334);
		// Everything listed for workers 1 and 2 went out: nobody waited on worker 0 but its own members.
		const listed = guild.members.slice(0, pages * 1000).map((member) => member.user.id);
		const owners = owned(listed, 3);
		expect(action.applied.filter((applied) => applied.worker !== 0)).toHaveLength(owners[1]! + owners[2]!);
		job.cancel();
		expect((await run).state).toBe('cancelled');
	});

	it('an action that sends in batches: each worker sends its own members in calls of at most its size, each journaled whole first', async () => {
		const calls: Array<{ worker: number; ids: string[] }> = [];
		const journaled = new Set<string>();
		const { job, action, guild } = setup({
			count: 2500,
			size: 3,
			beforeChange: async (changes) => void changes.forEach((change) => journaled.add(change.id)),
			batch: (fake) => ({
				size: 200,
				perSecond: 200,
				async send(target, changes) {
					for (const change of changes) expect(journaled.has(change.id)).toBe(true);
					calls.push({ worker: fake.workerOf(target.rest), ids: changes.map((change) => change.id) });
					return { failed: new Map([[changes[0]!.id, 'refused']]) };
				},
			}),
		});
		expect(job.queueCapacity).toBeGreaterThanOrEqual(200);
		expect((await job.run()).state).toBe('finished');
		expect(action.applied).toEqual([]);
		expect(calls.every((call) => call.ids.length <= 200 && call.ids.every((id) => workerIndexOf(id, 3) === call.worker))).toBe(true);
		expect(calls.flatMap((call) => call.ids).sort()).toEqual(guild.members.map((member) => member.user.id).sort());
		expect(job.progress.snapshot()).toMatchObject({ changed: 2500 - calls.length, failedByReason: { refused: calls.length } });
	});

	it('the restore of a batching action goes member by member, through the listing it is given', async () => {
		const banned = Array.from({ length: 30 }, (_, i) => memberId(i));
		const lists: string[] = [];
		const { job, action, guild } = setup({
			size: 3,
			mode: 'restore',
			batch: () => ({ size: 200, perSecond: 200, send: () => Promise.reject(new Error('a restore sends no batch')) }),
			list: async function* (options) {
				lists.push(options.rests.map((rest) => rest.label).join(','));
				yield banned.map((id): MemberRecord => ({ id, username: id, globalName: null, nick: null, roles: [], bot: false, banned: true }));
			},
		});
		expect((await job.run()).state).toBe('finished');
		expect([lists, guild.gets]).toEqual([['the boss'], []]);
		expect([...action.timesApplied().keys()].sort()).toEqual([...banned].sort());
		for (const applied of action.applied) expect(applied.worker).toBe(workerIndexOf(applied.memberId, 3));
	});
});

describe('Job with users who are not members (an action that reaches them, a file of ids)', () => {
	const limitError = new JobError(ErrorCodes.NonMemberBanLimit, 'no more of them for now');
	/** Members 0..9 and, between them, the ids of users who are not members: `idAfter(0..9)`. */
	const members = Array.from({ length: 10 }, (_, i) => apiMember(memberId(i)));
	const strangers = Array.from({ length: 10 }, (_, i) => idAfter(i));
	const sorted = (ids: string[]): string[] => [...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));

	/**
	 * A job over `members` limited to the members and strangers listed, whose action bans in calls
	 * and reaches users who are not members; `banned` are in the ban list; a call holding `refuse`
	 * fails with the limit.
	 */
	function nonMemberJob(
		options: {
			banned?: string[];
			refuse?: (ids: string[]) => boolean;
			filters?: JobOptions['filters'];
			reach?: boolean;
			workers?: number;
			batchSize?: number;
		} = {},
	) {
		const { banned = [], refuse = () => false, reach = true, workers = 3, batchSize = 200 } = options;
		const calls: Array<{ worker: number; ids: string[] }> = [];
		const journaled: string[] = [];
		const banReads: string[] = [];
		const listed = sorted([...members.map((member) => member.user.id), ...strangers]);
		const setupped = setup({
			members,
			size: workers,
			filters: options.filters ?? { userIds: listed },
			plan: (member) => (member.banned ? DONE : planByNick(member)),
			beforeChange: async (changes) => void journaled.push(...changes.map((change) => change.id)),
			doneListing: {
				listers: [{ label: 'worker 0', rest: {} as REST }],
				list: async function* ({ after }) {
					banReads.push(after!);
					const page = sorted(banned).filter((id) => BigInt(id) > BigInt(after!));
					yield page.map((id): MemberRecord => ({ id, username: id, globalName: null, nick: null, roles: [], bot: false, banned: true }));
				},
			},
			batch: (fake) => ({
				size: batchSize,
				perSecond: 200,
				async send(target, changes) {
					const ids = changes.map((change) => change.id);
					for (const id of ids) expect(journaled).toContain(id);
					calls.push({ worker: fake.workerOf(target.rest), ids });
					if (refuse(ids)) throw apiError(400, RESTJSONErrorCodes.MaximumNumberOfNonGuildMemberBansHasBeenExceeded);
					return { failed: new Map() };
				},
			}),
			...(reach
				? { nonMembers: { done: 'bans' as const, limitReached: (error: unknown) => ((error as { code?: number }).code === 30035 ? limitError : undefined) } }
				: {}),
		});
		return { ...setupped, calls, journaled, banReads };
	}

	it('hands them, after the members, to their owner workers in calls of their own, journaled first; those banned already are done', async () => {
		const banned = [strangers[2]!, strangers[7]!];
		const { job, calls, banReads } = nonMemberJob({ banned: [memberId(50), ...banned] });
		expect((await job.run()).state).toBe('finished');
		const memberIds = new Set(members.map((member) => member.user.id));
		const strangerCalls = calls.filter((call) => call.ids.some((id) => !memberIds.has(id)));
		// No call mixes the two, and every member's call went before the first stranger's.
		for (const call of strangerCalls) expect(call.ids.every((id) => !memberIds.has(id))).toBe(true);
		expect(calls.findIndex((call) => strangerCalls.includes(call))).toBe(calls.length - strangerCalls.length);
		for (const call of calls) for (const id of call.ids) expect(workerIndexOf(id, 3)).toBe(call.worker);
		expect(sorted(strangerCalls.flatMap((call) => call.ids))).toEqual(strangers.filter((id) => !banned.includes(id)));
		// The ban list is read from just below the first of them.
		expect(banReads).toEqual([String(BigInt(strangers[0]!) - 1n)]);
		expect(job.nonMembers).toEqual({ handed: 10, changed: 8, alreadyDone: 2, leftAlone: 0, failed: 0, limited: 0 });
		expect(job.progress.snapshot()).toMatchObject({ total: 20, changed: 18, alreadyDone: 2, listingDone: true });
	});

	it('once Discord takes no more of them, the rest are counted failed without a request, and the members are all done', async () => {
		// One worker, two a call: the strangers go in five calls, one after another; Discord refuses the second.
		let strangerCalls = 0;
		const { job, calls } = nonMemberJob({ workers: 1, batchSize: 2, refuse: (ids) => strangers.includes(ids[0]!) && ++strangerCalls === 2 });
		expect((await job.run()).state).toBe('finished');
		expect(calls.filter((call) => strangers.includes(call.ids[0]!)).map((call) => call.ids)).toEqual([strangers.slice(0, 2), strangers.slice(2, 4)]);
		expect(job.nonMembers).toEqual({ handed: 10, changed: 2, alreadyDone: 0, leftAlone: 0, failed: 8, limited: 8, stop: limitError });
		expect(job.progress.snapshot()).toMatchObject({ total: 20, changed: 12, failed: 8, failedByReason: { 'non-member-limit': 8 } });
		expect(calls.flatMap((call) => call.ids).filter((id) => !strangers.includes(id))).toHaveLength(10);
	});

	it('a member call Discord refuses for the limit counts failed and stops the strangers, but not the job', async () => {
		const { job, calls } = nonMemberJob({ refuse: (ids) => ids.includes(memberId(0)) });
		expect((await job.run()).state).toBe('finished');
		expect(calls.some((call) => strangers.includes(call.ids[0]!))).toBe(false);
		const refused = calls.find((call) => call.ids.includes(memberId(0)))!.ids.length;
		expect(job.nonMembers).toMatchObject({ handed: 10, changed: 0, failed: 10, limited: 10, stop: limitError });
		expect(job.progress.snapshot()).toMatchObject({ changed: 10 - refused, failedByReason: { 'non-member-limit': 10 + refused } });
	});

	it('an action that does not reach them, or a filter only a member can pass, sends them nothing', async () => {
		for (const options of [{ reach: false }, { filters: { userIds: sorted(strangers), nameMatches: 'x' } }]) {
			const { job, calls, banReads } = nonMemberJob(options);
			expect((await job.run()).state).toBe('finished');
			expect(calls.flatMap((call) => call.ids).some((id) => strangers.includes(id))).toBe(false);
			expect([job.nonMembers, banReads]).toEqual([undefined, []]);
		}
	});
});

describe('Job with keep (a standing rule)', () => {
	it('after its sweep, each joiner and member who changed is followed to their change, timed from the join or the event; the sweep is not', async () => {
		let now = Date.UTC(2026, 0, 1);
		const { job, action } = setup({ count: 40, size: 2, keep: {}, now: () => now });
		Object.assign(action, { followsChanges: true });
		const told: Array<[worker: number, latencyMs: number]> = [];
		job.progress.on('followed', (worker, latencyMs) => told.push([worker, latencyMs]));
		const following = new Promise<void>((resolve) => job.once('following', () => resolve()));
		const run = job.run();
		await following;
		await action.waitForApplied(40);
		expect(job.following).toBe(true);
		expect(job.progress.followed.snapshot()).toMatchObject({ since: now, changed: 0, lastChangeAt: null });
		expect(told).toEqual([]);

		const joinedAt = now - 300;
		const joiner = toMemberRecord({ ...apiMember(memberId(100)), joined_at: new Date(joinedAt).toISOString() });
		now += 700;
		job.memberJoined(joiner);
		await action.waitForApplied(41);
		await flushPromises();
		// A member of the sweep renaming themself: timed from when the event reached the job.
		const changedAt = now;
		job.memberChanged(toMemberRecord(apiMember(memberId(7), 'renamed')));
		now += 50;
		await action.waitForApplied(42);
		await flushPromises();
		expect(told).toEqual([
			[workerIndexOf(joiner.id, 2), now - 50 - joinedAt],
			[workerIndexOf(memberId(7), 2), now - changedAt],
		]);
		expect(job.progress.followed.snapshot()).toMatchObject({ changed: 2, lastChangeAt: now });
		expect(job.progress.snapshot().changed).toBe(42);

		job.cancel();
		expect((await run).state).toBe('cancelled');
		expect(job.progress.followed.waiting).toBe(0);
	});
});
