import { resolve } from 'node:path';
import type { ConfigProblem } from '../errors.js';
import { isSnowflake } from '../discord/snowflake.js';
import type { EnvSettings, HeldWorker, LogFormat, LogLevel } from './Config.js';
import { DEFAULT_ENV } from './defaults.js';
import { readMetricsEnv } from './readMetricsEnv.js';
import { readWorkerIds } from './readWorkerIds.js';

/** The environment keys massnick reads, and nothing else. */
export const ENV_KEYS = [
	'BOSS_TOKEN',
	'WORKER_TOKENS',
	'WORKER_COUNT',
	'WORKER_IDS',
	'JOB_COMPLETION_INDEX',
	'JOB_COMPLETIONS',
	'LISTER_TOKEN',
	'GUILD_ID',
	'DISCORD_API_URL',
	'LOG_LEVEL',
	'LOG_FORMAT',
	'MASSNICK_DATA_DIR',
	'FLEET_JOURNALS_DIR',
	'MASSNICK_CONFIG_DIR',
	'MASSNICK_METRICS_PORT',
	'MASSNICK_METRICS_HOST',
] as const;

export type EnvKey = (typeof ENV_KEYS)[number];

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const LOG_FORMATS: readonly LogFormat[] = ['auto', 'json', 'pretty'];

/**
 * Validates the environment keys. Every problem is collected; the result's `settings` is only
 * meaningful when `problems` is empty. Messages name the place of a bad token, never its value.
 */
export function readEnv(env: Readonly<Record<string, string | undefined>>): {
	settings: EnvSettings;
	problems: ConfigProblem[];
} {
	const problems: ConfigProblem[] = [];
	const problem = (key: EnvKey, message: string) => problems.push({ key, message });
	const value = (key: EnvKey): string | undefined => {
		const text = env[key]?.trim();
		return text === undefined || text === '' ? undefined : text;
	};

	// A process that holds only some workers (WORKER_IDS, or a pod of an Indexed Job) may run
	// without the boss: `massnick run` lists with LISTER_TOKEN or its workers instead.
	const inFleet = value('WORKER_IDS') !== undefined || value('JOB_COMPLETION_INDEX') !== undefined;
	const bossToken = value('BOSS_TOKEN') ?? '';
	if (bossToken === '') {
		if (!inFleet) problem('BOSS_TOKEN', "missing; set it to the boss bot's token (Developer Portal → your app → Bot → Reset Token)");
	} else {
		const why = tokenProblem(bossToken);
		if (why) problem('BOSS_TOKEN', `the boss's token ${why}`);
	}

	const workerTokens = (value('WORKER_TOKENS') ?? '')
		.split(',')
		.map((token) => token.trim())
		.filter((token) => token !== '');
	const { workerCount, heldWorkers, tokenIds } = readFleet(value, workerTokens, problem);
	// A list of only the held workers' tokens names each by the worker it belongs to.
	const workerAt = (index: number): number => tokenIds[index] ?? index;
	const workerPlace = (index: number): string => `worker ${workerAt(index)} (token ${index + 1} in the list)`;
	const firstPlace = new Map<string, number>();
	workerTokens.forEach((token, index) => {
		const why = tokenProblem(token);
		if (why) problem('WORKER_TOKENS', `${workerPlace(index)} ${why}`);
		const earlier = firstPlace.get(token);
		if (earlier === undefined) firstPlace.set(token, index);
		else {
			problem(
				'WORKER_TOKENS',
				`worker ${workerAt(earlier)} and worker ${workerAt(index)} (tokens ${earlier + 1} and ${index + 1} in the list) have the same token; each worker needs its own bot (rate limits are per token)`,
			);
		}
	});
	const sharedWithBoss = bossToken === '' ? undefined : firstPlace.get(bossToken);
	if (sharedWithBoss !== undefined) {
		problem(
			'BOSS_TOKEN',
			`the boss and ${workerPlace(sharedWithBoss)} of WORKER_TOKENS have the same token; the boss needs a bot of its own, apart from the workers`,
		);
	}

	const listerToken = value('LISTER_TOKEN') ?? '';
	if (listerToken !== '') {
		const why = tokenProblem(listerToken);
		if (why) problem('LISTER_TOKEN', `the lister's token ${why}`);
	}

	const guildId = value('GUILD_ID') ?? '';
	if (guildId === '') problem('GUILD_ID', "missing; set it to the guild's id (right-click the server → Copy Server ID, with Developer Mode on)");
	else if (!isSnowflake(guildId)) problem('GUILD_ID', 'is not a Discord id (17 to 20 digits); copy it with right-click → Copy Server ID');

	const apiUrl = readApiUrl(value('DISCORD_API_URL'), (message) => problem('DISCORD_API_URL', message));

	let logLevel = DEFAULT_ENV.logLevel;
	const level = value('LOG_LEVEL')?.toLowerCase();
	if (level !== undefined) {
		if ((LOG_LEVELS as readonly string[]).includes(level)) logLevel = level as LogLevel;
		else problem('LOG_LEVEL', `"${level}" is not a level; use one of ${LOG_LEVELS.join(', ')}`);
	}

	let logFormat = DEFAULT_ENV.logFormat;
	const format = value('LOG_FORMAT')?.toLowerCase();
	if (format !== undefined) {
		if ((LOG_FORMATS as readonly string[]).includes(format)) logFormat = format as LogFormat;
		else problem('LOG_FORMAT', `"${format}" is not a format; use auto (readable on a terminal, JSON otherwise), json or pretty`);
	}

	const dataDir = value('MASSNICK_DATA_DIR') ?? DEFAULT_ENV.dataDir;
	const fleetJournalsDir = value('FLEET_JOURNALS_DIR');
	if (fleetJournalsDir !== undefined && resolve(fleetJournalsDir) === resolve(dataDir)) {
		problem(
			'FLEET_JOURNALS_DIR',
			`is MASSNICK_DATA_DIR (${dataDir}); it is where the fleet's processes keep their data folders (one each, such as worker-0, worker-1), read-only here: point it at their parent folder, or leave it unset`,
		);
	}

	const metrics = readMetricsEnv(value('MASSNICK_METRICS_PORT'), value('MASSNICK_METRICS_HOST'), problem);

	return {
		settings: { bossToken, workerTokens, workerCount, heldWorkers, listerToken, guildId, apiUrl, logLevel, logFormat, dataDir, fleetJournalsDir, metrics },
		problems,
	};
}

/** More workers than this in one guild is a typo, not a fleet: each is a bot of its own. */
const MAX_WORKER_COUNT = 1000;

/**
 * The split and this process's part of it: `WORKER_COUNT` workers in all, this process holding
 * `WORKER_IDS` (or `JOB_COMPLETION_INDEX`), as `@discordjs/ws` takes `shardCount` and `shardIds`.
 * With none of them set, the process holds one worker per token, as before there were fleets.
 *
 * `WORKER_TOKENS` may list every worker's token (each process takes those at its ids, so one
 * Secret serves every pod) or only the held workers' (in the order of `WORKER_IDS`).
 */
function readFleet(
	value: (key: EnvKey) => string | undefined,
	tokens: readonly string[],
	problem: (key: EnvKey, message: string) => void,
): { workerCount: number; heldWorkers: HeldWorker[] /** The worker of each token, by its place in the list. */; tokenIds: number[] } {
	const countText = value('WORKER_COUNT');
	const idsText = value('WORKER_IDS');
	const indexText = value('JOB_COMPLETION_INDEX');
	const none = { workerCount: tokens.length, heldWorkers: [], tokenIds: [] };

	let count: number | undefined;
	if (countText !== undefined) {
		if (!/^\d+$/.test(countText) || Number(countText) < 1 || Number(countText) > MAX_WORKER_COUNT) {
			problem('WORKER_COUNT', `"${countText}" is not a number of workers; give a whole number from 1 to ${MAX_WORKER_COUNT}`);
			return none;
		}
		count = Number(countText);
	}

	let ids: number[];
	if (indexText !== undefined) {
		if (!/^\d+$/.test(indexText)) {
			problem('JOB_COMPLETION_INDEX', `"${indexText}" is not a completion index (a whole number from 0, as a Kubernetes Indexed Job sets it)`);
			return none;
		}
		if (count === undefined) {
			problem(
				'WORKER_COUNT',
				"required when JOB_COMPLETION_INDEX is set: every pod of an Indexed Job must split the guild the same way (set it to the number of workers; the Job's completions unless JOB_COMPLETIONS says otherwise)",
			);
			return none;
		}
		if (idsText !== undefined) {
			problem('WORKER_IDS', 'set with JOB_COMPLETION_INDEX too; a pod of an Indexed Job holds the worker at its index: leave WORKER_IDS unset there');
			return none;
		}
		// The Job's pods: each holds the workers index, index + pods, index + 2 × pods…; one a pod by default.
		const podsText = value('JOB_COMPLETIONS');
		let pods = count;
		if (podsText !== undefined) {
			if (!/^\d+$/.test(podsText) || Number(podsText) < 1 || Number(podsText) > count) {
				problem(
					'JOB_COMPLETIONS',
					`"${podsText}" is not a number of pods for ${count} workers; give the Job's completions, a whole number from 1 to WORKER_COUNT (${count})`,
				);
				return none;
			}
			pods = Number(podsText);
		}
		const index = Number(indexText);
		if (index >= pods) {
			problem(
				'JOB_COMPLETION_INDEX',
				podsText === undefined
					? `is ${index}, but WORKER_COUNT is ${count} (ids 0 to ${count - 1}): the Job's completions and WORKER_COUNT must be equal, or JOB_COMPLETIONS set to the completions`
					: `is ${index}, but JOB_COMPLETIONS is ${pods} (indexes 0 to ${pods - 1}): set JOB_COMPLETIONS to the Job's completions`,
			);
			return none;
		}
		ids = Array.from({ length: count }, (_, id) => id).filter((id) => id % pods === index);
	} else {
		count ??= tokens.length;
		if (count === 0) {
			if (idsText?.toLowerCase() !== 'none') problem('WORKER_TOKENS', 'missing; give one bot token per worker, separated by commas (at least one)');
			return none;
		}
		if (idsText === undefined) ids = Array.from({ length: count }, (_, id) => id);
		else {
			const read = readWorkerIds(idsText, count);
			if (typeof read === 'string') {
				problem('WORKER_IDS', read);
				return none;
			}
			ids = read;
		}
	}

	// Every worker's token (take each held worker's by its id), or the held workers' alone.
	let tokenIds: number[];
	if (tokens.length === count) tokenIds = tokens.map((_, id) => id);
	else if (tokens.length === ids.length) tokenIds = ids;
	else {
		const held = indexText !== undefined ? `JOB_COMPLETION_INDEX ${indexText}: workers ${ids.join(', ')}` : `WORKER_IDS ${idsText}`;
		problem(
			'WORKER_TOKENS',
			tokens.length === 0
				? `missing; give every worker's token (${count}, separated by commas), or the ${ids.length} of the workers this process holds (${held})`
				: `has ${tokens.length} token${tokens.length === 1 ? '' : 's'}, but there are ${count} workers (WORKER_COUNT) and this process holds ${ids.length} (${held}): give all ${count}, each process taking those at its ids, or only the ${ids.length} it holds, in the order of its ids`,
		);
		return { workerCount: count, heldWorkers: [], tokenIds: [] };
	}
	const tokenOf = new Map(tokenIds.map((id, place) => [id, tokens[place]!]));
	return { workerCount: count, heldWorkers: ids.map((id) => ({ id, token: tokenOf.get(id)! })).sort((a, b) => a.id - b.id), tokenIds };
}

/**
 * Why `token` cannot be a bot token, or `undefined`. Phrased to follow "the boss's token" or
 * "worker 2 (token 3 in the list)"; never includes the token.
 */
function tokenProblem(token: string): string | undefined {
	if (/^(bot|bearer)\s/i.test(token)) return "starts with a 'Bot ' prefix; give the token alone (discord.js adds the prefix)";
	if (/["'`]/.test(token)) return 'contains quotes; write the token without quotes';
	if (/\s/.test(token)) return 'contains whitespace; copy the token again, as one word';
	if (/^[0-9]+$/.test(token)) return "is only digits, like an application id; copy the token from the Developer Portal's Bot page";
	if (!/^[A-Za-z0-9._-]+$/.test(token)) return 'contains characters a bot token never has; copy the token again';
	return undefined;
}

function readApiUrl(text: string | undefined, problem: (message: string) => void): string | undefined {
	if (text === undefined) return DEFAULT_ENV.apiUrl;
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		problem(`"${text}" is not a URL; give e.g. http://127.0.0.1:3000/api, or leave it unset for Discord`);
		return undefined;
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		problem(`must be an http or https URL, got ${url.protocol}`);
		return undefined;
	}
	if (url.search !== '' || url.hash !== '') {
		problem('must not have a query or fragment; give the API base, e.g. http://127.0.0.1:3000/api');
		return undefined;
	}
	const base = url.href.replace(/\/+$/, '');
	const version = /\/v\d+$/.exec(base);
	if (version) {
		problem(`ends in ${version[0]}; give the base without the version (${base.slice(0, version.index)}), discord.js adds /v10 itself`);
		return undefined;
	}
	return base;
}
