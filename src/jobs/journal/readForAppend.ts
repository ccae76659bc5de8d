import { rm, stat, truncate } from 'node:fs/promises';
import { ErrorCodes, JournalError } from '../../errors.js';
import { compactingPath, endOfLastLine, writeFailed } from './files.js';
import { OriginalIndex } from './OriginalIndex.js';
import { readLines } from './readLines.js';
import { type JournalHeader, parseRecord } from './records.js';

/** What a `Journal` reopened to append starts from. */
export interface JournalFileState {
	/** Each member's original (empty when not asked for). */
	readonly originals: OriginalIndex;
	/** The file's size, a torn last line dropped. */
	readonly bytes: number;
	/** Its size after its last compaction, without what was appended since (0: never compacted). */
	readonly compactedBytes: number;
}

export interface ReadForAppendOptions {
	/** The job the file must hold. */
	readonly guildId: string;
	readonly jobId: string;
	/** Build the index of originals (a restore reads the entries itself). */
	readonly index: boolean;
	readonly onWarning?: ((message: string) => void) | undefined;
}

/**
 * Reads a journal whole to go on appending to it: its header, each member's original (the first
 * wins, a `left` line forgets it), and the compacted size its `compacted` line gives. Drops a torn
 * last line left by a crash (it was never acknowledged), so the next append starts on a line of
 * its own, and a `.compacting` file a crash left beside it (the journal is whole without it).
 *
 * @throws {JournalError} `JOURNAL_NOT_FOUND`, or `JOURNAL_CORRUPT` if the header is unreadable or another job's.
 */
export async function readForAppend(path: string, options: ReadForAppendOptions): Promise<JournalFileState & { header: JournalHeader }> {
	const { guildId, jobId } = options;
	let header: JournalHeader | undefined;
	const originals = new OriginalIndex();
	let tornAt: number | undefined;
	let size = 0;
	/** The header's bytes, to reckon the compacted size from. */
	let headBytes = 0;
	let compactedBytes = 0;
	try {
		size = (await stat(path)).size;
		await rm(compactingPath(path), { force: true });
		const onTorn = (line: { number: number }) => {
			tornAt = line.number;
			options.onWarning?.(`${path}:${line.number}: torn last line (a crash mid-write) dropped`);
		};
		for await (const line of readLines(path, onTorn)) {
			const record = parseRecord(line.text);
			if (header === undefined) {
				if (typeof record === 'string' || record.type !== 'job') {
					throw new JournalError(
						ErrorCodes.JournalCorrupt,
						`${path} does not start with a journal header (line 1 ${typeof record === 'string' ? record : 'is not one'}).`,
					);
				}
				header = record;
				headBytes = Buffer.byteLength(line.text, 'utf8') + 1;
			} else if (typeof record === 'string') {
				options.onWarning?.(`${path}:${line.number}: skipped, the line ${record}`);
			} else if (record.type === 'compacted') {
				compactedBytes = headBytes + Buffer.byteLength(line.text, 'utf8') + 1 + record.runBytes;
			} else if (options.index) {
				if (record.type === 'original') originals.add(record.id, record.from);
				else if (record.type === 'left') originals.forget(record.id);
			}
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
	if (tornAt !== undefined) {
		try {
			size = await endOfLastLine(path, size);
			await truncate(path, size);
		} catch (error) {
			throw writeFailed(path, error);
		}
	}
	return { header, originals, bytes: size, compactedBytes };
}
