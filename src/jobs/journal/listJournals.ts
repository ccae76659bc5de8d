import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCodes, JournalError } from '../../errors.js';
import { guildDir, parseJournalFileName } from './files.js';
import type { ReadJournalOptions } from './readEntries.js';
import { type JournalSummary, readSummary } from './readSummary.js';

/** Every journal of the guild with its state, newest first. Unreadable files are skipped with a warning. */
export async function listJournals(dataDir: string, guildId: string, options: ReadJournalOptions = {}): Promise<JournalSummary[]> {
	const dir = guildDir(dataDir, guildId);
	let names: string[];
	try {
		names = await readdir(dir);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
		throw new JournalError(ErrorCodes.JournalCorrupt, `${dir} cannot be listed: ${(error as Error).message}`, { cause: error });
	}
	const summaries: JournalSummary[] = [];
	for (const name of names.filter((file) => file.endsWith('.jsonl'))) {
		const summary = await readSummary(join(dir, name)).catch((error: Error) => `cannot be read (${error.message})`);
		if (typeof summary === 'string') options.onWarning?.(`${join(dir, name)} ${summary}; skipped`);
		else if (summary.header.guildId === guildId) {
			const workerId = parseJournalFileName(name)?.workerId;
			summaries.push(workerId === undefined ? summary : { ...summary, workerId });
		}
	}
	return summaries.sort(
		(a, b) => b.header.startedAt.localeCompare(a.header.startedAt) || b.header.jobId.localeCompare(a.header.jobId) || (a.workerId ?? -1) - (b.workerId ?? -1),
	);
}
