import { ErrorCodes, JobError } from '../errors.js';
import type { JobJournalSummary } from './journal/JobJournal.js';
import type { JournalHeader } from './journal/Journal.js';
import { readEntries } from './journal/readEntries.js';
import type { MassAction } from './MassAction.js';
import { actionToUndo } from './restoreQueries.js';

/** The job a restore undoes: its journal, and the action that wrote it, rebuilt. */
export interface UndoTarget {
	readonly summary: JobJournalSummary;
	readonly action: MassAction;
}

export interface JournalToUndoOptions {
	/**
	 * Undo the newest job that can be undone, passing over newer ones Discord cannot undo (a kick):
	 * what the member asks for once told the newest cannot be undone.
	 */
	readonly pastIrreversible?: boolean | undefined;
	/** How the member asks for that where they are: `run /restore with skip_irreversible:true`. */
	readonly pastIrreversibleHint?: string | undefined;
}

/** Ids of kicked members the refusal names, before it points to the journal for the rest. */
const SHOWN_IDS = 5;

/**
 * What a restore undoes, for its preview and for the restore itself (`JobManager.startRestore`):
 * the newest journal not undone yet, of `journals` newest first. A job whose action Discord cannot
 * undo (`MassAction.irreversible`, a kick) is not passed over silently: a restore that would reach
 * it is refused with what it did and where its journal is, naming the job before it that can
 * still be undone and how to undo that one instead (`pastIrreversible`). A careful member who runs
 * /restore right after a kick means the kick, and must learn that it stays, not see an older job
 * undone in its place.
 *
 * @returns `undefined` when no journal is left (with `pastIrreversible`, none that can be undone).
 * @throws {JobError} `NOT_UNDOABLE` for the newest job that cannot be undone; `JOURNAL_CORRUPT` for
 * an action this massnick does not know.
 */
export async function journalToUndo(
	journals: readonly JobJournalSummary[],
	actionOf: (header: JournalHeader) => MassAction | undefined,
	options: JournalToUndoOptions,
): Promise<UndoTarget | undefined> {
	const open = journals.filter((summary) => summary.state !== 'restored');
	const hint = options.pastIrreversibleHint ?? 'run the restore again past the jobs that cannot be undone';
	let irreversible: UndoTarget | undefined;
	for (const summary of open) {
		const action = actionToUndo(summary.header, actionOf);
		if (action.irreversible === undefined) {
			if (irreversible && !options.pastIrreversible) throw await notUndoable(irreversible, { summary, action }, hint);
			return { summary, action };
		}
		irreversible ??= { summary, action };
	}
	if (irreversible && !options.pastIrreversible) throw await notUndoable(irreversible, undefined, hint);
	return undefined;
}

/** Whether the job of `header` is one Discord cannot undo, as its action says. */
export function isIrreversible(header: JournalHeader, actionOf: (header: JournalHeader) => MassAction | undefined): boolean {
	return actionOf(header)?.irreversible !== undefined;
}

/**
 * The refusal of a restore that would undo `newest`: what it did, how many members its journal
 * keeps and the first of them, where the journal is, and the job before it that can still be undone.
 */
async function notUndoable(newest: UndoTarget, before: UndoTarget | undefined, hint: string): Promise<JobError> {
	const { summary, action } = newest;
	const { header } = summary;
	let journaled = 0;
	const first: string[] = [];
	for (const file of summary.files) {
		for await (const entry of readEntries(file.path)) {
			journaled++;
			if (first.length < SHOWN_IDS) first.push(entry.id);
		}
	}
	const failed = failedOf(summary.counts?.failed);
	// Counted as the preview counted them (`2,000`), so the moderator recognises the number.
	const count = (n: number): string => n.toLocaleString('en-US');
	const lastRun =
		typeof summary.counts?.changed === 'number'
			? ` (its last run: ${count(summary.counts.changed)} ${action.words.changed}${failed > 0 ? `, ${count(failed)} failed` : ''})`
			: '';
	const ids = first.length === 0 ? '' : `, the first ${first.join(', ')}${journaled > first.length ? ' …' : ''}`;
	const kept =
		journaled === 0
			? 'Its journal holds nobody: it changed no member.'
			: `Its journal keeps the ${count(journaled)} ${journaled === 1 ? 'member' : 'members'} it ${action.words.changed}${lastRun}${ids}, each written down before its request went out: ${summary.files.map((file) => file.path).join(', ')}.`;
	const next = before
		? ` The job before it, ${before.summary.header.title} (started by ${before.summary.header.startedBy.tag} at ${before.summary.header.startedAt}), can still be undone: to undo it, ${hint}.`
		: ' No job before it is left to undo.';
	return new JobError(
		ErrorCodes.NotUndoable,
		`The newest job, ${header.title} (started by ${header.startedBy.tag} at ${header.startedAt}), cannot be undone. ${action.irreversible}. ${kept} Nothing was changed.${next}`,
		{ context: { jobId: header.jobId, action: header.action, journaled, undoable: before?.summary.header.jobId } },
	);
}

function failedOf(counts: number | Readonly<Record<string, number>> | undefined): number {
	if (typeof counts === 'number') return counts;
	return Object.values(counts ?? {}).reduce((total, count) => total + count, 0);
}
