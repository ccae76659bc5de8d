import type { APIRole } from 'discord-api-types/v10';
import type { SandboxState } from '../state/SandboxState.js';
import { ControlError } from './ControlError.js';
import type { ControlRoute } from './ControlRoute.js';
import { controlMember, requireGuild, requireMember } from './memberRoutes.js';
import { readPermissionBits } from './readPermissionBits.js';

function requireRole(state: SandboxState, roleId: string | undefined): APIRole {
	const role = roleId === undefined ? undefined : state.rolesById.get(roleId);
	if (!role) throw new ControlError(404, `unknown role ${String(roleId)}; known: ${state.guild.roles.map((known) => `${known.name} ${known.id}`).join(', ')}`);
	return role;
}

function readPosition(value: unknown): number | undefined {
	if (value === undefined) return undefined;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
		throw new ControlError(400, 'position must be an integer of 1 or more (0 is @everyone)');
	return value;
}

function readMentionable(value: unknown): boolean | undefined {
	if (value === undefined || typeof value === 'boolean') return value;
	throw new ControlError(400, 'mentionable must be true or false');
}

/** The guild's roles and who holds them, changed as a server admin would in Server Settings. */
export const roleRoutes: ControlRoute[] = [
	{
		method: 'POST',
		path: '/guilds/:guild/roles',
		handle({ ctx: { state }, params, body }) {
			requireGuild(state, params.guild);
			if (typeof body.name !== 'string' || body.name.trim() === '' || body.name.length > 100)
				throw new ControlError(400, 'name must be a string of 1 to 100 characters');
			const permissions = body.permissions === undefined ? 0n : readPermissionBits(body.permissions, 'permissions');
			const mentionable = readMentionable(body.mentionable);
			return state.createRole({
				name: body.name,
				permissions,
				position: readPosition(body.position) ?? 1,
				...(mentionable === undefined ? {} : { mentionable }),
			});
		},
	},
	{
		method: 'PATCH',
		path: '/guilds/:guild/roles/:role',
		handle({ ctx: { state }, params, body }) {
			requireGuild(state, params.guild);
			const role = requireRole(state, params.role);
			const position = readPosition(body.position);
			if (position !== undefined && role.id === state.guildId) throw new ControlError(400, '@everyone always stays at position 0');
			const permissions = body.permissions === undefined ? undefined : readPermissionBits(body.permissions, 'permissions');
			const mentionable = readMentionable(body.mentionable);
			return state.editRole(role, {
				...(permissions === undefined ? {} : { permissions }),
				...(position === undefined ? {} : { position }),
				...(mentionable === undefined ? {} : { mentionable }),
			});
		},
	},
	{
		// The owner deletes the role in Server Settings (the audit entry names them): no bot's rank
		// or permission is involved, but Discord offers no way to delete `@everyone` or a managed
		// role either.
		method: 'DELETE',
		path: '/guilds/:guild/roles/:role',
		handle({ ctx: { state }, params }) {
			requireGuild(state, params.guild);
			const role = requireRole(state, params.role);
			if (role.id === state.guildId) throw new ControlError(400, '@everyone cannot be deleted');
			if (role.managed) throw new ControlError(400, `${role.name} is managed by an integration and cannot be deleted`);
			state.deleteRole(role, { actorIndex: state.members.indexOf(BigInt(state.guild.ownerId)), reason: null });
			return { deleted: role.id };
		},
	},
	{
		method: 'PUT',
		path: '/guilds/:guild/members/:user/roles/:role',
		handle({ ctx: { state }, params }) {
			requireGuild(state, params.guild);
			const index = requireMember(state, params.guild!, params.user!);
			const role = requireRole(state, params.role);
			if (role.id === state.guildId) throw new ControlError(400, 'everyone holds @everyone; it cannot be given');
			const roles = state.members.roles(index);
			if (!roles.includes(role.id)) state.setMemberRoles(index, [...roles, role.id]);
			return controlMember(state, index);
		},
	},
	{
		method: 'DELETE',
		path: '/guilds/:guild/members/:user/roles/:role',
		handle({ ctx: { state }, params }) {
			requireGuild(state, params.guild);
			const index = requireMember(state, params.guild!, params.user!);
			const role = requireRole(state, params.role);
			const roles = state.members.roles(index);
			if (roles.includes(role.id))
				state.setMemberRoles(
					index,
					roles.filter((id) => id !== role.id),
				);
			return controlMember(state, index);
		},
	},
];
