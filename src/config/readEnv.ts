import type { ConfigProblem } from '../errors.js';
import { isSnowflake } from '../discord/snowflake.js';
import type { EnvSettings, LogFormat, LogLevel } from './Config.js';
import { DEFAULT_ENV } from './defaults.js';

/** The environment keys massnick reads, and nothing else. */
export const ENV_KEYS = [
	'BOSS_TOKEN',
	'WORKER_TOKENS',
	'GUILD_ID',
	'DISCORD_API_URL',
	'LOG_LEVEL',
	'LOG_FORMAT',
	'MASSNICK_DATA_DIR',
	'MASSNICK_CONFIG_DIR',
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

	const bossToken = value('BOSS_TOKEN') ?? '';
	if (bossToken === '') problem('BOSS_TOKEN', "missing; set it to the boss bot's token (Developer Portal → your app → Bot → Reset Token)");
	else {
		const why = tokenProblem(bossToken);
		if (why) problem('BOSS_TOKEN', `the boss's token ${why}`);
	}

	const workerTokens = (value('WORKER_TOKENS') ?? '')
		.split(',')
		.map((token) => token.trim())
		.filter((token) => token !== '');
	if (workerTokens.length === 0) {
		problem('WORKER_TOKENS', 'missing; give one bot token per worker, separated by commas (at least one)');
	}
	const firstPlace = new Map<string, number>();
	workerTokens.forEach((token, index) => {
		const why = tokenProblem(token);
		if (why) problem('WORKER_TOKENS', `${workerPlace(index)} ${why}`);
		const earlier = firstPlace.get(token);
		if (earlier === undefined) firstPlace.set(token, index);
		else {
			problem(
				'WORKER_TOKENS',
				`worker ${earlier} and worker ${index} (tokens ${earlier + 1} and ${index + 1} in the list) have the same token; each worker needs its own bot (rate limits are per token)`,
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

	return { settings: { bossToken, workerTokens, guildId, apiUrl, logLevel, logFormat, dataDir }, problems };
}

function workerPlace(index: number): string {
	return `worker ${index} (token ${index + 1} in the list)`;
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
