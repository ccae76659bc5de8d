import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SandboxRequest } from '@massnick/discord-sandbox';
import { invokeJob } from '../invokeJob.js';
import { renameJob } from '../massnickJobs.js';
import { runLogDir } from '../raid/startRaidGuild.js';
import { SandboxProcess } from '../SandboxProcess.js';
import { startMassnickProcess } from '../startMassnickProcess.js';
import { scaledRestOffsetMs } from '../SubjectRun.js';
import type { SharedCapLevel, SharedCapMode, SharedCapScenario } from './SharedCapScenario.js';
import { memberWrites, type SharedCapFigures, sharedCapFigures } from './sharedCapFigures.js';

/** One rename of every member under one level of the cap, in one mode. */
export interface SharedCapRun {
	readonly level: string;
	readonly limit: number;
	readonly mode: string;
	readonly paceSharedLimit: boolean;
	readonly status: 'measured' | 'failed' | 'skipped';
	readonly reason?: string | undefined;
	/** Members the guild shows renamed (distinct targets of a rename it took). */
	readonly renamedMembers?: number | undefined;
	readonly figures?: SharedCapFigures | undefined;
	/** Renames per window of Discord's time over the run. */
	readonly renamesPerWindow?: number | undefined;
}

/** The template every run renames with. */
const TEMPLATE = 'Capped {username}';
/** Windows of Discord's time without a rename after which the job has ended (a held write waits one at most). */
const QUIET_WINDOWS = 3;

/**
 * `npm run bench -- --scenario shared-cap`: at each level of the cap, massnick renames every
 * member of a fresh guild (a sandbox in its own process, its cap set before the job) with the
 * workers sharing the cap's rate, then each at its own pace as before (`workers.paceSharedLimit`
 * off), one run after another. A run past `deadline` (Unix ms) is skipped, and said so.
 */
export async function runSharedCap(
	scenario: SharedCapScenario,
	options: { workDir: string; deadline: number; progress: (line: string) => void },
): Promise<SharedCapRun[]> {
	const runs: SharedCapRun[] = [];
	for (const level of scenario.levels) {
		for (const mode of scenario.modes) {
			const base = { level: level.label, limit: level.limit, mode: mode.label, paceSharedLimit: mode.paceSharedLimit };
			if (Date.now() > options.deadline) {
				runs.push({ ...base, status: 'skipped', reason: 'over the time budget of the run' });
				continue;
			}
			options.progress(`cap ${level.limit} per ${scenario.windowMs / 1000} s (${level.label}), ${mode.label}: starting`);
			try {
				const run = { ...base, ...(await measureRun(scenario, level, mode, options.workDir)) };
				runs.push(run);
				options.progress(describeRun(run));
			} catch (error) {
				runs.push({ ...base, status: 'failed', reason: (error as Error).message });
				options.progress(`cap ${level.limit}, ${mode.label}: failed: ${(error as Error).message.split('\n')[0]}`);
			}
		}
	}
	return runs;
}

async function measureRun(
	scenario: SharedCapScenario,
	level: SharedCapLevel,
	mode: SharedCapMode,
	workDir: string,
): Promise<Pick<SharedCapRun, 'status' | 'renamedMembers' | 'figures' | 'renamesPerWindow'>> {
	const logDir = runLogDir(workDir, `cap-${level.limit}-${mode.label}`);
	await mkdir(logDir, { recursive: true });
	const sandbox = await SandboxProcess.start({
		members: scenario.members,
		workers: scenario.workers,
		timeScale: scenario.timeScale,
		seed: 1,
		logDir,
		startTimeoutMs: 60_000,
	});
	try {
		await sandbox.control.faults({ sharedWriteLimit: { limit: level.limit, windowMs: scenario.windowMs } });
		const massnick = await startMassnickProcess({
			sandbox,
			workers: scenario.workers,
			offsetMs: scaledRestOffsetMs(scenario.timeScale),
			workDir: join(logDir, 'bot'),
			logDir,
			readyTimeoutMs: 60_000,
			settings: { workers: { paceSharedLimit: mode.paceSharedLimit } },
		});
		try {
			const { lastSeq } = await sandbox.control.requests(0, 1);
			await invokeJob(sandbox, renameJob(TEMPLATE), 60_000);
			const requests = await untilQuiet(sandbox, lastSeq, scenario);
			const figures = sharedCapFigures(requests, { limit: level.limit, windowMs: scenario.windowMs }, scenario.timeScale);
			const renamed = new Set(
				memberWrites(requests)
					.filter((request) => request.status === 200)
					.map((request) => request.targetId),
			);
			const windows = (figures.seconds * 1000) / scenario.windowMs;
			return { status: 'measured', renamedMembers: renamed.size, figures, renamesPerWindow: round(figures.changes / Math.max(windows, 1e-9)) };
		} finally {
			await massnick.child.stop();
		}
	} finally {
		await sandbox.stop();
	}
}

/** Every request after `after`, once no rename has been taken for {@link QUIET_WINDOWS} windows. */
async function untilQuiet(sandbox: SandboxProcess, after: number, scenario: SharedCapScenario): Promise<SandboxRequest[]> {
	const deadline = Date.now() + scenario.runTimeoutSeconds * 1000;
	const quietMs = (QUIET_WINDOWS * scenario.windowMs) / scenario.timeScale;
	const requests: SandboxRequest[] = [];
	let from = after;
	let lastTaken: number | undefined;
	while (Date.now() < deadline) {
		await sleep(250);
		const page = await sandbox.control.requests(from);
		requests.push(...page.requests);
		from = page.lastSeq;
		for (const request of memberWrites(page.requests)) if (request.status === 200) lastTaken = Math.max(lastTaken ?? 0, request.at);
		if (lastTaken !== undefined && Date.now() - lastTaken > quietMs) return requests;
	}
	throw new Error(`the job was still renaming after ${scenario.runTimeoutSeconds} s`);
}

function describeRun(run: SharedCapRun): string {
	const { figures } = run;
	if (!figures) return `cap ${run.limit}, ${run.mode}: ${run.status}`;
	return `cap ${run.limit}, ${run.mode}: ${figures.changes} renames in ${figures.seconds.toFixed(0)} Discord s, ${run.renamesPerWindow} a window (${(figures.shareOfCap * 100).toFixed(1)}% of the cap), ${figures.sharedRefusals} shared 429s (${figures.refusedPerChange.toFixed(3)} a rename)`;
}

export function round(value: number, digits = 3): number {
	const scale = 10 ** digits;
	return Math.round(value * scale) / scale;
}
