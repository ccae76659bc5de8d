import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxControl } from '../../src/cli/SandboxControl.js';
import { startSandbox } from '../../src/sandbox/startSandbox.js';
import { type BotProcess, spawnBot } from '../support/spawnBot.js';
import type { Sandbox } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const run = promisify(execFile);

/** What a fresh clone holds: every file git tracks, as it is in the working tree. */
async function cloneInto(dir: string): Promise<void> {
	const { stdout } = await run('git', ['ls-files', '-z'], { maxBuffer: 16 * 1024 * 1024 });
	for (const path of stdout.split('\0').filter(Boolean)) {
		if (!existsSync(path)) continue;
		await mkdir(join(dir, dirname(path)), { recursive: true });
		await copyFile(path, join(dir, path));
	}
}

/**
 * The operator's production install: a clone, `npm ci --omit=dev`, `npm start`. It has no
 * devDependencies, so no compiler, no tsx and no sandbox packages: the committed build must run.
 */
describe('a production install', () => {
	let dir = '';
	let sandbox: Sandbox | undefined;
	let bot: BotProcess | undefined;

	afterAll(async () => {
		if (bot?.child.exitCode === null) bot.signal('SIGKILL');
		await sandbox?.close();
		if (dir) await rm(dir, { recursive: true, force: true });
	});

	it('npm ci --omit=dev installs no build or test tool, and npm start renames and stops cleanly on SIGTERM', async () => {
		dir = await mkdtemp(join(tmpdir(), 'massnick-production-'));
		await cloneInto(dir);
		await run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
		for (const devOnly of ['typescript', 'tsx', 'vitest', 'discord-api-spec']) {
			expect(existsSync(join(dir, 'node_modules', devOnly)), devOnly).toBe(false);
		}

		sandbox = await startSandbox({ members: 200, workers: 2, seed: 5, timeScale: 50 });
		const dataDir = join(dir, 'data');
		bot = await spawnBot(sandbox, dataDir, { command: ['npm', 'start', '--silent'], cwd: dir, configDir: 'config' });
		const control = new SandboxControl(sandbox.controlUrl);
		await control.invoke(sandbox.guildId, sandbox.ownerId, 'massnick', { name: 'Prod {username}' }, sandbox.channelId);
		await waitUntil(async () => (await control.requests()).requests.some((request) => request.method === 'PATCH' && request.status === 200));

		bot.signal('SIGTERM');
		await bot.exited;
		expect(bot.output(), bot.output()).toContain('stopped cleanly');
		expect(bot.output()).not.toContain(sandbox.bossToken);
	}, 240_000);
});
