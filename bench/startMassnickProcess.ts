import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NodeChild } from './NodeChild.js';
import { CONFIG_DIR, EVENT_LOOP_PROBE, MAIN_SCRIPT } from './paths.js';
import type { SandboxProcess } from './SandboxProcess.js';

export interface StartMassnickProcessOptions {
	sandbox: SandboxProcess;
	workers: number;
	/** discord.js's `rest.offset`, scaled down with the sandbox's windows. */
	offsetMs: number;
	/** A fresh directory: the bot's working directory, config and journals. */
	workDir: string;
	logDir: string;
	/** The log file's name in `logDir`, without `.log` (default `massnick`). */
	logName?: string;
	readyTimeoutMs: number;
	/** Starts the process with eventLoopProbe.ts, writing its event-loop delay here. */
	eventLoopFile?: string;
	/** Settings that differ from the repository's `config/massnick.json` for this run (merged key by key). */
	settings?: Readonly<Record<string, unknown>>;
}

/** massnick running against the sandbox, ready for commands. */
export interface MassnickProcess {
	readonly child: NodeChild;
	/** Who pages through the member list, as its ready line says: the boss alone, as the bench runs it. */
	readonly listedBy: string[];
	/** `MASSNICK_DATA_DIR`: the journals are in `<dataDir>/<guildId>`. */
	readonly dataDir: string;
}

/** The line massnick logs at info once the boss answers commands. */
const READY_MESSAGE = '"msg":"massnick is ready"';

/**
 * Runs the compiled `src/main.js start` exactly as `npm start` does, against the sandbox, and
 * waits until it is ready.
 *
 * The bot reads `config/massnick.json` relative to its working directory, so it runs in
 * `workDir`, which holds a copy of the repository's settings with the REST offset scaled (and a
 * study's own settings, if any); no option of the bot is added for the benchmark. Outside the
 * repository it also reads no `.env`.
 * It logs at info: massnick logs only its start and stop at that level (nothing per change),
 * and "massnick is ready" is the moment its commands are answered.
 */
export async function startMassnickProcess(options: StartMassnickProcessOptions): Promise<MassnickProcess> {
	const { sandbox, workers } = options;
	const configDir = join(options.workDir, 'config');
	const dataDir = join(options.workDir, 'data');
	await mkdir(configDir, { recursive: true });
	await mkdir(dataDir, { recursive: true });
	const settings = merge(merge(await readSettings(), options.settings ?? {}), { rest: { offsetMs: options.offsetMs } });
	await writeFile(join(configDir, 'massnick.json'), `${JSON.stringify(settings, null, 2)}\n`);

	const { info } = sandbox;
	const probe = options.eventLoopFile;
	const child = new NodeChild({
		name: 'massnick',
		script: MAIN_SCRIPT,
		args: ['start'],
		nodeArgs: probe === undefined ? [] : ['--import', pathToFileURL(EVENT_LOOP_PROBE).href],
		cwd: options.workDir,
		env: {
			BOSS_TOKEN: info.bossToken,
			WORKER_TOKENS: info.workerTokens.slice(0, workers).join(','),
			GUILD_ID: info.guildId,
			DISCORD_API_URL: info.apiUrl,
			MASSNICK_DATA_DIR: dataDir,
			LOG_LEVEL: 'info',
			...(probe === undefined ? {} : { MASSNICK_BENCH_EVENT_LOOP_FILE: probe }),
		},
		logFile: join(options.logDir, `${options.logName ?? 'massnick'}.log`),
	});
	try {
		const ready = await child.waitForLine((line) => line.includes(READY_MESSAGE), options.readyTimeoutMs, 'that it is ready');
		const listedBy = listingOf(ready);
		// The bench runs massnick as the product recommends: the boss's app alone has the members intent.
		if (listedBy.join() !== 'the boss') throw child.failure(`lists with ${listedBy.join(', ')}, not the boss alone: a worker's members intent was left on`);
		return { child, listedBy, dataDir };
	} catch (error) {
		await child.stop();
		throw error;
	}
}

/** The ready line's `listing`: who pages through the member list ("the boss", then any worker whose app has the members intent). */
function listingOf(readyLine: string): string[] {
	const { listing } = JSON.parse(readyLine) as { listing?: unknown };
	if (!Array.isArray(listing) || !listing.every((entry) => typeof entry === 'string'))
		throw new Error(`massnick's ready line names no listing: ${readyLine.slice(0, 300)}`);
	return listing;
}

/** `base` with `changes` laid over it, objects key by key (arrays and values replaced whole). */
function merge(base: Readonly<Record<string, unknown>>, changes: Readonly<Record<string, unknown>>): Record<string, unknown> {
	const merged: Record<string, unknown> = { ...base };
	for (const [key, value] of Object.entries(changes)) {
		const under = merged[key];
		merged[key] = isObject(value) && isObject(under) ? merge(under, value) : value;
	}
	return merged;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readSettings(): Promise<Record<string, unknown>> {
	try {
		return JSON.parse(await readFile(join(CONFIG_DIR, 'massnick.json'), 'utf8')) as Record<string, unknown>;
	} catch (error) {
		// Every setting has a default, as for the bot itself.
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
		throw error;
	}
}
