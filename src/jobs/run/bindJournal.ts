import { finerFiltersOf } from '../filters/hasFinerFilters.js';
import { JobJournal, type JobJournalSummary, type JournalHolding } from '../journal/JobJournal.js';
import type { MassAction } from '../MassAction.js';
import type { MemberFilters } from '../planner.js';
import type { Requester } from '../Requester.js';

export interface BindJournalOptions {
	readonly dataDir: string;
	readonly guildId: string;
	/** The workers whose files this process writes. */
	readonly holding: JournalHolding;
	/** The guild's journals, newest first. */
	readonly journals: readonly JobJournalSummary[];
	readonly action: MassAction;
	readonly filters: MemberFilters;
	readonly startedBy: Requester;
	/** The id a new journal gets. */
	readonly newJobId: string;
}

/**
 * The journal a job writes its originals to: the open one of the same action and target when
 * there is one (a rerun after a crash, or the next stage of a staged rollout, appends to it, whose
 * first value per member wins), else a new one. The job takes the journal's id.
 */
export async function bindJournal(options: BindJournalOptions): Promise<{ journal: JobJournal; jobId: string }> {
	const { dataDir, guildId, holding, action, filters } = options;
	const open = options.journals.find(
		(summary) => summary.state !== 'restored' && summary.header.action === action.type && summary.header.target === action.target,
	);
	if (open) return { journal: await JobJournal.open(dataDir, open, holding), jobId: open.header.jobId };
	const finer = finerFiltersOf(filters);
	const journal = await JobJournal.create(
		dataDir,
		{
			jobId: options.newJobId,
			guildId,
			action: action.type,
			target: action.target,
			title: action.words.doing,
			onlyRoleId: filters.onlyRoleId ?? null,
			excludeRoleId: filters.excludeRoleId ?? null,
			...(finer ? { filters: finer } : {}),
			startedBy: options.startedBy,
			startedAt: new Date().toISOString(),
			workers: holding.count,
		},
		holding,
	);
	return { journal, jobId: options.newJobId };
}
