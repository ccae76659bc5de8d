import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { guildDir, type OldBossNotes } from '../jobs/index.js';
import { replaceFile } from '../util/replaceFile.js';

/** What the boss keeps of one job: where it talks about it. */
export interface JobNote {
	/** The channel its command was run in: a resume's status, or why it was not resumed, goes there. */
	readonly channelId?: string | undefined;
	/** The job's live status message, the last one posted: a resume edits it if it is still there. */
	readonly statusMessage?: { readonly channelId: string; readonly messageId: string } | undefined;
	/** Why the last restart did not resume it and what to do, for /status. */
	readonly notResumed?: { readonly at: string; readonly reason: string; readonly next: string } | undefined;
	/** The channel its /restore was run in, for a restart that resumes the restore. */
	readonly restoreChannelId?: string | undefined;
	/** A standing rule stopped while it ran (its requester lost what it needs): when, and why, for /status. */
	readonly ruleStopped?: RuleStopped | undefined;
}

/** Why a standing rule stopped, as /status shows it once the rule is gone. */
export interface RuleStopped {
	/** ISO 8601. */
	readonly at: string;
	/** The rule as /status named it: `Adding @Member`. */
	readonly title: string;
	/** Why, as a clause: `alice, who started it, no longer has the Manage Roles permission`. */
	readonly reason: string;
	/** What to do, as a sentence. */
	readonly next: string;
}

export interface JobNotesOptions {
	readonly dataDir: string;
	readonly guildId: string;
	readonly logger: Logger;
	/** Where an older massnick kept these notes: in the run records (see `RunRecordStore.takeOldNotes`). */
	readonly oldNotes?: { takeOldNotes(jobId: string, keep: (notes: OldBossNotes) => Promise<void>): Promise<void> } | undefined;
}

/** The file's name, beside the guild's journals. Not a journal: the journal listing reads `.jsonl` files only. */
export const JOB_NOTES_FILE = 'boss-notes.json';
/** Holds channel and message ids and requesters' tags: readable by its owner only, as the journals are. */
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/**
 * The boss's notes on the guild's jobs, by job id, in one small JSON file beside their journals
 * (`<dataDir>/<guildId>/boss-notes.json`): the engine's run record says who asked for a job, these
 * say where the boss talks about it. Changes are made one after another, each replacing the whole
 * file atomically (a temporary file, made durable, renamed over it), so a crash leaves the notes
 * before a change or after it. A note serves people only: a failure to read or write one is
 * logged, never thrown, and the job runs on.
 */
export class JobNotes {
	readonly #path: string;
	readonly #options: JobNotesOptions;
	#queue: Promise<unknown> = Promise.resolve();

	constructor(options: JobNotesOptions) {
		this.#options = options;
		this.#path = join(guildDir(options.dataDir, options.guildId), JOB_NOTES_FILE);
	}

	/** The note on job `jobId` (empty when there is none), with any an older massnick left in its run record taken over first. */
	read(jobId: string): Promise<JobNote> {
		return this.#queued({}, async () => {
			await this.#options.oldNotes
				?.takeOldNotes(jobId, async (old) => {
					const notes = await this.#load();
					// A note the boss wrote since is newer than what the old record kept.
					await this.#save({ ...notes, [jobId]: { ...fromOldNotes(old), ...notes[jobId] } });
				})
				.catch((error: unknown) => this.#warn(error));
			return (await this.#load())[jobId] ?? {};
		});
	}

	/** The standing rules that stopped while they ran, by job id, the newest first. */
	stoppedRules(): Promise<{ readonly jobId: string; readonly stopped: RuleStopped }[]> {
		return this.#queued([], async () =>
			Object.entries(await this.#load())
				.flatMap(([jobId, note]) => (note.ruleStopped ? [{ jobId, stopped: note.ruleStopped }] : []))
				.sort((a, b) => b.stopped.at.localeCompare(a.stopped.at)),
		);
	}

	/** Changes the note on job `jobId`, after every change asked for before. */
	update(jobId: string, change: Partial<JobNote>): Promise<void> {
		return this.#queued(undefined, async () => {
			const notes = await this.#load();
			await this.#save({ ...notes, [jobId]: { ...notes[jobId], ...change } });
		});
	}

	/** Starts job `jobId`'s note afresh: a person started it again. */
	replace(jobId: string, note: JobNote): Promise<void> {
		return this.#queued(undefined, async () => this.#save({ ...(await this.#load()), [jobId]: note }));
	}

	/** Drops the notes on jobs whose journals were deleted. */
	forget(jobIds: readonly string[]): Promise<void> {
		if (jobIds.length === 0) return Promise.resolve();
		return this.#queued(undefined, async () => {
			const notes = await this.#load();
			await this.#save(Object.fromEntries(Object.entries(notes).filter(([jobId]) => !jobIds.includes(jobId))));
		});
	}

	#queued<T>(onFailure: T, work: () => Promise<T>): Promise<T> {
		const run = this.#queue.then(work).catch((error: unknown) => {
			this.#warn(error);
			return onFailure;
		});
		this.#queue = run;
		return run;
	}

	#warn(error: unknown): void {
		this.#options.logger.warn({ err: error, path: this.#path }, "could not read or write the boss's notes on its jobs beside the journals");
	}

	async #load(): Promise<Record<string, JobNote>> {
		let text: string;
		try {
			text = await readFile(this.#path, 'utf8');
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
			throw error;
		}
		const jobs = parseNotes(text);
		if (jobs === undefined) {
			this.#options.logger.warn({ path: this.#path }, 'the boss notes file is not one (not JSON with a jobs object): taken for no notes, and written anew');
			return {};
		}
		return jobs;
	}

	async #save(notes: Record<string, JobNote>): Promise<void> {
		const dir = guildDir(this.#options.dataDir, this.#options.guildId);
		await mkdir(dir, { recursive: true, mode: DIR_MODE });
		await replaceFile(this.#path, `${JSON.stringify({ jobs: notes })}\n`, FILE_MODE);
	}
}

/** The notes by job id in the file's text, each field kept only when it has its type; `undefined` for a text that is not one. */
function parseNotes(text: string): Record<string, JobNote> | undefined {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return undefined;
	}
	const jobs = (value as { jobs?: unknown } | null)?.jobs;
	if (typeof jobs !== 'object' || jobs === null) return undefined;
	return Object.fromEntries(Object.entries(jobs as Record<string, unknown>).map(([jobId, note]) => [jobId, toNote(note as Record<string, unknown>)]));
}

/** What a run record of an older massnick kept for the boss, as a note. */
function fromOldNotes({ job, restore }: OldBossNotes): JobNote {
	return toNote({ ...job, restoreChannelId: restore?.channelId });
}

function toNote(value: Record<string, unknown> | null | undefined): JobNote {
	const text = (field: unknown): string | undefined => (typeof field === 'string' ? field : undefined);
	const status = value?.statusMessage as Record<string, unknown> | undefined;
	const why = value?.notResumed as Record<string, unknown> | undefined;
	const stopped = value?.ruleStopped as Record<string, unknown> | undefined;
	const note: JobNote = {
		channelId: text(value?.channelId),
		statusMessage:
			text(status?.channelId) && text(status?.messageId) ? { channelId: text(status?.channelId)!, messageId: text(status?.messageId)! } : undefined,
		notResumed: text(why?.at) && text(why?.reason) && text(why?.next) ? { at: text(why?.at)!, reason: text(why?.reason)!, next: text(why?.next)! } : undefined,
		restoreChannelId: text(value?.restoreChannelId),
		ruleStopped:
			text(stopped?.at) && text(stopped?.title) && text(stopped?.reason) && text(stopped?.next)
				? { at: text(stopped?.at)!, title: text(stopped?.title)!, reason: text(stopped?.reason)!, next: text(stopped?.next)! }
				: undefined,
	};
	return Object.fromEntries(Object.entries(note).filter(([, field]) => field !== undefined));
}
