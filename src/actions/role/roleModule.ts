import {
	type APIApplicationCommandBasicOption,
	ApplicationCommandOptionType,
	ApplicationCommandType,
	InteractionContextType,
	PermissionFlagsBits,
} from 'discord.js';
import { ErrorCodes, JobError } from '../../errors.js';
import type { ActionModule } from '../ActionModule.js';
import { assignableRoleAction } from './assignableRoleAction.js';
import { describeRoleChange } from './describeRoleChange.js';
import { estimateRoleChange } from './estimateRoleChange.js';
import { ROLE_ACTION_TYPES, RoleAction, type RoleMode } from './RoleAction.js';

const roleOption: APIApplicationCommandBasicOption = {
	type: ApplicationCommandOptionType.Role,
	name: 'role',
	description: 'The role to give (add) or take (remove)',
	required: true,
};

/**
 * `/massrole add|remove role:` and `massnick run massrole add|remove --role`: one role given to
 * every member who lacks it, or taken from every member who has it. Only members with Manage
 * Roles see it: it hands out roles.
 */
export const roleModule: ActionModule = {
	command: {
		type: ApplicationCommandType.ChatInput,
		name: 'massrole',
		description: 'Give a role to every member, or take it from every member',
		default_member_permissions: String(PermissionFlagsBits.ManageRoles),
		contexts: [InteractionContextType.Guild],
		options: [
			{ type: ApplicationCommandOptionType.Subcommand, name: 'add', description: 'Give the role to every member who lacks it', options: [roleOption] },
			{ type: ApplicationCommandOptionType.Subcommand, name: 'remove', description: 'Take the role from every member who has it', options: [roleOption] },
		],
	},
	journalTypes: [ROLE_ACTION_TYPES.add, ROLE_ACTION_TYPES.remove],
	usage: `massrole add|remove --role <id> [--only-role <id>] [filters]
      give the role to every member who lacks it, or take it from every member who has it`,
	request(args, deps) {
		const mode: RoleMode = args.subcommand === 'remove' ? 'remove' : 'add';
		const id = args.role('role') ?? '';
		const role = deps.role(id);
		if (!role) {
			throw new JobError(
				ErrorCodes.RoleNotAssignable,
				`There is no role ${id} in this server (deleted since, or never there): pick another, or copy its id again (Server Settings → Roles → right-click → Copy Role ID).`,
				{
					context: { roleId: id },
				},
			);
		}
		const action = assignableRoleAction(role, mode, deps.guildContext());
		return { action, estimate: (counts, ctx, filters) => estimateRoleChange(counts, ctx, filters, role.id, mode) };
	},
	fromJournal(header, deps) {
		// A role deleted since: nobody holds it, so the restore finds nothing to change.
		const role = deps.role(header.target) ?? { id: header.target, name: `deleted-role-${header.target}` };
		return new RoleAction(role, header.action === ROLE_ACTION_TYPES.add ? 'add' : 'remove');
	},
	resume(header, deps) {
		const role = deps.role(header.target);
		if (!role) {
			throw new JobError(ErrorCodes.RoleNotAssignable, `its role (${header.target}) was deleted since it started, so there is nothing left to give or take`, {
				context: { roleId: header.target },
			});
		}
		return assignableRoleAction(role, header.action === ROLE_ACTION_TYPES.add ? 'add' : 'remove', deps.guildContext());
	},
	describeChange: describeRoleChange,
};
