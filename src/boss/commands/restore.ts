import { ApplicationCommandOptionType, ApplicationCommandType, InteractionContextType } from 'discord.js';
import { DRY_RUN_OPTION, namedModule } from '../../actions/index.js';
import { pendingRestore } from '../preview/pendingRestore.js';
import { startOrPreview } from '../preview/startOrPreview.js';
import type { BossCommand } from './BossCommand.js';
import { RESTORE_PERMISSION } from './restorePermission.js';

/**
 * `/restore [dry_run] [name]`: undoes the newest job not undone yet, whatever its action, bounded
 * by its member's rank like any job. Members with Manage Nicknames see it.
 */
export const restoreCommand: BossCommand = {
	data: {
		type: ApplicationCommandType.ChatInput,
		name: 'restore',
		description: 'Undo the last job: every member back to what they had before it',
		default_member_permissions: String(RESTORE_PERMISSION),
		contexts: [InteractionContextType.Guild],
		options: [
			{ type: ApplicationCommandOptionType.Boolean, name: DRY_RUN_OPTION, description: 'Plan and count only: nothing is changed', required: false },
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
		await startOrPreview(interaction, context, { permission: RESTORE_PERMISSION }, () =>
			pendingRestore(context, {
				fallback,
				noJournalHint: 'To clear a nickname wherever it is set instead, run /restore with `name:` set to it (the originals cannot be recovered that way).',
			}),
		);
	},
};
