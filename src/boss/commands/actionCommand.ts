import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import { type ActionModule, actionCommandData, DRY_RUN_OPTION, FILTER_OPTIONS, readFilters, readKeep } from '../../actions/index.js';
import { describeFilters } from '../../jobs/index.js';
import { pendingApply } from '../preview/pendingApply.js';
import { startOrPreview } from '../preview/startOrPreview.js';
import { allowedFor } from '../isAllowed.js';
import { readRequesterRank } from '../readRequesterRank.js';
import { argsOf } from './argsOf.js';
import type { BossCommand } from './BossCommand.js';
import { fetchIdsFile } from './fetchIdsFile.js';
import { roleNameIn } from './roleName.js';

/**
 * The command of an action module: its options become the action (refused before anything is
 * acknowledged when they can never work), the engine's options the filters (a file of ids
 * downloaded first, once the command is acknowledged), and the job runs through the preview like
 * every changing command.
 */
export function actionCommand(module: ActionModule): BossCommand {
	const data = actionCommandData(module);
	const permission = BigInt(data.default_member_permissions ?? PermissionFlagsBits.ManageNicknames);
	return {
		data,
		async run(interaction, context) {
			const args = argsOf(interaction);
			const { action, estimate } = module.request(args, context.actionDeps);
			const read = { now: Date.now(), optionName: (option: string) => `${option}:` };
			let filters = readFilters(args, module, read);
			const keep = readKeep(args, read);
			// A rule keeps its durations as typed, to read them anew (the filters' mistakes are named first).
			if (keep) filters = readFilters(args, module, { ...read, rule: true });
			const attachment = interaction.options.getAttachment(FILTER_OPTIONS.userIds);
			// Admitted here, before anything is acknowledged, so only its member sees a refusal; again at Start.
			const rank = readRequesterRank(interaction, context.boss.guild);
			context.jobs.admission.admit({ action, undo: false, rank, allowed: allowedFor(interaction, context.config.permissions) });
			// A rule that would fight one that runs, or one too many, is refused before its preview too.
			if (keep) context.jobs.rules.admit(action, args.boolean(DRY_RUN_OPTION) === true);
			if (attachment) {
				// A download may take longer than the 3 s Discord waits for an answer: acknowledged first,
				// privately, so a file that cannot be read is refused to its member alone.
				await interaction.deferReply({ flags: MessageFlags.Ephemeral });
				const idsFile = await fetchIdsFile(attachment, { apiUrl: context.config.apiUrl });
				filters = readFilters(args, module, { ...read, idsFile, rule: keep !== undefined });
			}
			// Previewed whatever preview.skipBelowMembers says when the server holds enough members for
			// the count to be asked (a kick of anyone; a ban, past 100): a smaller ban runs as before.
			const alwaysPreview = module.confirmByTypedCount?.({ atLeast: 0, atMost: context.boss.guild.memberCount }) ?? false;
			await startOrPreview(interaction, context, { permission, admitted: true, alwaysPreview }, () =>
				pendingApply(context, {
					action,
					filters,
					scope: describeFilters(filters, roleNameIn(context.boss.guild)),
					estimate: (counts, ctx) => estimate(counts, ctx, filters),
					describeChange: module.describeChange,
					rebuild: () => module.request(args, context.actionDeps).action,
					confirmByTypedCount: module.confirmByTypedCount && ((members) => module.confirmByTypedCount!(members)),
					typedCountWhy: module.typedCountWhy,
					keep,
				}),
			);
		},
	};
}
