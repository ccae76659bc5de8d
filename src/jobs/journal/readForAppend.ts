import { rm, stat, truncate } from 'node:fs/promises';
import { ErrorCodes, JournalError } from '../../errors.js';
import { compactingPath, endOfLastLine, writeFailed } from './files.js';
import { OriginalIndex } from './OriginalIndex.js';
import type { Originals } from './Originals.js';
import { openOriginals } from './runs/openRestoreLookup.js';
import { readLines } from './readLines.js';
import { type JournalHeader, parseRecord } from './records.js';

/** What a `Journal` reopened to append starts from. */
export interface JournalFileState {
	/** Each member's original (empty when not asked for). */
	readonly originals: Originals;
	/** The file's size, a torn last line dropped. */
	readonly bytes: number;
	/** Its size after its last compaction, without what was appended since (0: never compacted). */
	readonly compactedBytes: number;
}

export interface ReadForAppendOptions {
	/** The job the file must hold. */
	readonly guildId: string;
	readonly jobId: string;
	/** Read the originals (a restore reads the entries itself). */
	readonly index: boolean;
	readonly onWarning?: ((message: string) => void) | undefined;
}

/**
 * Opens a journal to go on appending to it: its header, the compacted size its `compacted` line
 * gives (the line after the header, in a compacted file), and each member's original (the first
 * wins, a `left` line forgets it), read from the file's ordered runs rather than indexed in memory
 * (see `openOriginals`). Drops a torn last line left by a crash (it was never acknowledged), so
 * the next append starts on a line of its own, and a `.compacting` file a crash left beside it
 * (the journal is whole without it).
 *
 * @throws {JournalError} `JOURNAL_NOT_FOUND`, or `JOURNAL_CORRUPT` if the header is unreadable or another job's.
 */
export async function readForAppend(path: string, options: ReadForAppendOptions): Promise<JournalFileState & { header: JournalHeader }> {
	const { guildId, jobId } = options;
	let header: JournalHeader | undefined;
	let size = 0;
	let compactedBytes = 0;
	try {
		size = (await stat(path)).size;
		await rm(compactingPath(path), { force: true });
		// The header, and the line after it: nothing else is read here.
		let headBytes = 0;
		for await (const line of readLines(path, () => undefined)) {
			const record = parseRecord(line.text);
			if (header !== undefined) {
				if (typeof record !== 'string' && record.type === 'compacted') compactedBytes = headBytes + Buffer.byteLength(line.text, 'utf8') + 1 + record.runBytes;
				break;
			}
			if (typeof record === 'string' || record.type !== 'job') {
				throw new JournalError(
					ErrorCodes.JournalCorrupt,
					`${path} does not start with a journal header (line 1 ${typeof record === 'string' ? record : 'is not one'}).`,
				);
			}
			header = record;
			headBytes = Buffer.byteLength(line.text, 'utf8') + 1;
		}
	} catch (error) {
		if (error instanceof JournalError) throw error;
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
			throw new JournalError(ErrorCodes.JournalNotFound, `No journal for job ${jobId} in guild ${guildId} (looked for ${path}).`);
		}
		throw new JournalError(ErrorCodes.JournalCorrupt, `${path} cannot be read: ${(error as Error).message}`, { cause: error });
	}
	if (header === undefined) throw new JournalError(ErrorCodes.JournalCorrupt, `${path} has no complete header line.`);
	if (header.guildId !== guildId || header.jobId !== jobId) {
		throw new JournalError(ErrorCodes.JournalCorrupt, `${path} holds job ${header.jobId} of guild ${header.guildId}, not ${jobId} of ${guildId}.`);
	}
	const whole = await endOfLastLine(path, size).catch((error: unknown) => {
		throw new JournalError(ErrorCodes.JournalCorrupt, `${path} cannot be read: ${(error as Error).message}`, { cause: error });
	});
	if (whole < size) {
		options.onWarning?.(`${path}: torn last line (a crash mid-write) dropped, ${size - whole} bytes`);
		try {
			await truncate(path, whole);
			size = whole;
		} catch (error) {
			throw writeFailed(path, error);
		}
	}
	const originals = options.index ? await openOriginals(path, header.workers, { onWarning: options.onWarning }) : new OriginalIndex();
	return { header, originals, bytes: size, compactedBytes };
}
