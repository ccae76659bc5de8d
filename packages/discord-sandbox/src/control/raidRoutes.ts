import { stageJoinBurst } from '../state/stageJoinBurst.js';
import { stageRaid, type RaidOptions } from '../state/stageRaid.js';
import { ControlError } from './ControlError.js';
import type { ControlRoute } from './ControlRoute.js';
import { requireGuild } from './memberRoutes.js';

/** An optional integer field of the body in [min, max]; 400 naming it otherwise. */
function integerField(body: Record<string, unknown>, name: string, min: number, max: number): number | undefined {
	const value = body[name];
	if (value === undefined) return undefined;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
		throw new ControlError(400, `${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
	return value;
}

/**
 * Staging a raid, for tests and the benchmarks of a raid cleanup and of a standing rule:
 * `POST /_sandbox/guilds/{g}/raid` `{count, realJoiners?, windowMs?, accountAgeMs?, names?, seed?}`
 * → `{raidIds, realIds}`, joins already past (see {@link stageRaid}); `POST
 * /_sandbox/guilds/{g}/join-burst` `{count, windowMs, accountAgeMs?, seed?}` → `{ids, joinsAt}`,
 * joins from now on, each at its moment (see {@link stageJoinBurst}).
 */
export const raidRoutes: ControlRoute[] = [
	{
		method: 'POST',
		path: '/guilds/:guild/raid',
		handle({ ctx: { state }, params, body }) {
			requireGuild(state, params.guild);
			const count = integerField(body, 'count', 1, 100_000);
			if (count === undefined) throw new ControlError(400, 'count (the raid accounts, 1 to 100000) is required');
			const names = body.names;
			if (names !== undefined && (typeof names !== 'string' || names.trim() === '' || [...names].length > 32))
				throw new ControlError(400, 'names must be a display name pattern of 1 to 32 characters, {n} for the account’s number');
			const options: RaidOptions = { count };
			const fields = {
				realJoiners: integerField(body, 'realJoiners', 0, 100_000),
				windowMs: integerField(body, 'windowMs', 1000, 7 * 86_400_000),
				accountAgeMs: integerField(body, 'accountAgeMs', 0, 365 * 86_400_000),
				seed: integerField(body, 'seed', 0, 2 ** 31 - 1),
			};
			for (const [name, value] of Object.entries(fields)) if (value !== undefined) Object.assign(options, { [name]: value });
			if (typeof names === 'string') options.names = names;
			return stageRaid(state, options);
		},
	},
	{
		method: 'POST',
		path: '/guilds/:guild/join-burst',
		handle({ ctx: { state }, params, body }) {
			requireGuild(state, params.guild);
			const count = integerField(body, 'count', 1, 100_000);
			if (count === undefined) throw new ControlError(400, 'count (the joiners, 1 to 100000) is required');
			const windowMs = integerField(body, 'windowMs', 0, 3_600_000);
			if (windowMs === undefined) throw new ControlError(400, 'windowMs (the time the joins are spread over from now, 0 to 3600000) is required');
			const accountAgeMs = integerField(body, 'accountAgeMs', 0, 365 * 86_400_000);
			const seed = integerField(body, 'seed', 0, 2 ** 31 - 1);
			return stageJoinBurst(state, { count, windowMs, ...(accountAgeMs === undefined ? {} : { accountAgeMs }), ...(seed === undefined ? {} : { seed }) });
		},
	},
];
