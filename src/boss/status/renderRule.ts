import type { APIEmbed } from 'discord.js';
import type { FollowedCounts, Job, ProgressSnapshot } from '../../jobs/index.js';
import { formatCount } from '../../present/index.js';
import { clip, type JobInfo, renderReport } from './renderStatus.js';

/** Discord's limit on an embed's description. */
const DESCRIPTION_LIMIT = 4096;
const LINE_LIMIT = 600;

/** What a standing rule's status shows beside its counters. */
export interface RuleInfo extends Pick<JobInfo, 'title' | 'state' | 'startedBy' | 'stoppedWorkers' | 'error'> {
	/** Its id, which `/cancel rule:<id>` takes. */
	readonly id: string;
	/** When it ends by itself (Unix ms); never when absent. */
	readonly until: number | undefined;
	/** When it started its sweep (Unix ms): with the snapshot's elapsed time, when it ended. */
	readonly startedAt: number;
}

/** The status message of `job` if it is a standing rule past its sweep (see {@link renderRuleStatus}); `undefined` for any other. */
export function renderRuleMessage(job: Job): { content: string; embeds: APIEmbed[] } | undefined {
	const followed = job.progress.followed.snapshot();
	if (!job.keep || followed.since === null) return undefined;
	return renderRuleStatus(job.progress.snapshot(), followed, {
		id: job.id,
		title: job.title,
		state: job.state,
		startedBy: job.startedBy.tag,
		startedAt: job.startedAt,
		until: job.keep.until,
		stoppedWorkers: job.result?.stoppedWorkers ?? [],
		error: job.result?.error?.message,
	});
}

/**
 * The status message of a standing rule past its sweep: that it follows joins, since when and
 * until when, what it did for the joiners and the members who changed (and when it last changed
 * one), what it did in all with its sweep, and the per-worker report. Once it has ended, how: by
 * `/cancel`, at its `until`, or stopped by an error. No rate and no time left: a rule has no end
 * to count down to, and its figures move only when someone joins, so the message is edited only then.
 */
export function renderRuleStatus(snapshot: ProgressSnapshot, followed: FollowedCounts, info: RuleInfo): { content: string; embeds: APIEmbed[] } {
	const since = followed.since ?? info.startedAt;
	const ended = info.state === 'finished' || info.state === 'failed' || info.state === 'cancelled';
	const until = info.until === undefined ? `until \`/cancel rule:${info.id}\` ends it` : `until ${stamp(info.until, 'f')} (${stamp(info.until, 'R')})`;
	const endedAt = info.startedAt + snapshot.elapsedMs;
	const lines = [
		ended
			? `📌 **Standing rule**: followed joins from ${stamp(since, 'f')} to ${stamp(endedAt, 'f')}, ${howItEnded(info, endedAt)}.`
			: `📌 **Standing rule**: following joins since ${stamp(since, 'R')} (its sweep of the server ended ${stamp(since, 'f')}), ${until}.`,
		`**Joiners and members who changed**: applied **${formatCount(followed.changed)}** · already done ${formatCount(followed.alreadyDone)} · can't ${formatCount(followed.cant)} · left alone ${formatCount(followed.skipped)} · left the server ${formatCount(followed.left)} · failed ${formatCount(followed.failed)} · ${followed.lastChangeAt === null ? 'none changed yet' : `last change ${stamp(followed.lastChangeAt, 'R')}`}`,
		`In all, with its sweep: changed **${formatCount(snapshot.changed)}** · already done ${formatCount(snapshot.alreadyDone)} · can't ${formatCount(snapshot.cant + snapshot.aboveRequester)} · left alone ${formatCount(snapshot.skipped)} · left the server ${formatCount(snapshot.left)} · failed ${formatCount(snapshot.failed)}`,
	];
	if (info.stoppedWorkers && info.stoppedWorkers.length > 0) {
		const stopped = clip(info.stoppedWorkers.map((index) => `worker ${index}`).join(', '), LINE_LIMIT);
		lines.push(`⚠️ stopped: ${stopped} (token rejected by Discord): their joiners are left alone. Remove it from WORKER_TOKENS and make the rule again.`);
	}
	if (info.error) lines.push(`⚠️ ${clip(info.error, LINE_LIMIT)}`);
	const head = lines.join('\n');
	const description = `${head}\n${renderReport(snapshot, DESCRIPTION_LIMIT - head.length - 1)}`;
	const state = ended ? endedLabel(info, endedAt) : info.state === 'cancelling' ? 'ending' : 'following joins';
	return {
		content: '',
		embeds: [{ title: `${info.title} · ${state}`.slice(0, 256), description, footer: { text: `standing rule ${info.id} · started by ${info.startedBy}` } }],
	};
}

/** `<t:1767225600:R>`: a time every member's client shows in their own zone, and keeps current by itself. */
function stamp(ms: number, style: 'f' | 'R'): string {
	return `<t:${Math.floor(ms / 1000)}:${style}>`;
}

/** Whether a rule that ended without an error ended at its `until` rather than by a cancel. */
function untilCame(info: RuleInfo, endedAt: number): boolean {
	return info.state === 'finished' && info.until !== undefined && endedAt >= info.until;
}

function howItEnded(info: RuleInfo, endedAt: number): string {
	if (info.state === 'cancelled') return 'ended by `/cancel` (or a shutdown: a restart resumes it)';
	if (info.state === 'failed') return 'stopped: it could not go on (below)';
	return untilCame(info, endedAt) ? 'when its until came' : 'with no worker left to go on';
}

function endedLabel(info: RuleInfo, endedAt: number): string {
	if (info.state === 'finished') return untilCame(info, endedAt) ? 'ended: until reached' : 'ended';
	return info.state;
}
