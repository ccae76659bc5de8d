import { ApplicationCommandType, InteractionContextType, PermissionFlagsBits } from 'discord.js';
import { estimateMemberEdit } from '../../jobs/index.js';
import type { ActionModule } from '../ActionModule.js';
import { describeNicknameChange } from '../shared/nicknameEdits/index.js';
import { CLEAR_NICKNAMES, ClearEveryNicknameAction } from './ClearEveryNicknameAction.js';

/**
 * `/clearnicks` and `massnick run clearnicks`: every nickname the filters select removed. Only
 * members with Manage Nicknames see it; each member it changes is bounded by the requester's rank.
 * Its own command rather than a subcommand of `/massnick`, whose `name` option is required at its
 * top level (Discord allows options or subcommands there, not both).
 */
export const clearModule: ActionModule = {
	command: {
		type: ApplicationCommandType.ChatInput,
		name: 'clearnicks',
		description: 'Remove the nickname of every member (the filters choose whose); /restore gives them back',
		default_member_permissions: String(PermissionFlagsBits.ManageNicknames),
		contexts: [InteractionContextType.Guild],
		options: [],
	},
	journalTypes: [CLEAR_NICKNAMES],
	usage: `clearnicks [filters]
      remove the nickname of every member the filters select (restore gives them back)`,
	request() {
		return { action: new ClearEveryNicknameAction(), estimate: (counts, ctx, filters) => estimateMemberEdit(counts, ctx, filters) };
	},
	fromJournal() {
		return new ClearEveryNicknameAction();
	},
	describeChange: describeNicknameChange,
};
