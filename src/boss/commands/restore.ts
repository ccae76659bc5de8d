import { ApplicationCommandOptionType, ApplicationCommandType, InteractionContextType } from 'discord.js';
import { DRY_RUN_OPTION, namedModule } from '../../actions/index.js';
import { pendingRestore } from '../preview/pendingRestore.js';
import { startOrPreview } from '../preview/startOrPreview.js';
import type { BossCommand } from './BossCommand.js';

/** `/restore skip_irreversible:true`: past the jobs Discord cannot undo. */
const SKIP_IRREVERSIBLE_OPTION = 'skip_irreversible';

/**
 * `/restore [dry_run] [skip_irreversible] [name]`: undoes the newest job not undone yet, whatever
 * its action, bounded by its member's rank like any job. A job Discord cannot undo (a kick) is
 * not undone and not passed over silently: the answer says what it did and where its journal is,
 * and `skip_irreversible` undoes the job before it. Anyone who may run a job may run it (see
 * `maySeeJobs`); undoing a job asks for that job's permission, as running it did.
 */
export const restoreCommand: BossCommand = {
	data: {
		type: ApplicationCommandType.ChatInput,
		name: 'restore',
		description: 'Undo the last job: every member back to what they had before it',
		contexts: [InteractionContextType.Guild],
		options: [
			{ type: ApplicationCommandOptionType.Boolean, name: DRY_RUN_OPTION, description: 'Plan and count only: nothing is changed', required: false },
			{
				type: ApplicationCommandOptionType.Boolean,
				name: SKIP_IRREVERSIBLE_OPTION,
				description: 'Undo the newest job that can be undone, past newer ones Discord cannot undo (a kick)',
				required: false,
			},
			{
				type: ApplicationCommandOptionType.String,
				name: 'name',
				description: 'Only if no journal is left: clear this nickname wherever it is set',
				required: false,
				max_length: 100,
			},
		],
	},
	async run(interaction, context) {
		const name = interaction.options.getString('name') ?? undefined;
		const named = namedModule();
		const fallback = name === undefined ? undefined : { action: named.byName.clear(name, context.actionDeps), describeChange: named.describeChange };
		await startOrPreview(interaction, context, {}, () =>
			pendingRestore(context, {
				fallback,
				noJournalHint: 'To clear a nickname wherever it is set instead, run /restore with `name:` set to it (the originals cannot be recovered that way).',
				pastIrreversible: interaction.options.getBoolean(SKIP_IRREVERSIBLE_OPTION) ?? false,
				pastIrreversibleHint: `run /restore with \`${SKIP_IRREVERSIBLE_OPTION}:true\``,
			}),
		);
	},
};
