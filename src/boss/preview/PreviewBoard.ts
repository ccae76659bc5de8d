import type { Preview } from './Preview.js';

/** Runs `run` after `ms`; returns what cancels it. */
export type Scheduler = (run: () => void, ms: number) => () => void;

/** Why a preview is no longer open. */
export type PreviewClosed = 'started' | 'cancelled' | 'expired' | 'replaced' | 'stopped';

/** Whether a member may answer a preview: it, or why not. */
export type PreviewClaim =
	| { readonly ok: true; readonly preview: Preview }
	| { readonly ok: false; readonly reason: 'not-yours'; readonly ownerId: string }
	| { readonly ok: false; readonly reason: PreviewClosed | 'unknown' };

export interface PreviewBoardOptions {
	/** How long a preview stays open (`preview.timeoutSeconds`). */
	readonly timeoutMs: number;
	readonly schedule?: Scheduler;
	readonly now?: () => number;
}

/** How many closed previews are remembered, to tell a late press what became of its preview. */
const REMEMBERED = 50;

const realTimers: Scheduler = (run, ms) => {
	const timer = setTimeout(run, ms);
	timer.unref();
	return () => clearTimeout(timer);
};

/**
 * The one open preview of the guild. A changing command opens one; a newer one replaces it (one
 * job runs at a time, so one question is asked at a time); nobody answering lets it expire. Only
 * its member may take it, once: pressing Start or Cancel takes it off the board, so a second press
 * (or a press on a closed preview) finds it gone and nothing runs twice.
 */
export class PreviewBoard {
	#open: { preview: Preview; cancelTimer: () => void } | undefined;
	readonly #closed = new Map<string, PreviewClosed>();
	readonly #schedule: Scheduler;
	readonly #now: () => number;

	constructor(readonly options: PreviewBoardOptions) {
		this.#schedule = options.schedule ?? realTimers;
		this.#now = options.now ?? Date.now;
	}

	/** The open preview, if any. */
	get current(): Preview | undefined {
		return this.#open?.preview;
	}

	/**
	 * Makes `preview` the open one and returns when it expires. The one open before is closed as
	 * replaced, and its message says so.
	 */
	open(preview: Preview): number {
		const previous = this.#open?.preview;
		if (previous) void this.#close(previous, 'replaced');
		const cancelTimer = this.#schedule(() => {
			if (this.#open?.preview === preview) void this.#close(preview, 'expired');
		}, this.options.timeoutMs);
		this.#open = { preview, cancelTimer };
		return this.#now() + this.options.timeoutMs;
	}

	/** Whether `userId` may answer preview `previewId` now; changes nothing. */
	check(previewId: string, userId: string): PreviewClaim {
		const open = this.#open?.preview;
		if (open?.id !== previewId) return { ok: false, reason: this.#closed.get(previewId) ?? 'unknown' };
		if (open.userId !== userId) return { ok: false, reason: 'not-yours', ownerId: open.userId };
		return { ok: true, preview: open };
	}

	/**
	 * Takes the open preview off the board for its member, who pressed `outcome` (Start or Cancel):
	 * from then on every press on it is refused. Its message is the caller's to update.
	 */
	take(previewId: string, userId: string, outcome: 'started' | 'cancelled'): PreviewClaim {
		const claim = this.check(previewId, userId);
		if (claim.ok) this.#remove(claim.preview, outcome);
		return claim;
	}

	/** Closes the open preview (shutdown): resolves once its message says nothing ran. */
	async stop(): Promise<void> {
		const open = this.#open?.preview;
		if (open) await this.#close(open, 'stopped');
	}

	async #close(preview: Preview, reason: 'expired' | 'replaced' | 'stopped'): Promise<void> {
		this.#remove(preview, reason);
		await preview.show({ state: reason });
	}

	#remove(preview: Preview, reason: PreviewClosed): void {
		if (this.#open?.preview === preview) {
			this.#open.cancelTimer();
			this.#open = undefined;
		}
		this.#closed.set(preview.id, reason);
		if (this.#closed.size > REMEMBERED) this.#closed.delete(this.#closed.keys().next().value!);
	}
}
