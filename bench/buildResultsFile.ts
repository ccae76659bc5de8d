import { describeMachine } from './describeMachine.js';
import { fitsOneServer } from './formatStudy.js';
import { loadavg } from 'node:os';
import { checksOf, cpuRatiosOf, ratiosOf } from './compareResults.js';
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
	const file = {
		benchmark: 'massnick npm run bench (issues #5 and #8)',
		date: run.startedAt.toISOString(),
		mode: run.mode,
		args: [...run.args],
		durationSeconds: Math.round(run.durationSeconds),
		budgetSeconds: run.budgetSeconds,
		machine: describeMachine(run.loadAverageAtStart),
		method: {
			rate: "the subject's changes (its `change`: PATCH /guilds/:id/members/:id 200 for a rename, PUT /guilds/:id/members/:id/roles/:id 204 for a role given) answered by the sandbox within the window, per second",
			ceiling: 'tokens × 10 changes per 10 s ÷ time scale (Modify Guild Member and the member-role routes each allow 10 per 10 s per token and guild)',
			firstChange: "from pressing Start on the preview of /massnick or /massrole (or the baseline's go) to the sandbox's answer to the first change",
			peakRss: 'VmHWM of the subject process at the end of the window (MB = 2^20 bytes)',
			cpu: 'utime + stime of the subject process during the window, per 1000 changes in it',
			membersIntent:
				"set before each subject through the sandbox's control API: the boss's app alone for massnick and massnick-role (their workers only change members), the boss's and the baseline's own tokens' for a baseline (it fetches every member over the gateway)",
			workerGap:
				'per token making changes, the longest time between two of its changes over the gaps that overlap the window (an open gap runs to the next change or the window end); the worst token, in ms and in rate-limit windows of 10 s ÷ time scale',
			slowestWorker: "the fewest changes one token made in the window ÷ that token's own ceiling (10 per rate-limit window)",
			bursts:
				"per token, the periods from one rate-limit window's first change to the next one's (a window's first change follows a pause of over half a window), starting in the measured window; share = their changes ÷ (their time ÷ one window × 10), late = the median period less one window",
			sandboxCpu: "utime + stime of the sandbox process during the window, per 1000 of the subject's changes in it",
			machineBusy: 'the share of all cores busy during the window (/proc/stat), whoever used them',
			fitsOneServer:
				"whether one Discord server holds the subject's worker tokens and the boss within its 50 integrations (with no other bot); false: a measure of the process alone",
			eventLoopDelay:
				"studies only: the subject's perf_hooks.monitorEventLoopDelay (10 ms resolution) from a preload (bench/eventLoopProbe.ts), per second; the delay past the timer, as the count-weighted mean, the median second's p99, the worst second's p99 and the longest",
			sanitized:
				"/sanitize only (on a guild generated with decorated names): the members it changed, from the request log, against the control API's member list once it stopped; in reach = below the bots' role and not the owner; clean = showing the plain name the decoration was drawn over (decoration.plain), or the fallback Member {id} when nothing readable was in it; whole job = every change ÷ (first to last change + one rate-limit window) ÷ the ceiling",
			cpuRatios:
				"a run's CPU s per 1000 changes ÷ that of the run it names (the same /massnick job with no filter), measured one after the other on the same sandbox",
			listing:
				"massnick's /massnick dry_run:true with every worker's members intent off: the boss's List Guild Members 200s from the sandbox's request log, first to last; real time = that × time scale",
		},
		scenarios: results.map((result) => ({
			name: result.scenario.name,
			members: result.scenario.members,
			workers: result.scenario.workers,
			timeScale: result.scenario.timeScale,
			decoratedNames: result.scenario.decoratedNames ?? 0,
			restOffsetMs: result.restOffsetMs,
			warmupSeconds: result.scenario.warmupSeconds,
			windowSeconds: result.scenario.windowSeconds,
			note: result.scenario.note ?? null,
			subjects: result.subjects.map((subject) => ({
				subject: subject.subject,
				label: subject.label,
				status: subject.status,
				reason: subject.reason,
				change: subject.change,
				tokens: subject.tokens,
				fitsOneServer: fitsOneServer(subject.tokens),
				restOffsetMs: subject.restOffsetMs,
				windowSeconds: subject.windowSeconds,
				changesInWindow: subject.changesInWindow,
				changesPerSecond: subject.changesPerSecond,
				ceilingPerSecond: subject.ceilingPerSecond,
				shareOfCeiling: subject.shareOfCeiling,
				rateLimited429: subject.rateLimited429,
				forbidden403: subject.forbidden403,
				refusals: subject.refusals,
				rateLimitedMsAfterFirstChange: subject.rateLimitedMsAfterFirstChange,
				firstChangeMs: subject.firstChangeMs,
				peakRssMB: subject.peakRssMB,
				cpuSecondsPer1000Changes: subject.cpuSecondsPer1000Changes,
				membersIntent: subject.membersIntent,
				listedBy: subject.listedBy,
				rateLimitWindowMs: subject.rateLimitWindowMs,
				longestWorkerGapMs: subject.longestWorkerGapMs,
				longestWorkerGapWindows: subject.longestWorkerGapWindows,
				workerGapsMs: subject.workerGapsMs,
				slowestWorkerShareOfCeiling: subject.slowestWorkerShareOfCeiling,
				listingPagesInWindow: subject.listingPagesInWindow,
				bursts: subject.bursts && {
					periods: subject.bursts.periods,
					share: subject.bursts.share,
					periodMedianMs: subject.bursts.periodMedianMs,
					periodP90Ms: subject.bursts.periodP90Ms,
					periodP99Ms: subject.bursts.periodP99Ms,
					periodMinMs: subject.bursts.periodMinMs,
					periodMaxMs: subject.bursts.periodMaxMs,
					lateMedianMs: subject.bursts.lateMedianMs,
					shortPeriods: subject.bursts.shortPeriods,
				},
				sandboxCpuSecondsPer1000Changes: subject.sandboxCpuSecondsPer1000Changes,
				machineBusyShare: subject.machineBusyShare,
				eventLoopDelay: subject.eventLoopDelay && {
					seconds: subject.eventLoopDelay.seconds,
					meanMs: subject.eventLoopDelay.meanMs,
					p99Ms: subject.eventLoopDelay.p99Ms,
					worstP99Ms: subject.eventLoopDelay.worstP99Ms,
					maxMs: subject.eventLoopDelay.maxMs,
				},
				sanitized: subject.sanitized && {
					ranToEnd: subject.sanitized.ranToEnd,
					decorated: subject.sanitized.decorated,
					decoratedInReach: subject.sanitized.decoratedInReach,
					changed: subject.sanitized.changed,
					changedTwice: subject.sanitized.changedTwice,
					changedOthers: subject.sanitized.changedOthers,
					changedNotPlain: subject.sanitized.changedNotPlain,
					cleaned: subject.sanitized.cleaned,
					cleanedShare: subject.sanitized.cleanedShare,
					byStyle: subject.sanitized.byStyle,
					firstToLastChangeMs: subject.sanitized.firstToLastChangeMs,
					wholeJobShareOfCeiling: subject.sanitized.wholeJobShareOfCeiling,
					workers: subject.sanitized.workers.map((worker) => ({ changes: worker.changes, lastChangeMs: worker.lastChangeMs })),
					partitionBoundShare: subject.sanitized.partitionBoundShare,
					notCleaned: subject.sanitized.notCleaned,
				},
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
			cpuRatios: cpuRatiosOf(result).map((cpu) => ({
				label: cpu.label,
				comparedWith: cpu.comparedWith,
				cpuSecondsPer1000Changes: cpu.cpuSecondsPer1000Changes,
				baseCpuSecondsPer1000Changes: cpu.baseCpuSecondsPer1000Changes,
				ratio: cpu.ratio,
			})),
			checks: checksOf(result).map((check) => ({
				subject: check.subject,
				target: check.target,
				limit: check.limit,
				measured: check.measured,
				pass: check.pass,
			})),
		})),
	};
	return `${JSON.stringify(file, null, 2)}\n`;
}

export function currentLoadAverage(): number {
	return loadavg()[0] ?? 0;
}
