import type { KeepOptions } from '../Job.js';
import type { MassAction } from '../MassAction.js';
import { type MemberFilters, planMember } from '../planner.js';
import type { JobJournal } from '../journal/JobJournal.js';
import type { RunRecord } from '../journal/runRecord.js';
import type { Requester } from '../Requester.js';
import type { RequesterRank } from '../RequesterRank.js';
import { RuleFilters } from '../rules/RuleFilters.js';
import { RuleJournal } from '../rules/RuleJournal.js';
import { bindJournal } from './bindJournal.js';
import { JobRun } from './JobRun.js';
import type { RunDeps } from './RunDeps.js';

export interface ApplyRunOptions {
	readonly action: MassAction;
	readonly dryRun: boolean;
	readonly startedBy: Requester;
	readonly rank: RequesterRank;
	readonly filters: MemberFilters;
	/** Journal what the job changes, so /restore can undo it. */
	readonly journal: boolean;
	/** Who asked and where, kept beside the journal so a restart can resume the job. */
	readonly record?: RunRecord | undefined;
	/** A standing rule (see `KeepOptions`). */
	readonly keep?: KeepOptions | undefined;
	/** A listing at low priority (see `JobOptions.yieldListing`). */
	readonly yieldListing?: ((signal: AbortSignal) => Promise<void>) | undefined;
}

/**
 * A run of `action` over the guild: its journal bound (a rerun of the same action and target
 * appends to the open one), its run record written, its job planned with the guild as it is.
 */
export async function applyRun(deps: RunDeps, options: ApplyRunOptions): Promise<JobRun> {
	const { action, dryRun } = options;
	// A rule's durations are read as of now, here (its sweep lists from there) and again as it plans.
	const rule = new RuleFilters(options.filters);
	const filters = rule.current ?? options.filters;
	let journal: JobJournal | undefined;
	let jobId = deps.newJobId(action.type);
	if (!dryRun && options.journal) {
		const { config } = deps;
		const bound = await bindJournal({
			dataDir: config.dataDir,
			guildId: config.guildId,
			holding: deps.journals.holding,
			journals: await deps.journals.list(),
			action,
			filters,
			startedBy: options.startedBy,
			newJobId: jobId,
		});
		({ journal, jobId } = bound);
	}
	try {
		const context = deps.liveContext(options.rank);
		const recorded = journal && options.record ? await deps.records.write(jobId, options.record) : false;
		// A rule journals joiners for months: its journal is kept to what a restore can use.
		let ruleJournal: RuleJournal | undefined;
		const job = deps.buildJob({
			id: jobId,
			action,
			mode: 'apply',
			dryRun,
			startedBy: options.startedBy,
			filters,
			keep: options.keep,
			yieldListing: options.yieldListing,
			plan: (member) => rule.plan((now) => planMember(member, action, now, context.get(), journal?.originalOf(member.id))),
			beforeChange: journal ? (changes) => journal.recordOriginals(changes).then(() => ruleJournal?.written()) : undefined,
		});
		if (journal && options.keep) {
			const compactAboveBytes = deps.config.journal.compactAboveKB * 1024;
			const logger = deps.logger.child({ job: jobId });
			ruleJournal = new RuleJournal({ journal, action, compactAboveBytes, following: () => job.following, logger });
		}
		return new JobRun({ job, journal, context, recorded, rule: ruleJournal });
	} catch (error) {
		await journal?.close();
		throw error;
	}
}
