import type { APIEmbed } from 'discord.js';
import type { FleetJob, JournalState, ProgressSnapshot, WorkerSnapshot } from '../../jobs/index.js';
import type { FleetTally } from './FleetTallies.js';
import { formatIdRuns } from '../../util/formatIdRuns.js';
import { formatCount, formatDuration, formatRate, percent, progressBar } from '../../present/index.js';
import { fitTable } from '../status/renderStatus.js';

/** What the fleet's status shows beside the fleet job itself. */
export interface FleetCountFacts {
	/** The count from the live guild, as far as it got. */
	readonly snapshot: ProgressSnapshot;
	/** The count is over; `error` when it failed. */
	readonly ended: boolean;
	readonly error?: string | undefined;
	/** When the count ended (ms since the epoch), for the pace. */
	readonly countedAt?: number | undefined;
	/** The fleet's count before this one, if the boss made one: the pace is the difference. */
	readonly previous?: FleetTally | undefined;
	/** N of this boss (`WORKER_COUNT`): the count's rows are its workers'. */
	readonly workerCount: number;
	/** What the count cannot place, when the boss lacks some workers' bots (see `unknownWorkersNote`). */
	readonly unknownNote?: string | undefined;
}

const DESCRIPTION_LIMIT = 4096;

const partLabels: Record<JournalState | 'missing', string> = {
	running: 'running',
	finished: 'finished',
	cancelled: 'cancelled',
	stopped: 'stopped',
	restored: 'restored',
	missing: 'not started',
};

const jobLabels: Record<JournalState, string> = {
	running: 'running',
	finished: 'finished',
	cancelled: 'cancelled',
	stopped: 'stopped by a shutdown',
	restored: 'undone by a restore',
};

/**
 * /status of a job whose workers run in other processes: how far the job is, counted from the live
 * guild (the done marker is there), with how far each worker's part is by its journal. The boss
 * changes nothing and sees no change go out, so the pace is the difference between two counts.
 */
export function renderFleetStatus(job: FleetJob, facts: FleetCountFacts): { content: string; embeds: APIEmbed[]; components: [] } {
	const { snapshot } = facts;
	const toDo = snapshot.changed;
	const done = snapshot.alreadyDone;
	const lines: string[] = [];
	if (!facts.ended) {
		lines.push(`Counting from the live server… ${formatCount(snapshot.total)} members listed so far: ${formatCount(done)} done, ${formatCount(toDo)} to do.`);
	} else if (facts.error) {
		lines.push(`⚠️ Counting from the live server failed: ${facts.error}`);
	} else {
		const countedAt = facts.countedAt === undefined ? '' : ` (counted from the live server <t:${Math.floor(facts.countedAt / 1000)}:T>)`;
		lines.push(
			`\`${progressBar(done, done + toDo, 20)}\` **${percent(done, done + toDo)}** · ${formatCount(done)} of ${formatCount(done + toDo)} done${countedAt}`,
		);
	}
	lines.push(
		`to do **${formatCount(toDo)}** · can't ${formatCount(snapshot.cant)} (the owner, or above the workers) · left alone ${formatCount(snapshot.skipped)}`,
	);
	if (facts.ended && !facts.error) lines.push(paceLine(job, facts, done, toDo));
	lines.push(`journals: ${partsLine(job)}`);
	if (facts.ended && !facts.error) {
		const unfinished = endedWithWorkLeft(job, snapshot.workers);
		if (unfinished) lines.push(unfinished);
	}
	if (job.header.workers !== facts.workerCount) {
		lines.push(
			`⚠️ The job splits the guild between ${job.header.workers} workers and this boss's WORKER_COUNT is ${facts.workerCount}: the totals hold, the rows below are this boss's split. Set WORKER_COUNT=${job.header.workers} here.`,
		);
	}
	if (facts.unknownNote) lines.push(facts.unknownNote);
	const head = lines.join('\n');
	const table = workerTable(job, snapshot.workers, DESCRIPTION_LIMIT - head.length - 1);
	const title = `${job.header.title} · fleet of ${job.header.workers} workers · ${jobLabels[job.state]}`.slice(0, 256);
	return {
		content: '',
		embeds: [{ title, description: `${head}\n${table}`, footer: { text: `started by ${job.header.startedBy.tag} · first part ${job.startedAt}` } }],
		components: [],
	};
}

/** How fast the fleet goes, from this count and the one before it; how to get it when there is none. */
function paceLine(job: FleetJob, facts: FleetCountFacts, done: number, toDo: number): string {
	if (toDo === 0) return 'Nothing left to do in the live server.';
	const { previous, countedAt } = facts;
	if (!previous || countedAt === undefined || countedAt <= previous.at) {
		return 'Pace: run /status again in a while; each /status counts the server anew and compares with the last count.';
	}
	const seconds = (countedAt - previous.at) / 1000;
	const gained = done - previous.done;
	const since = `since the count <t:${Math.floor(previous.at / 1000)}:R>`;
	if (gained <= 0) return `Pace: no member done ${since}.${job.state === 'running' ? " Are the fleet's processes running? Their logs and journals say." : ''}`;
	const rate = gained / seconds;
	return `Pace: +${formatCount(gained)} ${since} · **${formatRate(rate)}**/s · ETA ${formatDuration((toDo / rate) * 1000)}`;
}

/**
 * Workers whose part ended (finished, cancelled or stopped) while the live guild still has members of theirs
 * to do: members who joined after their listing passed (a pod has no gateway to see them), who
 * changed back since, or whose change failed. A rerun does only those.
 */
function endedWithWorkLeft(job: FleetJob, workers: readonly WorkerSnapshot[]): string | undefined {
	const left = workers.filter((worker) => worker.changed > 0 && ['finished', 'cancelled', 'stopped'].includes(job.parts.get(worker.index)?.state ?? ''));
	if (left.length === 0) return undefined;
	const members = left.reduce((total, worker) => total + worker.changed, 0);
	const whose = left.length === 1 ? `Worker ${left[0]!.index}'s part` : `The parts of workers ${formatIdRuns(left.map((worker) => worker.index))}`;
	return `${whose} ended with ${formatCount(members)} ${members === 1 ? 'member' : 'members'} still to do (joined after the listing passed, changed back since, or failed): run the job again and it does only those.`;
}

/** `workers 0, 2 finished · worker 1 running · worker 3 not started`. */
function partsLine(job: FleetJob): string {
	const byState = new Map<string, number[]>();
	for (let worker = 0; worker < job.header.workers; worker++) {
		const label = partLabels[job.parts.get(worker)?.state ?? 'missing'];
		const ids = byState.get(label);
		if (ids) ids.push(worker);
		else byState.set(label, [worker]);
	}
	const line = [...byState].map(([label, ids]) => `${ids.length === 1 ? 'worker' : 'workers'} ${formatIdRuns(ids)} ${label}`).join(' · ');
	const running = job.parts.size > 0 && [...job.parts.values()].some((part) => part.state === 'running');
	return running ? `${line} (a part that stopped without finishing shows as running: its rerun finishes it)` : line;
}

/** Per worker: done and to do in the live guild, and its journal's state. */
function workerTable(job: FleetJob, workers: readonly WorkerSnapshot[], budget: number): string {
	const header = "worker       done      to do   can't  journal";
	const row = (worker: WorkerSnapshot) =>
		[
			String(worker.index).padStart(6),
			formatCount(worker.alreadyDone).padStart(10),
			formatCount(worker.changed).padStart(10),
			formatCount(worker.cant).padStart(7),
			` ${partLabels[job.parts.get(worker.index)?.state ?? 'missing']}`,
		].join(' ');
	return fitTable(workers, header, row, budget, {
		lag: (worker) => worker.changed,
		sumUp: (hidden) => `${formatCount(hidden.reduce((total, worker) => total + worker.changed, 0))} to do between them`,
	});
}
