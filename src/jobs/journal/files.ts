import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ErrorCodes, JournalError } from '../../errors.js';

export { syncDirectory } from '../../util/syncDirectory.js';
export { type FileHandle, writeAll } from '../../util/writeAll.js';

/** File-level helpers of the journal: durable writes, safe names, crash recovery. */

/** The byte offset just after the last newline of `path` (the header line always has one). */
export async function endOfLastLine(path: string, size: number): Promise<number> {
	const handle = await open(path, 'r');
	try {
		// Records are short; a torn one is far shorter than this.
		const length = Math.min(size, 1 << 20);
		const buffer = Buffer.alloc(length);
		const { bytesRead } = await handle.read(buffer, 0, length, size - length);
		return size - length + buffer.subarray(0, bytesRead).lastIndexOf(0x0a) + 1;
	} finally {
		await handle.close();
	}
}

/**
 * A journal file's name: `<jobId>.jsonl` journals every worker's members (a process that holds
 * every worker), `<jobId>.w<id>.jsonl` those of worker `id` alone (a process of a fleet split
 * over several, so each can keep its journals on a volume of its own).
 */
export function journalFileName(jobId: string, workerId?: number): string {
	return `${fileSafe('jobId', jobId)}${workerId === undefined ? '' : `.w${workerId}`}.jsonl`;
}

/** The job and worker a journal file's name says, or `undefined` for a file that is not a journal. */
export function parseJournalFileName(name: string): { jobId: string; workerId: number | undefined } | undefined {
	const match = /^([A-Za-z0-9_-]{1,64})(?:\.w(\d{1,4}))?\.jsonl$/.exec(name);
	if (!match) return undefined;
	return { jobId: match[1]!, workerId: match[2] === undefined ? undefined : Number(match[2]) };
}

/** The file a compaction writes beside a journal: no `.jsonl`, so no listing takes it for one. */
export function compactingPath(path: string): string {
	return `${path}.compacting`;
}

export function guildDir(dataDir: string, guildId: string): string {
	return join(dataDir, fileSafe('guildId', guildId));
}

export function fileSafe(name: string, value: string): string {
	if (!/^[A-Za-z0-9_-]{1,64}$/.test(value)) {
		throw new JournalError(ErrorCodes.InvalidArgument, `${name} ${JSON.stringify(value)} cannot name a journal file (letters, digits, - and _ only)`);
	}
	return value;
}

export function writeFailed(path: string, error: unknown): JournalError {
	const code = (error as NodeJS.ErrnoException).code;
	const reason = code ?? (error as Error).message;
	const folder = dirname(path);
	const fix =
		code === 'ENOSPC' || code === 'EDQUOT'
			? `the disk holding ${folder} is full: free space there (or set MASSNICK_DATA_DIR to a folder on a larger disk, with this folder moved along), then run the same command again: it continues where this one stopped`
			: code === 'EFBIG'
				? `the journal in ${folder} reached the largest file this system lets massnick write (the limit of the user it runs as, ulimit -f, or the filesystem's own): raise it, then run the same command again: it continues where this one stopped`
				: code === 'EROFS' || code === 'EACCES' || code === 'EPERM'
					? `${folder} cannot be written: make it writable by the user massnick runs as, then run the same command again: it continues where this one stopped`
					: `check the disk holding ${folder}, then run the same command again: it continues where this one stopped`;
	return new JournalError(
		ErrorCodes.JournalWriteFailed,
		`Writing the journal ${path} failed (${reason}), so the job stopped: no member is changed without their original on disk. To go on, ${fix}.`,
		{ cause: error },
	);
}
