import { listInWords } from '../discord/permissionNames.js';
import { ErrorCodes } from '../errors.js';
import type { ServerRoom } from './countServerRoom.js';
import type { Finding } from './Finding.js';
import { LIMITS_SOURCE, NEAR_LIMIT, SERVER_LIMITS } from './serverLimits.js';

export interface ServerRoomCheck {
	/** The report's section, heading included: always shown when the guild was read. */
	readonly lines: string[];
	/** A warning when the configured bots do not all fit, or when the server is near a limit. */
	readonly findings: Finding[];
}

/**
 * Words the server's room for bots for the operator: what it holds against each of Discord's
 * limits, how many more workers it takes, and a warning with what to do when the configured bots
 * do not all fit or fewer than {@link NEAR_LIMIT} more would. The counts are lower bounds (see
 * `countServerRoom`), so the room is said as "at most".
 */
export function checkServerRoom(room: ServerRoom): ServerRoomCheck {
	const byRoles = room.limitedBy === 'roles';
	const limit = byRoles
		? `${SERVER_LIMITS.roles} roles, one per bot; ${room.roles} in it now`
		: `${SERVER_LIMITS.integrations} integrations; at least ${plural(room.bots, 'bot')} in it now`;
	const after = Math.max(0, room.moreBots - room.toAdd);

	const stillToAdd = `${plural(room.toAdd, 'configured bot')} not in it yet`;
	const headline =
		room.toAdd === 0
			? `This server can take ${upTo(room.moreBots, 'more worker')} (${limit}).`
			: `This server can take ${upTo(room.moreBots, 'more bot')} (${limit}): ${room.toAdd <= room.moreBots ? `the ${stillToAdd}, then ${upTo(after, 'more worker')}` : `fewer than the ${stillToAdd}`}.`;
	const who = [
		...(room.ours.boss ? ['the boss'] : []),
		...(room.ours.workers > 0 ? [plural(room.ours.workers, 'worker')] : []),
		...(room.otherBots > 0 ? [plural(room.otherBots, 'other bot')] : []),
		...(room.otherIntegrations > 0 ? [plural(room.otherIntegrations, 'other integration')] : []),
	];
	const lines = [
		`Room for more bots (Discord's limits and their sources: ${LIMITS_SOURCE})`,
		`  integrations  at least ${room.integrations} of ${SERVER_LIMITS.integrations}${who.length > 0 ? `: ${listInWords(who)}` : ''}`,
		`  roles         ${room.roles} of ${SERVER_LIMITS.roles}, and each bot added brings one`,
		`  ${headline}`,
		'  Other bots are seen by their roles, without listing anyone: Server Settings → Integrations lists every one.',
	];

	const context = {
		integrations: room.integrations,
		roles: room.roles,
		moreBots: room.moreBots,
		toAdd: room.toAdd,
		limitedBy: room.limitedBy,
		limit: byRoles ? SERVER_LIMITS.roles : SERVER_LIMITS.integrations,
	};
	// At 250 roles Discord still adds a bot invited without permissions, with no role of its own.
	const makeRoom = byRoles
		? "delete roles nobody uses (Server Settings → Roles), or untick the permissions on a worker's invite and give it the workers' role by hand"
		: 'remove bots the server no longer uses (Server Settings → Integrations)';
	const name = byRoles ? `${SERVER_LIMITS.roles} roles` : `${SERVER_LIMITS.integrations} integrations`;
	const used = byRoles ? `${room.roles} exist and each bot brings one` : `at least ${room.integrations} are in use`;

	if (room.toAdd > room.moreBots) {
		const refusal = byRoles
			? 'Discord will refuse their invite links, which ask for permissions'
			: `inviting them will fail with "Maximum number of guild integrations reached (${SERVER_LIMITS.integrations})"`;
		return {
			lines,
			findings: [
				{
					code: ErrorCodes.ServerFull,
					severity: 'warning',
					message: `the server has room for ${upTo(room.moreBots, 'more bot')} (Discord's limit of ${name}: ${used}), fewer than the ${plural(room.toAdd, 'configured bot')} not in it yet: ${refusal}.`,
					fix: `${makeRoom}, or take the workers that do not fit out of WORKER_TOKENS; see ${LIMITS_SOURCE}`,
					context,
				},
			],
		};
	}
	if (after >= NEAR_LIMIT) return { lines, findings: [] };
	const then = room.toAdd > 0 ? 'once the configured bots are in, it can take' : 'it can take';
	const message = `the server is ${after === 0 ? 'at' : 'near'} Discord's limit of ${name}: ${used}, so ${then} ${upTo(after, 'more worker')}.`;
	return {
		lines,
		findings: [
			{
				code: ErrorCodes.ServerNearLimit,
				severity: 'warning',
				message,
				fix: `nothing stops a job; before adding workers or other bots, ${makeRoom}; see ${LIMITS_SOURCE}`,
				context,
			},
		],
	};
}

/** `no more workers`, `at most 1 more worker`, `at most 2 more workers`. */
function upTo(count: number, noun: string): string {
	return count === 0 ? `no ${noun}s` : `at most ${plural(count, noun)}`;
}

/** `1 more worker`, `2 more workers`: the count, and the noun's last word made plural. */
function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
