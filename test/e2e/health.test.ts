import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '@massnick/discord-sandbox';
import { ServiceHealth } from '../../src/health/index.js';
import type { Job } from '../../src/jobs/Job.js';
import { createLogger } from '../../src/log/createLogger.js';
import { parsePromText, type Scrape } from '../support/promText.js';
import { type Sandbox, type Stack, startMassnickOn } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const NAME = 'Probe {username}';
const WORKERS = 3;

/**
 * `massnick start`'s health checks and metrics (ServiceHealth, as runStart serves it) on a real
 * massnick and the sandbox: readiness from before the login to after the stop, and the metrics
 * while jobs run, each figure checked against what the job counted or what the sandbox answered.
 */
describe('health checks and metrics', () => {
	let sandbox: Sandbox;
	let dataDir: string;
	let health: ServiceHealth;
	let stack: Stack;
	let healthLogs = '';
	const get = (path: string) => fetch(`${health.url}${path}`);
	const scrape = async (): Promise<Scrape> => {
		const response = await get('/metrics');
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
		return parsePromText(await response.text());
	};
	const startJob = async (command: string, options: Record<string, unknown> = {}): Promise<Job> => {
		const previous = stack.massnick.jobs.last;
		const id = await stack.control.invoke(sandbox.guildId, sandbox.ownerId, command, options, sandbox.channelId);
		await stack.control.waitForResponses(id, 1);
		await waitUntil(() => stack.massnick.jobs.last !== previous && stack.massnick.jobs.last !== undefined, { what: `/${command} to start` });
		return stack.massnick.jobs.last!;
	};
	const ended = async (job: Job): Promise<void> => {
		await waitUntil(() => job.result !== undefined && stack.massnick.jobs.current === undefined, { what: 'the job to end', timeoutMs: 60_000 });
	};

	beforeAll(async () => {
		sandbox = await startSandbox({ members: 300, workers: WORKERS, seed: 26, timeScale: 20 });
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-health-'));
		const destination = new Writable({
			write(chunk: Buffer, _encoding, callback) {
				healthLogs += chunk.toString();
				callback();
			},
		});
		health = await ServiceHealth.serve(
			{ host: '127.0.0.1', port: 0 },
			createLogger({ level: 'debug', secrets: [sandbox.bossToken, ...sandbox.workerTokens], destination }),
		);
	}, 60_000);

	afterAll(async () => {
		await health?.close();
		await sandbox?.close();
		await rm(dataDir, { recursive: true, force: true });
	});

	it('before the login /healthz answers and /readyz does not; once the boss is logged in, it is ready', async () => {
		expect(healthLogs).toContain(`"url":"${health.url}"`);
		const alive = await get('/healthz');
		expect([alive.status, await alive.text()]).toEqual([200, 'ok\n']);
		const starting = await get('/readyz');
		expect([starting.status, await starting.text()]).toEqual([503, 'not ready: starting: the boss has not logged in yet\n']);
		const before = await scrape();
		expect(before.sum('massnick_ready')).toBe(0);
		expect(before.types.get('massnick_changes_total')).toBe('counter');

		stack = await startMassnickOn(sandbox, dataDir, sandbox.workerTokens, undefined, { observeJobs: health.metrics.watchJob });
		health.running(stack.massnick, sandbox.guildId);
		const ready = await get('/readyz');
		expect([ready.status, await ready.text()]).toEqual([200, 'ready\n']);
		const after = await scrape();
		expect(after.sum('massnick_ready')).toBe(1);
		expect(after.find('massnick_workers', { state: 'ready' })[0]?.value).toBe(WORKERS);
		expect(after.sum('massnick_jobs_running')).toBe(0);
	}, 60_000);

	it('while a job runs, /metrics counts its changes per action and worker, its queues and the job running; after, they match the job', async () => {
		const job = await startJob('massnick', { name: NAME });
		let midRun: Scrape | undefined;
		let queuedSeen = 0;
		await waitUntil(
			async () => {
				const now = await scrape();
				if (job.result !== undefined) throw new Error('the job ended before every worker had changed a member in a scrape');
				queuedSeen = Math.max(queuedSeen, now.sum('massnick_queue_depth'));
				const changed = [0, 1, 2].map((worker) => now.sum('massnick_changes_total', { action: 'nickname', mode: 'apply', worker: String(worker) }));
				if (changed.every((count) => count > 0) && now.sum('massnick_jobs_running') === 1) midRun = now;
				return midRun !== undefined;
			},
			{ what: 'a scrape showing changes by every worker while the job runs' },
		);
		const during = midRun!;
		expect(during.sum('massnick_jobs_running')).toBe(1);
		expect(during.find('massnick_queue_depth').map((sample) => sample.labels.worker)).toEqual(['0', '1', '2']);
		expect(during.find('massnick_in_flight').map((sample) => sample.labels.worker)).toEqual(['0', '1', '2']);
		// The listing hands a whole page out at once, faster than three workers change 300 members.
		expect(queuedSeen).toBeGreaterThan(0);
		for (const family of ['massnick_rules_running', 'massnick_rule_latency_seconds', 'process_cpu_seconds_total', 'nodejs_eventloop_lag_seconds']) {
			expect(during.types.has(family), family).toBe(true);
		}
		expect(during.sum('massnick_rules_running')).toBe(0);
		expect(during.sum('massnick_rule_latency_seconds_count')).toBe(0);

		await ended(job);
		expect(job.result?.state).toBe('finished');
		const after = await scrape();
		const counted = job.progress.snapshot();
		expect(counted.changed).toBeGreaterThan(0);
		for (const worker of counted.workers) {
			expect(after.sum('massnick_changes_total', { action: 'nickname', mode: 'apply', worker: String(worker.index) }), `worker ${worker.index}`).toBe(
				worker.changed,
			);
		}
		expect(after.sum('massnick_failures_total')).toBe(counted.failed);
		expect(after.find('massnick_jobs_ended_total', { action: 'nickname', mode: 'apply', state: 'finished' })[0]?.value).toBe(1);
		expect(after.sum('massnick_jobs_running')).toBe(0);
		expect(after.sum('massnick_queue_depth')).toBe(0);
	}, 90_000);

	it('429s are counted by scope, as the sandbox sent them, and a shared 429 is not an invalid request', async () => {
		const from = (await stack.control.requests(0, 1)).lastSeq;
		const before = await scrape();
		// A guild-wide write limit below the three workers' pace: Discord answers 429, scope shared.
		await stack.control.faults({ sharedWriteLimit: { limit: 20, windowMs: 10_000 } });
		const job = await startJob('restore');
		await ended(job);
		await stack.control.faults({ resetFaults: true });
		expect(job.result?.state).toBe('finished');
		const after = await scrape();
		const { requests } = await stack.control.requests(from);
		const answered = (status: number, scope?: string) =>
			requests.filter((request) => request.status === status && (scope === undefined || request.scope === scope)).length;
		const delta = (name: string, labels: Record<string, string>) => after.sum(name, labels) - before.sum(name, labels);
		expect(answered(429, 'shared')).toBeGreaterThan(0);
		expect(delta('massnick_rate_limited_total', { scope: 'shared' })).toBe(answered(429, 'shared'));
		expect(delta('massnick_rate_limited_total', { scope: 'user' })).toBe(answered(429, 'user'));
		expect(delta('massnick_invalid_requests_total', { status: '429' })).toBe(answered(429) - answered(429, 'shared'));
		expect(after.sum('massnick_invalid_requests')).toBe(after.sum('massnick_invalid_requests_total'));
		expect(after.sum('massnick_invalid_request_limit')).toBe(10_000);
		expect(after.sum('massnick_invalid_request_budget')).toBe(stack.config.safety.invalidRequestBudget);
		const undone = job.progress.snapshot();
		for (const worker of undone.workers) {
			expect(after.sum('massnick_changes_total', { action: 'nickname', mode: 'restore', worker: String(worker.index) })).toBe(worker.changed);
		}
	}, 90_000);

	it('a standing rule counts as running while it follows joins, its changes to joiners by action and worker, and each one’s latency from the join', async () => {
		const before = await scrape();
		expect(before.sum('massnick_rules_running')).toBe(0);
		await stack.control.invoke(sandbox.guildId, sandbox.ownerId, 'massnick', { name: 'Kept {username}', keep: true }, sandbox.channelId);
		let rule: Job | undefined;
		await waitUntil(
			() => {
				rule = stack.massnick.jobs.rules.all.find((job) => job.following);
				const sweep = rule?.progress.snapshot();
				return sweep !== undefined && sweep.done >= sweep.total;
			},
			{ what: 'the rule to follow joins', timeoutMs: 60_000 },
		);
		const following = await scrape();
		expect(following.sum('massnick_rules_running')).toBe(1);
		expect(following.sum('massnick_jobs_running')).toBe(0);
		const swept = rule!.progress.snapshot().changed;
		const { ids: joiners } = await stack.control.addMembers(sandbox.guildId, 6);
		await waitUntil(() => rule!.progress.snapshot().changed >= swept + joiners.length, { what: 'the rule to rename the joiners' });
		const after = await scrape();
		const labels = { action: 'nickname', mode: 'apply' };
		for (const worker of rule!.progress.snapshot().workers) {
			const own = { ...labels, worker: String(worker.index) };
			expect(after.sum('massnick_changes_total', own) - before.sum('massnick_changes_total', own), `worker ${worker.index}`).toBe(worker.changed);
		}
		expect(rule!.progress.snapshot().changed).toBeGreaterThanOrEqual(joiners.length);
		// One observation per joiner renamed, from their join (joined_at) to the rename landing: well within the last bucket.
		const latencies = after.sum('massnick_rule_latency_seconds_count', { action: 'nickname' });
		expect(latencies).toBeGreaterThanOrEqual(joiners.length);
		expect(latencies).toBe(rule!.progress.followed.snapshot().changed);
		expect(after.find('massnick_rule_latency_seconds_bucket', { action: 'nickname', le: '120' })[0]?.value).toBe(latencies);
		expect(after.sum('massnick_rule_latency_seconds_sum', { action: 'nickname' })).toBeGreaterThan(0);
		await stack.control.invoke(sandbox.guildId, sandbox.ownerId, 'cancel', { rule: rule!.id }, sandbox.channelId);
		expect((await rule!.ended()).state).toBe('cancelled');
		const ended = await scrape();
		expect(ended.sum('massnick_rules_running')).toBe(0);
		expect(ended.find('massnick_jobs_ended_total', { ...labels, state: 'cancelled' })[0]?.value).toBe(1);
	}, 90_000);

	it('a worker whose token is revoked mid-job: its failures by worker and reason, the 401s, and the worker revoked', async () => {
		const from = (await stack.control.requests(0, 1)).lastSeq;
		const before = await scrape();
		const victim = stack.massnick.fleet.workers[1]!;
		const job = await startJob('massnick', { name: 'Again {username}' });
		await waitUntil(() => job.progress.snapshot().workers[1]!.changed >= 5, { what: 'worker 1 to change a few members' });
		await stack.control.faults({ revokeToken: { appId: victim.client.user!.id } });
		await ended(job);
		expect(job.result?.stoppedWorkers).toEqual([1]);
		const after = await scrape();
		const counted = job.progress.snapshot().workers[1]!;
		expect(counted.failedTotal).toBeGreaterThan(0);
		for (const [reason, count] of Object.entries(counted.failed)) {
			const labels = { action: 'nickname', mode: 'apply', worker: '1', reason };
			expect(after.sum('massnick_failures_total', labels) - before.sum('massnick_failures_total', labels), reason).toBe(count);
		}
		const { requests } = await stack.control.requests(from);
		expect(after.sum('massnick_invalid_requests_total', { status: '401' }) - before.sum('massnick_invalid_requests_total', { status: '401' })).toBe(
			requests.filter((request) => request.status === 401).length,
		);
		expect(after.find('massnick_workers', { state: 'revoked' })[0]?.value).toBe(1);
		expect(after.find('massnick_jobs_ended_total', { action: 'nickname', mode: 'apply', state: 'finished' })[0]?.value).toBe(2);
	}, 90_000);

	it('no answer holds a token', async () => {
		const answers = await Promise.all(['/healthz', '/readyz', '/metrics', '/nothing'].map(async (path) => (await get(path)).text()));
		for (const token of [sandbox.bossToken, ...sandbox.workerTokens]) {
			for (const answer of answers) expect(answer).not.toContain(token);
		}
	});

	it('not ready once a shutdown begins, and after the stop readiness follows the boss: logged out', async () => {
		health.stopping();
		const stopping = await get('/readyz');
		expect([stopping.status, await stopping.text()]).toEqual([503, 'not ready: stopping\n']);
		await stack.close();
		// As if the shutdown had not said so: the boss's own state says it is gone.
		health.running(stack.massnick, sandbox.guildId);
		const gone = await get('/readyz');
		expect([gone.status, await gone.text()]).toEqual([503, 'not ready: the boss is not logged in to Discord\n']);
		expect((await get('/healthz')).status).toBe(200);
	}, 60_000);
});
