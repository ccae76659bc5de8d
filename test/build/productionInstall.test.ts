import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl } from '../../src/cli/SandboxControl.js';
import { startSandbox } from '../../src/sandbox/startSandbox.js';
import { parseDockerfile } from '../support/dockerfile.js';
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

	let image = '';

	afterAll(async () => {
		if (bot?.child.exitCode === null) bot.signal('SIGKILL');
		await sandbox?.close();
		for (const each of [dir, image]) if (each) await rm(each, { recursive: true, force: true });
	});

	/** /massnick against the running bot until one member is renamed, then SIGTERM: it must stop cleanly. */
	const renameThenStop = async (running: BotProcess, name: string) => {
		const control = new SandboxControl(sandbox!.controlUrl);
		const from = (await control.requests()).lastSeq;
		await control.invoke(sandbox!.guildId, sandbox!.ownerId, 'massnick', { name }, sandbox!.channelId);
		await waitUntil(async () => (await control.requests(from)).requests.some((request) => request.method === 'PATCH' && request.status === 200), {
			what: 'a member renamed',
		});
		running.signal('SIGTERM');
		await running.exited;
		expect(running.output(), running.output()).toContain('stopped cleanly');
		expect(running.output()).not.toContain(sandbox!.bossToken);
	};

	beforeAll(async () => {
		dir = await mkdtemp(join(tmpdir(), 'massnick-production-'));
		await cloneInto(dir);
		sandbox = await startSandbox({ members: 200, workers: 2, seed: 5, timeScale: 50 });
	}, 60_000);

	/** `npm ci` with `flags`, from the npm cache when it can be (the tests need no network beyond the registry). */
	const install = (cwd: string, flags: readonly string[]) =>
		run('npm', ['ci', ...flags, '--no-audit', '--no-fund', '--prefer-offline'], { cwd, maxBuffer: 16 * 1024 * 1024 });

	it('npm ci --omit=dev installs no build or test tool, and npm start renames and stops cleanly on SIGTERM', async () => {
		await install(dir, ['--omit=dev']);
		for (const devOnly of ['typescript', 'tsx', 'vitest', 'discord-api-spec']) {
			expect(existsSync(join(dir, 'node_modules', devOnly)), devOnly).toBe(false);
		}

		bot = await spawnBot(sandbox!, join(dir, 'data'), { command: ['npm', 'start', '--silent'], cwd: dir, configDir: 'config' });
		await renameThenStop(bot, 'Prod {username}');
	}, 240_000);

	/**
	 * deploy/kubernetes/Dockerfile cannot be built here (no Docker), so its image is laid out by
	 * hand from its own instructions: only what it COPYs, the same install, its ENV, started by its
	 * ENTRYPOINT and CMD. What is left untested is Docker itself: the base image, and node as PID 1.
	 */
	it("the container image's files, laid out as the Dockerfile says, start as its ENTRYPOINT does and rename", async () => {
		const dockerfile = parseDockerfile(readFileSync('deploy/kubernetes/Dockerfile', 'utf8'));
		// One RUN: an npm ci (then cleaning npm's cache, which the image does not need).
		expect(dockerfile.runs).toHaveLength(1);
		const [installCommand, ...after] = dockerfile.runs[0]!.split('&&').map((command) => command.trim());
		expect(after.every((command) => command.startsWith('npm cache clean'))).toBe(true);
		const [npm, ci, ...installFlags] = installCommand!.split(/\s+/);
		expect([npm, ci]).toEqual(['npm', 'ci']);
		expect(installFlags).toContain('--omit=dev');
		expect(dockerfile.copies.flatMap((copy) => copy.sources).sort()).toEqual(['config/', 'dist/', 'package-lock.json', 'package.json']);
		expect(dockerfile.user).toBe('1000:1000');

		image = await mkdtemp(join(tmpdir(), 'massnick-image-'));
		for (const { sources, destination } of dockerfile.copies) {
			for (const source of sources) {
				const target = destination.endsWith('/') && !source.endsWith('/') ? join(image, destination, source) : join(image, destination);
				await cp(join(dir, source), target, { recursive: true });
			}
		}
		await install(image, installFlags);

		const volume = join(image, 'volume');
		const [command, ...args] = [...dockerfile.entrypoint, ...dockerfile.cmd];
		expect(command).toBe('node');
		bot = await spawnBot(sandbox!, volume, {
			command: [process.execPath, ...args],
			cwd: image,
			// The image's ENV, with the volume where the manifests mount it; no config folder given: the image's own.
			env: { ...dockerfile.env, MASSNICK_DATA_DIR: volume, MASSNICK_CONFIG_DIR: undefined, LOG_LEVEL: 'info' },
		});
		expect(bot.output()).toMatch(/^\{"level":30/m); // LOG_FORMAT=json from the image's ENV
		await renameThenStop(bot, 'Image {username}');
	}, 120_000);
});
