/** How a generated (property-based) test runs: its seed and how many cases it tries. */
export interface FuzzSettings {
	readonly seed: number;
	readonly numRuns: number;
}

/**
 * The seed and run count of a generated test: fixed by default, so `npm test` is the same every
 * time and fits its budget; `MASSNICK_FUZZ_SEED` and `MASSNICK_FUZZ_RUNS` ask for a longer or
 * another run, for example
 *
 * ```sh
 * MASSNICK_FUZZ_SEED=$RANDOM MASSNICK_FUZZ_RUNS=300 npx vitest run test/e2e/badInput.test.ts test/unit/cli/parseRunArgs.property.test.ts
 * ```
 *
 * `MASSNICK_FUZZ_RUNS` is the run count of a file's main properties (a file may run others a
 * fraction as often). The settings are printed, so a failure can be run again as it was.
 */
export function fuzzSettings(what: string, defaults: FuzzSettings): FuzzSettings {
	const seed = readInteger('MASSNICK_FUZZ_SEED') ?? defaults.seed;
	const numRuns = readInteger('MASSNICK_FUZZ_RUNS') ?? defaults.numRuns;
	if (numRuns < 1) throw new Error(`MASSNICK_FUZZ_RUNS must be 1 or more, got ${numRuns}`);
	console.log(`${what}: seed ${seed}, ${numRuns} runs (MASSNICK_FUZZ_SEED, MASSNICK_FUZZ_RUNS to change)`);
	return { seed, numRuns };
}

function readInteger(key: string): number | undefined {
	const text = process.env[key];
	if (text === undefined || text.trim() === '') return undefined;
	const value = Number(text);
	if (!Number.isSafeInteger(value)) throw new Error(`${key} must be an integer, got ${JSON.stringify(text)}`);
	return value;
}
