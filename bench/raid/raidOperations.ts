import type { ChangeRoute } from '../ChangeRoute.js';
import type { MassnickJob } from '../massnickJobs.js';
import type { GuildSnapshot } from './GuildSnapshot.js';
import type { RaidOperation } from './raidBaselines.js';

/**
 * How a moderator aims a raid cleanup, as the README's "When a raid comes" does: who joined in
 * the last half hour, on an account made in the last day, with the raid's name (the real joiners
 * of the same minutes have older accounts and other names).
 */
export const RAID_FILTERS = { joined_after: '30m', created_after: '1d', name_matches: '/free nitro/' } as const;

/** How long the raid's timeouts last. */
export const TIMEOUT_MS = 60 * 60_000;

/**
 * One step of a raid cleanup, as each subject does it and as the guild shows it done. The runner
 * asks these and never names an operation.
 */
export interface RaidOperationSpec {
	readonly operation: RaidOperation;
	/** How the report names it. */
	readonly label: string;
	/** massnick's command for it, typed by the owner (`/restore` for the unban). */
	readonly massnickJob: Pick<MassnickJob, 'command' | 'options'>;
	/** The journal's end state once massnick's job is done: `restored` is written on the job a restore undid. */
	readonly massnickEndState: 'finished' | 'restored';
	/** What one of massnick's requests doing it is in the request log (a bulk ban holds up to 200 accounts). */
	readonly massnickChange: ChangeRoute;
	/** A baseline's: one request per account. */
	readonly baselineChange: ChangeRoute;
	/** Whether the guild shows it done to `id`. */
	done(snapshot: GuildSnapshot, id: string): boolean;
}

const BAN: ChangeRoute = { method: 'PUT', route: '/guilds/:id/bans/:id', status: 204 };
const UNBAN: ChangeRoute = { method: 'DELETE', route: '/guilds/:id/bans/:id', status: 204 };
const BULK_BAN: ChangeRoute = { method: 'POST', route: '/guilds/:id/bulk-ban', status: 200 };
const MEMBER_EDIT: ChangeRoute = { method: 'PATCH', route: '/guilds/:id/members/:id', status: 200 };

/** The raid's three steps, in the order the report shows them. */
export const RAID_OPERATIONS: readonly RaidOperationSpec[] = [
	{
		operation: 'ban',
		label: 'ban',
		massnickJob: { command: 'massban', options: { ...RAID_FILTERS } },
		massnickEndState: 'finished',
		massnickChange: BULK_BAN,
		baselineChange: BAN,
		done: (snapshot, id) => snapshot.banned.has(id) && !snapshot.members.has(id),
	},
	{
		operation: 'timeout',
		label: 'timeout',
		massnickJob: { command: 'masstimeout', options: { duration: '1h', ...RAID_FILTERS } },
		massnickEndState: 'finished',
		massnickChange: MEMBER_EDIT,
		baselineChange: MEMBER_EDIT,
		done: (snapshot, id) => (snapshot.members.get(id) ?? 0) > snapshot.at,
	},
	{
		operation: 'unban',
		label: 'unban (/restore)',
		massnickJob: { command: 'restore', options: {} },
		massnickEndState: 'restored',
		massnickChange: UNBAN,
		baselineChange: UNBAN,
		done: (snapshot, id) => !snapshot.banned.has(id),
	},
];

export function operationSpec(operation: RaidOperation): RaidOperationSpec {
	const spec = RAID_OPERATIONS.find((candidate) => candidate.operation === operation);
	if (!spec) throw new Error(`no raid operation ${operation}`);
	return spec;
}
