import type { APIEmbed } from 'discord.js';
import { expect } from 'vitest';
import type { ProgressSnapshot, WorkerSnapshot } from '../../src/jobs/Progress.js';

/** Progress snapshots and Discord's embed limits, for the tests of what a status message shows. */

/** A worker's counters mid-job; `overrides` set what a test is about. */
export function worker(index: number, overrides: Partial<WorkerSnapshot> = {}): WorkerSnapshot {
	return {
		index,
		inSlice: 10_000,
		changed: 5_000,
		alreadyDone: 100,
		cant: 2,
		aboveRequester: 0,
		skipped: 50,
		left: 3,
		failed: { timeout: 1 },
		failedTotal: 1,
		inFlight: 10,
		done: 5_156,
		queued: 4_834,
		rate: 3.5,
		etaMs: 1_383_000,
		...overrides,
	};
}

/** A job's snapshot summing `workers`, as `Progress` would. */
export function snapshot(workers: WorkerSnapshot[], overrides: Partial<ProgressSnapshot> = {}): ProgressSnapshot {
	const sum = (key: keyof WorkerSnapshot) => workers.reduce((total, w) => total + (w[key] as number), 0);
	const failedByReason: Record<string, number> = {};
	for (const w of workers) for (const [reason, count] of Object.entries(w.failed)) failedByReason[reason] = (failedByReason[reason] ?? 0) + count;
	return {
		workers,
		total: sum('inSlice'),
		elsewhere: 0,
		done: sum('done'),
		remaining: sum('inSlice') - sum('done'),
		changed: sum('changed'),
		alreadyDone: sum('alreadyDone'),
		cant: sum('cant'),
		aboveRequester: sum('aboveRequester'),
		skipped: sum('skipped'),
		left: sum('left'),
		failed: sum('failedTotal'),
		failedByReason,
		inFlight: sum('inFlight'),
		listingDone: true,
		rate: sum('rate'),
		elapsedMs: 3_600_000,
		etaMs: 3_720_000,
		...overrides,
	};
}

/** Every limit Discord puts on an embed. */
export function expectWithinDiscordLimits(message: { content?: string; embeds: APIEmbed[] }) {
	expect(message.embeds.length).toBeLessThanOrEqual(10);
	let total = 0;
	for (const embed of message.embeds) {
		expect((embed.title ?? '').length).toBeLessThanOrEqual(256);
		expect((embed.description ?? '').length).toBeLessThanOrEqual(4096);
		expect((embed.fields ?? []).length).toBeLessThanOrEqual(25);
		for (const field of embed.fields ?? []) {
			expect(field.name.length).toBeLessThanOrEqual(256);
			expect(field.value.length).toBeLessThanOrEqual(1024);
		}
		expect((embed.footer?.text ?? '').length).toBeLessThanOrEqual(2048);
		total += (embed.title ?? '').length + (embed.description ?? '').length + (embed.footer?.text ?? '').length;
		for (const field of embed.fields ?? []) total += field.name.length + field.value.length;
	}
	expect(total).toBeLessThanOrEqual(6000);
	expect((message.content ?? '').length).toBeLessThanOrEqual(2000);
}
