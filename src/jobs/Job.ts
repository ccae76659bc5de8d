import { EventEmitter, setMaxListeners } from 'node:events';
import type { MemberRecord } from '../discord/MemberRecord.js';
import { whenAborted } from '../util/whenAborted.js';
import { JoinerReconciler, RECENT_PAGES } from './job/JoinerReconciler.js';
import { ListedIdsTally } from './job/ListedIdsTally.js';
import type { JobMode, JobOptions, KeepOptions } from './job/JobOptions.js';
import type { JobEvents, JobResult, JobState } from './job/JobState.js';
import { LeftMembers } from './job/LeftMembers.js';
import { listInto } from './job/listInto.js';
import { NonMemberPhase } from './job/NonMemberPhase.js';
import type { NonMemberCounts } from './job/NonMemberTally.js';
import { SliceDispatch, type SliceWork } from './job/SliceDispatch.js';
import { SliceLayout } from './job/SliceLayout.js';
import { followUntil } from './job/followUntil.js';
import type { MassAction } from './MassAction.js';
import { type NonMemberHandling, nonMemberHandling } from './nonMemberHandling.js';
import type { MemberFilters } from './planner.js';
import { Progress } from './Progress.js';

export type { JobMode, JobOptions, KeepOptions } from './job/JobOptions.js';

export type { JobEvents, JobResult, JobState } from './job/JobState.js';

/**
 * One run of a mass action, or of its restore, or their dry runs, over the whole guild.
 *
 * There is no coordinator: the listing hands each member to the worker that owns it by the
 * snowflake rule, and each worker decides alone. A process that holds only some of the workers
 * lists the whole guild too and takes only its workers' members, so processes that each hold
 * some of the ids together cover the guild once, without talking to each other. The job is a
 * state machine with an `AbortSignal` for /cancel; it keeps only counters and the bounded queues
 * in memory.
 */
export class Job extends EventEmitter<JobEvents> {
	readonly id: string;
	readonly action: MassAction;
	readonly mode: JobMode;
	readonly dryRun: boolean;
	readonly startedBy: { id: string; tag: string };
	/** Who the job is about besides its action: `{}` for everyone. */
	readonly filters: MemberFilters;
	readonly progress: Progress;
	/** For a job limited to a list of user ids: which of them are members (see {@link ListedIdsTally}). */
	readonly listedIds: ListedIdsTally | undefined;
	/** What the job does with the listed ids no member had (see {@link nonMemberHandling}). */
	readonly nonMemberHandling: NonMemberHandling;
	/** A standing rule: it follows joins (and changes) after its sweep, until cancelled or `until`. */
	readonly keep: KeepOptions | undefined;
	readonly startedAt: number;
	#state: JobState = 'planned';
	#result: JobResult | undefined;
	#resolveEnded!: (result: JobResult) => void;
	readonly #ended = new Promise<JobResult>((resolve) => {
		this.#resolveEnded = resolve;
	});
	readonly #options: Omit<JobOptions, 'plan' | 'beforeChange'>;
	readonly #controller = new AbortController();
	/** Set by {@link fail}: why the job stopped before its end. */
	#failure: Error | undefined;
	readonly #requests = new AbortController();
	/** Which joiners the job assigns itself, and which the listing finds. */
	readonly #joiners: JoinerReconciler<MemberRecord>;
	/** One slice per worker id this job works: where each member goes, and each slice's work. */
	readonly #slices: SliceDispatch;
	/** Dropped when the run ends, so an ended job kept for /status holds no journal index. */
	#plan: JobOptions['plan'] | undefined;
	#beforeChange: JobOptions['beforeChange'];
	readonly #left = new LeftMembers();
	/** For an action that reaches users who are not members, limited to a file of ids: the part after the members. */
	readonly #nonMembers: NonMemberPhase | undefined;

	constructor(options: JobOptions) {
		super();
		// The planner and the journal hook close over the journal's index: kept apart so they can be
		// dropped when the run ends (see #plan).
		const { plan, beforeChange, ...rest } = options;
		this.#options = rest;
		this.id = options.id;
		this.action = options.action;
		this.mode = options.mode;
		this.dryRun = options.dryRun;
		this.startedBy = options.startedBy;
		this.filters = options.filters ?? {};
		if (options.keep && (options.dryRun || options.mode !== 'apply')) throw new RangeError('only a job applying its action may keep applying it');
		this.keep = options.keep;
		this.#joiners = new JoinerReconciler(RECENT_PAGES, options.yieldListing !== undefined);
		this.listedIds = this.filters.userIds === undefined ? undefined : new ListedIdsTally(this.filters.userIds);
		this.nonMemberHandling = nonMemberHandling(this.action, this.mode, this.filters, options.guildId);
		this.#nonMembers = this.nonMemberHandling.reached ? new NonMemberPhase() : undefined;
		const now = options.now ?? Date.now;
		this.startedAt = now();
		const { fleet } = options;
		if (options.wholeGuild && !options.dryRun) throw new RangeError('only a dry run may plan members whose worker runs elsewhere');
		const held = fleet.workers.map((worker) => worker.index);
		const layout = SliceLayout.of({ workerCount: fleet.count, held, wholeGuild: options.wholeGuild });
		this.progress = new Progress(layout.ids, now);
		this.#plan = plan;
		this.#beforeChange = beforeChange;
		const { maxInFlight } = options;
		// Each slice and each change in flight listens for cancel: bounded, above Node's warning level of 10.
		setMaxListeners(Math.max(1, layout.ids.length) * (maxInFlight + 4) + 10, this.#controller.signal, this.#requests.signal);
		this.#slices = SliceDispatch.of({ layout, maxInFlight, batchSize: this.#batch?.size, progress: this.progress, workerOf: (id) => fleet.get(id) });
	}

	/** What the job sets, as the journal keeps it (a template, a role id). */
	get target(): string {
		return this.action.target;
	}

	/** How the job's own changes go out many at a time, if its action has a way (never a restore's). */
	get #batch(): MassAction['applyBatch'] {
		return this.mode === 'apply' ? this.action.applyBatch : undefined;
	}

	/** The job for people: `Adding @Event`, `Taking @Event back from the members who got it`. */
	get title(): string {
		return this.mode === 'apply' ? this.action.words.doing : this.action.words.undoing;
	}

	/** What became of the listed users who are not members, for a job its action reaches them in. */
	get nonMembers(): NonMemberCounts | undefined {
		return this.#nonMembers?.tally.snapshot();
	}

	get state(): JobState {
		return this.#state;
	}

	get result(): JobResult | undefined {
		return this.#result;
	}

	/** Resolves with the result once the run has ended (at once if it has). */
	ended(): Promise<JobResult> {
		return this.#ended;
	}

	get signal(): AbortSignal {
		return this.#controller.signal;
	}

	/** The most members any worker held queued at once: bounded however large the guild. */
	get peakQueued(): number {
		return this.#slices.feed.peakQueued;
	}

	/** How many members each worker's queue holds before the listing waits. */
	get queueCapacity(): number {
		return this.#slices.feed.capacity;
	}

	get listingDone(): boolean {
		return this.#joiners.listingDone;
	}

	/** A standing rule past its sweep, following joins and changes until it ends. */
	get following(): boolean {
		return this.keep !== undefined && this.#joiners.listingDone && !this.#result;
	}

	/**
	 * Stops every worker: no new member is taken at once; requests that go out within `graceMs`
	 * finish, and those still waiting on a rate-limit reset after it are dropped.
	 */
	cancel(graceMs = 2000): void {
		if (this.#state !== 'running' && this.#state !== 'planned') return;
		this.#setState('cancelling');
		this.#controller.abort(new Error('cancelled'));
		// Releases a listing that waits for room in queues nobody takes from any more.
		this.#slices.feed.closeAll();
		const timer = setTimeout(() => this.#requests.abort(new Error('cancelled')), graceMs);
		timer.unref();
		this.once('state', () => clearTimeout(timer));
	}

	/**
	 * Ends the job as failed with `error`, for something no further change can get past (the
	 * action's {@link MassAction.endsJob}, or Discord telling of its role deleted): no new member is
	 * taken, and the requests still waiting in discord.js (on a rate-limit reset, mostly) are
	 * dropped at once, unlike a cancel's grace: each would only be refused. The result carries
	 * `error` for the channel and the log. The first such error is kept; a cancel or an ended job wins.
	 */
	fail(error: Error): void {
		if (this.#state !== 'running' && this.#state !== 'planned') return;
		if (this.#failure || this.signal.aborted) return;
		this.#failure = error;
		this.#options.logger.warn({ job: this.id, reason: error.message }, 'job stopping: no further change can succeed');
		this.#controller.abort(error);
		this.#slices.feed.closeAll();
		this.#requests.abort(error);
	}

	/** A member joined while the job runs: its owner takes it, unless the listing will reach it. */
	memberJoined(member: MemberRecord): void {
		this.#left.delete(member.id);
		if (this.#state !== 'running') return;
		this.listedIds?.met(member.id);
		if (this.#joiners.joined(member)) this.#slices.joined(member);
	}

	/** A member left: nothing more is sent for them, and they count as left, not failed. */
	memberLeft(memberId: string): void {
		if (this.#state === 'running' || this.#state === 'planned') this.#left.add(memberId);
	}

	/** A member changed: a rule whose action follows changes takes them if its plan changes them (not its own change come back). */
	memberChanged(member: MemberRecord): void {
		if (!this.keep || !this.action.followsChanges || this.#state !== 'running') return;
		if (!this.#joiners.listingDone && BigInt(member.id) > this.#joiners.listedUpTo) return;
		// Followed from now, when their change reached us: their join was long before.
		if (this.#plan?.(member).action === 'change') this.#slices.joined(member, this.progress.now());
	}

	/** Runs the job to its end; never throws (the result says how it ended). */
	async run(): Promise<JobResult> {
		// Cancelled before it ran: it goes straight to its end, never back to running.
		if (this.#state !== 'cancelling') this.#setState('running');
		const stoppedWorkers: number[] = [];
		const work = this.#sliceWork(stoppedWorkers);
		// Handled from the start: a slice may fail while the listing still sleeps in discord.js.
		const ends = Promise.allSettled(this.#slices.layout.ids.map((_, place) => this.#slices.work(place, work)));
		let error: Error | undefined;
		const listed = { options: this.#options, mode: this.mode, signal: this.signal, slices: this.#slices, joiners: this.#joiners, tally: this.listedIds };
		const listing = listInto(listed).catch((listingError: unknown) => {
			if (!this.signal.aborted) {
				error = listingError as Error;
				this.#controller.abort(error);
			}
		});
		// After a cancel's grace period a page may still sleep inside discord.js until a rate-limit
		// reset; it can change nothing, so the job does not wait for it.
		await Promise.race([listing, whenAborted(this.#requests.signal)]);
		// Users who are not members are still to be handed out after the members.
		if (!this.#nonMembers) this.progress.listingFinished();
		for (const joiner of this.#joiners.listingEnded()) this.#slices.joined(joiner);
		// A rule's users who are not members go before it follows joins: a rule ended by /cancel would never reach them.
		if (this.keep && !this.signal.aborted && this.#nonMembers) error = await this.#nonMembers.run(this.listedIds!.notMet()!, this.#options, this.#slices, work);
		if (this.keep && !this.signal.aborted && !error) {
			this.progress.followed.following();
			this.emit('following');
			await followUntil(this.signal, ends, this.keep.until);
		}
		this.#slices.feed.closeAll();
		for (const end of await ends) {
			if (end.status === 'rejected' && !error) error = end.reason as Error;
		}
		if (!this.keep && !error && !this.signal.aborted && this.#nonMembers)
			error = await this.#nonMembers.run(this.listedIds!.notMet()!, this.#options, this.#slices, work);
		this.progress.listingFinished();
		error ??= this.#failure;
		const state = error ? 'failed' : this.signal.aborted ? 'cancelled' : 'finished';
		if (error) this.#options.logger.error({ err: error, job: this.id }, 'job failed');
		this.progress.end();
		this.#plan = undefined;
		this.#beforeChange = undefined;
		this.#joiners.clear();
		this.#result = { state, stoppedWorkers, ...(error ? { error } : {}) };
		this.#setState(state);
		this.#resolveEnded(this.#result);
		return this.#result;
	}

	/** What every slice of this run shares; `stoppedWorkers` collects the workers that stop. */
	#sliceWork(stoppedWorkers: number[]): SliceWork {
		const { guildId, reason, maxInFlight, retry, fleet } = this.#options;
		return {
			action: this.action,
			batch: this.#batch,
			guildId,
			reason,
			plan: (member) => this.#plan!(member),
			beforeChange: this.dryRun ? undefined : this.#beforeChange,
			left: this.#left,
			maxInFlight,
			retry,
			dryRun: this.dryRun,
			signal: this.signal,
			requestSignal: this.#requests.signal,
			guard: fleet.guard,
			fail: (error) => this.fail(error),
			limit: this.action.nonMembers && NonMemberPhase.limitOf(this.action.nonMembers, this.#nonMembers, this.#options.logger),
			broke: (error) => {
				// The listing must not wait for room in the queue of a slice that cannot go on.
				this.#controller.abort(error);
				this.#slices.feed.closeAll();
			},
			stopped: (id, revoked) => {
				// A worker out of service before the users who are not members is told of again.
				if (!stoppedWorkers.includes(id)) stoppedWorkers.push(id);
				if (revoked) this.emit('workerStopped', revoked);
			},
		};
	}

	#setState(state: JobState): void {
		this.#state = state;
		this.emit('state', state);
	}
}
