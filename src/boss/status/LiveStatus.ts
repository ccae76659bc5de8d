import type { Message, MessageEditOptions, SendableChannels } from 'discord.js';
import type { Logger } from 'pino';
import type { Job } from '../../jobs/index.js';
import { followedKey, FollowingPace } from '../../present/index.js';
import { renderLiveMessage } from './renderJob.js';

/** A status message's content, embeds and buttons for a job as it is now. */
export type RenderLive = (job: Job) => Pick<MessageEditOptions, 'content' | 'embeds' | 'components'> & { content: string };

/**
 * The message that shows a job's progress and edits itself every few seconds while it runs.
 *
 * It is a regular channel message, not an interaction reply: interaction tokens die after
 * 15 minutes and a rename of a large guild runs for hours. While the job runs it has Cancel (for
 * a job /cancel can stop) and Refresh buttons; the edit after the job ends removes them.
 * See https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages
 *
 * A standing rule past its sweep follows joins for months: its message is edited once when it
 * begins to follow, then only when its counts changed and at most once every `followingRefreshMs`
 * (an idle rule edits nothing), and at once when it ends. Every edit counts against the boss's
 * rate limits; the times it shows are Discord timestamps, which members' clients keep current.
 */
export class LiveStatus {
	#message: Message | undefined;
	#timer: NodeJS.Timeout | undefined;
	#stopped = false;
	#editing: Promise<void> = Promise.resolve();
	readonly #render: RenderLive;
	/** When a following rule's message is edited again. */
	readonly #following: FollowingPace;

	constructor(
		readonly job: Job,
		readonly channel: SendableChannels,
		readonly refreshMs: number,
		readonly logger: Logger,
		/** Whether it shows Cancel: a changing job or its dry run, not a /stats count. */
		readonly cancellable = true,
		/** What the message shows; by default the job's status with its buttons. */
		render?: RenderLive,
		/** The least time between two edits while the job follows joins (see the class's comment). */
		readonly followingRefreshMs = 60_000,
	) {
		this.#render = render ?? ((job) => renderLiveMessage(job, cancellable));
		this.#following = new FollowingPace(followingRefreshMs);
	}

	/**
	 * Posts the message (or takes over `existing`, the status message of an earlier run of the job,
	 * editing it at once), then keeps it current until the job ends (and once more after).
	 */
	async start(existing?: Message): Promise<Message> {
		const following = this.job.following;
		this.#following.shown(followedKey(this.job.progress.snapshot()), Date.now());
		this.#message = existing ? await existing.edit(this.#render(this.job)) : await this.channel.send(this.#render(this.job));
		// Another /status may have taken over while the message was being sent.
		if (this.#stopped) return this.#message;
		this.#timer = setInterval(() => this.#tick(), this.refreshMs);
		this.#timer.unref();
		this.job.on('state', this.#onState);
		this.job.on('following', this.#onFollowing);
		if (this.job.result) this.#onState();
		// The sweep ended while the message was being sent.
		else if (this.job.following && !following) void this.refresh();
		return this.#message;
	}

	get message(): Message | undefined {
		return this.#message;
	}

	/** Edits the message now; edits never overlap, and a failed edit only logs. */
	refresh(): Promise<void> {
		this.#editing = this.#editing.then(async () => {
			if (!this.#message) return;
			this.#following.shown(followedKey(this.job.progress.snapshot()), Date.now());
			try {
				await this.#message.edit(this.#render(this.job));
			} catch (error) {
				this.logger.warn({ err: error }, 'could not edit the status message');
			}
		});
		return this.#editing;
	}

	/** Stops editing (another /status took over, or shutdown). */
	stop(): void {
		this.#stopped = true;
		clearInterval(this.#timer);
		this.job.off('state', this.#onState);
		this.job.off('following', this.#onFollowing);
	}

	/** Each tick edits while the job sweeps; while it follows joins, only when its pace says so. */
	#tick(): void {
		if (!this.job.following || this.#following.due(followedKey(this.job.progress.snapshot()), Date.now())) void this.refresh();
	}

	/** The sweep is over: the message says at once that the rule follows joins now. */
	readonly #onFollowing = (): void => void this.refresh();

	readonly #onState = (): void => {
		if (!this.job.result) return;
		const wasLive = !this.#stopped;
		this.stop();
		if (wasLive) void this.refresh();
	};
}
