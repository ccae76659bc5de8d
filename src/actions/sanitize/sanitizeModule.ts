import { ApplicationCommandOptionType, ApplicationCommandType, InteractionContextType, PermissionFlagsBits } from 'discord.js';
import { estimateMemberEdit } from '../../jobs/index.js';
import type { ActionArgs, ActionModule, ActionSettings } from '../ActionModule.js';
import { describeNicknameChange, parseTemplate } from '../shared/nicknameEdits/index.js';
import { SANITIZE, SanitizeAction } from './SanitizeAction.js';

/** What a member is named when nothing readable is left of their name. */
const DEFAULT_FALLBACK = '{username}';

function sanitizeAction(args: ActionArgs, settings: ActionSettings): SanitizeAction {
	return new SanitizeAction(parseTemplate(args.string('fallback') ?? DEFAULT_FALLBACK, { maxLength: settings.nicknameMaxLength }));
}

/**
 * `/sanitize [fallback]` and `massnick run sanitize [--fallback]`: every member's shown name made
 * readable (no hoisting characters, no decorated, look-alike or zalgo letters). Only members with
 * Manage Nicknames see it; each member it changes is bounded by the requester's rank.
 */
export const sanitizeModule: ActionModule = {
	command: {
		type: ApplicationCommandType.ChatInput,
		name: 'sanitize',
		description: 'Clean every shown name: no hoisting characters, no decorated, look-alike or zalgo letters',
		default_member_permissions: String(PermissionFlagsBits.ManageNicknames),
		contexts: [InteractionContextType.Guild],
		options: [
			{
				type: ApplicationCommandOptionType.String,
				name: 'fallback',
				description: 'The nickname, or a template, when nothing readable is left (default {username})',
				required: false,
				min_length: 1,
				max_length: 100,
			},
		],
	},
	journalTypes: [SANITIZE],
	usage: `sanitize [--fallback <template>] [filters]
      clean every member's shown name (nickname, display name or username): no characters that
      hoist it, no decorated, look-alike or zalgo letters; <template> (default {username}) when
      nothing readable is left`,
	request(args, deps) {
		const action = sanitizeAction(args, deps);
		return { action, estimate: (counts, ctx, filters) => estimateMemberEdit(counts, ctx, filters) };
	},
	check(args, settings) {
		sanitizeAction(args, settings);
	},
	fromJournal(header, deps) {
		return new SanitizeAction(parseTemplate(header.target, { maxLength: deps.nicknameMaxLength }));
	},
	describeChange: describeNicknameChange,
};
