import { ApplicationCommandOptionType, ApplicationCommandType, InteractionContextType } from 'discord.js';
import { ErrorCodes, JobError } from '../../errors.js';
import { sleep } from '../../util/sleep.js';
import type { BossContext } from '../BossContext.js';
import { type CountTarget, countTargetOf } from '../fleet/fleetStatus.js';
import { unknownWorkersOf } from '../fleet/unknownWorkersOf.js';
import { requesterOf } from '../requesterOf.js';
import { renderStats } from '../status/renderJob.js';
import { channelOf } from '../status/showLive.js';
import type { BossCommand } from './BossCommand.js';
import { fleetHint } from './fleetHint.js';
import { namedModule } from '../../actions/index.js';

/** How long /stats waits to answer in place before it posts the count in the channel. */
const STATS_WAIT_MS = 10_000;

/**
 * `/stats [name]`: counts, from the live guild, the members who have what the last job set (or
 * the nickname `name`). Reads only. Anyone who may run a job may run it (see `maySeeJobs`).
 */
export const statsCommand: BossCommand = {
	data: {
		type: ApplicationCommandType.ChatInput,
		name: 'stats',
		description: 'Count the members who have what the last job set (or a nickname), from the live server',
		contexts: [InteractionContextType.Guild],
		options: [
			{
				type: ApplicationCommandOptionType.String,
				name: 'name',
				description: "The nickname or template to count (default: the last job's)",
				required: false,
				max_length: 100,
			},
		],
	},
	async run(interaction, context) {
		await interaction.deferReply();
		const name = interaction.options.getString('name');
		const target = name !== null ? { action: namedModule().byName.count(name, context.actionDeps), filters: {} } : await lastJobTarget(context);
		if (target === undefined) {
			throw new JobError(ErrorCodes.NoJob, `No job has run yet, so there is nothing to count: give a nickname with \`name:\`.${fleetHint(context)}`);
		}
		const { action, filters } = target;
		const job = context.jobs.count(action, requesterOf(interaction), filters);
		// A large guild takes longer to count than an interaction token lives (15 minutes): past a
		// few seconds the answer goes to the channel instead.
		const done = await Promise.race([job.ended().then(() => true), sleep(STATS_WAIT_MS).then(() => false)]);
		if (done) {
			if (job.result?.error) throw job.result.error;
			await interaction.editReply(renderStats(job, unknownWorkersOf(context)));
			return;
		}
		const what = action.removesMember ? `the members the last job still selects` : `the members who have ${action.words.holds}`;
		await interaction.editReply(`Counting ${what} from the live server; the result will be posted in this channel.`);
		await job.ended();
		const channel = await channelOf(interaction);
		await channel?.send(job.result?.error ? `Counting failed: ${job.result.error.message}` : renderStats(job, unknownWorkersOf(context)));
	},
};

/**
 * What /stats counts without `name:`: the last job of this process, else the fleet's newest job
 * not undone (its journals in FLEET_JOURNALS_DIR), else the newest unfinished journal here.
 */
async function lastJobTarget(context: BossContext): Promise<CountTarget | undefined> {
	const last = context.jobs.last;
	if (last) return { action: last.action, filters: last.filters };
	const fleetJob = (await context.fleet.scope.elsewhere(() => context.jobs.journals.fleetJobs()))?.find((job) => job.state !== 'restored');
	if (fleetJob) return countTargetOf(fleetJob.header, context);
	const interrupted = await context.jobs.interrupted();
	return interrupted && countTargetOf(interrupted.header, context);
}
