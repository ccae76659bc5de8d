import { percentile } from '../percentile.js';
import type { EventLoopDelay } from '../readEventLoopDelay.js';
import { backlogOverTime } from './backlogOverTime.js';
import type { JoinLatencies } from './joinLatencies.js';

/** One subject following the rule through the burst, measured from the sandbox's side, in Discord seconds. */
export interface JoinBurstRunResult {
	readonly label: string;
	readonly workers: number;
	readonly status: 'measured' | 'failed';
	readonly reason: string | null;
	readonly joiners: number;
	/** Joiners the guild shows timed out at the end, with a timeout answered for them. */
	readonly timedOut: number;
	/** Joiners timed out more than once (each should be timed out exactly once). */
	readonly timedOutAgain: number;
	/** Anyone else timed out, by the guild's members or by an answered write of the subject: 0, or the run failed. */
	readonly outsideTouched: number;
	readonly outsideSample: readonly string[];
	/** From the first join to the last, on Discord's clock. */
	readonly burstSeconds: number | null;
	/** From each joiner's join to their timeout, on Discord's clock: the median, the 99th percentile, the longest. */
	readonly p50Seconds: number | null;
	readonly p99Seconds: number | null;
	readonly maxSeconds: number | null;
	/** From the first join to the last timeout, on Discord's clock. */
	readonly drainedSeconds: number | null;
	/** The joiners not yet timed out, every {@link backlogStepSeconds} on Discord's clock from the first join. */
	readonly backlogStepSeconds: number;
	readonly backlog: readonly number[];
	/** How many joiners each worker owns, `(id >> 22) % workers`: the fullest one's queue is the last to drain. */
	readonly joinersPerWorker: readonly number[];
	/** Every request of the subject's tokens (boss and workers) from the rule's start to the last timeout, by route. */
	readonly requests: number;
	readonly requestsByRoute: Readonly<Record<string, number>>;
	/** The 429s its tokens got from the rule's start to the end of the run. */
	readonly rateLimited429: number;
	/** The share of both cores busy from the first join to the end of the run, whoever used them. */
	readonly machineBusy: number | null;
	/** massnick's event-loop delay from the first join to the last timeout (readEventLoopDelay.ts): a process short of CPU shows tens of ms. */
	readonly eventLoopDelay: EventLoopDelay | null;
}

export interface JoinBurstRunInput {
	label: string;
	workers: number;
	timeScale: number;
	backlogStepSeconds: number;
	joiners: number;
	latencies: JoinLatencies;
	/** Joiners the guild shows timed out at the end. */
	timedOutInGuild: number;
	/** Members outside the burst the guild shows timed out at the end. */
	outsideInGuild: readonly string[];
	/** When the first and the last joiner joined (Unix ms), by the guild's record. */
	firstJoinAt: number;
	lastJoinAt: number;
	joinersPerWorker: readonly number[];
	requests: number;
	requestsByRoute: Readonly<Record<string, number>>;
	rateLimited429: number;
	machineBusy: number | null;
	eventLoopDelay: EventLoopDelay | null;
}

/**
 * The run's figures on Discord's clock: the sandbox's milliseconds × the time scale (its own
 * answer times are multiplied too, so they err long). A run that left a joiner without a timeout,
 * timed one out twice, or touched anyone else, failed.
 */
export function joinBurstRunResult(input: JoinBurstRunInput): JoinBurstRunResult {
	const { latencies, timeScale } = input;
	const discord = (ms: number | null): number | null => (ms === null ? null : Math.round((ms * timeScale) / 100) / 10);
	const outside = [...new Set([...latencies.outside, ...input.outsideInGuild])].sort();
	const lastTimeout = latencies.handled.reduce<number | null>((latest, { timedOutAt }) => Math.max(latest ?? timedOutAt, timedOutAt), null);
	const stepMs = (input.backlogStepSeconds * 1000) / timeScale;
	const backlog = backlogOverTime(
		[...latencies.handled.map(({ joinedAt }) => joinedAt), ...Array.from({ length: latencies.notTimedOut.length }, () => input.firstJoinAt)],
		latencies.handled.map(({ timedOutAt }) => timedOutAt),
		{ from: input.firstJoinAt, stepMs },
	);
	const timedOut = Math.min(input.timedOutInGuild, latencies.handled.length);
	const reason =
		outside.length > 0
			? `timed out ${outside.length} members outside the burst`
			: timedOut < input.joiners
				? `timed out ${timedOut} of ${input.joiners} joiners`
				: latencies.timedOutAgain.length > 0
					? `timed out ${latencies.timedOutAgain.length} joiners more than once`
					: null;
	return {
		label: input.label,
		workers: input.workers,
		status: reason === null ? 'measured' : 'failed',
		reason,
		joiners: input.joiners,
		timedOut,
		timedOutAgain: latencies.timedOutAgain.length,
		outsideTouched: outside.length,
		outsideSample: outside.slice(0, 5),
		burstSeconds: discord(input.lastJoinAt - input.firstJoinAt),
		p50Seconds: discord(percentile(latencies.latenciesMs, 50)),
		p99Seconds: discord(percentile(latencies.latenciesMs, 99)),
		maxSeconds: discord(latencies.latenciesMs.at(-1) ?? null),
		drainedSeconds: discord(lastTimeout === null ? null : lastTimeout - input.firstJoinAt),
		backlogStepSeconds: input.backlogStepSeconds,
		backlog,
		joinersPerWorker: input.joinersPerWorker,
		requests: input.requests,
		requestsByRoute: input.requestsByRoute,
		rateLimited429: input.rateLimited429,
		machineBusy: input.machineBusy,
		eventLoopDelay: input.eventLoopDelay,
	};
}

/** A run that could not be measured (the sandbox or massnick did not start, the rule did not follow, the joiners were not all timed out in time). */
export function failedJoinBurstRun(base: Pick<JoinBurstRunResult, 'label' | 'workers' | 'joiners' | 'backlogStepSeconds'>, reason: string): JoinBurstRunResult {
	return {
		...base,
		status: 'failed',
		reason,
		timedOut: 0,
		timedOutAgain: 0,
		outsideTouched: 0,
		outsideSample: [],
		burstSeconds: null,
		p50Seconds: null,
		p99Seconds: null,
		maxSeconds: null,
		drainedSeconds: null,
		backlog: [],
		joinersPerWorker: [],
		requests: 0,
		requestsByRoute: {},
		rateLimited429: 0,
		machineBusy: null,
		eventLoopDelay: null,
	};
}
