import { readFile } from 'node:fs/promises';

/**
 * How late the measured process's event loop ran during the window, from eventLoopProbe.ts's
 * one-second histograms: the time past the probe's 10 ms timer, in ms. A process keeping up
 * shows a fraction of a millisecond; one short of CPU shows tens.
 */
export interface EventLoopDelay {
	/** One-second histograms read. */
	seconds: number;
	/** The mean delay over every sample. */
	meanMs: number;
	/** The median second's 99th percentile. */
	p99Ms: number;
	/** The worst second's 99th percentile. */
	worstP99Ms: number;
	/** The longest single delay. */
	maxMs: number;
}

interface ProbeLine {
	at: number;
	resolutionMs: number;
	samples: number;
	meanMs: number;
	p50Ms: number;
	p99Ms: number;
	maxMs: number;
}

/** Reads the seconds that ended in `(from + 1 s, to]` (wholly inside `[from, to]`); `null` when there are none. */
export async function readEventLoopDelay(file: string, from: number, to: number): Promise<EventLoopDelay | null> {
	let text: string;
	try {
		text = await readFile(file, 'utf8');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
		throw error;
	}
	const lines = text
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => JSON.parse(line) as ProbeLine)
		.filter((line) => line.at > from + 1000 && line.at <= to && line.samples > 0);
	if (lines.length === 0) return null;
	// The histogram records each timer interval whole; the delay is what exceeds the resolution.
	const late = (ms: number, line: ProbeLine): number => Math.max(0, ms - line.resolutionMs);
	const samples = lines.reduce((sum, line) => sum + line.samples, 0);
	const p99s = lines.map((line) => late(line.p99Ms, line)).sort((a, b) => a - b);
	return {
		seconds: lines.length,
		meanMs: hundredths(lines.reduce((sum, line) => sum + late(line.meanMs, line) * line.samples, 0) / samples),
		p99Ms: hundredths(p99s[Math.floor(p99s.length / 2)]!),
		worstP99Ms: hundredths(p99s[p99s.length - 1]!),
		maxMs: hundredths(Math.max(...lines.map((line) => late(line.maxMs, line)))),
	};
}

function hundredths(value: number): number {
	return Math.round(value * 100) / 100;
}
