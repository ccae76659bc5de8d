import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '@massnick/discord-sandbox';
import { loadConfig } from '../../src/config/loadConfig.js';
import { createLogger } from '../../src/log/createLogger.js';
import { startMassnick } from '../../src/startMassnick.js';
import type { Sandbox } from '../support/startStack.js';

/** Starting massnick with a bad set-up fails with an error that names the problem, never a token. */
describe('bad set-up', () => {
	let sandbox: Sandbox;
	let dataDir: string;

	beforeAll(async () => {
		sandbox = await startSandbox({ members: 50, workers: 3, seed: 3, timeScale: 50 });
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-setup-'));
	});

	afterAll(async () => {
		await sandbox?.close();
		await rm(dataDir, { recursive: true, force: true });
	});

	function env(overrides: Record<string, string | undefined>): Record<string, string | undefined> {
		return {
			BOSS_TOKEN: sandbox.bossToken,
			WORKER_TOKENS: sandbox.workerTokens.join(','),
			GUILD_ID: sandbox.guildId,
			DISCORD_API_URL: sandbox.apiUrl,
			MASSNICK_DATA_DIR: dataDir,
			LOG_LEVEL: 'silent',
			...overrides,
		};
	}

	async function start(overrides: Record<string, string | undefined>): Promise<Error> {
		const config = loadConfig({ env: env(overrides), dotenvPath: false });
		const logger = createLogger({ level: 'silent', secrets: [] });
		try {
			const massnick = await startMassnick(config, logger);
			await massnick.stop();
		} catch (error) {
			return error as Error;
		}
		throw new Error('massnick started');
	}

	it('a missing key is named, with every other problem at once', () => {
		expect(() => loadConfig({ env: env({ BOSS_TOKEN: undefined, GUILD_ID: 'abc' }), dotenvPath: false })).toThrow(
			/BOSS_TOKEN[\s\S]*GUILD_ID|GUILD_ID[\s\S]*BOSS_TOKEN/,
		);
	});

	it('the same token twice is refused, naming the places and not the token', () => {
		const twice = `${sandbox.workerTokens[0]},${sandbox.workerTokens[0]}`;
		let message = '';
		try {
			loadConfig({ env: env({ WORKER_TOKENS: twice }), dotenvPath: false });
		} catch (error) {
			message = (error as Error).message;
		}
		expect(message).toMatch(/worker 0 and worker 1/);
		expect(message).not.toContain(sandbox.workerTokens[0]!);
	});

	it('a token Discord rejects is named by its place', async () => {
		const tokens = [...sandbox.workerTokens];
		tokens[1] = `${tokens[1]!.slice(0, -4)}nope`;
		const error = await start({ WORKER_TOKENS: tokens.join(',') });
		expect(error.message).toContain("worker 1's token was rejected by Discord");
		expect(error.message).not.toContain(tokens[1]!);
	});

	it('a guild the bots are not in is named, with what to do', async () => {
		const error = await start({ GUILD_ID: '111111111111111111' });
		expect(error.message).toMatch(/not a member of guild 111111111111111111/);
		expect(error.message).toMatch(/GUILD_ID/);
	});
});
