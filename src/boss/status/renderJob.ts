import type { APIActionRowComponent, APIButtonComponent, APIEmbed } from 'discord.js';
import { type Job, listedIdsLine, type WorkerSnapshot } from '../../jobs/index.js';
import { formatCount, formatWorkers } from '../../present/index.js';
import { jobKey } from '../jobKey.js';
import { renderRuleMessage } from './renderRule.js';
import { renderStatus } from './renderStatus.js';
import { statusButtons } from './statusButtons.js';

/** The status message of a job as it is now; a standing rule's past its sweep, its own (see `renderRuleStatus`). */
export function renderJobMessage(job: Job): { content: string; embeds: APIEmbed[] } {
	const rule = renderRuleMessage(job);
	if (rule) return rule;
	return renderStatus(job.progress.snapshot(), {
		title: job.title,
		state: job.state,
		startedBy: job.startedBy.tag,
		dryRun: job.dryRun,
		stoppedWorkers: job.result?.stoppedWorkers ?? [],
		error: job.result?.error?.message,
		listedIds: listedIdsLine(job),
	});
}

/**
 * The live status message: the status with Cancel (when `cancel`) and Refresh while the job runs,
 * and no buttons once it has ended.
 */
export function renderLiveMessage(job: Job, cancel: boolean): { content: string; embeds: APIEmbed[]; components: APIActionRowComponent<APIButtonComponent>[] } {
	return { ...renderJobMessage(job), components: job.result ? [] : [statusButtons(jobKey(job), cancel)] };
}

/**
 * /stats: how many members hold what a job sets, from a counting pass over the live guild, with
 * what the count could not place when the boss does not know some workers' bots (`unknown`).
 */
export function renderStats(job: Job, unknown?: UnknownWorkers): string {
	const snapshot = job.progress.snapshot();
	const lines = job.action.removesMember
		? goneLines(job)
		: [
				`**${formatCount(snapshot.alreadyDone)}** of ${formatCount(snapshot.total)} members have ${job.action.words.holds}.`,
				`Still to do: ${formatCount(snapshot.changed)} · can't (the owner, or above the workers): ${formatCount(snapshot.cant)} · left alone: ${formatCount(snapshot.skipped)}.`,
			];
	const note = unknown && unknownWorkersNote(unknown);
	if (note) lines.push(note);
	return lines.join('\n');
}

/**
 * /stats of a job whose members leave the guild (a kick, a ban): the live guild cannot show whom
 * it changed, only whom its filters still select, and what tells the rest.
 */
function goneLines(job: Job): string[] {
	const snapshot = job.progress.snapshot();
	const { changed } = job.action.words;
	// A job that reaches the listed users who are not members counted them too: they are not "here".
	const strangers = job.nonMembers;
	const here = snapshot.changed - (strangers?.changed ?? 0);
	const listed = snapshot.total - (strangers?.handed ?? 0);
	return [
		`A member ${changed} is no longer in the server, so the live server cannot count them.`,
		`Still here and selected by the job: **${formatCount(here)}** of ${formatCount(listed)} members listed · can't (the owner, or above the workers): ${formatCount(snapshot.cant)} · left alone: ${formatCount(snapshot.skipped)}.`,
		...(strangers ? [`Of the listed ids no member has: **${formatCount(strangers.alreadyDone)}** ${changed}, ${formatCount(strangers.changed)} not yet.`] : []),
		job.action.irreversible
			? `The job's report says how many it ${changed}; that cannot be undone.`
			: `The job's report says how many it ${changed}; \`/restore dry_run:true\` counts those it would undo.`,
	];
}

/** Workers of other processes whose bot the boss does not know, and whether it knows how far any worker reaches. */
export interface UnknownWorkers {
	readonly workers: readonly number[];
	/** `false` when no worker's role is known (`GuildContext.workerHighestPosition` is `Infinity`). */
	readonly reachKnown: boolean;
}

/**
 * What counting without knowing some workers' bots gets wrong, and the fix; `undefined` when the
 * boss knows every worker's bot.
 */
export function unknownWorkersNote({ workers, reachKnown }: UnknownWorkers): string | undefined {
	if (workers.length === 0) return undefined;
	const which = workers.length === 1 ? `worker ${workers[0]}'s bot` : `the bots of workers ${workers.join(', ')}`;
	const counted = reachKnown
		? 'The count takes them for members'
		: "The count takes them for members, and members at or above the workers' role for members to change";
	return `⚠️ This boss does not know ${which}: they run in other processes, and WORKER_TOKENS here lacks their tokens. ${counted}. Give the boss every worker's token in WORKER_TOKENS: it only reads each bot's id and roles.`;
}

const MAX_SHARD_ROWS = 40;

/** A worker as /shards shows it. */
export interface ShardRow {
	/** Its id among all the workers. */
	readonly index: number;
	/** Gateway heartbeat round trip in ms, or -1 before the first one. */
	readonly ping: number;
	readonly state: string;
}

/**
 * /shards: each worker of this process with its members in the last job, gateway ping and state.
 * A boss holding only some of the workers says which of how many, since the others' rows are in
 * their own processes. `slices`: the last job's workers, by id (none before the first job).
 */
export function renderShards(
	fleet: { readonly count: number; readonly workers: readonly ShardRow[] },
	bossPing: number,
	slices: readonly WorkerSnapshot[] | undefined,
): string {
	// A message holds 2,000 characters: past 40 workers the rest are summed up by state.
	const shown = fleet.workers.slice(0, MAX_SHARD_ROWS);
	const rows = shown.map((worker) =>
		[
			String(worker.index).padStart(6),
			(slices ? formatCount(slices.find((slice) => slice.index === worker.index)?.inSlice ?? 0) : '—').padStart(9),
			(worker.ping >= 0 ? `${worker.ping} ms` : '—').padStart(8),
			worker.state.padStart(12),
		].join(' '),
	);
	const hidden = fleet.workers.slice(MAX_SHARD_ROWS);
	if (hidden.length > 0) {
		const states = new Map<string, number>();
		for (const worker of hidden) states.set(worker.state, (states.get(worker.state) ?? 0) + 1);
		rows.push(`… ${hidden.length} more: ${[...states].map(([state, count]) => `${count} ${state}`).join(', ')}`);
	}
	const ping = `boss ping ${bossPing >= 0 ? `${bossPing} ms` : '—'}`;
	if (fleet.workers.length === 0) return `All ${formatCount(fleet.count)} workers run in other processes, and /shards shows this process's only · ${ping}`;
	const ids = fleet.workers.map((worker) => worker.index);
	const head = `${ids.length === fleet.count ? `${fleet.count} workers` : `${formatWorkers(ids, fleet.count)} here; the others run elsewhere`} · ${ping}`;
	return [
		`${head}${slices ? '' : ' · members per slice appear after the first job or /stats'}`,
		'```',
		'worker   members     ping        state',
		...rows,
		'```',
	].join('\n');
}
