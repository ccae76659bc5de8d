import { describe, expect, it } from 'vitest';
import { RecheckSchedule, type Timer } from '../../../../src/boss/rules/RecheckSchedule.js';
import { flushPromises } from '../../../support/flushPromises.js';

/** Timers driven by hand: `advance` runs, in order, every one due by then. */
class HandTimers {
	#now = 0;
	#pending: { run: () => void; at: number }[] = [];
	readonly timer: Timer = (run, ms) => {
		const entry = { run, at: this.#now + ms };
		this.#pending.push(entry);
		return () => {
			this.#pending = this.#pending.filter((pending) => pending !== entry);
		};
	};

	get pending(): number {
		return this.#pending.length;
	}

	async advance(ms: number): Promise<void> {
		const until = this.#now + ms;
		for (;;) {
			const next = [...this.#pending].sort((a, b) => a.at - b.at)[0];
			if (!next || next.at > until) break;
			this.#pending = this.#pending.filter((pending) => pending !== next);
			this.#now = next.at;
			next.run();
			await flushPromises();
		}
		this.#now = until;
	}
}

const SETTLE = 1000;
const EVERY = 60_000;

function schedule(recheck: () => Promise<void>, failed: (error: unknown) => void = () => {}) {
	const timers = new HandTimers();
	return { timers, schedule: new RecheckSchedule(recheck, { settleMs: SETTLE, everyMs: EVERY, failed, timer: timers.timer }) };
}

describe('when the standing rules’ requesters are re-checked', () => {
	it('a burst of events is one re-check, settleMs after the first of them', async () => {
		let checks = 0;
		const { timers, schedule: watch } = schedule(async () => void checks++);
		for (let event = 0; event < 50; event++) watch.soon();
		await timers.advance(SETTLE - 1);
		expect(checks).toBe(0);
		watch.soon();
		await timers.advance(1);
		expect(checks).toBe(1);
		await timers.advance(SETTLE * 5);
		expect(checks).toBe(1);
	});

	it('an event during a re-check brings one more after it, never two at once', async () => {
		let running = 0;
		let most = 0;
		let checks = 0;
		let release: (() => void) | undefined;
		const { timers, schedule: watch } = schedule(async () => {
			checks++;
			running++;
			most = Math.max(most, running);
			await new Promise<void>((resolve) => {
				release = resolve;
			});
			running--;
		});
		watch.soon();
		await timers.advance(SETTLE);
		expect(checks).toBe(1);
		watch.soon();
		watch.soon();
		await timers.advance(SETTLE * 3);
		expect(checks).toBe(1);
		release!();
		await flushPromises();
		await timers.advance(SETTLE);
		expect(checks).toBe(2);
		release!();
		await watch.settled();
		expect(most).toBe(1);
	});

	it('re-checks every everyMs with no event at all, and a re-check that throws is reported and the schedule goes on', async () => {
		const failures: unknown[] = [];
		let checks = 0;
		const { timers } = schedule(
			async () => {
				checks++;
				if (checks === 1) throw new Error('Discord is down');
			},
			(error) => failures.push(error),
		);
		await timers.advance(EVERY + SETTLE);
		expect(checks).toBe(1);
		expect(failures).toEqual([new Error('Discord is down')]);
		await timers.advance(EVERY);
		expect(checks).toBe(2);
	});

	it('stopped, it re-checks nothing more and leaves no timer behind', async () => {
		let checks = 0;
		const { timers, schedule: watch } = schedule(async () => void checks++);
		watch.soon();
		watch.stop();
		watch.soon();
		expect(timers.pending).toBe(0);
		await timers.advance(EVERY * 3);
		expect(checks).toBe(0);
	});
});
