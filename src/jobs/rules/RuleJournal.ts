import type { Logger } from 'pino';
import type { CompactionResult } from '../journal/compactJournal.js';
import type { JobJournal, JournalFileSize } from '../journal/JobJournal.js';
import type { MassAction } from '../MassAction.js';

/**
 * A file is compacted once it is this many times its size after its last compaction: each
 * compaction rewrites what is alive, so with the file at least doubled in between, all the
 * rewriting a rule ever does costs at most about what it appended (1 + 1/2 + 1/4 … of it), and the
 * file stays within twice what a restore can use (plus what it appended since).
 */
export const COMPACTION_GROWTH = 2;

export interface RuleJournalOptions {
	readonly journal: JobJournal;
	readonly action: MassAction;
	/** Files at or below this size are never compacted (`journal.compactAboveKB`). */
	readonly compactAboveBytes: number;
	/** Whether the rule is past its sweep: a sweep journals each member once, so there is nothing to compact in it. */
	readonly following: () => boolean;
	readonly logger: Logger;
	readonly now?: (() => number) | undefined;
}

/**
 * A standing rule's journal kept to what a restore can use, for months of joiners: a member who
 * leaves with what the rule set gets a `left` line (when the action says so, see `EntryLife`),
 * and after each write a file grown {@link COMPACTION_GROWTH} times since its last compaction,
 * and past `compactAboveBytes`, is compacted in the background (see `compactJournal`), the index
 * the rule plans with shrinking with it. Time alone never grows a file, so no timer is needed: an
 * entry that expires meanwhile goes at the next compaction.
 */
export class RuleJournal {
	readonly #options: RuleJournalOptions;
	#running: Promise<void> | undefined;
	#stopped = false;
	/** A file whose compaction failed is tried again once it grew `compactAboveBytes` more. */
	readonly #retryAbove = new Map<string, number>();
	#compactions: CompactionResult[] = [];

	constructor(options: RuleJournalOptions) {
		this.#options = options;
	}

	/** Every compaction so far, oldest first (the last 100). */
	get compactions(): readonly CompactionResult[] {
		return this.#compactions;
	}

	/** Call after each write to the journal: starts a compaction of the files that are due, unless one runs. */
	written(): void {
		if (this.#running || this.#stopped || !this.#options.following()) return;
		if (!this.#options.journal.sizes.some((file) => this.#due(file))) return;
		this.#running = this.#compact().finally(() => {
			this.#running = undefined;
		});
	}

	/** A member left the guild: for an action whose change leaves with them, the journal says so. */
	memberLeft(id: string): void {
		if (this.#stopped || !this.#options.action.entryLife?.lostOnLeave) return;
		this.#options.journal.memberLeft(id).then(
			() => this.written(),
			// The journal refuses every later write too, so the rule's next change fails and says why.
			(error: unknown) => this.#options.logger.warn({ err: error, member: id }, "could not journal a member's leave"),
		);
	}

	/** Starts no more compactions and waits for the one under way: before the journal is marked and closed. */
	async stop(): Promise<void> {
		this.#stopped = true;
		await this.#running;
	}

	#due(file: JournalFileSize): boolean {
		const { compactAboveBytes } = this.#options;
		return file.bytes > Math.max(compactAboveBytes, COMPACTION_GROWTH * file.compactedBytes) && file.bytes > (this.#retryAbove.get(file.path) ?? 0);
	}

	async #compact(): Promise<void> {
		const { journal, action, logger, now } = this.#options;
		try {
			const results = await journal.compact((file) => this.#due(file), { expired: action.entryLife?.expired, now });
			for (const result of results) {
				this.#retryAbove.delete(result.path);
				logger.info(
					{ journal: result.path, bytesBefore: result.bytesBefore, bytesAfter: result.bytesAfter, members: result.entries, dropped: result.dropped },
					"compacted a standing rule's journal",
				);
			}
			this.#compactions = [...this.#compactions, ...results].slice(-100);
		} catch (error) {
			for (const file of journal.sizes) if (this.#due(file)) this.#retryAbove.set(file.path, file.bytes + this.#options.compactAboveBytes);
			logger.warn({ err: error }, "could not compact a standing rule's journal; it goes on as it was and is tried again once it grows");
		}
	}
}
