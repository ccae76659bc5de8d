import { type ChatInputCommandInteraction, escapeMarkdown } from 'discord.js';
import { ErrorCodes, JobError } from '../../errors.js';
import type { FleetJob, Job, JournalHeader, MassAction, MemberFilters } from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';
import { renderFleetStatus } from './renderFleetStatus.js';
import { unknownWorkersNote } from '../status/renderJob.js';
import { unknownWorkersOf } from './unknownWorkersOf.js';
import { requesterOf } from '../requesterOf.js';
import { showLive } from '../status/showLive.js';

/** A job to count: what it sets, and for whom. */
export interface CountTarget {
	readonly action: MassAction;
	readonly filters: MemberFilters;
}

/**
 * /status of a boss whose workers run in other processes: finds the fleet's newest job in its
 * journals (`FLEET_JOURNALS_DIR`, read-only) and counts it from the live guild, in a message that
 * follows the count. The journals say what the job sets and how far each worker's part is; the
 * guild says how many members have it.
 *
 * @returns `false`, having answered nothing, when FLEET_JOURNALS_DIR is unset.
 */
export async function showFleetStatus(interaction: ChatInputCommandInteraction, context: BossContext): Promise<boolean> {
	const dir = context.config.fleetJournalsDir;
	if (dir === undefined) return false;
	// Reading the journals touches the disk (a network volume, often): acknowledge first.
	await interaction.deferReply();
	const job = (await context.jobs.journals.fleetJobs())?.[0];
	if (!job) {
		await interaction.editReply(
			`The fleet's journals (FLEET_JOURNALS_DIR=${dir}) hold no job for this server: no fleet job has started yet. Start one in the fleet's processes (massnick run, or the Kubernetes Job).`,
		);
		return true;
	}
	if (job.state === 'restored') {
		await interaction.editReply(`The fleet's last job, **${escapeMarkdown(job.header.title)}**, was undone by a restore; no fleet job runs now.`);
		return true;
	}
	const target = countTargetOf(job.header, context);
	const previous = context.fleetTallies.previous(job);
	const count = context.jobs.count(target.action, requesterOf(interaction), target.filters);
	void count.ended().then(() => {
		// Only a whole count measures the guild: a cancelled or failed one would fake a pace.
		if (count.result?.state === 'finished') context.fleetTallies.record(job, count, endedAt(count));
	});
	await interaction.editReply(`${fleetJobLine(job)} Counting it from the live server below; each /status counts anew.`);
	const note = unknownWorkersNote(unknownWorkersOf(context));
	await showLive(interaction, context, count, (counted) =>
		renderFleetStatus(job, {
			snapshot: counted.progress.snapshot(),
			ended: counted.result !== undefined,
			error: counted.result?.error?.message,
			countedAt: counted.result ? endedAt(counted) : undefined,
			previous,
			workerCount: context.config.workerCount,
			unknownNote: note,
		}),
	);
	return true;
}

/** How a fleet job that runs nowhere ended, by its journals. */
const endedWords: Record<Exclude<FleetJob['state'], 'running'>, string> = {
	finished: 'finished in every process',
	cancelled: 'been cancelled in some of its processes',
	stopped: 'been stopped by a shutdown in some of its processes before it finished: running it again there finishes it',
	restored: 'been undone by a restore',
};

/** Where the fleet's job stands by its journals, in a sentence. */
function fleetJobLine(job: FleetJob): string {
	const title = `**${escapeMarkdown(job.header.title)}**`;
	if (job.state !== 'running') return `The fleet's last job, ${title}, has ${endedWords[job.state]}.`;
	const started = job.header.workers - job.missing.length;
	return `${title} runs in the fleet's processes: ${started === job.header.workers ? 'every worker has' : `${started} of ${job.header.workers} workers have`} a journal of it.`;
}

/** The action and filters a journal's job ran with. */
export function countTargetOf(header: JournalHeader, context: BossContext): CountTarget {
	const action = context.jobs.actionOf(header);
	if (!action) {
		throw new JobError(
			ErrorCodes.JournalCorrupt,
			`The job ${header.jobId} was journaled by an action this massnick does not know (${header.action}): run the boss at the massnick version that wrote it.`,
		);
	}
	return { action, filters: { ...header.filters, onlyRoleId: header.onlyRoleId ?? undefined, excludeRoleId: header.excludeRoleId ?? undefined } };
}

/** When a count ended: its start plus its elapsed time, which stops at its end. */
function endedAt(count: Job): number {
	return count.startedAt + count.progress.snapshot().elapsedMs;
}
