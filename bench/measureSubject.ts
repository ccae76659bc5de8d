import { setTimeout as sleep } from 'node:timers/promises';
import type { SandboxControl } from '../src/cli/SandboxControl.js';
import { readProcStats } from './procStats.js';
import { RequestTally } from './RequestTally.js';
import type { Subject } from './Subject.js';
import { type TokenActivity, tokenActivity } from './tokenActivity.js';

export interface MeasureOptions {
	/** Renames after the first one that are not counted (queues filling, JIT warming). */
	warmupMs: number;
	/** The measured window. */
	windowMs: number;
	/** From go to the first rename, at most (the baselines fetch every member first). */
	firstRenameTimeoutMs: number;
}

/** One subject's numbers; times in ms, memory in bytes. */
export interface Measurement {
	/** From just before go (the `/massnick` interaction, or the baseline's `go`) to Discord's 200 for the first rename. */
	firstRenameMs: number;
	windowMs: number;
	renamesInWindow: number;
	/** CPU time of the subject's process during the window. */
	cpuSecondsInWindow: number;
	/** Each renaming token's renames and longest idle gap in the window, in the subject's token order. */
	tokens: TokenActivity[];
	/** Member-list pages (List Guild Members 200s, any bot) answered in the window: the listing's share of it. */
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
 * Measures a started subject: tells it to go, waits for its first successful rename in the
 * sandbox's request log, lets it warm up, then counts the renames the sandbox answered in a
 * fixed window while reading the subject's CPU time at both ends of that window.
 */
export async function measureSubject(subject: Subject, control: SandboxControl, options: MeasureOptions): Promise<Measurement> {
	const tally = await RequestTally.fromNow(control);
	const goAt = Date.now();
	await subject.go();

	const firstDeadline = goAt + options.firstRenameTimeoutMs;
	while (tally.firstRenameAt === undefined) {
		if (!subject.running) throw subject.failure('exited before its first rename');
		if (Date.now() > firstDeadline) {
			throw subject.failure(`renamed nobody within ${options.firstRenameTimeoutMs / 1000} s (${tally.requests} requests, ${tally.forbidden} 403s, ${tally.rateLimited} 429s); ${await subject.diagnose()}`);
		}
		await sleep(POLL_MS);
		await tally.poll();
	}
	const firstRenameAt = tally.firstRenameAt;

	const windowStart = Math.max(firstRenameAt + options.warmupMs, Date.now());
	await waitUntil(windowStart, subject, tally);
	const cpuBefore = await readProcStats(subject.pid);
	const windowEnd = windowStart + options.windowMs;
	await waitUntil(windowEnd, subject, tally);
	const after = await readProcStats(subject.pid);

	const settleDeadline = Date.now() + LOG_SETTLE_MS;
	do {
		await sleep(POLL_MS);
		await tally.poll();
	} while (tally.latestAt < windowEnd && Date.now() < settleDeadline);

	return {
		firstRenameMs: firstRenameAt - goAt,
		windowMs: options.windowMs,
		renamesInWindow: tally.renamesBetween(windowStart, windowEnd),
		tokens: subject.renamerIds.map((id) => tokenActivity(id, tally.renamedAtByBot.get(id) ?? [], windowStart, windowEnd)),
		listingPagesInWindow: [...tally.listedAtByBot.values()].reduce((sum, times) => sum + times.filter((at) => at >= windowStart && at < windowEnd).length, 0),
		cpuSecondsInWindow: after.cpuSeconds - cpuBefore.cpuSeconds,
		peakRssBytes: after.peakRssBytes,
		tally,
	};
}

/** Sleeps until `at`, reading the log once a second so no read is large, and checking the subject lives. */
async function waitUntil(at: number, subject: Subject, tally: RequestTally): Promise<void> {
	for (let left = at - Date.now(); left > 0; left = at - Date.now()) {
		await sleep(Math.min(left, 1000));
		if (!subject.running) throw subject.failure('exited during the measurement');
		if (at - Date.now() > 200) await tally.poll();
	}
}
