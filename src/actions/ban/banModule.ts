import { ApplicationCommandOptionType, ApplicationCommandType, escapeMarkdown, InteractionContextType, PermissionFlagsBits } from 'discord.js';
import type { MemberRecord } from '../../discord/MemberRecord.js';
import { estimateMemberEdit } from '../../jobs/index.js';
import type { ActionArgs, ActionModule } from '../ActionModule.js';
import { BAN, BanAction } from './BanAction.js';
import { banOptionsOf } from './banTarget.js';
import { DELETE_MESSAGES, deleteMessageSeconds } from './deleteMessages.js';

/** The most of the moderator's own reason: Discord's 512 characters leave room for massnick's. */
const REASON_MAX_LENGTH = 400;
/** A ban of more members than this asks for their number typed before it runs. */
const BAN_TYPED_COUNT_ABOVE = 100;

function banAction(args: ActionArgs): BanAction {
	const reason = args.string('reason')?.trim();
	return new BanAction({ deleteMessageSeconds: deleteMessageSeconds(args.string('delete_messages')), ...(reason ? { reason } : {}) });
}

/** One ban as a preview shows it: `@raider_1 (“free nitro 1”) is banned`. */
function describeBan(member: MemberRecord): string {
	const shown = member.nick ?? member.globalName;
	return `@${escapeMarkdown(member.username)}${shown === null ? '' : ` (“${escapeMarkdown(shown)}”)`} is banned`;
}

/**
 * `/massban [delete_messages] [reason]` and `massnick run massban`: every member the filters
 * select banned, 200 a call with Bulk Guild Ban, for a raid (`joined_after:10m name_matches:…`).
 * Only members with Ban Members and Manage Guild see it, as Bulk Guild Ban asks of who bans;
 * each member it bans is bounded by the requester's rank. `/restore` unbans exactly the users it
 * banned who are still banned. A ban can be undone, but one of more than 100 members asks for
 * that number to be typed before it runs, in the preview's modal or as `massnick run`'s
 * `--confirm-count` (see {@link ActionModule.confirmByTypedCount}): a mistyped filter should not
 * ban a server.
 */
export const banModule: ActionModule = {
	command: {
		type: ApplicationCommandType.ChatInput,
		name: 'massban',
		description: 'Ban every member the filters select (a raid), 200 a call; /restore unbans them',
		default_member_permissions: String(PermissionFlagsBits.BanMembers | PermissionFlagsBits.ManageGuild),
		contexts: [InteractionContextType.Guild],
		options: [
			{
				type: ApplicationCommandOptionType.String,
				name: 'delete_messages',
				description: 'Delete their recent messages too (none by default)',
				required: false,
				choices: DELETE_MESSAGES.map((entry) => entry.choice),
			},
			{
				type: ApplicationCommandOptionType.String,
				name: 'reason',
				description: 'Why, for the audit log (massnick adds who ran which job)',
				required: false,
				min_length: 1,
				max_length: REASON_MAX_LENGTH,
			},
		],
	},
	journalTypes: [BAN],
	usage: `massban [--delete-messages none|1h|6h|12h|24h|3d|7d] [--reason <text>] [--confirm-count <n>] [filters]
      ban every member the filters select, 200 a call (restore unbans them); aim it, e.g.
      --joined-after 10m --name-matches "/free nitro/"; a ban of more than ${BAN_TYPED_COUNT_ABOVE} members needs
      --confirm-count <n>, the number it bans as a --dry-run counts them: the run is refused unless it matches`,
	request(args) {
		return { action: banAction(args), estimate: (counts, ctx, filters) => estimateMemberEdit(counts, ctx, filters) };
	},
	check(args) {
		banAction(args);
	},
	fromJournal(header) {
		return new BanAction(banOptionsOf(header.target));
	},
	describeChange: describeBan,
	confirmByTypedCount: (members) => members.atMost > BAN_TYPED_COUNT_ABOVE,
	typedCountWhy: `A ban of more than ${BAN_TYPED_COUNT_ABOVE} members is confirmed by its count (/restore unbans them)`,
};
