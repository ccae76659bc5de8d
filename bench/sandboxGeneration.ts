/**
 * How long the sandbox takes to generate a big guild, and how much memory it holds.
 *
 *   npx tsx bench/sandboxGeneration.ts [members=1000000] [decoratedNames=0]
 *
 * Prints one JSON line: generation time, peak RSS, heap and external memory after generation,
 * and the time to serve every member once as JSON in pages of 1000 (what a full REST listing costs).
 */
import { resolveSandboxOptions, SandboxState } from '@massnick/discord-sandbox';

const members = Number(process.argv[2] ?? 1_000_000);
const decoratedNames = Number(process.argv[3] ?? 0);
const mb = (bytes: number): number => Math.round(bytes / 1024 / 1024);

const before = process.memoryUsage();
const started = performance.now();
const state = new SandboxState(resolveSandboxOptions({ members, workers: 10, decoratedNames }));
const generationMs = performance.now() - started;
const afterGeneration = process.memoryUsage();

const servingStarted = performance.now();
let served = 0;
let after = 0n;
for (;;) {
	const page = state.members.page(after, 1000);
	if (page.length === 0) break;
	served += JSON.stringify(page.map((index) => state.memberJson(index))).length > 0 ? page.length : 0;
	after = state.members.idAt(page.at(-1)!);
}
const servingMs = performance.now() - servingStarted;

console.log(
	JSON.stringify({
		members: state.members.size,
		decoratedNames,
		generationMs: Math.round(generationMs),
		peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
		rssAfterGenerationMb: mb(afterGeneration.rss),
		heapUsedAfterGenerationMb: mb(afterGeneration.heapUsed),
		heapGrowthMb: mb(afterGeneration.heapUsed - before.heapUsed),
		arrayBuffersMb: mb(afterGeneration.arrayBuffers),
		serveAllAsJsonMs: Math.round(servingMs),
		served,
	}),
);
