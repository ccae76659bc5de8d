import { cpus, loadavg, totalmem } from 'node:os';
import { checksOf, ratiosOf } from './compareResults.js';
import type { ScenarioResult } from './runScenario.js';

export interface RunInfo {
	mode: 'default' | 'quick' | 'custom';
	args: readonly string[];
	startedAt: Date;
	durationSeconds: number;
	budgetSeconds: number;
	/** The 1-minute load average when the run started: how busy the shared machine was. */
	loadAverageAtStart: number;
}

/**
 * `bench/results.json`: meant to be committed and compared across commits, so every key is
 * written in a fixed order (objects are built literally, never spread from elsewhere).
 */
export function buildResultsFile(run: RunInfo, results: readonly ScenarioResult[]): string {
	const cpu = cpus();
	const file = {
		benchmark: 'massnick npm run bench (issues #5 and #8)',
		date: run.startedAt.toISOString(),
		mode: run.mode,
		args: [...run.args],
		durationSeconds: Math.round(run.durationSeconds),
		budgetSeconds: run.budgetSeconds,
		machine: {
			cpus: cpu.length,
			cpuModel: cpu[0]?.model.trim() ?? 'unknown',
			totalMemoryMB: Math.round(totalmem() / 2 ** 20),
			loadAverageAtStart: Math.round(run.loadAverageAtStart * 100) / 100,
			node: process.version,
			platform: `${process.platform} ${process.arch}`,
		},
		method: {
			rate: 'PATCH /guilds/:id/members/:id answered 200 by the sandbox within the window, per second',
			ceiling: 'tokens × 10 renames per 10 s ÷ time scale',
			firstRename: 'from just before /massnick (or the baseline\'s go) to the sandbox\'s 200 for the first rename',
			peakRss: 'VmHWM of the subject process at the end of the window (MB = 2^20 bytes)',
			cpu: 'utime + stime of the subject process during the window, per 1000 renames in it',
			membersIntent: "set before each subject through the sandbox's control API: the boss's app alone for massnick (its workers only rename), the boss's and the baseline's own tokens' for a baseline (it fetches every member over the gateway)",
			workerGap: 'per renaming token, the longest time between two of its PATCH member 200s over the gaps that overlap the window (an open gap runs to the next rename or the window end); the worst token, in ms and in rate-limit windows of 10 s ÷ time scale',
			slowestWorker: "the fewest renames one token made in the window ÷ that token's own ceiling (10 per rate-limit window)",
			listing: "massnick's /massnick dry_run:true with every worker's members intent off: the boss's List Guild Members 200s from the sandbox's request log, first to last; real time = that × time scale",
		},
		scenarios: results.map((result) => ({
			name: result.scenario.name,
			members: result.scenario.members,
			workers: result.scenario.workers,
			timeScale: result.scenario.timeScale,
			restOffsetMs: result.restOffsetMs,
			warmupSeconds: result.scenario.warmupSeconds,
			windowSeconds: result.scenario.windowSeconds,
			note: result.scenario.note ?? null,
			subjects: result.subjects.map((subject) => ({
				subject: subject.subject,
				status: subject.status,
				reason: subject.reason,
				tokens: subject.tokens,
				windowSeconds: subject.windowSeconds,
				renamesInWindow: subject.renamesInWindow,
				renamesPerSecond: subject.renamesPerSecond,
				ceilingPerSecond: subject.ceilingPerSecond,
				shareOfCeiling: subject.shareOfCeiling,
				rateLimited429: subject.rateLimited429,
				forbidden403: subject.forbidden403,
				refusals: subject.refusals,
				rateLimitedMsAfterFirstRename: subject.rateLimitedMsAfterFirstRename,
				firstRenameMs: subject.firstRenameMs,
				peakRssMB: subject.peakRssMB,
				cpuSecondsPer1000Renames: subject.cpuSecondsPer1000Renames,
				membersIntent: subject.membersIntent,
				listedBy: subject.listedBy,
				rateLimitWindowMs: subject.rateLimitWindowMs,
				longestWorkerGapMs: subject.longestWorkerGapMs,
				longestWorkerGapWindows: subject.longestWorkerGapWindows,
				workerGapsMs: subject.workerGapsMs,
				slowestWorkerShareOfCeiling: subject.slowestWorkerShareOfCeiling,
				listingPagesInWindow: subject.listingPagesInWindow,
			})),
			listing: result.listing && {
				status: result.listing.status,
				reason: result.listing.reason,
				listedBy: result.listing.listedBy,
				members: result.listing.members,
				pages: result.listing.pages,
				pagesByOthers: result.listing.pagesByOthers,
				firstToLastPageMs: result.listing.firstToLastPageMs,
				goToLastPageMs: result.listing.goToLastPageMs,
				pagesPerSecond: result.listing.pagesPerSecond,
				membersPerSecond: result.listing.membersPerSecond,
				allowedPagesPerSecond: result.listing.allowedPagesPerSecond,
				rateLimitMinimumMs: result.listing.rateLimitMinimumMs,
				shareOfRateLimit: result.listing.shareOfRateLimit,
				medianPageIntervalMs: result.listing.medianPageIntervalMs,
				medianTenPagesMs: result.listing.medianTenPagesMs,
				rateLimitWindowMs: result.listing.rateLimitWindowMs,
				realTimeSeconds: result.listing.realTimeSeconds,
				realTimeMembersPerSecond: result.listing.realTimeMembersPerSecond,
				realTimeRateLimitSeconds: result.listing.realTimeRateLimitSeconds,
				rateLimited429: result.listing.rateLimited429,
				forbidden403: result.listing.forbidden403,
				refusals: result.listing.refusals,
			},
			ratios: ratiosOf(result).map((ratio) => ({
				baseline: ratio.baseline,
				rate: ratio.rate,
				peakRss: ratio.peakRss,
				cpuPerRename: ratio.cpuPerRename,
			})),
			checks: checksOf(result).map((check) => ({ target: check.target, limit: check.limit, measured: check.measured, pass: check.pass })),
		})),
	};
	return `${JSON.stringify(file, null, 2)}\n`;
}

export function currentLoadAverage(): number {
	return loadavg()[0] ?? 0;
}
