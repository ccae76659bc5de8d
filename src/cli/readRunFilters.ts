import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { FILTER_OPTIONS, type IdsFile, readFilters } from '../actions/index.js';
import { ErrorCodes, JobError, MassnickError } from '../errors.js';
import { checkIdFileSize, type MemberFilters } from '../jobs/index.js';
import { type ActionRunRequest, argsOfRequest, cliOptionName } from './parseRunArgs.js';

/**
 * The filters of `massnick run`'s job, checked before anything connects (see `readFilters`): the
 * file of `--ids-file` read from disk here, its size checked before it is read. For a standing
 * rule (`rule`), durations are kept as typed too, for the rule to read anew.
 *
 * @throws {JobError} `INVALID_ARGUMENT`, naming the flag: a bad filter, or a file that cannot be read.
 */
export async function readRunFilters(
	request: ActionRunRequest,
	{ now = Date.now(), rule = false }: { now?: number; rule?: boolean } = {},
): Promise<MemberFilters> {
	const path = request.options[FILTER_OPTIONS.userIds];
	const idsFile = typeof path === 'string' ? await readIdsFile(path) : undefined;
	return readFilters(argsOfRequest(request), request.module, { now, optionName: cliOptionName, idsFile, rule });
}

async function readIdsFile(path: string): Promise<IdsFile> {
	const flag = cliOptionName(FILTER_OPTIONS.userIds);
	const unreadable = (why: string): JobError =>
		new JobError(ErrorCodes.InvalidArgument, `${flag} ${path} ${why}: give the path of a text or CSV file of user ids.`, {
			context: { option: FILTER_OPTIONS.userIds, path },
		});
	let size: number;
	try {
		const stats = await stat(path);
		if (!stats.isFile()) throw unreadable('is not a file');
		size = stats.size;
	} catch (error) {
		if (error instanceof MassnickError) throw error;
		const code = (error as NodeJS.ErrnoException).code;
		throw unreadable(code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? (error as Error).message})`);
	}
	try {
		checkIdFileSize(size);
	} catch (error) {
		throw new JobError(ErrorCodes.InvalidArgument, `${flag} ${path} ${(error as Error).message}`, {
			cause: error,
			context: { option: FILTER_OPTIONS.userIds, path },
		});
	}
	try {
		return { name: basename(path), bytes: await readFile(path) };
	} catch (error) {
		throw unreadable(`cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
	}
}
