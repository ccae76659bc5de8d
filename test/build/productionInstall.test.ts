import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl, startSandbox } from '@massnick/discord-sandbox';
import { type DockerStage, parseDockerfile } from '../support/dockerfile.js';
import { type BotProcess, spawnBot } from '../support/spawnBot.js';
import type { Sandbox } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const run = promisify(execFile);
const maxBuffer = 64 * 1024 * 1024;

/** npm, from this machine's cache when it can be (the registry is reachable, but need not be waited on). */
const npm = (cwd: string, args: readonly string[], env: Readonly<Record<string, string>> = {}) =>
	run('npm', args, {
		cwd,
		maxBuffer,
		env: { ...process.env, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', ...env },
	});

/**
 * package-lock.json's packages needed only by devDependencies, by their path (`node_modules/typescript`),
 * and the links to the workspace's own packages (`node_modules/@massnick/discord-sandbox`): the
 * sandbox is a devDependency, but npm's lock marks a link to a workspace as neither.
 */
type LockedPackage = { dev?: boolean; link?: boolean };
const locked = (JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockedPackage> }).packages;
const devOnly = Object.entries(locked)
	.filter(([path, entry]) => entry.dev === true || (entry.link === true && path.startsWith('node_modules/')))
	.map(([path]) => path);

/** The dev-only packages found installed under `dir` (a folder holding node_modules/). */
const devOnlyIn = (dir: string) => devOnly.filter((path) => existsSync(join(dir, path)));

/**
 * A production install and what it ships, each from a fresh clone to a rename on the sandbox and
 * a clean stop: the clone built on the host, the tarball `npm pack` makes, and the container
 * image. No build is committed, so each one builds its own and runs only that.
 */
describe('a production install', () => {
	let sandbox: Sandbox | undefined;
	let bot: BotProcess | undefined;
	const temporary: string[] = [];

	const temporaryDir = async (prefix: string) => {
		const dir = await mkdtemp(join(tmpdir(), prefix));
		temporary.push(dir);
		return dir;
	};

	/**
	 * A fresh clone: every file git tracks, as it is on disk, and nothing else: no untracked file
	 * (one forgotten by `git add` fails here as it would in CI), no node_modules/, no .env and no
	 * dist/, so whatever runs from it was built from what is committed.
	 */
	const freshClone = async () => {
		const dir = await temporaryDir('massnick-clone-');
		const { stdout } = await run('git', ['ls-files', '-z', '--cached'], { maxBuffer });
		for (const path of stdout.split('\0').filter(Boolean)) {
			if (!existsSync(path)) continue;
			await mkdir(join(dir, dirname(path)), { recursive: true });
			await copyFile(path, join(dir, path));
		}
		expect(existsSync(join(dir, 'dist'))).toBe(false);
		return dir;
	};

	beforeAll(async () => {
		expect(devOnly).toContain('node_modules/typescript');
		expect(devOnly).toContain('node_modules/@massnick/discord-sandbox');
		sandbox = await startSandbox({ members: 200, workers: 2, seed: 5, timeScale: 50 });
	}, 60_000);

	afterAll(async () => {
		if (bot?.child.exitCode === null) bot.signal('SIGKILL');
		await sandbox?.close();
		for (const dir of temporary) await rm(dir, { recursive: true, force: true });
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

	it('npm run install:production (npm ci, npm run build, npm prune --omit=dev) leaves no dev-only package and no sandbox, and npm start renames and stops cleanly on SIGTERM', async () => {
		const checkout = await freshClone();
		await npm(checkout, ['run', 'install:production']);
		expect(devOnlyIn(checkout)).toEqual([]);

		bot = await spawnBot(sandbox!, join(checkout, 'data'), { command: ['npm', 'start', '--silent'], cwd: checkout, configDir: 'config' });
		await renameThenStop(bot, 'Prod {username}');
	}, 180_000);

	it('npm pack builds at prepack, and its tarball, installed with npm install -g, runs as massnick start from any folder, renames and stops cleanly', async () => {
		const checkout = await freshClone();
		await npm(checkout, ['ci']);
		const packs = await temporaryDir('massnick-pack-');
		const { stdout } = await npm(checkout, ['pack', '--json', '--pack-destination', packs]);
		const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
		const paths = packed!.files.map((file) => file.path);
		expect(paths).toContain('dist/main.js');
		expect(paths).toContain('config/massnick.json');
		// Nothing else: no src/, no tests, no deploy/.
		expect(paths.filter((path) => !/^(dist|config)\//.test(path)).sort()).toEqual(['.env.example', 'README.md', 'package.json']);

		const prefix = await temporaryDir('massnick-global-');
		await npm(prefix, ['install', '--global', '--prefix', prefix, join(packs, packed!.filename)]);
		const installed = join(prefix, 'lib', 'node_modules', 'massnick');
		expect(devOnlyIn(installed)).toEqual([]);

		// A folder with no checkout, no .env and no config/; the settings the package ships.
		const elsewhere = await temporaryDir('massnick-elsewhere-');
		bot = await spawnBot(sandbox!, join(elsewhere, 'data'), {
			command: [join(prefix, 'bin', 'massnick'), 'start'],
			cwd: elsewhere,
			configDir: join(installed, 'config'),
		});
		await renameThenStop(bot, 'Packed {username}');
	}, 180_000);

	/** A path in `stage`'s file system, absolute or relative to its WORKDIR, as a path inside its WORKDIR. */
	const inWorkdir = (stage: DockerStage, path: string) => {
		const inside = relative(stage.workdir, isAbsolute(path) ? path : join(stage.workdir, path));
		if (inside.startsWith('..') || isAbsolute(inside)) throw new Error(`${path} is outside the stage's WORKDIR ${stage.workdir}`);
		return inside;
	};

	/** A RUN's command, of the few this layout runs here. */
	const runInStage = async (command: string, cwd: string, env: Readonly<Record<string, string>>) => {
		const [program, verb, ...rest] = command.split(/\s+/);
		if (program !== 'npm') throw new Error(`a RUN in the Dockerfile runs something this layout does not: ${command}`);
		// It would empty this machine's npm cache, the one every install here reads; in the image it only saves space.
		if (verb === 'cache' && rest[0] === 'clean') return;
		if (verb !== 'ci' && verb !== 'run') throw new Error(`a RUN in the Dockerfile runs an npm command this layout does not: ${command}`);
		await npm(cwd, [verb, ...rest], env);
	};

	/**
	 * One stage as `docker build` makes it, in a folder standing for its WORKDIR: its COPYs (from
	 * the build context, or from an earlier stage's folder) and its RUNs, in order.
	 */
	const layOutStage = async (stage: DockerStage, context: string, earlier: ReadonlyMap<string | undefined, { stage: DockerStage; dir: string }>) => {
		const dir = await temporaryDir(`massnick-stage-${stage.name ?? 'image'}-`);
		for (const step of stage.steps) {
			if (step.kind === 'run') {
				for (const command of step.command.split('&&')) await runInStage(command.trim(), dir, step.env);
				continue;
			}
			const from = step.from === undefined ? undefined : earlier.get(step.from)!;
			for (const source of step.sources) {
				const origin = from === undefined ? join(context, source) : join(from.dir, inWorkdir(from.stage, source));
				const intoFolder = step.destination.endsWith('/') && !source.endsWith('/');
				await cp(origin, join(dir, inWorkdir(stage, step.destination), intoFolder ? basename(source) : ''), { recursive: true });
			}
		}
		return dir;
	};

	/**
	 * deploy/kubernetes/Dockerfile cannot be built here (no Docker), so each stage is laid out by
	 * hand from its own instructions: the build stage from a fresh clone, the image from the build
	 * stage and the clone, started by its ENTRYPOINT and CMD with its ENV. What is left untested is
	 * Docker itself: the base image, its npm, and node as PID 1.
	 */
	it('the image, built stage by stage as the Dockerfile says, holds only the build and the runtime dependencies, and starts as its ENTRYPOINT does to a rename', async () => {
		const dockerfile = parseDockerfile(readFileSync('deploy/kubernetes/Dockerfile', 'utf8'));
		const context = await freshClone();
		const stages = new Map<string | undefined, { stage: DockerStage; dir: string }>();
		for (const stage of dockerfile.stages) stages.set(stage.name, { stage, dir: await layOutStage(stage, context, stages) });
		const image = stages.get(dockerfile.image.name)!.dir;

		// The clone had no dist/: the image's came from the build stage.
		expect(existsSync(join(context, 'dist'))).toBe(false);
		expect((await readdir(image)).sort()).toEqual(['config', 'dist', 'node_modules', 'package-lock.json', 'package.json']);
		expect(devOnlyIn(image)).toEqual([]);
		expect(dockerfile.image.user).toBe('1000:1000');

		const volume = join(image, 'volume');
		const [command, ...args] = [...dockerfile.image.entrypoint, ...dockerfile.image.cmd];
		expect(command).toBe('node');
		bot = await spawnBot(sandbox!, volume, {
			command: [process.execPath, ...args],
			cwd: image,
			// The image's ENV, with the volume where the manifests mount it; no config folder given: the image's own.
			env: { ...dockerfile.image.env, MASSNICK_DATA_DIR: volume, MASSNICK_CONFIG_DIR: undefined, LOG_LEVEL: 'info' },
		});
		expect(bot.output()).toMatch(/^\{"level":30/m); // LOG_FORMAT=json from the image's ENV
		await renameThenStop(bot, 'Image {username}');
	}, 180_000);
});
