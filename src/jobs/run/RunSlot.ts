import { once } from 'node:events';
import { ErrorCodes, JobError } from '../../errors.js';
import type { KeepOptions } from '../job/JobOptions.js';
import type { JobRun } from './JobRun.js';

/**
 * The kinds of run that take a place in the guild: a `sweep` goes over every member once (a job,
 * or its restore); a `rule` is a standing rule past its sweep, following joins and changes (see
 * `Job.keep`). Counts do not take a place: they send nothing (see `CountPool`).
 */
export type RunKind = 'sweep' | 'rule';

/** The most standing rules a guild holds at once: each follows every join, so each costs every joiner a plan. */
export const MAX_RULES = 20;

/**
 * How many runs of each kind may go at once: one sweep (two would fight over the same members),
 * and {@link MAX_RULES} rules beside it.
 */
export const RUN_LIMITS: Readonly<Record<RunKind, number>> = Object.freeze({ sweep: 1, rule: MAX_RULES });

/**
 * Which runs may go at once, and the order they start and end in. A start takes its place before
 * any I/O (reading the journals), so two commands a moment apart cannot both start; the next sweep
 * waits until the last one's journal is marked and closed.
 */
export class RunSlot {
	readonly #limits: Readonly<Record<RunKind, number>>;
	readonly #running = new Map<RunKind, Set<JobRun>>();
	/** Starts between their admission and their launch (journal I/O): their place is taken already. */
	readonly #starting = new Map<RunKind, number>();
	readonly #startingWork = new Set<Promise<unknown>>();
	#last: JobRun | undefined;
	/** The last sweep's ending (its journal marked and closed): the next one waits for it. */
	#ending: Promise<void> = Promise.resolve();
	/** Whose ending {@link #ending} is. */
	#endingRun: JobRun | undefined;
	#stopping = false;

	constructor(limits: Readonly<Record<RunKind, number>> = RUN_LIMITS) {
		this.#limits = limits;
	}

	/** The sweep that changes members now, if any (dry runs included: they hold the place briefly). */
	get current(): JobRun | undefined {
		return this.#running.get('sweep')?.values().next().value;
	}

	/** The most recent sweep, running or ended. */
	get last(): JobRun | undefined {
		return this.current ?? this.#last;
	}

	/** The standing rules following joins now, oldest first. */
	get rules(): JobRun[] {
		return this.#active('rule');
	}

	/** Every run going now. */
	get running(): JobRun[] {
		return [...this.#running.values()].flatMap((runs) => [...runs]);
	}

	/** Why a run of `kind` may not start now, or `undefined`: shutting down, one starting, or one running. */
	whyBusy(kind: RunKind = 'sweep'): JobError | undefined {
		if (this.#stopping) return new JobError(ErrorCodes.JobRunning, 'massnick is shutting down; start the job again once it is back.');
		const limit = this.#limits[kind];
		if ((this.#starting.get(kind) ?? 0) + this.#active(kind).length < limit) return undefined;
		if ((this.#starting.get(kind) ?? 0) > 0) return new JobError(ErrorCodes.JobRunning, 'A job is starting right now.', { context: { starting: true } });
		const job = this.#active(kind)[0]!.job;
		const snapshot = job.progress.snapshot();
		return new JobError(ErrorCodes.JobRunning, `A job is already running (${job.title}, ${snapshot.done} of ${snapshot.total} done).`, {
			context: { title: job.title, done: snapshot.done, total: snapshot.total },
		});
	}

	/**
	 * Takes a place of `kind` at once, waits for the last sweep's ending, builds the run and holds
	 * it until {@link free}. The place is given back if `build` throws.
	 *
	 * @throws {JobError} `JOB_RUNNING` when no place is free (see {@link whyBusy}).
	 */
	async start(kind: RunKind, build: () => Promise<JobRun>): Promise<JobRun> {
		const busy = this.whyBusy(kind);
		if (busy) throw busy;
		this.#starting.set(kind, (this.#starting.get(kind) ?? 0) + 1);
		const work = (async () => {
			// A rule's place is beside the sweep: it waits for no sweep's end (its journal is its own).
			if (kind === 'sweep') await this.#ending;
			return build();
		})();
		this.#startingWork.add(work);
		try {
			const run = await work;
			this.#runs(kind).add(run);
			return run;
		} finally {
			this.#startingWork.delete(work);
			this.#starting.set(kind, this.#starting.get(kind)! - 1);
		}
	}

	/** `run` goes on until `ending` (its journal marked and closed): the next sweep waits for it, unless it is a rule. */
	endsWith(ending: Promise<void>, run?: JobRun): void {
		if (run && this.#runs('rule').has(run)) return;
		this.#ending = ending;
		this.#endingRun = run;
	}

	/**
	 * A standing rule's sweep is over: it gives the sweep's place back and takes a rule's, and the
	 * next sweep no longer waits for its end (its journal stays open as long as it follows).
	 */
	promote(run: JobRun): void {
		if (!this.#runs('sweep').delete(run)) return;
		this.#runs('rule').add(run);
		if (this.#endingRun === run) this.endsWith(Promise.resolve());
	}

	/**
	 * Where a run goes: a rule's catch-up after a restart (see `KeepOptions.catchUp`) beside the
	 * sweep, listing only while no sweep runs; any other run in the sweep's place.
	 */
	placeFor(keep: KeepOptions | undefined): { kind: RunKind; yieldListing?: (signal: AbortSignal) => Promise<void> } {
		return keep?.catchUp ? { kind: 'rule', yieldListing: (signal) => this.sweepFree(signal) } : { kind: 'sweep' };
	}

	/**
	 * Resolves once no sweep holds the guild (none runs, or the one that does is a rule past its
	 * sweep): what a listing at low priority waits for between pages.
	 *
	 * @throws the signal's reason, once aborted
	 */
	async sweepFree(signal: AbortSignal): Promise<void> {
		for (let run = this.current; run && !run.job.result && !run.job.following; run = this.current) {
			const done = new AbortController();
			const abort = () => done.abort();
			signal.addEventListener('abort', abort, { once: true });
			try {
				await Promise.race([run.job.ended(), once(run.job, 'following', { signal: done.signal }).catch(() => {})]);
			} finally {
				signal.removeEventListener('abort', abort);
				done.abort();
			}
			signal.throwIfAborted();
		}
	}

	/** `run` has ended: its place is free (before its journal is closed: the guild is not stuck on it). */
	free(run: JobRun): void {
		for (const runs of this.#running.values()) runs.delete(run);
		this.#last = run;
	}

	/** Lets no run start any more, and waits for the starts under way; see also {@link drained}. */
	async close(): Promise<void> {
		this.#stopping = true;
		await Promise.allSettled([...this.#startingWork]);
	}

	/** Resolves once every run has ended and the last sweep's journal is closed. */
	async drained(): Promise<void> {
		while (this.running.length > 0) await new Promise((resolve) => setTimeout(resolve, 10));
		await this.#ending;
	}

	#active(kind: RunKind): JobRun[] {
		return [...this.#runs(kind)].filter((run) => !run.job.result);
	}

	#runs(kind: RunKind): Set<JobRun> {
		let runs = this.#running.get(kind);
		if (!runs) this.#running.set(kind, (runs = new Set()));
		return runs;
	}
}
