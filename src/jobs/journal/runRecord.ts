import { open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RequesterRank } from '../RequesterRank.js';
import { fileSafe, guildDir, syncDirectory, writeAll } from './files.js';

/**
 * Who asked for a job and where, kept beside its journal (`<dataDir>/<guildId>/<jobId>.run.json`)
 * so a restart can resume the job for the same person, check them again, and say so in the same
 * channel. Written at each start of the job from a slash command; a run of `massnick run` keeps
 * none (a scheduler reruns it). Not a journal: the journal listing reads `.jsonl` files only.
 */
export interface RunRecord {
	readonly startedBy: { readonly id: string; readonly tag: string };
	/** Their rank when they started it: a resume is refused to someone ranked lower now. */
	readonly rank: RequesterRank;
	/** The channel the command was run in. */
	readonly channelId: string;
	/** The job's live status message, the last one posted: a resume edits it if it is still there. */
	readonly statusMessage?: { readonly channelId: string; readonly messageId: string } | undefined;
	/** When a person started this run of the job (ISO 8601): the record is written anew then. */
	readonly startedAt: string;
	/** When a restart resumed the job (ISO 8601), oldest first; a start by a person clears it. */
	readonly resumes: readonly string[];
	/** Why the last restart did not resume it and what to do, for /status. */
	readonly notResumed?: { readonly at: string; readonly reason: string; readonly next: string } | undefined;
	/** A /restore of the job started (ISO 8601): nothing resumes the job after that. */
	readonly restoreStartedAt?: string | undefined;
	/** Who ran that /restore and where, for a restart to resume the restore (see {@link RestoreRecord}). */
	readonly restore?: RestoreRecord | undefined;
	/**
	 * When that /restore ended (ISO 8601): finished or cancelled, not stopped by a shutdown nor
	 * cut short by the process dying. A restore with none is resumed by the next start.
	 */
	readonly restoreEndedAt?: string | undefined;
}

/** Who ran a job's /restore, with their rank then, where, and when it was resumed since. */
export type RestoreRecord = Pick<RunRecord, 'startedBy' | 'rank' | 'channelId' | 'startedAt' | 'resumes'>;

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
	const path = runRecordPath(dataDir, guildId, jobId);
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
		throw error;
	}
	const record = parseRunRecord(text);
	if (typeof record === 'string') onWarning?.(`${path} ${record}; taken for no record`);
	return typeof record === 'string' ? undefined : record;
}

/**
 * Replaces the record of `jobId` atomically: a temporary file, made durable, renamed over it, so a
 * crash leaves the old record or the new one, never half of one.
 */
export async function writeRunRecord(dataDir: string, guildId: string, jobId: string, record: RunRecord): Promise<void> {
	const path = runRecordPath(dataDir, guildId, jobId);
	const temporary = `${path}.tmp`;
	const handle = await open(temporary, 'w', FILE_MODE);
	try {
		await handle.chmod(FILE_MODE);
		await writeAll(handle, `${JSON.stringify(record)}\n`);
		await handle.datasync();
	} finally {
		await handle.close();
	}
	await rename(temporary, path);
	await syncDirectory(guildDir(dataDir, guildId));
}

/** Deletes the record of `jobId`, if any (its journal was deleted). */
export async function deleteRunRecord(dataDir: string, guildId: string, jobId: string): Promise<void> {
	await rm(runRecordPath(dataDir, guildId, jobId), { force: true });
}

/** Parses a record, or says why the text is not one. */
export function parseRunRecord(text: string): RunRecord | string {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return 'is not valid JSON';
	}
	if (typeof value !== 'object' || value === null) return 'is not an object';
	const why = whyNotRequester(value as Record<string, unknown>);
	if (why) return why;
	const restore = (value as Record<string, unknown>).restore;
	if (restore !== undefined) {
		const whyNot = typeof restore === 'object' && restore !== null ? whyNotRequester(restore as Record<string, unknown>) : 'is not an object';
		if (whyNot) return `has a restore that ${whyNot}`;
	}
	return value as RunRecord;
}

/** Why `record` does not say who asked for a run, with what rank, where and when; `undefined` when it does. */
function whyNotRequester(record: Record<string, unknown>): string | undefined {
	const startedBy = record.startedBy as Record<string, unknown> | null | undefined;
	if (typeof startedBy?.id !== 'string' || typeof startedBy.tag !== 'string') return 'has no startedBy id and tag';
	const rank = record.rank as Record<string, unknown> | null | undefined;
	if (rank?.kind !== 'owner' && rank?.kind !== 'member' && rank?.kind !== 'operator') return 'has no rank';
	if (rank.kind === 'member' && typeof rank.position !== 'number') return 'has a member rank without a position';
	if (typeof record.channelId !== 'string') return 'has no channelId';
	if (typeof record.startedAt !== 'string') return 'has no startedAt';
	if (!Array.isArray(record.resumes) || record.resumes.some((at) => typeof at !== 'string')) return 'has no list of resumes';
	return undefined;
}
