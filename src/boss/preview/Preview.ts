import type { Logger } from 'pino';
import type { PendingJob } from './PendingJob.js';
import type { PreviewFacts, PreviewMessage, PreviewStatus } from './renderPreview.js';
import { renderPreview } from './renderPreview.js';

export interface PreviewOptions {
	/** Unique per preview: the id of the command's interaction (a snowflake). */
	readonly id: string;
	/** The member who ran the command: the only one who may press its buttons. */
	readonly userId: string;
	/** The command's permission, checked again when Start is pressed. */
	readonly permission: bigint;
	readonly pending: PendingJob;
	readonly facts: PreviewFacts;
	/**
	 * Edits the preview message: the command's ephemeral reply, through its interaction token (which
	 * is why a preview lives at most 14 minutes: the token lasts 15).
	 */
	readonly edit: (message: PreviewMessage) => Promise<unknown>;
	readonly logger: Logger;
}

/**
 * One preview of a changing job: the job waiting for its member's Start, and the ephemeral message
 * that shows it. The message is edited as the preview closes (expired, replaced); edits go out in
 * order, so the last word is always the newest.
 */
export class Preview {
	#edits: Promise<void> = Promise.resolve();

	constructor(readonly options: PreviewOptions) {}

	get id(): string {
		return this.options.id;
	}

	get userId(): string {
		return this.options.userId;
	}

	get pending(): PendingJob {
		return this.options.pending;
	}

	get facts(): PreviewFacts {
		return this.options.facts;
	}

	/** The message for `status`. */
	render(status: PreviewStatus): PreviewMessage {
		return renderPreview(this.options.facts, status);
	}

	/**
	 * Edits the message to show `status`, after every edit asked for before; resolves `false` if
	 * the edit failed, which only logs (a closed preview is closed whatever its message says).
	 */
	show(status: PreviewStatus): Promise<boolean> {
		const shown = this.#edits.then(async () => {
			try {
				await this.options.edit(this.render(status));
				return true;
			} catch (error) {
				this.options.logger.warn({ err: error, preview: this.id, state: status.state }, 'could not edit the preview');
				return false;
			}
		});
		this.#edits = shown.then(() => undefined);
		return shown;
	}
}
