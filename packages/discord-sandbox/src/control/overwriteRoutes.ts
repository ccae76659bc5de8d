import { OverwriteType } from 'discord-api-types/v10';
import type { SandboxState } from '../state/SandboxState.js';
import { ControlError } from './ControlError.js';
import type { ControlRoute } from './ControlRoute.js';
import { readPermissionBits } from './readPermissionBits.js';

function requireChannel(state: SandboxState, channelId: string | undefined): void {
	if (channelId !== state.guild.channel.id)
		throw new ControlError(404, `unknown channel ${String(channelId)}; the sandbox's channel is ${state.guild.channel.id}`);
}

/**
 * The channel's permission overwrites, set as Discord's Edit Channel Permissions sets them
 * (`PUT /channels/{id}/permissions/{overwrite_id}`): a role's or a member's allow and deny bits.
 */
export const overwriteRoutes: ControlRoute[] = [
	{
		method: 'PUT',
		path: '/channels/:channel/permissions/:overwrite',
		handle({ ctx: { state }, params, body }) {
			requireChannel(state, params.channel);
			const id = params.overwrite!;
			const type = body.type;
			if (type !== OverwriteType.Role && type !== OverwriteType.Member) throw new ControlError(400, 'type must be 0 (role) or 1 (member)');
			if (type === OverwriteType.Role && !state.rolesById.has(id)) throw new ControlError(404, `unknown role ${id}`);
			if (type === OverwriteType.Member && state.memberIndex(state.guildId, id) === -1) throw new ControlError(404, `user ${id} is not a member`);
			const allow = body.allow === undefined ? 0n : readPermissionBits(body.allow, 'allow');
			const deny = body.deny === undefined ? 0n : readPermissionBits(body.deny, 'deny');
			state.setChannelOverwrite(id, { id, type, allow: allow.toString(), deny: deny.toString() });
			return state.channelJson().permission_overwrites;
		},
	},
	{
		method: 'DELETE',
		path: '/channels/:channel/permissions/:overwrite',
		handle({ ctx: { state }, params }) {
			requireChannel(state, params.channel);
			state.setChannelOverwrite(params.overwrite!, null);
			return state.channelJson().permission_overwrites;
		},
	},
];
