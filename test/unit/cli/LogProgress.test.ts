import { EventEmitter } from 'node:events';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { LogProgress } from '../../../src/cli/LogProgress.js';
import type { Job } from '../../../src/jobs/Job.js';
import { Progress } from '../../../src/jobs/Progress.js';

/** What LogProgress reads of a job, a standing rule the test moves from its sweep to following joins, on the test's clock. */
function fakeRule() {
	let now = Date.UTC(2026, 0, 1);
	const progress = new Progress([0], () => now);
	const job = Object.assign(new EventEmitter(), { id: 'role-add-1', state: 'running', following: false, progress });
	const lines: Array<{ msg: string; joiners?: { changed: number } }> = [];
	const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
	const view = new LogProgress(logger, 10_000, () => now);
	let joined = 0;
	return {
		job: job as unknown as Job,
		view,
		lines,
		/** Moves the clock on by `ms` and lets one tick of the view log what it would. */
		tick(ms: number): void {
			now += ms;
			view.tick();
		},
		follow(): void {
			job.following = true;
			progress.followed.following();
			job.emit('following');
		},
		join(): void {
			const id = String(++joined);
			progress.assigned(0);
			progress.followed.track(id, now);
			progress.reporter(0).outcome('changed', id);
		},
	};
}

describe('LogProgress', () => {
	it('logs a progress line every tick while the job sweeps, and one rule following line when its sweep ends', () => {
		const rule = fakeRule();
		rule.view.start(rule.job);
		for (let i = 0; i < 3; i++) rule.tick(10_000);
		rule.follow();
		rule.view.stop();
		expect(rule.lines.map((line) => line.msg)).toEqual(['job progress', 'job progress', 'job progress', 'rule following']);
	});

	it('a following rule nobody joins logs nothing for an hour, then one line: a sign of life', () => {
		const rule = fakeRule();
		rule.view.start(rule.job);
		rule.follow();
		// Every 10 s for 59 minutes.
		for (let i = 0; i < 354; i++) rule.tick(10_000);
		expect(rule.lines).toHaveLength(1);
		for (let i = 0; i < 6; i++) rule.tick(10_000);
		rule.view.stop();
		expect(rule.lines.map((line) => line.msg)).toEqual(['rule following', 'rule following']);
	});

	it('a following rule with a joiner every 10 s for ten minutes logs a summary a minute, not a line per joiner, with what it did for them', () => {
		const rule = fakeRule();
		rule.view.start(rule.job);
		rule.follow();
		for (let i = 0; i < 60; i++) {
			rule.join();
			rule.tick(10_000);
		}
		rule.view.stop();
		const summaries = rule.lines.slice(1);
		expect(summaries).toHaveLength(10);
		expect(summaries.every((line) => line.msg === 'rule following')).toBe(true);
		expect(summaries.at(-1)!.joiners!.changed).toBe(60);
	});

	it('after stop it logs nothing, not even when the sweep ends', () => {
		const rule = fakeRule();
		rule.view.start(rule.job);
		rule.view.stop();
		rule.follow();
		rule.view.tick();
		expect(rule.lines).toEqual([]);
	});
});
