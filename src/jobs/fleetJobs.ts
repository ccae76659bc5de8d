import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCodes, JobError } from '../errors.js';
import { Journal, type JournalHeader, type JournalState, type JournalSummary } from './journal/Journal.js';

/**
 * A job of a fleet as its journals show it: the files its processes wrote for one action and
 * target, the newest per worker. Each process of a fleet names its part of a run itself, so the
 * parts are found by what they do, not by a job id.
 */
export interface FleetJob {
	/** The newest part's header: the action, target, filters and split every part shares. */
	readonly header: JournalHeader;
	/** When the first part started (ISO 8601). */
	readonly startedAt: string;
	/**
	 * `running` while any part is (or stopped without finishing: a file cannot tell a crash from a
	 * run) or a worker has no part yet; `stopped` when a part's process shut down under it (none
	 * running); `restored` once every part is undone.
	 */
	readonly state: JournalState;
	/** Each worker's part, by worker id in order. A whole-guild file (a process that held every worker) is every worker's part. */
	readonly parts: ReadonlyMap<number, JournalSummary>;
	/** The workers of the split with no part yet: their process has not started the job. */
	readonly missing: readonly number[];
}

export interface ReadFleetJobsOptions {
	/** More folders to read besides `root`'s: a boss holding some workers adds its own data folder. */
	readonly alsoDataDirs?: readonly string[] | undefined;
	readonly onWarning?: ((message: string) => void) | undefined;
}

/**
 * The guild's jobs in a fleet's journals, newest first. `root` holds the data folder of each of
 * the fleet's processes (`<root>/worker-3/<guild>/<job>.w3.jsonl`, as the Kubernetes Job's volume
 * lays them out; any folder names do) or is one itself. Read-only: nothing is created, locked or
 * deleted there, so the folder can be mounted read-only.
 *
 * @throws {JobError} `FLEET_JOURNALS_UNREADABLE` when `root` does not exist or cannot be listed.
 */
export async function readFleetJobs(root: string, guildId: string, options: ReadFleetJobsOptions = {}): Promise<FleetJob[]> {
	let entries: Dirent[];
	try {
		entries = await readdir(root, { withFileTypes: true });
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
		throw new JobError(
			ErrorCodes.FleetJournalsUnreadable,
			`The fleet's journals (FLEET_JOURNALS_DIR=${root}) cannot be read (${code}): mount the volume where the fleet's processes keep their data there (read-only is enough), or unset FLEET_JOURNALS_DIR.`,
			{ cause: error },
		);
	}
	const dataDirs = [
		root,
		...entries.filter((entry) => entry.isDirectory() && entry.name !== guildId).map((entry) => join(root, entry.name)),
		...(options.alsoDataDirs ?? []),
	];
	const files: JournalSummary[] = [];
	for (const dir of new Set(dataDirs)) {
		try {
			files.push(...(await Journal.list(dir, guildId, { onWarning: options.onWarning })));
		} catch (error) {
			// One folder this process may not read (a volume's lost+found, another guild's data) hides
			// nothing of the others.
			options.onWarning?.(`${dir} skipped: ${(error as Error).message}`);
		}
	}
	return groupFleetJobs(files);
}

/** Groups journal files into fleet jobs (see {@link FleetJob}), newest first. */
export function groupFleetJobs(files: readonly JournalSummary[]): FleetJob[] {
	const groups = new Map<string, JournalSummary[]>();
	for (const file of files) {
		const { action, target, onlyRoleId, excludeRoleId, filters, workers } = file.header;
		const key = JSON.stringify([action, target, onlyRoleId, excludeRoleId, filters ?? null, workers]);
		const group = groups.get(key);
		if (group) group.push(file);
		else groups.set(key, [file]);
	}
	return [...groups.values()].map(fleetJobOf).sort((a, b) => b.header.startedAt.localeCompare(a.header.startedAt));
}

function fleetJobOf(files: JournalSummary[]): FleetJob {
	// Newest first, so the first file seen for a worker is its newest part.
	const sorted = [...files].sort((a, b) => b.header.startedAt.localeCompare(a.header.startedAt) || b.header.jobId.localeCompare(a.header.jobId));
	const header = sorted[0]!.header;
	const parts = new Map<number, JournalSummary>();
	for (const file of sorted) {
		const workers = file.workerId === undefined ? Array.from({ length: header.workers }, (_, id) => id) : [file.workerId];
		for (const worker of workers) if (worker < header.workers && !parts.has(worker)) parts.set(worker, file);
	}
	const byWorker = new Map([...parts].sort(([a], [b]) => a - b));
	const missing = Array.from({ length: header.workers }, (_, id) => id).filter((id) => !parts.has(id));
	const used = new Set(parts.values());
	const startedAt = [...used].map((file) => file.header.startedAt).sort()[0] ?? header.startedAt;
	return { header, startedAt, state: stateOf([...used], missing.length > 0), parts: byWorker, missing };
}

function stateOf(parts: readonly JournalSummary[], someMissing: boolean): JournalState {
	if (parts.every((part) => part.state === 'restored')) return 'restored';
	if (someMissing || parts.some((part) => part.state === 'running')) return 'running';
	if (parts.some((part) => part.state === 'stopped')) return 'stopped';
	if (parts.some((part) => part.state === 'cancelled')) return 'cancelled';
	return 'finished';
}
