import { ErrorCodes, JobError } from '../../errors.js';

/**
 * The largest file of ids read, in bytes: 100,000 ids one a line take 2.1 MB, and a moderation
 * bot's CSV export carries a name or two beside each id.
 */
export const MAX_ID_FILE_BYTES = 4 * 1024 * 1024;

/**
 * Refuses a file of ids larger than {@link MAX_ID_FILE_BYTES} before it is read: what the boss
 * checks against an attachment's `size` before downloading it, and the command line against the
 * file's size on disk.
 *
 * @throws JobError (`INVALID_ARGUMENT`)
 */
export function checkIdFileSize(bytes: number): void {
	if (bytes <= MAX_ID_FILE_BYTES) return;
	throw new JobError(
		ErrorCodes.InvalidArgument,
		`is ${(bytes / 1024 / 1024).toFixed(1)} MB; a file of ids may be at most ${MAX_ID_FILE_BYTES / 1024 / 1024} MB. Keep only the id column, or split the file and run one job per part.`,
		{ context: { bytes } },
	);
}
