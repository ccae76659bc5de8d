import type { SandboxRequest } from '@massnick/discord-sandbox';
import type { Incarnation } from './SoakBots.js';

/**
 * The share of the ceiling over the fault-free seconds of the first job: each second from 10 s
 * after its start to 30 s before its end (`from`, `to`), with no fault active then or in the
 * 10 s before, and before any process ran short of a worker (`shortFrom`).
 */
export function shareOfCeiling(
	renames: readonly SandboxRequest[],
	window: { from: number; to: number; shortFrom: number },
	faultTimes: ReadonlyArray<{ from: number; to: number }>,
	ceilingPerSecond: number,
): { share: number | null; seconds: number } {
	const bySecond = new Map<number, number>();
	for (const request of renames) {
		const second = Math.floor(request.at / 1000);
		bySecond.set(second, (bySecond.get(second) ?? 0) + 1);
	}
	const quiet = [...bySecond.keys()]
		.filter((second) => second * 1000 > window.from + 10_000 && (second + 1) * 1000 < window.to - 30_000)
		.filter((second) => !faultTimes.some(({ from, to }) => (second + 1) * 1000 > from && second * 1000 < to + 10_000))
		.filter((second) => (second + 1) * 1000 < window.shortFrom);
	const share = quiet.length === 0 ? null : quiet.reduce((sum, second) => sum + bySecond.get(second)!, 0) / quiet.length / ceilingPerSecond;
	return { share, seconds: quiet.length };
}

/** The RSS slope of the longest-lived process after its first 30 s, by least squares, in MB a minute; `null` with under 3 samples. */
export function rssSlope(incarnations: readonly Incarnation[]): { longest: Incarnation; mbPerMinute: number | null } {
	const longest = [...incarnations].sort((a, b) => b.endedAt! - b.startedAt - (a.endedAt! - a.startedAt))[0]!;
	const samples = longest.rss.filter((sample) => sample.at > longest.startedAt + 30_000);
	if (samples.length < 3) return { longest, mbPerMinute: null };
	const mx = samples.reduce((sum, s) => sum + s.at, 0) / samples.length;
	const my = samples.reduce((sum, s) => sum + s.mb, 0) / samples.length;
	const num = samples.reduce((sum, s) => sum + (s.at - mx) * (s.mb - my), 0);
	const den = samples.reduce((sum, s) => sum + (s.at - mx) ** 2, 0);
	return { longest, mbPerMinute: (num / den) * 60_000 };
}
