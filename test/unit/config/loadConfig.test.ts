import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../src/config/defaults.js';
import { loadConfig } from '../../../src/config/loadConfig.js';
import { ConfigError, type ConfigProblem, ErrorCodes } from '../../../src/errors.js';

const BOSS = 'MTAwMDAwMDAwMDAwMDAwMDAx.GbOsS1.boss-secret-aaaaaaaaaaaaaaaaaaaaaaaa';
const W1 = 'MTAwMDAwMDAwMDAwMDAwMDAy.GwOrk1.worker-one-bbbbbbbbbbbbbbbbbbbbbbbbb';
const W2 = 'MTAwMDAwMDAwMDAwMDAwMDAz.GwOrk2.worker-two-ccccccccccccccccccccccccc';
const W3 = 'MTAwMDAwMDAwMDAwMDAwMDA0.GwOrk3.worker-three-dddddddddddddddddddddd';
const GUILD = '175928847299117063';

const valid = { BOSS_TOKEN: BOSS, WORKER_TOKENS: `${W1},${W2}`, GUILD_ID: GUILD };

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'massnick-config-'));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

/** Loads with only `env` and an optional settings file; never the repository's .env. */
function load(env: Record<string, string | undefined>, settings?: unknown) {
	if (settings !== undefined) {
		writeFileSync(join(dir, 'massnick.json'), typeof settings === 'string' ? settings : JSON.stringify(settings));
	}
	return loadConfig({ env, configDir: dir, dotenvPath: false });
}

function problemsOf(env: Record<string, string | undefined>, settings?: unknown): ConfigProblem[] {
	try {
		load(env, settings);
	} catch (error) {
		expect(error).toBeInstanceOf(ConfigError);
		expect((error as ConfigError).code).toBe(ErrorCodes.ConfigInvalid);
		return [...(error as ConfigError).problems];
	}
	throw new Error('expected a ConfigError');
}

describe('loadConfig: environment', () => {
	it('a valid environment with no settings file gives every default', () => {
		const config = load(valid);
		expect(config).toMatchObject({
			bossToken: BOSS,
			workerTokens: [W1, W2],
			guildId: GUILD,
			apiUrl: undefined,
			logLevel: 'info',
			dataDir: 'data',
			...DEFAULT_SETTINGS,
		});
	});

	it('the result is deeply frozen', () => {
		const config = load(valid);
		expect(Object.isFrozen(config)).toBe(true);
		expect(Object.isFrozen(config.workerTokens)).toBe(true);
		expect(Object.isFrozen(config.workers.retry)).toBe(true);
		expect(Object.isFrozen(config.permissions.allowedRoleIds)).toBe(true);
		expect(() => {
			(config.workers.retry as { attempts: number }).attempts = 1;
		}).toThrow(TypeError);
	});

	it('every missing required key is reported at once', () => {
		const problems = problemsOf({});
		expect(problems.map((problem) => problem.key)).toEqual(['BOSS_TOKEN', 'WORKER_TOKENS', 'GUILD_ID']);
		for (const problem of problems) expect(problem.message).toMatch(/missing/);
	});

	it('worker tokens are trimmed and empty entries ignored', () => {
		const config = load({ ...valid, WORKER_TOKENS: ` ${W1} ,, ${W2},${W3}, ` });
		expect(config.workerTokens).toEqual([W1, W2, W3]);
	});

	it('a list of only commas counts as missing', () => {
		expect(problemsOf({ ...valid, WORKER_TOKENS: ' , ,' })).toEqual([{ key: 'WORKER_TOKENS', message: expect.stringMatching(/at least one/) as string }]);
	});

	it('the same token for two workers is refused, naming both workers and never the token', () => {
		const problems = problemsOf({ ...valid, WORKER_TOKENS: [W1, W2, W3, W1, W2].join(',') });
		expect(problems.map((problem) => problem.message)).toEqual([
			'worker 0 and worker 3 (tokens 1 and 4 in the list) have the same token; each worker needs its own bot (rate limits are per token)',
			'worker 1 and worker 4 (tokens 2 and 5 in the list) have the same token; each worker needs its own bot (rate limits are per token)',
		]);
	});

	it('the boss sharing a token with a worker is refused', () => {
		const problems = problemsOf({ ...valid, WORKER_TOKENS: `${W1},${BOSS}` });
		expect(problems).toHaveLength(1);
		expect(problems[0]).toMatchObject({ key: 'BOSS_TOKEN', message: expect.stringContaining('worker 1 (token 2 in the list)') as string });
	});

	it.each([
		['a Bot prefix', `Bot ${W2}`, /'Bot ' prefix/],
		['quotes', `"${W2}"`, /quotes/],
		['inner whitespace', `${W2.slice(0, 10)} ${W2.slice(10)}`, /whitespace/],
		['only digits (an application id)', '175928847299117063', /application id/],
		['odd characters', `${W2}!`, /characters a bot token never has/],
	])('a worker token with %s is refused by its place', (_, token, pattern) => {
		const problems = problemsOf({ ...valid, WORKER_TOKENS: `${W1},${token}` });
		expect(problems).toHaveLength(1);
		expect(problems[0]!.key).toBe('WORKER_TOKENS');
		expect(problems[0]!.message).toMatch(/^worker 1 \(token 2 in the list\) /);
		expect(problems[0]!.message).toMatch(pattern);
		expect(problems[0]!.message).not.toContain(W2.slice(0, 12));
	});

	it('a bad boss token is named as the boss and its value never shown', () => {
		const problems = problemsOf({ ...valid, BOSS_TOKEN: `Bot ${BOSS}` });
		expect(problems).toEqual([{ key: 'BOSS_TOKEN', message: expect.stringMatching(/^the boss's token starts with a 'Bot ' prefix/) as string }]);
		expect(new ConfigError(problems).message).not.toContain(BOSS);
	});

	it.each(['12345', 'my-guild', '175928847299117063a'])('GUILD_ID %j is refused', (guildId) => {
		expect(problemsOf({ ...valid, GUILD_ID: guildId }).map((problem) => problem.key)).toEqual(['GUILD_ID']);
	});

	it('an API URL is kept without its trailing slash', () => {
		expect(load({ ...valid, DISCORD_API_URL: 'http://127.0.0.1:3000/api/' }).apiUrl).toBe('http://127.0.0.1:3000/api');
		expect(load({ ...valid, DISCORD_API_URL: 'https://discord.com/api' }).apiUrl).toBe('https://discord.com/api');
	});

	it('an API URL ending in /v10 is refused with the base to use instead', () => {
		const problems = problemsOf({ ...valid, DISCORD_API_URL: 'http://127.0.0.1:3000/api/v10' });
		expect(problems).toEqual([
			{ key: 'DISCORD_API_URL', message: expect.stringContaining('(http://127.0.0.1:3000/api), discord.js adds /v10 itself') as string },
		]);
	});

	it.each(['ws://127.0.0.1:3000/api', 'not a url', 'http://127.0.0.1:3000/api?x=1'])('the API URL %j is refused', (url) => {
		expect(problemsOf({ ...valid, DISCORD_API_URL: url }).map((problem) => problem.key)).toEqual(['DISCORD_API_URL']);
	});

	it('an empty optional key takes its default', () => {
		const config = load({ ...valid, DISCORD_API_URL: '', LOG_LEVEL: '', MASSNICK_DATA_DIR: '' });
		expect(config).toMatchObject({ apiUrl: undefined, logLevel: 'info', dataDir: 'data' });
	});

	it('LOG_LEVEL is any pino level, in any case', () => {
		expect(load({ ...valid, LOG_LEVEL: 'DEBUG' }).logLevel).toBe('debug');
		expect(problemsOf({ ...valid, LOG_LEVEL: 'verbose' })).toEqual([
			{ key: 'LOG_LEVEL', message: expect.stringContaining('fatal, error, warn, info, debug, trace, silent') as string },
		]);
	});

	it('LOG_FORMAT is auto by default, json or pretty when set, and a clear problem otherwise', () => {
		expect(load(valid).logFormat).toBe('auto');
		expect(load({ ...valid, LOG_FORMAT: 'JSON' }).logFormat).toBe('json');
		expect(problemsOf({ ...valid, LOG_FORMAT: 'colour' })).toEqual([
			{ key: 'LOG_FORMAT', message: expect.stringContaining('auto (readable on a terminal, JSON otherwise), json or pretty') as string },
		]);
	});

	it('MASSNICK_DATA_DIR sets where journals go', () => {
		expect(load({ ...valid, MASSNICK_DATA_DIR: '/var/lib/massnick' }).dataDir).toBe('/var/lib/massnick');
	});

	it('problems from the environment and the settings file are reported together', () => {
		const problems = problemsOf({ ...valid, GUILD_ID: 'x' }, { statusRefreshSeconds: 1 });
		expect(problems.map((problem) => problem.key)).toEqual(['GUILD_ID', `${join(dir, 'massnick.json')}: statusRefreshSeconds`]);
	});
});

describe('loadConfig: .env file', () => {
	it('reads the .env file, with the real environment winning, and leaves process.env alone', () => {
		const dotenvPath = join(dir, '.env');
		writeFileSync(dotenvPath, `BOSS_TOKEN=${BOSS}\nWORKER_TOKENS="${W1},${W2}"\nGUILD_ID=81384788765712384\nLOG_LEVEL=debug\n`);
		const before = { ...process.env };
		const config = loadConfig({ env: { GUILD_ID: GUILD }, configDir: dir, dotenvPath });
		expect(config).toMatchObject({ bossToken: BOSS, workerTokens: [W1, W2], guildId: GUILD, logLevel: 'debug' });
		expect(process.env).toEqual(before);
	});

	it('a missing .env file is not a problem', () => {
		expect(loadConfig({ env: valid, configDir: dir, dotenvPath: join(dir, 'nope.env') }).guildId).toBe(GUILD);
	});
});

describe('loadConfig: config/massnick.json', () => {
	it('the shipped file holds every setting with its default', () => {
		expect(JSON.parse(readFileSync('config/massnick.json', 'utf8'))).toEqual(DEFAULT_SETTINGS);
	});

	it('a partial file keeps the defaults for what it leaves out', () => {
		const config = load(valid, { workers: { retry: { attempts: 3 } }, nickname: { maxLength: 20 } });
		expect(config.workers).toEqual({ maxInFlight: 10, retry: { attempts: 3, baseDelayMs: 500, maxDelayMs: 30_000 }, paceSharedLimit: true });
		expect(config.nickname).toEqual({ maxLength: 20, truncate: 'end' });
	});

	it('unknown keys are reported with the keys that exist there', () => {
		const problems = problemsOf(valid, { statusRefresh: 5, workers: { maxInflight: 3 } });
		expect(problems).toEqual([
			{ key: `${join(dir, 'massnick.json')}: statusRefresh`, message: expect.stringContaining('is not a setting') as string },
			{ key: `${join(dir, 'massnick.json')}: workers.maxInflight`, message: expect.stringContaining('maxInFlight, retry') as string },
		]);
	});

	it.each([
		['statusRefreshSeconds', { statusRefreshSeconds: 61 }],
		['statusRefreshSeconds', { statusRefreshSeconds: 2.5 }],
		['nickname.maxLength', { nickname: { maxLength: 33 } }],
		['nickname.maxLength', { nickname: { maxLength: 0 } }],
		['nickname.truncate', { nickname: { truncate: 'start' } }],
		['workers.maxInFlight', { workers: { maxInFlight: 1001 } }],
		['workers.maxInFlight', { workers: { maxInFlight: '10' } }],
		['workers.retry.attempts', { workers: { retry: { attempts: 0 } } }],
		['rest.timeoutMs', { rest: { timeoutMs: 10 } }],
		['safety.invalidRequestBudget', { safety: { invalidRequestBudget: 10_000 } }],
		['permissions.requireManageNicknames', { permissions: { requireManageNicknames: 'yes' } }],
		['permissions.allowedRoleIds', { permissions: { allowedRoleIds: ['175928847299117063', 42] } }],
		['permissions.allowedUserIds', { permissions: { allowedUserIds: '175928847299117063' } }],
		['workers', { workers: 10 }],
		['auditLogReason', { auditLogReason: 42 }],
		['invite.actions', { invite: { actions: 'masstimeout' } }],
		['invite.actions', { invite: { actions: ['/masstimeout'] } }],
	])('a bad %s is reported', (path, settings) => {
		const problems = problemsOf(valid, settings);
		expect(problems.map((problem) => problem.key)).toEqual([`${join(dir, 'massnick.json')}: ${path}`]);
	});

	it('invite.actions takes command names, and says how to write one', () => {
		expect(load(valid, { invite: { actions: ['massrole', 'masstimeout'] } }).invite.actions).toEqual(['massrole', 'masstimeout']);
		const [problem] = problemsOf(valid, { invite: { actions: ['/masstimeout'] } });
		expect(problem!.message).toMatch(/without the slash, like "masstimeout"/);
	});

	it('a range problem says the range and the reason', () => {
		const [problem] = problemsOf(valid, { safety: { invalidRequestBudget: 20_000 } });
		expect(problem!.message).toBe(
			'must be a whole number from 1 to 9999 (Discord bans the IP for an hour at 10,000 invalid requests in 10 minutes), got 20000',
		);
	});

	it('a retry cap below its base delay is refused', () => {
		const problems = problemsOf(valid, { workers: { retry: { baseDelayMs: 5000, maxDelayMs: 1000 } } });
		expect(problems.map((problem) => problem.key)).toEqual([`${join(dir, 'massnick.json')}: workers.retry.maxDelayMs`]);
	});

	it('a file that is not JSON is reported, with the other problems', () => {
		const problems = problemsOf({ ...valid, BOSS_TOKEN: undefined }, '{ "statusRefreshSeconds": 5, }');
		expect(problems.map((problem) => problem.key)).toEqual(['BOSS_TOKEN', join(dir, 'massnick.json')]);
		expect(problems[1]!.message).toMatch(/not valid JSON/);
	});

	it('a file that is JSON but not an object is reported', () => {
		expect(problemsOf(valid, '[]').map((problem) => problem.key)).toEqual([`${join(dir, 'massnick.json')}: (top level)`]);
	});

	it('an audit log reason with an unknown placeholder is refused', () => {
		const [problem] = problemsOf(valid, { auditLogReason: 'massnick by {username}' });
		expect(problem!.message).toMatch(/unknown placeholder \{username\}/);
	});
});
