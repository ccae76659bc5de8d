import { ApplicationCommandOptionType, ApplicationCommandType, InteractionContextType, PermissionFlagsBits } from 'discord.js';
import { estimateMemberEdit } from '../../jobs/index.js';
import type { ActionArgs, ActionModule } from '../ActionModule.js';
import { describeKick } from './describeKick.js';
import { KICK, KickAction } from './KickAction.js';
import { parseKickTarget } from './kickTarget.js';

/** Room for the configured audit-log reason before it: Discord keeps 512 characters in all. */
export const KICK_REASON_MAX_LENGTH = 400;

function kickAction(args: ActionArgs): KickAction {
	const reason = args.string('reason')?.trim();
	return new KickAction({ askedAt: new Date().toISOString(), reason: reason || undefined });
}

/**
 * `/masskick [reason]` and `massnick run masskick [--reason]`: every member the filters select
 * removed from the server, the way a raid is cleaned up. Only members with Kick Members see it,
 * and the boss checks it on every use; the workers need Kick Members too. Nothing about it can be
 * undone, so its preview says so and asks for the number of members to be typed before it runs
 * (see {@link ActionModule.confirmByTypedCount}), and `massnick run` asks for it as
 * `--confirm-count`.
 */
export const kickModule: ActionModule = {
	command: {
		type: ApplicationCommandType.ChatInput,
		name: 'masskick',
		description: 'Kick every member the filters select (a kick cannot be undone)',
		default_member_permissions: String(PermissionFlagsBits.KickMembers),
		contexts: [InteractionContextType.Guild],
		options: [
			{
				type: ApplicationCommandOptionType.String,
				name: 'reason',
				description: 'Your reason, added to the audit log of every kick',
				required: false,
				min_length: 1,
				max_length: KICK_REASON_MAX_LENGTH,
			},
		],
	},
	journalTypes: [KICK],
	usage: `masskick --confirm-count <n> [--reason <text>] [filters]
      kick every member the filters select (a kick cannot be undone); <n> is the number of members
      it kicks, as a --dry-run counts them: the run is refused unless it matches`,
	request(args) {
		return { action: kickAction(args), estimate: (counts, ctx, filters) => estimateMemberEdit(counts, ctx, filters) };
	},
	fromJournal(header) {
		return new KickAction(parseKickTarget(header.target));
	},
	describeChange: describeKick,
	confirmByTypedCount: (members) => members.atMost > 0,
};
