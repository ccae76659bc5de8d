import { ApplicationCommandOptionType, ApplicationCommandType, InteractionContextType, PermissionFlagsBits } from 'discord.js';
import type { ActionModule } from '../ActionModule.js';
import { estimateMemberEdit } from '../../jobs/index.js';
import { describeNicknameChange, parseTemplate } from '../shared/nicknameEdits/index.js';
import { NICKNAME, NicknameAction } from './NicknameAction.js';
import { parseClearNamedNicknameAction } from './parseClearNamedNicknameAction.js';
import { parseNicknameAction } from './parseNicknameAction.js';

/** Version 1 journals (before mass actions) name their one action by its old job kind. */
const VERSION_1_NICKNAME = 'rename';

/**
 * `/massnick name:` and `massnick run massnick --name`: every member's nickname from a template.
 * Only members with Manage Nicknames see it (Discord hides it from everyone else).
 */
export const nicknameModule: ActionModule = {
	command: {
		type: ApplicationCommandType.ChatInput,
		name: 'massnick',
		description: "Set every member's nickname",
		default_member_permissions: String(PermissionFlagsBits.ManageNicknames),
		contexts: [InteractionContextType.Guild],
		options: [
			{
				type: ApplicationCommandOptionType.String,
				name: 'name',
				description: 'The nickname, or a template like "🎃 {display_name}" ({username}, {display_name}, {nick})',
				required: true,
				min_length: 1,
				max_length: 100,
			},
		],
	},
	// `/massnick role:` has kept members to a role since the first release.
	onlyRoleOption: 'role',
	journalTypes: [NICKNAME, VERSION_1_NICKNAME],
	usage: `massnick --name <template> [--role <id>] [filters]
      rename every member to <template>: text with {username}, {display_name}, {nick}, {id}`,
	request(args, deps) {
		const action = parseNicknameAction(args.string('name') ?? '', deps.nicknameMaxLength);
		return { action, estimate: (counts, ctx, filters) => estimateMemberEdit(counts, ctx, filters) };
	},
	check(args, settings) {
		parseNicknameAction(args.string('name') ?? '', settings.nicknameMaxLength);
	},
	fromJournal(header, deps) {
		return new NicknameAction(parseTemplate(header.target, { maxLength: deps.nicknameMaxLength }));
	},
	describeChange: describeNicknameChange,
	byName: {
		count: (text, deps) => parseNicknameAction(text, deps.nicknameMaxLength),
		clear: (text, deps) => parseClearNamedNicknameAction(text, deps.nicknameMaxLength),
	},
};
