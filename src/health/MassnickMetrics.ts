import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { INVALID_REQUEST_LIMIT, INVALID_REQUEST_WINDOW_MS, type InvalidRequestGuard } from '../discord/InvalidRequestGuard.js';
import type { Job, WorkerSnapshot } from '../jobs/index.js';
import type { WorkerState } from '../workers/Worker.js';

/** What the gauges read at each scrape: the running job, the standing rules, this process's workers and its guard. */
export interface MetricsSource {
	readonly jobs: { readonly current: Job | undefined; readonly rules: { readonly all: readonly Job[] } };
	readonly fleet: {
		readonly guard: InvalidRequestGuard;
		readonly workers: ReadonlyArray<{ readonly index: number; readonly state: WorkerState }>;
	};
}

const WORKER_STATES: readonly WorkerState[] = ['offline', 'connecting', 'ready', 'reconnecting', 'revoked', 'stopped'];

/** A standing rule answers a member's event within seconds; past two minutes it is stuck. */
const RULE_LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * massnick's Prometheus metrics, in a registry of their own (never prom-client's global one),
 * with Node's process metrics beside them. Counters are fed as things happen (a job's events);
 * gauges read the running job, the workers and the invalid-request guard at each scrape, so a
 * scrape costs nothing between scrapes. Every name and label is documented in docs/operating.md.
 */
export class MassnickMetrics {
	readonly registry = new Registry();
	/** Seconds from the member event a standing rule answers (a join, a change) to its change landing, by action. */
	readonly #ruleLatency: Histogram<'action'>;
	readonly #changes: Counter<'action' | 'mode' | 'worker'>;
	readonly #failures: Counter<'action' | 'mode' | 'worker' | 'reason'>;
	readonly #jobsEnded: Counter<'action' | 'mode' | 'state'>;
	readonly #ready: () => boolean;
	#source: MetricsSource | undefined;

	/** `ready`: whether `/readyz` answers ready now (see `ServiceHealth`), for `massnick_ready`. */
	constructor(ready: () => boolean) {
		this.#ready = ready;
		const registers = [this.registry];
		collectDefaultMetrics({ register: this.registry });
		this.#changes = new Counter({
			name: 'massnick_changes_total',
			help: "Members changed by jobs (a rename, a role given or taken, a timeout, a kick, a ban, or a restore's undo), by action, mode and worker; dry runs change nothing and are not counted.",
			labelNames: ['action', 'mode', 'worker'],
			registers,
		});
		this.#failures = new Counter({
			name: 'massnick_failures_total',
			help: 'Members a job could not change, by action, mode, worker and reason (missing-permissions, http-502, timeout, worker-stopped, ...).',
			labelNames: ['action', 'mode', 'worker', 'reason'],
			registers,
		});
		this.#jobsEnded = new Counter({
			name: 'massnick_jobs_ended_total',
			help: 'Jobs that ended, by action, mode and how they ended (finished, failed, cancelled); dry runs not counted.',
			labelNames: ['action', 'mode', 'state'],
			registers,
		});
		const metrics = this;
		new Gauge({
			name: 'massnick_jobs_running',
			help: 'Jobs sweeping the guild now (0 or 1: one at a time per guild); a standing rule past its sweep is counted in massnick_rules_running, dry runs and counts in neither.',
			registers,
			collect() {
				this.set(metrics.#changingJob() ? 1 : 0);
			},
		});
		new Gauge({
			name: 'massnick_queue_depth',
			help: "Members listed for the running job (and the standing rules) and not yet sent, waiting in each worker's queue, by worker; 0 with nothing running.",
			labelNames: ['worker'],
			registers,
			collect() {
				this.reset();
				const queued = metrics.#perWorker((worker) => worker.queued);
				for (const worker of metrics.#source?.fleet.workers ?? []) this.set({ worker: String(worker.index) }, queued.get(worker.index) ?? 0);
			},
		});
		new Gauge({
			name: 'massnick_in_flight',
			help: "The running job's (and the standing rules') changes sent and not yet answered, by worker; 0 with nothing running.",
			labelNames: ['worker'],
			registers,
			collect() {
				this.reset();
				const inFlight = metrics.#perWorker((worker) => worker.inFlight);
				for (const worker of metrics.#source?.fleet.workers ?? []) this.set({ worker: String(worker.index) }, inFlight.get(worker.index) ?? 0);
			},
		});
		new Gauge({
			name: 'massnick_workers',
			help: "This process's workers by state (offline, connecting, ready, reconnecting, revoked, stopped).",
			labelNames: ['state'],
			registers,
			collect() {
				const workers = metrics.#source?.fleet.workers ?? [];
				for (const state of WORKER_STATES) this.set({ state }, workers.filter((worker) => worker.state === state).length);
			},
		});
		new Counter({
			name: 'massnick_rate_limited_total',
			help: "429 answers to this process's bots, by X-RateLimit-Scope (user, global, shared; none when Discord sent no scope).",
			labelNames: ['scope'],
			registers,
			collect() {
				this.reset();
				const totals = metrics.#source?.fleet.guard.totals.rateLimitedByScope;
				if (totals) for (const [scope, count] of Object.entries(totals)) this.inc({ scope }, count);
			},
		});
		new Counter({
			name: 'massnick_invalid_requests_total',
			help: "401, 403 and 429 answers to this process's bots that count towards Discord's invalid-request limit (a shared 429 does not), by status.",
			labelNames: ['status'],
			registers,
			collect() {
				this.reset();
				const totals = metrics.#source?.fleet.guard.totals.byStatus;
				if (totals) for (const [status, count] of Object.entries(totals)) this.inc({ status }, count);
			},
		});
		new Gauge({
			name: 'massnick_invalid_requests',
			help: `Invalid answers (401, 403, 429 but shared) within the last ${INVALID_REQUEST_WINDOW_MS / 60_000} minutes, as the guard counts them; it holds new requests at massnick_invalid_request_budget.`,
			registers,
			collect() {
				this.set(metrics.#source?.fleet.guard.count ?? 0);
			},
		});
		new Gauge({
			name: 'massnick_invalid_request_budget',
			help: 'safety.invalidRequestBudget: invalid answers within the window at which the process holds new requests.',
			registers,
			collect() {
				const guard = metrics.#source?.fleet.guard;
				if (guard) this.set(guard.budget);
			},
		});
		new Gauge({
			name: 'massnick_invalid_request_limit',
			help: `Discord's ceiling: ${INVALID_REQUEST_LIMIT} invalid answers per ${INVALID_REQUEST_WINDOW_MS / 60_000} minutes from one IP address, past which it blocks the address for a while.`,
			registers,
		}).set(INVALID_REQUEST_LIMIT);
		new Gauge({
			name: 'massnick_ready',
			help: 'Whether /readyz answers ready: the boss logged in and the guild reachable (1) or not (0).',
			registers,
			collect() {
				this.set(metrics.#ready() ? 1 : 0);
			},
		});
		new Gauge({
			name: 'massnick_rules_running',
			help: 'Standing rules (jobs with keep) running now: the one still sweeping the guild and those following joins and changes.',
			registers,
			collect() {
				this.set(metrics.#source?.jobs.rules.all.length ?? 0);
			},
		});
		this.#ruleLatency = new Histogram({
			name: 'massnick_rule_latency_seconds',
			help: "Seconds from a member's event (their join, or their change reaching massnick) to a standing rule's change landing, by action: one per joiner or member who changed that a rule changed.",
			labelNames: ['action'],
			buckets: RULE_LATENCY_BUCKETS,
			registers,
		});
	}

	/** The Prometheus text format's content type, for the `/metrics` answer. */
	get contentType(): string {
		return this.registry.contentType;
	}

	/** Every metric in the Prometheus text format, read now. */
	text(): Promise<string> {
		return this.registry.metrics();
	}

	/**
	 * Counts `job`'s changes and failures from its progress's events, and its end (give it as
	 * `observeJobs`); for a standing rule, the latency of each change it makes to a joiner or a
	 * member who changed. A dry run changes nothing, so it is not counted.
	 */
	readonly watchJob = (job: Job): void => {
		if (job.dryRun) return;
		const labels = { action: job.action.type, mode: job.mode };
		const onOutcome = (worker: number, outcome: string): void => {
			if (outcome === 'changed') this.#changes.inc({ ...labels, worker: String(worker) });
		};
		const onFailure = (worker: number, reason: string): void => this.#failures.inc({ ...labels, worker: String(worker), reason });
		// A job without keep takes joiners too while it sweeps, but only a rule's answer to them is its latency.
		const onFollowed = (_worker: number, latencyMs: number): void => this.#ruleLatency.observe({ action: labels.action }, latencyMs / 1000);
		job.progress.on('outcome', onOutcome);
		job.progress.on('failure', onFailure);
		if (job.keep) job.progress.on('followed', onFollowed);
		void job.ended().then((result) => {
			job.progress.off('outcome', onOutcome);
			job.progress.off('failure', onFailure);
			job.progress.off('followed', onFollowed);
			this.#jobsEnded.inc({ ...labels, state: result.state });
		});
	};

	/** What the gauges read from now on: the started massnick. Before, they read no job and no worker. */
	attach(source: MetricsSource): void {
		this.#source = source;
	}

	/**
	 * `read` of each worker's counts, summed over the jobs changing members now: the running one
	 * and every standing rule following joins.
	 */
	#perWorker(read: (worker: WorkerSnapshot) => number): Map<number, number> {
		const jobs = new Set([this.#changingJob(), ...(this.#source?.jobs.rules.all ?? [])].filter((job) => job !== undefined));
		const sums = new Map<number, number>();
		for (const job of jobs) for (const worker of job.progress.snapshot().workers) sums.set(worker.index, (sums.get(worker.index) ?? 0) + read(worker));
		return sums;
	}

	/** The job changing members now, if any (not a dry run, not one that has ended). */
	#changingJob(): Job | undefined {
		const job = this.#source?.jobs.current;
		return job && !job.dryRun && job.result === undefined ? job : undefined;
	}
}
