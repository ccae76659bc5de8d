import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RequesterRank } from '../RequesterRank.js';
import { replaceFile } from '../../util/replaceFile.js';
import { fileSafe, guildDir } from './files.js';

/**
 * Who asked for a job, kept beside its journal (`<dataDir>/<guildId>/<jobId>.run.json`) so a
 * restart can resume the job for the same person and check them again. Written at each start of
 * the job from a slash command; a run of `massnick run` keeps none (a scheduler reruns it). Not a
 * journal: the journal listing reads `.jsonl` files only. Engine facts only: where the boss talks
 * about the job (its channel, its status message, why it was not resumed) is the boss's to keep.
 */
export interface RunRecord {
	readonly startedBy: { readonly id: string; readonly tag: string };
	/** Their rank when they started it: a resume is refused to someone ranked lower now. */
	readonly rank: RequesterRank;
	/** When a person started this run of the job (ISO 8601): the record is written anew then. */
	readonly startedAt: string;
	/** When a restart resumed the job (ISO 8601), oldest first; a start by a person clears it. */
	readonly resumes: readonly string[];
	/** A standing rule: a restart resumes it as one, its `until` (ISO 8601) kept (see `keepRecord`). */
	readonly keep?: KeepRecord | undefined;
	/** A /restore of the job started (ISO 8601): nothing resumes the job after that. */
	readonly restoreStartedAt?: string | undefined;
	/** Who ran that /restore, for a restart to resume the restore (see {@link RestoreRecord}). */
	readonly restore?: RestoreRecord | undefined;
	/**
	 * When that /restore ended (ISO 8601): finished or cancelled, not stopped by a shutdown nor
	 * cut short by the process dying. A restore with none is resumed by the next start.
	 */
	readonly restoreEndedAt?: string | undefined;
}

/** A standing rule's `keep` as a run record holds it. */
export interface KeepRecord {
	readonly until?: string | undefined;
}

/** Who ran a job's /restore, with their rank then, and when it was resumed since. */
export type RestoreRecord = Pick<RunRecord, 'startedBy' | 'rank' | 'startedAt' | 'resumes'>;

/**
 * What records written by an older massnick kept for the boss beside the engine's facts, as found:
 * `channelId`, `statusMessage` and `notResumed` of the job, `channelId` of its restore. They are
 * not the engine's: a record that has them keeps them as they are until the boss takes them (see
 * `RunRecordStore.takeOldNotes`), so a job interrupted across an upgrade is still found again.
 */
export interface OldBossNotes {
	readonly job: Readonly<Record<string, unknown>>;
	readonly restore?: Readonly<Record<string, unknown>> | undefined;
}

/** A run record as read from its file: the engine's facts, and the boss's notes an older massnick left in it. */
export interface RunFile {
	readonly record: RunRecord;
	readonly oldNotes?: OldBossNotes | undefined;
}

const OLD_JOB_NOTES = ['channelId', 'statusMessage', 'notResumed'] as const;
const OLD_RESTORE_NOTES = ['channelId'] as const;

/** Holds member ids: readable by its owner only, as the journal is. */
const FILE_MODE = 0o600;

export function runRecordPath(dataDir: string, guildId: string, jobId: string): string {
	return join(guildDir(dataDir, guildId), `${fileSafe('jobId', jobId)}.run.json`);
}

/**
 * The record of `jobId`, or `undefined` when there is none; a file that is not a record is
 * reported to `onWarning` and taken for none.
 */
export async function readRunRecord(dataDir: string, guildId: string, jobId: string, onWarning?: (message: string) => void): Promise<RunRecord | undefined> {
	return (await readRunFile(dataDir, guildId, jobId, onWarning))?.record;
}

/** The record of `jobId` with any notes an older massnick left in it (see {@link readRunRecord}). */
export async function readRunFile(dataDir: string, guildId: string, jobId: string, onWarning?: (message: string) => void): Promise<RunFile | undefined> {
	const path = runRecordPath(dataDir, guildId, jobId);
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
		throw error;
	}
	const file = parseRunFile(text);
	if (typeof file === 'string') onWarning?.(`${path} ${file}; taken for no record`);
	return typeof file === 'string' ? undefined : file;
}

/**
 * Replaces the record of `jobId` atomically (see `replaceFile`): a crash leaves the old record or
 * the new one, never half of one. `oldNotes` are written back as they were found.
 */
export async function writeRunRecord(dataDir: string, guildId: string, jobId: string, record: RunRecord, oldNotes?: OldBossNotes): Promise<void> {
	const restore = record.restore && { ...oldNotes?.restore, ...record.restore };
	const value = oldNotes ? { ...oldNotes.job, ...record, restore } : record;
	await replaceFile(runRecordPath(dataDir, guildId, jobId), `${JSON.stringify(value)}\n`, FILE_MODE);
}

/** Deletes the record of `jobId`, if any (its journal was deleted). */
export async function deleteRunRecord(dataDir: string, guildId: string, jobId: string): Promise<void> {
	await rm(runRecordPath(dataDir, guildId, jobId), { force: true });
}

/** Parses a record (the engine's facts), or says why the text is not one. */
export function parseRunRecord(text: string): RunRecord | string {
	const file = parseRunFile(text);
	return typeof file === 'string' ? file : file.record;
}

/** Parses a record with any notes an older massnick left in it, or says why the text is not one. */
export function parseRunFile(text: string): RunFile | string {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return 'is not valid JSON';
	}
	if (typeof value !== 'object' || value === null) return 'is not an object';
	const raw = value as Record<string, unknown>;
	const why = whyNotRequester(raw);
	if (why) return why;
	const restore = raw.restore as Record<string, unknown> | undefined;
	if (restore !== undefined) {
		const whyNot = typeof restore === 'object' && restore !== null ? whyNotRequester(restore) : 'is not an object';
		if (whyNot) return `has a restore that ${whyNot}`;
	}
	const requester = ({ startedBy, rank, startedAt, resumes }: Record<string, unknown>) => ({ startedBy, rank, startedAt, resumes }) as RestoreRecord;
	const record: RunRecord = {
		...requester(raw),
		...(raw.restoreStartedAt === undefined ? {} : { restoreStartedAt: raw.restoreStartedAt as string }),
		...(restore === undefined ? {} : { restore: requester(restore) }),
		...(raw.restoreEndedAt === undefined ? {} : { restoreEndedAt: raw.restoreEndedAt as string }),
		...(typeof raw.keep === 'object' && raw.keep !== null ? { keep: keepIn(raw.keep as Record<string, unknown>) } : {}),
	};
	const job = pick(raw, OLD_JOB_NOTES);
	const restoreNotes = restore && pick(restore, OLD_RESTORE_NOTES);
	if (!job && !restoreNotes) return { record };
	return { record, oldNotes: { job: job ?? {}, restore: restoreNotes } };
}

/** A rule's `keep` as written: its `until` when it is a text (a date Date.parse reads is checked by `keepOf`). */
function keepIn(keep: Record<string, unknown>): KeepRecord {
	return typeof keep.until === 'string' ? { until: keep.until } : {};
}

/** The fields `keys` of `from` that are set, or `undefined` when none is. */
function pick(from: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> | undefined {
	const found = Object.fromEntries(keys.filter((key) => from[key] !== undefined).map((key) => [key, from[key]]));
	return Object.keys(found).length > 0 ? found : undefined;
}

/** Why `record` does not say who asked for a run, with what rank, where and when; `undefined` when it does. */
function whyNotRequester(record: Record<string, unknown>): string | undefined {
	const startedBy = record.startedBy as Record<string, unknown> | null | undefined;
	if (typeof startedBy?.id !== 'string' || typeof startedBy.tag !== 'string') return 'has no startedBy id and tag';
	const rank = record.rank as Record<string, unknown> | null | undefined;
	if (rank?.kind !== 'owner' && rank?.kind !== 'member' && rank?.kind !== 'operator') return 'has no rank';
	if (rank.kind === 'member' && typeof rank.position !== 'number') return 'has a member rank without a position';
	if (typeof record.startedAt !== 'string') return 'has no startedAt';
	if (!Array.isArray(record.resumes) || record.resumes.some((at) => typeof at !== 'string')) return 'has no list of resumes';
	return undefined;
}
