import type { APIEmbed } from 'discord.js';
import type { ProgressSnapshot } from '../jobs/Progress.js';
import { formatCount, formatDuration, formatRate, percent, progressBar } from './format.js';

/** What the status shows about the job beside its counters. */
export interface JobInfo {
	kind: 'rename' | 'restore' | 'clear';
	target: string;
	state: 'planned' | 'running' | 'cancelling' | 'finished' | 'failed' | 'cancelled';
	startedBy: string;
	dryRun: boolean;
	/** Workers that stopped for good (revoked token). */
	stoppedWorkers?: readonly number[];
	error?: string | undefined;
}

/** Discord's embed limits: a description of 4096 characters, a field value of 1024, 25 fields. */
const DESCRIPTION_LIMIT = 4096;
/** Rows of the per-worker table before the rest is summarised. */
const MAX_WORKER_ROWS = 40;

const titles: Record<JobInfo['kind'], string> = {
	rename: 'Renaming to',
	restore: 'Restoring the nicknames from before',
	clear: 'Clearing the nickname',
};

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
		`${info.dryRun ? 'would change' : 'changed'} **${formatCount(snapshot.renamed)}** · already done ${formatCount(snapshot.alreadyDone)} · can't rename ${formatCount(snapshot.cantRename)} · left alone ${formatCount(snapshot.skipped)} · left the server ${formatCount(snapshot.left)} · failed ${formatCount(snapshot.failed)}`,
	);
	lines.push(`**${formatRate(snapshot.rate)}**/s · elapsed ${formatDuration(snapshot.elapsedMs)} · ETA ${info.state === 'running' ? formatDuration(snapshot.etaMs) : '—'}`);
	if (snapshot.failed > 0) {
		const reasons = Object.entries(snapshot.failedByReason)
			.sort((a, b) => b[1] - a[1])
			.map(([reason, count]) => `${reason} ${formatCount(count)}`)
			.join(', ');
		lines.push(`failures: ${reasons}`);
	}
	if (info.stoppedWorkers && info.stoppedWorkers.length > 0) {
		lines.push(
			`⚠️ stopped: ${info.stoppedWorkers.map((index) => `worker ${index}`).join(', ')} (token rejected by Discord). Remove it from WORKER_TOKENS and run /massnick again.`,
		);
	}
	if (info.error) lines.push(`⚠️ ${info.error}`);
	lines.push(workerTable(snapshot));
	let description = lines.join('\n');
	if (description.length > DESCRIPTION_LIMIT) description = `${description.slice(0, DESCRIPTION_LIMIT - 4)}\n…`;
	const title = `${info.dryRun ? 'Dry run · ' : ''}${titles[info.kind]} “${info.target}” · ${stateLabels[info.state]}`.slice(0, 256);
	return {
		content: '',
		embeds: [{ title, description, footer: { text: `started by ${info.startedBy}` } }],
	};
}

function workerTable(snapshot: ProgressSnapshot): string {
	const header = 'worker      done/slice  failed  rate/s    ETA';
	const shown = snapshot.workers.slice(0, MAX_WORKER_ROWS);
	const rows = shown.map((worker) =>
		[
			String(worker.index).padStart(6),
			`${formatCount(worker.done)}/${formatCount(worker.inSlice)}`.padStart(16),
			formatCount(worker.failedTotal).padStart(7),
			formatRate(worker.rate).padStart(7),
			formatDuration(worker.etaMs).padStart(7),
		].join(' '),
	);
	const hidden = snapshot.workers.length - shown.length;
	if (hidden > 0) rows.push(`… and ${hidden} more workers`);
	return ['```', header, ...rows, '```'].join('\n');
}

/** One terminal line: `[█████░░░░░] 52%  1,234/2,400  498.2/s  ETA 3s`. */
export function renderProgressLine(snapshot: ProgressSnapshot, width = 80): string {
	const tail = `${percent(snapshot.done, snapshot.total).padStart(4)}  ${formatCount(snapshot.done)}/${formatCount(snapshot.total)}  ${formatRate(snapshot.rate)}/s  ETA ${formatDuration(snapshot.etaMs)}`;
	const barWidth = Math.max(10, width - tail.length - 4);
	return `[${progressBar(snapshot.done, snapshot.total, barWidth)}] ${tail}`.padEnd(width).slice(0, width);
}

/** The end-of-job report: per worker in slice, renamed, already done, can't rename, failed by reason. */
export function renderReport(snapshot: ProgressSnapshot): string {
	const header = 'worker   in slice  renamed  already  can\'t   left  failed';
	const rows = snapshot.workers.slice(0, MAX_WORKER_ROWS).map((worker) =>
		[
			String(worker.index).padStart(6),
			formatCount(worker.inSlice).padStart(10),
			formatCount(worker.renamed).padStart(8),
			formatCount(worker.alreadyDone).padStart(8),
			formatCount(worker.cantRename).padStart(7),
			formatCount(worker.left).padStart(6),
			formatCount(worker.failedTotal).padStart(7),
		].join(' '),
	);
	return ['```', header, ...rows, '```'].join('\n');
}
