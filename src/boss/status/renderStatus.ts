import type { APIEmbed } from 'discord.js';
import type { ProgressSnapshot, WorkerSnapshot } from '../../jobs/index.js';
import { formatCount, formatDuration, formatRate, percent, progressBar } from '../../present/index.js';

/** What the status shows about the job beside its counters. */
export interface JobInfo {
	/** The job for people: `Renaming to “🎃 {display_name}”`, `Adding @Event`. */
	title: string;
	state: 'planned' | 'running' | 'cancelling' | 'finished' | 'failed' | 'cancelled';
	startedBy: string;
	dryRun: boolean;
	/** Workers that stopped for good (revoked token). */
	stoppedWorkers?: readonly number[];
	error?: string | undefined;
	/** For a job limited to a file of user ids: which of them are members (`describeListedIds`). */
	listedIds?: string | undefined;
}

/** Discord's embed limits: a description of 4096 characters, a field value of 1024, 25 fields. */
const DESCRIPTION_LIMIT = 4096;
/** Rows of the per-worker table before the rest is summarised. */
const MAX_WORKER_ROWS = 40;
/** The most any one free-text line (failures, errors) may take of the description. */
const LINE_LIMIT = 600;

const stateLabels: Record<JobInfo['state'], string> = {
	planned: 'starting',
	running: 'running',
	cancelling: 'cancelling',
	finished: 'finished',
	failed: 'failed',
	cancelled: 'cancelled',
};

/**
 * The live status message: a progress bar, done of total, a row per worker, combined rate,
 * elapsed time and ETA. Fits Discord's embed limits with any number of workers.
 */
export function renderStatus(snapshot: ProgressSnapshot, info: JobInfo): { content: string; embeds: APIEmbed[] } {
	const lines: string[] = [];
	const total = snapshot.listingDone ? formatCount(snapshot.total) : `${formatCount(snapshot.total)}+ (still listing)`;
	lines.push(`\`${progressBar(snapshot.done, snapshot.total, 20)}\` **${percent(snapshot.done, snapshot.total)}** · ${formatCount(snapshot.done)} of ${total}`);
	lines.push(
		`${info.dryRun ? 'would change' : 'changed'} **${formatCount(snapshot.changed)}** · already done ${formatCount(snapshot.alreadyDone)} · can't ${formatCount(snapshot.cant)} · left alone ${formatCount(snapshot.skipped)} · left the server ${formatCount(snapshot.left)} · failed ${formatCount(snapshot.failed)}`,
	);
	if (snapshot.aboveRequester > 0) {
		lines.push(
			`${formatCount(snapshot.aboveRequester)} ranked at or above ${info.startedBy}: out of their reach, as Discord would refuse them by hand, so left alone without a request. The server owner, or someone ranked above those members, can run the same command to reach them.`,
		);
	}
	if (info.listedIds) lines.push(clip(info.listedIds, LINE_LIMIT));
	// A process holding only some of the workers lists the whole guild and leaves the rest alone.
	if (snapshot.elsewhere > 0) {
		lines.push(
			`${formatCount(snapshot.elsewhere)} ${snapshot.elsewhere === 1 ? 'member belongs' : 'members belong'} to workers in other processes: theirs to change, in no count here.`,
		);
	}
	lines.push(
		`**${formatRate(snapshot.rate)}**/s · elapsed ${formatDuration(snapshot.elapsedMs)} · ETA ${info.state === 'running' ? formatDuration(snapshot.etaMs) : '—'}`,
	);
	const ended = info.state === 'finished' || info.state === 'failed' || info.state === 'cancelled';
	if (snapshot.failed > 0 && !ended) lines.push(`failures: ${failureReasons(snapshot.failedByReason, LINE_LIMIT)}`);
	if (info.stoppedWorkers && info.stoppedWorkers.length > 0) {
		const stopped = clip(info.stoppedWorkers.map((index) => `worker ${index}`).join(', '), LINE_LIMIT);
		lines.push(`⚠️ stopped: ${stopped} (token rejected by Discord). Remove it from WORKER_TOKENS and run the job again.`);
	}
	if (info.error) lines.push(`⚠️ ${clip(info.error, LINE_LIMIT)}`);
	const head = lines.join('\n');
	// The table gets what is left, so it is never cut in the middle of its code block. Once the
	// job has ended it becomes the report: per worker, what happened to every member of the slice.
	const budget = DESCRIPTION_LIMIT - head.length - 1;
	const table = ended ? renderReport(snapshot, budget) : workerTable(snapshot, budget);
	const description = `${head}\n${table}`;
	const title = `${info.dryRun ? 'Dry run · ' : ''}${info.title} · ${stateLabels[info.state]}`.slice(0, 256);
	return {
		content: '',
		embeds: [{ title, description, footer: { text: `started by ${info.startedBy}` } }],
	};
}

/**
 * The per-worker table, in at most `budget` characters. With more workers than fit (or than
 * {@link MAX_WORKER_ROWS}), it shows those with the most left to do, the ones worth watching, and
 * sums up the rest in one line.
 */
function workerTable(snapshot: ProgressSnapshot, budget: number): string {
	const header = 'worker      done/slice  failed  rate/s    ETA';
	const row = (worker: WorkerSnapshot) =>
		[
			String(worker.index).padStart(6),
			`${formatCount(worker.done)}/${formatCount(worker.inSlice)}`.padStart(16),
			formatCount(worker.failedTotal).padStart(7),
			formatRate(worker.rate).padStart(7),
			formatDuration(worker.etaMs).padStart(7),
		].join(' ');
	return fitTable(snapshot.workers, header, row, budget);
}

/** How a table that cannot show every worker picks and sums up (see {@link fitTable}). */
export interface TableOrder {
	/** How much a worker has left: those with the most are shown first. Default: its slice not done yet. */
	readonly lag?: (worker: WorkerSnapshot) => number;
	/** The hidden workers in a few words. Default: `540,000/600,000`, done of their slices. */
	readonly sumUp?: (hidden: readonly WorkerSnapshot[]) => string;
}

function doneOfSlice(hidden: readonly WorkerSnapshot[]): string {
	const done = hidden.reduce((total, worker) => total + worker.done, 0);
	const slice = hidden.reduce((total, worker) => total + worker.inSlice, 0);
	return `${formatCount(done)}/${formatCount(slice)}`;
}

/**
 * A code block of `header` and a row per worker, within `budget` characters (see {@link workerTable}):
 * with more workers than fit, those with the most left (see {@link TableOrder}) and a line for the rest.
 */
export function fitTable(
	workers: readonly WorkerSnapshot[],
	header: string,
	row: (worker: WorkerSnapshot) => string,
	budget: number,
	{ lag = (worker) => worker.inSlice - worker.done, sumUp = doneOfSlice }: TableOrder = {},
): string {
	const rows = workers.map((worker) => ({ worker, text: row(worker) }));
	const frame = ['```', header, '```'].join('\n').length + 1;
	const summaryRoom = 60;
	const all = rows.reduce((length, { text }) => length + text.length + 1, frame);
	if (rows.length <= MAX_WORKER_ROWS && all <= budget) return ['```', header, ...rows.map(({ text }) => text), '```'].join('\n');
	const byLag = [...rows].sort((a, b) => lag(b.worker) - lag(a.worker) || a.worker.index - b.worker.index);
	const shown: typeof rows = [];
	let length = frame + summaryRoom;
	for (const entry of byLag) {
		if (shown.length >= MAX_WORKER_ROWS || length + entry.text.length + 1 > budget) break;
		shown.push(entry);
		length += entry.text.length + 1;
	}
	shown.sort((a, b) => a.worker.index - b.worker.index);
	const hidden = rows.filter((entry) => !shown.includes(entry)).map(({ worker }) => worker);
	const summary = `… and ${hidden.length} more workers: ${sumUp(hidden)}`;
	return ['```', header, ...shown.map(({ text }) => text), summary, '```'].join('\n');
}

/** `timeout 12, http-502 3, …`: the commonest first, within `limit` characters. */
function failureReasons(byReason: Readonly<Record<string, number>>, limit: number): string {
	const reasons = Object.entries(byReason).sort((a, b) => b[1] - a[1]);
	const parts: string[] = [];
	let length = 0;
	for (const [index, [reason, count]] of reasons.entries()) {
		const part = `${clip(reason, 60)} ${formatCount(count)}`;
		const more = reasons.length - index - 1;
		if (length + part.length + (more > 0 ? 20 : 0) > limit) {
			parts.push(`and ${reasons.length - index} more`);
			break;
		}
		parts.push(part);
		length += part.length + 2;
	}
	return parts.join(', ');
}

/** `text`, cut to `limit` characters with an ellipsis when longer. */
export function clip(text: string, limit: number): string {
	return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/**
 * The end-of-job report: per worker in slice, changed, already done, can't, left and
 * failed, then failures by reason. Fits one Discord message description (4096 characters).
 */
export function renderReport(snapshot: ProgressSnapshot, budget = DESCRIPTION_LIMIT): string {
	const header = "worker   in slice  changed  already  can't   left  failed";
	const row = (worker: WorkerSnapshot) =>
		[
			String(worker.index).padStart(6),
			formatCount(worker.inSlice).padStart(10),
			formatCount(worker.changed).padStart(8),
			formatCount(worker.alreadyDone).padStart(8),
			formatCount(worker.cant).padStart(7),
			formatCount(worker.left).padStart(6),
			formatCount(worker.failedTotal).padStart(7),
		].join(' ');
	const failures = snapshot.failed > 0 ? `failed by reason: ${failureReasons(snapshot.failedByReason, LINE_LIMIT)}` : 'nothing failed';
	return `${fitTable(snapshot.workers, header, row, budget - failures.length - 1)}\n${failures}`;
}
