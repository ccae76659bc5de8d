import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * A preload for the measured massnick process (`node --import <this> main.js start`), so its
 * event-loop delay is read without a line of the bot changed: when `MASSNICK_BENCH_EVENT_LOOP_FILE`
 * names a file, it appends one JSON line a second there, the last second's histogram of
 * `perf_hooks.monitorEventLoopDelay` (a timer every {@link RESOLUTION_MS} ms, and how long each
 * interval really took). The bot ignores the variable; the timer is unref'd, so it never keeps
 * the process alive. The harness reads the lines with readEventLoopDelay.ts.
 *
 * @see https://nodejs.org/docs/latest-v20.x/api/perf_hooks.html#perf_hooksmonitoreventloopdelayoptions
 */
const RESOLUTION_MS = 10;
const file = process.env.MASSNICK_BENCH_EVENT_LOOP_FILE;

if (file) {
	const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
	histogram.enable();
	const ms = (ns: number): number => Math.round(ns / 1000) / 1000;
	setInterval(() => {
		const line = {
			at: Date.now(),
			resolutionMs: RESOLUTION_MS,
			samples: histogram.count,
			meanMs: ms(histogram.mean),
			p50Ms: ms(histogram.percentile(50)),
			p99Ms: ms(histogram.percentile(99)),
			maxMs: ms(histogram.max),
		};
		histogram.reset();
		appendFileSync(file, `${JSON.stringify(line)}\n`);
	}, 1000).unref();
}
