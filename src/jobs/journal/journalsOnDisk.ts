import { readdir, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { isSnowflake } from '../../discord/snowflake.js';
import { Journal } from './Journal.js';
import type { JournalSummary } from './readSummary.js';
import { deleteRunRecord } from './runRecord.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** One journal file as the doctor lists it and the retention rule sees it. */
export interface JournalOnDisk extends JournalSummary {
	readonly bytes: number;
	/** When a fully restored journal is due for deletion; `undefined` while it may still be needed. */
	readonly deleteAfter: Date | undefined;
}

export interface JournalsOnDiskOptions {
	/** Days a fully restored journal is kept after its restore (`journal.deleteRestoredAfterDays`). */
	deleteRestoredAfterDays: number;
	onWarning?: ((message: string) => void) | undefined;
}

/**
 * Every journal under `dataDir`, for every guild folder in it, newest first. A journal holds
 * member ids with what each job changed (personal data), so what is kept is listed, and only a
 * journal whose job has been fully restored gets a deletion date: any other may still be needed
 * by `/restore`.
 */
export async function journalsOnDisk(dataDir: string, options: JournalsOnDiskOptions): Promise<JournalOnDisk[]> {
	let guilds: string[];
	try {
		guilds = (await readdir(dataDir, { withFileTypes: true })).filter((entry) => entry.isDirectory() && isSnowflake(entry.name)).map((entry) => entry.name);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
		throw error;
	}
	const found: JournalOnDisk[] = [];
	for (const guildId of guilds) {
		for (const summary of await Journal.list(dataDir, guildId, { onWarning: options.onWarning })) {
			const { size } = await stat(summary.path);
			const restoredAt = summary.state === 'restored' && summary.endedAt !== undefined ? Date.parse(summary.endedAt) : Number.NaN;
			const deleteAfter = Number.isFinite(restoredAt) ? new Date(restoredAt + options.deleteRestoredAfterDays * DAY_MS) : undefined;
			found.push({ ...summary, bytes: size, deleteAfter });
		}
	}
	return found.sort((a, b) => b.header.startedAt.localeCompare(a.header.startedAt));
}

/**
 * Deletes every fully restored journal whose restore is older than `deleteRestoredAfterDays`, with
 * the run record beside it (who asked for the job: personal data too, and of no use any more).
 * @returns the journals deleted.
 */
export async function deleteRestoredJournals(dataDir: string, options: JournalsOnDiskOptions & { now?: () => number }): Promise<JournalOnDisk[]> {
	const now = options.now?.() ?? Date.now();
	const due = (await journalsOnDisk(dataDir, options)).filter((journal) => journal.deleteAfter !== undefined && journal.deleteAfter.getTime() <= now);
	for (const journal of due) {
		await rm(journal.path, { force: true });
		// A header whose job id names no file cannot have a record beside it either.
		await deleteRunRecord(dataDir, journal.header.guildId, journal.header.jobId).catch(() => undefined);
	}
	return due;
}

/** A journal's file name inside `dataDir`, for messages: `<guild>/<job>.jsonl` (or `<job>.w<id>.jsonl`). */
export function journalName(journal: JournalSummary): string {
	return join(journal.header.guildId, basename(journal.path));
}
