import { setTimeout as sleep } from 'node:timers/promises';
import type { SandboxControl } from '@massnick/discord-sandbox';
import { type BurstStats, burstStats } from './BurstStats.js';
import { busyShare, type MachineCpu, readMachineCpu } from './machineCpu.js';
import { type ProcStats, readProcStats } from './procStats.js';
import { type EventLoopDelay, readEventLoopDelay } from './readEventLoopDelay.js';
import { RequestTally } from './RequestTally.js';
import type { Subject } from './Subject.js';
import { type TokenActivity, tokenActivity } from './tokenActivity.js';
import { tokenBursts } from './tokenBursts.js';

export interface MeasureOptions {
	/** Changes after the first one that are not counted (queues filling, JIT warming). */
	warmupMs: number;
	/** The measured window. */
	windowMs: number;
	/** From go to the first change, at most (the baselines fetch every member first). */
	firstChangeTimeoutMs: number;
	/** One token's rate-limit window at the scenario's time scale (10 s ÷ time scale), to tell its windows apart. */
	rateLimitWindowMs: number;
	/** The sandbox's process, whose CPU time in the window is read too. */
	sandboxPid: number;
	/** Where eventLoopProbe.ts writes the subject's event-loop delay, when it was started with it. */
	eventLoopFile?: string;
}

/** One subject's numbers; times in ms, memory in bytes. */
export interface Measurement {
	/** From the moment the subject was set going ({@link Subject.go}: Start pressed on the preview, or the baseline's `go`) to the sandbox's answer to the first change. */
	firstChangeMs: number;
	windowMs: number;
	changesInWindow: number;
	/** CPU time of the subject's process during the window. */
	cpuSecondsInWindow: number;
	/** CPU time of the sandbox's process during the window: what answering the subject cost. */
	sandboxCpuSecondsInWindow: number;
	/** The share of the machine's cores busy during the window, whoever used them. */
	machineBusyShare: number | null;
	/** Every token's window-to-window periods in the window, together. */
	bursts: BurstStats | null;
	/** The subject's event-loop delay in the window, when it ran with the probe. */
	eventLoopDelay: EventLoopDelay | null;
	/** Each token's changes and longest idle gap in the window, in the subject's token order. */
	tokens: TokenActivity[];
	/** Member-list pages (List Guild Members 200s, any bot) answered in the window: massnick's listing runs alongside its changes. */
	listingPagesInWindow: number;
	/** The subject's `VmHWM` at the end of the window: its peak since it started. */
	peakRssBytes: number;
	/** The tally of the subject's requests from go on; read it again after stopping the subject. */
	tally: RequestTally;
}

const POLL_MS = 100;
/** How long the sandbox may lag in logging answers sent before the window's end. */
const LOG_SETTLE_MS = 2000;

/**
 * Measures a started subject: tells it to go, waits for its first successful change (its own
 * {@link Subject.change}: a rename, a role given) in the sandbox's request log, lets it warm up,
 * then counts the changes the sandbox answered in a fixed window while reading the subject's (and
 * the sandbox's, and the machine's) CPU time at both ends of that window.
 */
export async function measureSubject(subject: Subject, control: SandboxControl, options: MeasureOptions): Promise<Measurement> {
	const tally = await RequestTally.fromNow(control, subject.change);
	const goAt = await subject.go();

	const firstDeadline = goAt + options.firstChangeTimeoutMs;
	while (tally.firstChangeAt === undefined) {
		if (!subject.running) throw subject.failure('exited before its first change');
		if (Date.now() > firstDeadline) {
			throw subject.failure(
				`changed nobody within ${options.firstChangeTimeoutMs / 1000} s (${tally.requests} requests, ${tally.forbidden} 403s, ${tally.rateLimited} 429s); ${await subject.diagnose()}`,
			);
		}
		await sleep(POLL_MS);
		await tally.poll();
	}
	const firstChangeAt = tally.firstChangeAt;

	const windowStart = Math.max(firstChangeAt + options.warmupMs, Date.now());
	await waitUntil(windowStart, subject, tally);
	const before = await readStats(subject.pid, options.sandboxPid);
	const windowEnd = windowStart + options.windowMs;
	await waitUntil(windowEnd, subject, tally);
	const after = await readStats(subject.pid, options.sandboxPid);

	const settleDeadline = Date.now() + LOG_SETTLE_MS;
	do {
		await sleep(POLL_MS);
		await tally.poll();
	} while (tally.latestAt < windowEnd && Date.now() < settleDeadline);

	return {
		firstChangeMs: firstChangeAt - goAt,
		windowMs: options.windowMs,
		changesInWindow: tally.changesBetween(windowStart, windowEnd),
		tokens: subject.workerIds.map((id) => tokenActivity(id, tally.changedAtByBot.get(id) ?? [], windowStart, windowEnd)),
		listingPagesInWindow: [...tally.listedAtByBot.values()].reduce((sum, times) => sum + times.filter((at) => at >= windowStart && at < windowEnd).length, 0),
		cpuSecondsInWindow: after.subject.cpuSeconds - before.subject.cpuSeconds,
		sandboxCpuSecondsInWindow: after.sandbox.cpuSeconds - before.sandbox.cpuSeconds,
		machineBusyShare: busyShare(before.machine, after.machine),
		bursts: burstStats(
			subject.workerIds.map((id) => tokenBursts(tally.changedAtByBot.get(id) ?? [], options.rateLimitWindowMs, windowStart, windowEnd)),
			options.rateLimitWindowMs,
		),
		eventLoopDelay: options.eventLoopFile === undefined ? null : await readEventLoopDelay(options.eventLoopFile, windowStart, windowEnd),
		peakRssBytes: after.subject.peakRssBytes,
		tally,
	};
}

/** The subject's and the sandbox's process, and the machine, read together at one end of the window. */
async function readStats(subjectPid: number, sandboxPid: number): Promise<{ subject: ProcStats; sandbox: ProcStats; machine: MachineCpu }> {
	const [subject, sandbox, machine] = await Promise.all([readProcStats(subjectPid), readProcStats(sandboxPid), readMachineCpu()]);
	return { subject, sandbox, machine };
}

/** Sleeps until `at`, reading the log once a second so no read is large, and checking the subject lives. */
async function waitUntil(at: number, subject: Subject, tally: RequestTally): Promise<void> {
	for (let left = at - Date.now(); left > 0; left = at - Date.now()) {
		await sleep(Math.min(left, 1000));
		if (!subject.running) throw subject.failure('exited during the measurement');
		if (at - Date.now() > 200) await tally.poll();
	}
}
