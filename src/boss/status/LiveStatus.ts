import type { Message, MessageEditOptions, SendableChannels } from 'discord.js';
import type { Logger } from 'pino';
import type { Job } from '../../jobs/index.js';
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
 */
export class LiveStatus {
	#message: Message | undefined;
	#timer: NodeJS.Timeout | undefined;
	#stopped = false;
	#editing: Promise<void> = Promise.resolve();
	readonly #render: RenderLive;

	constructor(
		readonly job: Job,
		readonly channel: SendableChannels,
		readonly refreshMs: number,
		readonly logger: Logger,
		/** Whether it shows Cancel: a changing job or its dry run, not a /stats count. */
		readonly cancellable = true,
		/** What the message shows; by default the job's status with its buttons. */
		render?: RenderLive,
	) {
		this.#render = render ?? ((job) => renderLiveMessage(job, cancellable));
	}

	/**
	 * Posts the message (or takes over `existing`, the status message of an earlier run of the job,
	 * editing it at once), then keeps it current until the job ends (and once more after).
	 */
	async start(existing?: Message): Promise<Message> {
		this.#message = existing ? await existing.edit(this.#render(this.job)) : await this.channel.send(this.#render(this.job));
		// Another /status may have taken over while the message was being sent.
		if (this.#stopped) return this.#message;
		this.#timer = setInterval(() => this.refresh(), this.refreshMs);
		this.#timer.unref();
		this.job.on('state', this.#onState);
		if (this.job.result) this.#onState();
		return this.#message;
	}

	get message(): Message | undefined {
		return this.#message;
	}

	/** Edits the message now; edits never overlap, and a failed edit only logs. */
	refresh(): Promise<void> {
		this.#editing = this.#editing.then(async () => {
			if (!this.#message) return;
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
	}

	readonly #onState = (): void => {
		if (!this.job.result) return;
		const wasLive = !this.#stopped;
		this.stop();
		if (wasLive) void this.refresh();
	};
}
