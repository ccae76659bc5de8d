import type { RaidRequests } from './measureRaidRequests.js';
import type { BaselineStyle, RaidOperation } from './raidBaselines.js';

/** Who cleans up: massnick with its workers, or a baseline on one token. */
export type RaidSubject = 'massnick' | BaselineStyle;

/** One subject doing one step of the cleanup, measured from the sandbox's side. */
export interface RaidRunResult {
	readonly operation: RaidOperation;
	readonly subject: RaidSubject;
	/** How the report names it: `massnick /massban`, `zeppelin (one ban at a time)`. */
	readonly label: string;
	readonly tokens: number;
	readonly status: 'measured' | 'failed';
	readonly reason: string | null;
	/** The raid's accounts. */
	readonly accounts: number;
	/** The raid accounts the guild shows it done to at the end (banned, timed out, unbanned). */
	readonly done: number;
	/** A baseline stopped at its deadline, with accounts left. */
	readonly stoppedAtDeadline: boolean;
	/** From go to the deadline that stopped it, in ms: the span its rate is measured over (null when not stopped). */
	readonly ranMs: number | null;
	/** From go (massnick's job set going from its preview; the baseline's first request) to the sandbox's answer to the last change, in ms. */
	readonly toLastMs: number | null;
	/** From the sandbox's answer to the first change to its answer to the last. */
	readonly firstToLastMs: number | null;
	/** {@link toLastMs} when every account was done; for a baseline stopped at its deadline, projected from its rate over {@link ranMs}. */
	readonly timeMs: number | null;
	readonly projected: boolean;
	/** Every request of its tokens up to its last change, and its change requests among them. */
	readonly requests: number;
	readonly changeRequests: number;
	readonly rateLimited429: number;
	readonly requestsByRoute: Readonly<Record<string, number>>;
	/** Users outside the raid whose membership, ban or timeout changed, or whom a request named: 0, or the run failed its check. */
	readonly outsideRaidTouched: number;
	/** The first few of them, for a look. */
	readonly outsideRaidSample: readonly string[];
	/** The share of both cores busy during the run, whoever used them (the machine is shared). */
	readonly machineBusy: number | null;
}

export interface RaidRunInput {
	operation: RaidOperation;
	subject: RaidSubject;
	label: string;
	tokens: number;
	accounts: number;
	done: number;
	/** Unix ms of go. */
	startedAt: number;
	/** Unix ms of the deadline that stopped a baseline with accounts left; null when nothing stopped it. */
	stoppedAt: number | null;
	requests: RaidRequests;
	outsideRaid: readonly string[];
	machineBusy: number | null;
}

/**
 * The run's figures, its time projected when a baseline was stopped with accounts left: the
 * time from go to the deadline × accounts ÷ accounts done, the rate it kept over the whole span
 * carried on to the last account (its last change alone would leave out the wait for the next
 * window, and make it look faster). A run that left accounts without being stopped (massnick is
 * never stopped), or that touched someone outside the raid, failed.
 */
export function raidRunResult(input: RaidRunInput): RaidRunResult {
	const { requests } = input;
	const toLastMs = requests.lastChangeAt === null ? null : requests.lastChangeAt - input.startedAt;
	const firstToLastMs = requests.lastChangeAt === null || requests.firstChangeAt === null ? null : requests.lastChangeAt - requests.firstChangeAt;
	const complete = input.done === input.accounts;
	const ranMs = input.stoppedAt === null ? null : input.stoppedAt - input.startedAt;
	const projected = !complete && ranMs !== null && input.done > 0;
	const timeMs = complete ? toLastMs : projected ? Math.round((ranMs! * input.accounts) / input.done) : null;
	const reason =
		input.outsideRaid.length > 0
			? `touched ${input.outsideRaid.length} users outside the raid`
			: !complete && !projected
				? `reached ${input.done} of ${input.accounts} raid accounts`
				: null;
	return {
		operation: input.operation,
		subject: input.subject,
		label: input.label,
		tokens: input.tokens,
		status: reason === null ? 'measured' : 'failed',
		reason,
		accounts: input.accounts,
		done: input.done,
		stoppedAtDeadline: ranMs !== null,
		ranMs,
		toLastMs,
		firstToLastMs,
		timeMs,
		projected,
		requests: requests.requests,
		changeRequests: requests.changeRequests,
		rateLimited429: requests.rateLimited429,
		requestsByRoute: requests.byRoute,
		outsideRaidTouched: input.outsideRaid.length,
		outsideRaidSample: input.outsideRaid.slice(0, 5),
		machineBusy: input.machineBusy,
	};
}

/** A run that could not be measured (the sandbox or massnick did not start, the job did not end). */
export function failedRaidRun(base: Pick<RaidRunResult, 'operation' | 'subject' | 'label' | 'tokens' | 'accounts'>, reason: string): RaidRunResult {
	return {
		...base,
		status: 'failed',
		reason,
		done: 0,
		stoppedAtDeadline: false,
		ranMs: null,
		toLastMs: null,
		firstToLastMs: null,
		timeMs: null,
		projected: false,
		requests: 0,
		changeRequests: 0,
		rateLimited429: 0,
		requestsByRoute: {},
		outsideRaidTouched: 0,
		outsideRaidSample: [],
		machineBusy: null,
	};
}
