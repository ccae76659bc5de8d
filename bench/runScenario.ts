import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ListingResult, unmeasuredListing } from './ListingResult.js';
import { eventRoleJob, type MassnickJob, renameJob, sanitizeJob } from './massnickJobs.js';
import { measureSubject } from './measureSubject.js';
import { runListing } from './runListing.js';
import { SandboxProcess } from './SandboxProcess.js';
import { readSanitizeOutcome, type SanitizeOutcome } from './SanitizeOutcome.js';
import { runsOf, type Scenario } from './scenarios.js';
import { setMembersIntent } from './setMembersIntent.js';
import { startBaseline } from './startBaseline.js';
import { startMassnick } from './startMassnick.js';
import { CHANGES, isMassnick, type MassnickKind, type Subject } from './Subject.js';
import { ceilingPerSecond, measuredResult, rateLimitWindowMs, type SubjectResult, unmeasuredResult } from './SubjectResult.js';
import { scaledRestOffsetMs, type SubjectRun } from './SubjectRun.js';
import { waitForChangesToStop } from './waitForChangesToStop.js';

export interface ScenarioResult {
	scenario: Scenario;
	/** discord.js's `rest.offset` of the product, scaled to the windows: what every subject ran with unless its run said otherwise (each result has its own), and the listing. */
	restOffsetMs: number;
	subjects: SubjectResult[];
	/** The boss listing the guild alone, when the scenario times it. */
	listing: ListingResult | null;
}

export interface ScenarioContext {
	/** A fresh directory for this run's logs and the bot's data. */
	workDir: string;
	/** Subjects that would start after this (Unix ms) are skipped, to keep the run's time promise. */
	deadline: number;
	progress: (line: string) => void;
}

/** Discord's 30 s between two all-members gateway requests, the longest window a subject uses. */
const LONGEST_WINDOW_MS = 30_000;
/** Each renaming subject sets a nickname of its own. */
const NICK_PREFIX = { massnick: 'mn', 'single-token': 'st', 'design-2021': 'd21' } as const;
const OVER_BUDGET = 'over the time budget of the run';
/** How long `/sanitize` may take past the window to run to its end, at most. */
const SANITIZE_END_TIMEOUT_MS = 120_000;
/** No change for this many rate-limit windows: the job has ended (a worker with members left waits one at most). */
const QUIET_WINDOWS = 6;

/**
 * One sandbox, then each subject in turn against it: started, measured, stopped. Subjects run one
 * after another, never together, and each starts only once the previous one's rate-limit
 * windows have ended, so each spends its tokens' allowance from a clean state. Each renaming
 * subject sets a nickname of its own, so none finds members already done by another; massnick-role
 * gives the Event role, which nobody holds, on its own bucket. An opt-in study runs one subject
 * several times instead ({@link Scenario.runs}: other offsets, other numbers of tokens), each run
 * with its own nickname. `/sanitize` (on a guild generated with decorated names) may run on past
 * the window to its end, and the guild is then checked (SanitizeOutcome.ts). Last, when the
 * scenario asks for it, the boss lists the guild alone (runListing.ts).
 *
 * Before each subject the apps' Server Members intent is set for its design: the boss's alone
 * for massnick and massnick-role (their workers only change members; massnick must say at start
 * that the boss lists alone), the boss's and the baseline's own tokens' for a baseline, which
 * fetches every member with them.
 */
export async function runScenario(scenario: Scenario, context: ScenarioContext): Promise<ScenarioResult> {
	const logDir = join(context.workDir, scenario.name);
	await mkdir(logDir, { recursive: true });
	const restOffsetMs = scaledRestOffsetMs(scenario.timeScale);
	const pauseMs = Math.ceil(LONGEST_WINDOW_MS / scenario.timeScale) + 500;
	const runs = runsOf(scenario);

	const skippedListing = (): ListingResult | null => (scenario.listing ? unmeasuredListing(scenario.timeScale, 'skipped', OVER_BUDGET) : null);
	if (Date.now() > context.deadline) {
		context.progress(`${scenario.name}: skipped, over the time budget`);
		const subjects = runs.map((run) => unmeasuredResult(run, CHANGES[run.kind], scenario.timeScale, 'skipped', OVER_BUDGET));
		return { scenario, restOffsetMs, subjects, listing: skippedListing() };
	}
	context.progress(`${scenario.name}: starting the sandbox with ${scenario.members.toLocaleString('en')} members`);
	const started = performance.now();
	const sandbox = await SandboxProcess.start({
		members: scenario.members,
		workers: scenario.workers,
		timeScale: scenario.timeScale,
		seed: 1,
		...(scenario.decoratedNames === undefined ? {} : { decoratedNames: scenario.decoratedNames }),
		// A guild with more bots than Discord lets one server hold: the boss, the workers and the
		// generated guild's 4 other bots.
		...(scenario.beyondOneServer ? { integrationLimit: scenario.workers + 5 } : {}),
		logDir,
		startTimeoutMs: 60_000 + scenario.members / 10,
	});
	context.progress(`${scenario.name}: sandbox ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
	const results: SubjectResult[] = [];
	let listing: ListingResult | null = null;
	try {
		for (const [index, run] of runs.entries()) {
			const { kind, label } = run;
			if (Date.now() > context.deadline) {
				results.push(unmeasuredResult(run, CHANGES[kind], scenario.timeScale, 'skipped', OVER_BUDGET));
				context.progress(`${scenario.name}: ${label} skipped, over the time budget`);
				continue;
			}
			if (index > 0) await sleep(pauseMs);
			context.progress(`${scenario.name}: ${label} starting`);
			let subject: Subject | undefined;
			let membersIntent: string[] | null = null;
			// A run's files are named after its label; a default scenario's, after the subject, as before.
			const fileName = label.replace(/[^\w-]+/g, '-');
			const eventLoopFile = scenario.probeEventLoop && isMassnick(kind) ? join(logDir, `${fileName}-event-loop.jsonl`) : undefined;
			try {
				const workers = sandbox.workerIds.slice(0, run.tokens);
				membersIntent = await setMembersIntent(sandbox.control, isMassnick(kind) ? [sandbox.bossId] : [sandbox.bossId, ...workers]);
				const readyStart = performance.now();
				subject = isMassnick(kind)
					? await startMassnick({
							sandbox,
							workers: run.tokens,
							offsetMs: run.restOffsetMs,
							job: await jobOf(kind, sandbox, run),
							workDir: join(logDir, fileName),
							logDir,
							logName: fileName,
							// Each worker logs in to the gateway: a few hundred take a while on a busy machine.
							readyTimeoutMs: Math.max(60_000, run.tokens * 500),
							...(eventLoopFile === undefined ? {} : { eventLoopFile }),
							...(run.settings === undefined ? {} : { settings: run.settings }),
						})
					: await startBaseline({
							kind,
							sandbox,
							workers: scenario.workers,
							offsetMs: run.restOffsetMs,
							prefix: NICK_PREFIX[kind],
							logDir,
							readyTimeoutMs: 60_000,
						});
				context.progress(
					`${scenario.name}: ${label} ready in ${((performance.now() - readyStart) / 1000).toFixed(1)} s (members intent: ${membersIntent.join(', ')}), measuring`,
				);
				const measurement = await measureSubject(subject, sandbox.control, {
					warmupMs: scenario.warmupSeconds * 1000,
					windowMs: scenario.windowSeconds * 1000,
					// The baselines fetch every member over the gateway before their first rename.
					firstChangeTimeoutMs: 30_000 + scenario.members * (kind === 'design-2021' ? 1 : 0.3),
					rateLimitWindowMs: rateLimitWindowMs(scenario.timeScale),
					sandboxPid: sandbox.pid,
					...(eventLoopFile === undefined ? {} : { eventLoopFile }),
				});
				let ranToEnd = false;
				if (kind === 'massnick-sanitize' && scenario.sanitizeUntilDone) {
					context.progress(`${scenario.name}: ${label} measured, letting it run to its end`);
					const windowMs = rateLimitWindowMs(scenario.timeScale);
					ranToEnd = await waitForChangesToStop(subject, measurement.tally, { quietMs: QUIET_WINDOWS * windowMs, timeoutMs: SANITIZE_END_TIMEOUT_MS });
				}
				const stopping = performance.now();
				await subject.stop();
				context.progress(`${scenario.name}: ${label} stopped in ${((performance.now() - stopping) / 1000).toFixed(1)} s`);
				// The 429s and 403s count until the subject stopped, not only in the window.
				await measurement.tally.poll();
				let sanitized: SanitizeOutcome | null = null;
				if (kind === 'massnick-sanitize') {
					sanitized = await readSanitizeOutcome(sandbox, measurement.tally, {
						ranToEnd,
						ceilingPerSecond: ceilingPerSecond(run.tokens, scenario.timeScale),
						rateLimitWindowMs: rateLimitWindowMs(scenario.timeScale),
						workerIds: subject.workerIds,
					});
					context.progress(
						`${scenario.name}: ${label} ${ranToEnd ? 'ran to its end' : 'was stopped'}: changed ${sanitized.changed} (${sanitized.changedOthers} not decorated in reach, ${sanitized.changedNotPlain} not showing their plain name), ${sanitized.cleaned} of ${sanitized.decoratedInReach} decorated members in reach clean`,
					);
				}
				const result = measuredResult(run, subject, scenario.timeScale, membersIntent, measurement, sanitized);
				results.push(result);
				const bursts = result.bursts ? `, ${(result.bursts.share * 100).toFixed(2)}% burst to burst (median period ${result.bursts.periodMedianMs} ms)` : '';
				context.progress(
					`${scenario.name}: ${label} ${result.changesPerSecond}/s (${((result.shareOfCeiling ?? 0) * 100).toFixed(1)}% of ${result.ceilingPerSecond}/s${bursts}), first change ${result.firstChangeMs} ms, ${result.rateLimited429} 429s, ${result.forbidden403} 403s, peak RSS ${result.peakRssMB} MB, longest worker gap ${result.longestWorkerGapMs} ms`,
				);
			} catch (error) {
				const message = (error as Error).message;
				results.push(unmeasuredResult(run, CHANGES[kind], scenario.timeScale, 'failed', message, membersIntent));
				context.progress(`${scenario.name}: ${label} failed: ${message}`);
			} finally {
				await subject?.stop();
			}
		}
		if (scenario.listing) {
			if (Date.now() > context.deadline) {
				listing = skippedListing();
				context.progress(`${scenario.name}: the listing skipped, over the time budget`);
			} else {
				if (runs.length > 0) await sleep(pauseMs);
				listing = await runListing(scenario, { sandbox, restOffsetMs, logDir, progress: context.progress });
			}
		}
	} finally {
		await sandbox.stop();
	}
	return { scenario, restOffsetMs, subjects: results, listing };
}

/** What a massnick run does: `/massnick` with its own nickname (and its filters), `/massrole add` of the Event role, or `/sanitize`. */
function jobOf(kind: MassnickKind, sandbox: SandboxProcess, run: SubjectRun): MassnickJob | Promise<MassnickJob> {
	switch (kind) {
		case 'massnick':
			return renameJob(run.nickname ?? `${NICK_PREFIX.massnick} {id}`, run.filters === undefined ? {} : { filters: run.filters });
		case 'massnick-role':
			return eventRoleJob(sandbox.control);
		case 'massnick-sanitize':
			return sanitizeJob();
	}
}
