import { REST } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { InvalidRequestGuard } from '../../../src/discord/InvalidRequestGuard.js';
import { MassnickMetrics, type MetricsSource } from '../../../src/health/MassnickMetrics.js';
import type { Job, JobResult } from '../../../src/jobs/Job.js';
import { Progress } from '../../../src/jobs/Progress.js';
import { flushPromises } from '../../support/flushPromises.js';
import type { WorkerState } from '../../../src/workers/Worker.js';
import { parsePromText } from '../../support/promText.js';

/** The massnick families, as docs/operating.md lists them. */
const FAMILIES = {
	massnick_changes_total: 'counter',
	massnick_failures_total: 'counter',
	massnick_jobs_ended_total: 'counter',
	massnick_jobs_running: 'gauge',
	massnick_queue_depth: 'gauge',
	massnick_in_flight: 'gauge',
	massnick_workers: 'gauge',
	massnick_rate_limited_total: 'counter',
	massnick_invalid_requests_total: 'counter',
	massnick_invalid_requests: 'gauge',
	massnick_invalid_request_budget: 'gauge',
	massnick_invalid_request_limit: 'gauge',
	massnick_ready: 'gauge',
	massnick_rules_running: 'gauge',
	massnick_rule_latency_seconds: 'histogram',
};

/**
 * What `watchJob` reads of a job, and a hand on its clock: a rule (`keep`) of `type` unless told
 * otherwise, whose progress the test reports into.
 */
function fakeJob(type: string, { keep = true }: { keep?: boolean } = {}) {
	let now = 1_000_000;
	const progress = new Progress([0], () => now);
	let end!: (result: JobResult) => void;
	const ended = new Promise<JobResult>((resolve) => (end = resolve));
	const job = { dryRun: false, keep: keep ? {} : undefined, mode: 'apply', action: { type }, progress, ended: () => ended } as unknown as Job;
	/** A joiner whose change lands `latencyMs` after their join. */
	const joinerChanged = (id: string, latencyMs: number): void => {
		progress.followed.track(id, now);
		now += latencyMs;
		progress.reporter(0).outcome('changed', id);
	};
	return { job, joinerChanged, end };
}

describe('MassnickMetrics', () => {
	it('every family is there from the first scrape, before massnick has started, with Node’s process metrics beside them', async () => {
		const scrape = parsePromText(await new MassnickMetrics(() => false).text());
		const ours = Object.fromEntries([...scrape.types].filter(([name]) => name.startsWith('massnick_')));
		expect(ours).toEqual(FAMILIES);
		expect(scrape.types.get('process_cpu_seconds_total')).toBe('counter');
		expect(scrape.types.get('nodejs_heap_size_used_bytes')).toBe('gauge');
		expect(scrape.sum('massnick_ready')).toBe(0);
		expect(scrape.sum('massnick_jobs_running')).toBe(0);
		expect(scrape.sum('massnick_invalid_request_limit')).toBe(10_000);
		expect(scrape.sum('massnick_rules_running')).toBe(0);
		expect(scrape.sum('massnick_rule_latency_seconds_count')).toBe(0);
	});

	it('two instances keep apart: each has a registry of its own', async () => {
		const one = new MassnickMetrics(() => true);
		const other = new MassnickMetrics(() => false);
		const rule = fakeJob('role-add');
		one.watchJob(rule.job);
		rule.joinerChanged('1', 1_000);
		expect(parsePromText(await one.text()).sum('massnick_rule_latency_seconds_count')).toBe(1);
		expect(parsePromText(await other.text()).sum('massnick_rule_latency_seconds_count')).toBe(0);
		expect(parsePromText(await one.text()).sum('massnick_ready')).toBe(1);
	});

	it('once attached, the gauges read the workers and the guard at each scrape', async () => {
		const metrics = new MassnickMetrics(() => true);
		const guard = new InvalidRequestGuard(500);
		const rest = new REST();
		guard.watch(rest);
		const workers: Array<{ index: number; state: WorkerState }> = [
			{ index: 0, state: 'ready' },
			{ index: 4, state: 'reconnecting' },
			{ index: 7, state: 'ready' },
		];
		const source: MetricsSource = { jobs: { current: undefined, rules: { all: [] } }, fleet: { guard, workers } };
		metrics.attach(source);
		const answer = (status: number, scope?: string) =>
			rest.emit('response', {} as never, new Response(null, { status, headers: scope ? { 'x-ratelimit-scope': scope } : {} }) as never);
		answer(403);
		answer(429, 'user');
		answer(429, 'shared');
		let scrape = parsePromText(await metrics.text());
		expect(scrape.find('massnick_workers', { state: 'ready' })[0]?.value).toBe(2);
		expect(scrape.find('massnick_workers', { state: 'reconnecting' })[0]?.value).toBe(1);
		expect(scrape.find('massnick_queue_depth').map((sample) => [sample.labels.worker, sample.value])).toEqual([
			['0', 0],
			['4', 0],
			['7', 0],
		]);
		expect(scrape.sum('massnick_rate_limited_total', { scope: 'user' })).toBe(1);
		expect(scrape.sum('massnick_rate_limited_total', { scope: 'shared' })).toBe(1);
		expect(scrape.sum('massnick_invalid_requests_total', { status: '403' })).toBe(1);
		expect(scrape.sum('massnick_invalid_requests_total', { status: '429' })).toBe(1);
		expect(scrape.sum('massnick_invalid_requests')).toBe(2);
		expect(scrape.sum('massnick_invalid_request_budget')).toBe(500);
		// A counter read from the guard again at the next scrape counts on, never twice.
		answer(401);
		workers[1]!.state = 'ready';
		scrape = parsePromText(await metrics.text());
		expect(scrape.sum('massnick_invalid_requests_total')).toBe(3);
		expect(scrape.find('massnick_workers', { state: 'ready' })[0]?.value).toBe(3);
	});

	it('a standing rule’s changes to joiners are observed into the histogram’s buckets, by action; a sweep’s are not, nor those after its end', async () => {
		const metrics = new MassnickMetrics(() => true);
		const rule = fakeJob('role-add');
		const sweep = fakeJob('nickname', { keep: false });
		metrics.watchJob(rule.job);
		metrics.watchJob(sweep.job);
		rule.joinerChanged('1', 300);
		rule.joinerChanged('2', 7_000);
		// A job without keep takes joiners while it sweeps: not a rule's latency.
		sweep.joinerChanged('3', 100);
		const scrape = parsePromText(await metrics.text());
		expect(scrape.sum('massnick_rule_latency_seconds_count')).toBe(2);
		expect(scrape.sum('massnick_rule_latency_seconds_count', { action: 'role-add' })).toBe(2);
		expect(scrape.sum('massnick_rule_latency_seconds_sum', { action: 'role-add' })).toBeCloseTo(7.3);
		expect(scrape.find('massnick_rule_latency_seconds_bucket', { action: 'role-add', le: '0.5' })[0]?.value).toBe(1);
		expect(scrape.find('massnick_rule_latency_seconds_bucket', { action: 'role-add', le: '10' })[0]?.value).toBe(2);
		rule.end({ state: 'cancelled', stoppedWorkers: [] });
		await flushPromises();
		rule.joinerChanged('4', 100);
		expect(parsePromText(await metrics.text()).sum('massnick_rule_latency_seconds_count')).toBe(2);
	});
});
