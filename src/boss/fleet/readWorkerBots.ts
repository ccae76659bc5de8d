import { type REST, RESTJSONErrorCodes, Routes, type RESTGetAPICurrentUserResult, type RESTGetAPIGuildMemberResult } from 'discord.js';
import { type Patience, PatientRest } from '../../discord/PatientRest.js';
import { waitOutTransient } from '../../discord/waitOutTransient.js';

/** A worker of another process, as the boss read it at start. */
export interface WorkerBot {
	/** The worker's id among `WORKER_COUNT`. */
	readonly worker: number;
	readonly userId: string;
	/** Its bot's roles in the guild, `@everyone` left out; `null` when the bot is not in the guild. */
	readonly roles: readonly string[] | null;
}

export interface ReadWorkerBotsOptions {
	/** The token of each worker another process holds, by worker id (from a full `WORKER_TOKENS`). */
	readonly tokens: ReadonlyMap<number, string>;
	readonly guildId: string;
	/** The boss's REST client: it reads each bot's member. */
	readonly rest: REST;
	readonly apiUrl?: string | undefined;
	readonly restOffsetMs: number;
	readonly restTimeoutMs: number;
	/** How each read waits out Discord's passing failures (the changes' backoff, logged). */
	readonly patience: Omit<Patience, 'label'>;
}

export interface ReadWorkerBots {
	readonly bots: WorkerBot[];
	/** Workers that could not be read, each with why (never its token). */
	readonly problems: Array<{ worker: number; message: string }>;
}

/** Bots read at once: a fleet may have hundreds, and each read is two requests. */
const CONCURRENCY = 8;

/**
 * Reads the bots of the workers other processes hold, so a boss holding none or only some of the
 * workers still knows our bots and how far the workers reach. Per worker: `GET /users/@me` with
 * its token, over REST alone (no gateway session, so nothing of the process that runs the worker
 * is disturbed), then `GET /guilds/{guild}/members/{bot}` with the boss's for its roles. Read-only.
 *
 * A worker that cannot be read is a problem to report, not a reason to stop: the boss starts
 * anyway, and the process holding that worker refuses to start on its own terms.
 *
 * @see https://discord.com/developers/docs/resources/user#get-current-user
 * @see https://discord.com/developers/docs/resources/guild#get-guild-member
 */
export async function readWorkerBots(options: ReadWorkerBotsOptions): Promise<ReadWorkerBots> {
	const bots: WorkerBot[] = [];
	const problems: ReadWorkerBots['problems'] = [];
	const queue = [...options.tokens].sort(([a], [b]) => a - b);
	const readNext = async (): Promise<void> => {
		for (let next = queue.shift(); next; next = queue.shift()) {
			const [worker, token] = next;
			try {
				bots.push(await readOne(worker, token, options));
			} catch (error) {
				problems.push({ worker, message: (error as Error).message });
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, readNext));
	bots.sort((a, b) => a.worker - b.worker);
	problems.sort((a, b) => a.worker - b.worker);
	return { bots, problems };
}

async function readOne(worker: number, token: string, options: ReadWorkerBotsOptions): Promise<WorkerBot> {
	const rest = new PatientRest(
		{ ...(options.apiUrl ? { api: options.apiUrl } : {}), offset: options.restOffsetMs, timeout: options.restTimeoutMs, retries: 0 },
		{ ...options.patience, label: `worker ${worker}` },
	).setToken(token);
	let userId: string;
	try {
		userId = ((await rest.get(Routes.user())) as RESTGetAPICurrentUserResult).id;
	} catch (error) {
		if ((error as { status?: number }).status === 401) throw new Error(`worker ${worker}'s token (WORKER_TOKENS) was rejected by Discord`);
		throw new Error(`worker ${worker}'s bot could not be read: ${(error as Error).message}`);
	}
	try {
		const member = (await waitOutTransient(() => options.rest.get(Routes.guildMember(options.guildId, userId)), {
			...options.patience,
			what: `the boss reading worker ${worker}'s member`,
		})) as RESTGetAPIGuildMemberResult;
		return { worker, userId, roles: member.roles };
	} catch (error) {
		if ((error as { code?: unknown }).code === RESTJSONErrorCodes.UnknownMember) return { worker, userId, roles: null };
		throw new Error(`worker ${worker}'s bot's roles could not be read: ${(error as Error).message}`);
	}
}
