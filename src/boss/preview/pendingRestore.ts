import { escapeMarkdown, time, TimestampStyles } from 'discord.js';
import { estimateRestore, type JournalSummary, type MassAction, noJournalError, planMember, planRestore, scanJournal } from '../../jobs/index.js';
import { moduleOfType } from '../../actions/index.js';
import type { BossContext } from '../BossContext.js';
import type { PendingJob } from './PendingJob.js';

export interface PendingRestoreOptions {
	/** `/restore name:`: run instead when no journal is left (it keeps no journal itself). */
	readonly fallback?: { readonly action: MassAction; readonly describeChange: PendingJob['describeChange'] } | undefined;
	/** What to tell the member when there is neither a journal nor a fallback. */
	readonly noJournalHint: string;
	/** Undo the newest job that can be undone, past newer ones Discord cannot undo (`skip_irreversible:`). */
	readonly pastIrreversible?: boolean | undefined;
	/** How the member asks for that here, for the refusal of a restore that would undo a kick. */
	readonly pastIrreversibleHint?: string | undefined;
}

/**
 * `/restore`: the newest job not undone yet (the one `JobManager.startRestore` picks), or the
 * fallback when no journal is left. Reading the journals touches the disk: call it after the
 * interaction is acknowledged.
 *
 * @throws {JobError} `NO_JOURNAL` with nothing to undo and no fallback; `NOT_UNDOABLE` when the
 * newest job is one Discord cannot undo (a kick: what it did, and the job before it);
 * `JOURNAL_CORRUPT` for a journal this massnick cannot rebuild the action of (as the restore
 * itself would).
 */
export async function pendingRestore(context: BossContext, options: PendingRestoreOptions): Promise<PendingJob> {
	const { pastIrreversible, pastIrreversibleHint } = options;
	const target = await context.jobs.journals.toUndo((header) => context.jobs.actionOf(header), { pastIrreversible, pastIrreversibleHint });
	if (!target) {
		if (!options.fallback) throw noJournalError(options.noJournalHint);
		return clearInstead(context, options.fallback, options.noJournalHint);
	}
	const { summary, action } = target;
	const { header } = summary;
	const changed = summary.counts?.changed;
	/** Members the journal holds, once the sample has read it: every run of the job, not only the last. */
	let journaled: number | undefined;
	return {
		title: action.words.undoing,
		scope: 'every member the job changed who still has what it set',
		undoes: `**${escapeMarkdown(header.title)}**, started by ${escapeMarkdown(header.startedBy.tag)} ${time(new Date(header.startedAt), TimestampStyles.RelativeTime)} (${header.startedAt})`,
		action,
		jobKind: 'restore',
		undo: true,
		describeChange: (member, from, to, roleName) =>
			moduleOfType(header.action)?.describeChange(member, from, to, roleName) ?? `@${member.username}: ${from ?? '(none)'} → ${to ?? '(none)'}`,
		// The last run's status line counts that run only (a rerun after a crash, or the next stage of
		// a rollout, counts what it added): the journal's own count is better when the sample read it.
		estimate: () => estimateRestore(journaled ?? (typeof changed === 'number' ? changed : undefined)),
		async planSample(members, ctx) {
			const scan = await scanJournal(summary, new Set(members.map((member) => member.id)));
			journaled = scan.entries;
			return members.map((member) => planRestore(member, scan.found.get(member.id), action, ctx));
		},
		async start({ dryRun, startedBy, rank, allowed, channelId }) {
			const { job, undoes } = await context.jobs.startRestore({
				dryRun,
				startedBy,
				rank,
				allowed,
				// Who ran it: a restart that cuts it short resumes it for them.
				record: channelId === undefined ? undefined : { startedBy, rank, startedAt: new Date().toISOString(), resumes: [] },
				fallback: options.fallback?.action,
				noJournalHint: options.noJournalHint,
				pastIrreversible,
				pastIrreversibleHint,
			});
			// And where: a restart says there that it resumed the restore, or why not.
			if (undoes && channelId !== undefined && !dryRun) await context.notes.update(undoes.header.jobId, { restoreChannelId: channelId });
			if (undoes?.header.jobId !== header.jobId) {
				// Only a journal written or restored between the preview and Start could do this.
				context.logger.warn({ previewed: header.jobId, undoes: undoes?.header.jobId }, 'the restore undoes another journal than its preview showed');
			}
			return { job, text: restoreText(job.target, undoes, dryRun) };
		},
	};
}

/** No journal left, but a nickname to clear where it is still set: the originals are lost. */
function clearInstead(
	context: BossContext,
	{ action: fallback, describeChange }: NonNullable<PendingRestoreOptions['fallback']>,
	noJournalHint: string,
): PendingJob {
	return {
		title: fallback.words.doing,
		scope: 'every member who still has it',
		undoes: 'nothing: no journal was found, so the originals cannot be brought back; the nickname is cleared wherever it is still set instead',
		action: fallback,
		jobKind: fallback.type,
		undo: false,
		describeChange,
		estimate: () => ({}),
		planSample: async (members, ctx) => members.map((member) => planMember(member, fallback, {}, ctx)),
		async start({ dryRun, startedBy, rank, allowed }) {
			const { job, undoes } = await context.jobs.startRestore({ dryRun, fallback, startedBy, rank, allowed, noJournalHint });
			return { job, text: restoreText(job.target, undoes, dryRun) };
		},
	};
}

/** What a started restore tells its member: the job it undoes, or the clear it runs instead. */
function restoreText(target: string, undoes: JournalSummary | undefined, dryRun: boolean): string {
	if (!undoes) {
		return `No journal was found, so the originals cannot be brought back. ${dryRun ? 'Dry run: planning a' : 'Running a'} clear of **${target}** wherever it is still set instead.`;
	}
	const { header } = undoes;
	return `${dryRun ? 'Dry run: planning to undo' : 'Undoing'} the last job: **${header.title}**, started by ${header.startedBy.tag} at ${header.startedAt}. Each member gets back what they had before it; a member who changed it since keeps theirs.`;
}
