import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ErrorCodes, JobError } from '../errors.js';
import { guildDir } from '../jobs/index.js';

/** How often the holder touches the lock to show it is alive. */
const REFRESH_MS = 10_000;
/** A lock nobody touched for this long belongs to a run that died (any host). */
const STALE_MS = 60_000;

/** What the lock file says about its holder. */
interface Holder {
	pid: number;
	host: string;
	startedAt: string;
	/** Tells this holder's file from a successor's, so a late release never removes another's. */
	nonce: string;
}

export interface RunLockOptions {
	/** What the holder runs, for the message another run is refused with. */
	what?: string;
	/**
	 * The workers the run holds, among `count`. Default: every worker. A run holding some of them
	 * locks only theirs, so the processes of a fleet that share a data folder run side by side.
	 */
	workers?: { readonly count: number; readonly ids: readonly number[] };
}

/**
 * One `massnick run` per guild's workers at a time, across processes and hosts that share the
 * data folder.
 *
 * A journal that says "running" cannot tell a job running now in another process from one whose
 * process died: both have no end line. Two runs at once would each rename the same members and
 * each journal what the other had just set as an "original". A scheduler starts runs on a clock
 * whether the last one ended or not (cron has no overlap guard), so the run takes this lock.
 *
 * A run holding every worker takes `<dataDir>/<guildId>/run.lock`; one holding some of them (a
 * process of a fleet) takes `run.w<id>.lock` for each, so runs holding other workers go on
 * beside it and any two runs sharing a worker refuse each other. Each also looks for the other
 * kind once its own files are made (a whole-guild run for any worker's lock, a worker's run for
 * the whole-guild one): of two such runs starting together, at least one sees the other.
 *
 * Each file is created exclusively and touched every 10 s while held. A holder on this host whose
 * process is gone, or one not touched for 60 s (a pod or machine that was killed), is stale and
 * taken over.
 */
export class RunLock {
	/** The lock files held: `run.lock`, or one `run.w<id>.lock` per worker held. */
	readonly paths: readonly string[];
	readonly #nonce: string;
	readonly #refresh: NodeJS.Timeout;
	#released = false;

	private constructor(paths: readonly string[], nonce: string) {
		this.paths = paths;
		this.#nonce = nonce;
		this.#refresh = setInterval(() => {
			const now = new Date();
			for (const path of paths) void utimes(path, now, now).catch(() => {});
		}, REFRESH_MS);
		this.#refresh.unref();
	}

	/** The first lock file held (the only one for a run holding every worker). */
	get path(): string {
		return this.paths[0]!;
	}

	/** The lock file of a guild's whole-guild runs, or of the runs holding worker `workerId`. */
	static pathOf(dataDir: string, guildId: string, workerId?: number): string {
		return join(guildDir(dataDir, guildId), workerId === undefined ? 'run.lock' : `run.w${workerId}.lock`);
	}

	/**
	 * Takes the lock of the guild (or of the workers held), over a stale holder's if need be.
	 *
	 * @throws {JobError} `JOB_RUNNING` naming the run that holds it.
	 */
	static async take(dataDir: string, guildId: string, options: RunLockOptions = {}): Promise<RunLock> {
		const { workers } = options;
		const whole = workers === undefined || workers.ids.length === workers.count;
		const paths = whole ? [RunLock.pathOf(dataDir, guildId)] : [...workers.ids].sort((a, b) => a - b).map((id) => RunLock.pathOf(dataDir, guildId, id));
		await mkdir(guildDir(dataDir, guildId), { recursive: true, mode: 0o700 });
		const holder: Holder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), nonce: randomUUID() };
		const text = `${JSON.stringify({ ...holder, what: options.what })}\n`;
		const taken: string[] = [];
		try {
			for (const path of paths) {
				await takeFile(path, text);
				taken.push(path);
			}
			const others = whole ? await workerLocks(guildDir(dataDir, guildId)) : [RunLock.pathOf(dataDir, guildId)];
			for (const path of others) {
				const other = await readHolder(path);
				if (other !== 'gone' && !other.stale) throw new JobError(ErrorCodes.JobRunning, describeHolder(path, other));
			}
		} catch (error) {
			await releaseFiles(taken, holder.nonce);
			throw error;
		}
		return new RunLock(paths, holder.nonce);
	}

	/** Gives the lock up; a file a successor took over is left alone. */
	async release(): Promise<void> {
		if (this.#released) return;
		this.#released = true;
		clearInterval(this.#refresh);
		await releaseFiles(this.paths, this.#nonce);
	}
}

/** Removes the lock files that are still the holder's with `nonce`. */
async function releaseFiles(paths: readonly string[], nonce: string): Promise<void> {
	for (const path of paths) {
		const holder = await readHolder(path);
		if (holder !== 'gone' && holder.nonce === nonce) await rm(path, { force: true });
	}
}

/**
 * Creates one lock file exclusively, over a stale holder's if need be.
 *
 * @throws {JobError} `JOB_RUNNING` naming the run that holds it.
 */
async function takeFile(path: string, text: string): Promise<void> {
	for (let attempt = 0; ; attempt++) {
		try {
			const handle = await open(path, 'wx', 0o600);
			try {
				await handle.writeFile(text);
			} finally {
				await handle.close();
			}
			return;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		}
		const existing = await readHolder(path);
		// Gone between our create and our read: try again. Two runs that both find the same
		// stale file may both remove it; the exclusive create still lets only one of them in.
		if (existing === 'gone' && attempt < 3) continue;
		if (existing !== 'gone' && existing.stale && attempt < 3) {
			await rm(path, { force: true });
			continue;
		}
		throw new JobError(ErrorCodes.JobRunning, describeHolder(path, existing));
	}
}

/** The workers' lock files in a guild's folder. */
async function workerLocks(dir: string): Promise<string[]> {
	const names = await readdir(dir);
	return names.filter((name) => /^run\.w\d+\.lock$/.test(name)).map((name) => join(dir, name));
}

type ReadHolder = (Partial<Holder> & { what?: string; stale: boolean; touchedAt: number }) | 'gone';

async function readHolder(path: string): Promise<ReadHolder> {
	let text: string;
	let touchedAt: number;
	try {
		[text, touchedAt] = await Promise.all([readFile(path, 'utf8'), stat(path).then((stats) => stats.mtimeMs)]);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
		throw error;
	}
	let holder: Partial<Holder> & { what?: string } = {};
	try {
		holder = JSON.parse(text) as typeof holder;
	} catch {
		// A holder killed between create and write leaves an empty file; its age decides.
	}
	const deadHere = holder.host === hostname() && typeof holder.pid === 'number' && !isAlive(holder.pid);
	return { ...holder, touchedAt, stale: deadHere || Date.now() - touchedAt > STALE_MS };
}

/** Whether a process of this host runs with `pid` (one of another user counts as running). */
function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

function describeHolder(path: string, holder: ReadHolder): string {
	if (holder === 'gone') return `Another massnick run keeps taking and releasing ${path}; try again.`;
	const who = holder.pid !== undefined ? `process ${holder.pid} on ${holder.host ?? 'an unknown host'}` : 'a process';
	const since = holder.startedAt !== undefined ? ` since ${holder.startedAt}` : '';
	const what = holder.what !== undefined ? ` (${holder.what})` : '';
	const worker = /run\.w(\d+)\.lock$/.exec(path)?.[1];
	return `Another massnick run is running a job on this guild${worker === undefined ? '' : ` with worker ${worker}`}${what}: ${who}${since}. Wait for it to end, or stop it with Ctrl-C or SIGTERM. If it is gone (its machine or pod was killed), ${path} counts as stale ${STALE_MS / 1000} s after its last touch; or delete it.`;
}
