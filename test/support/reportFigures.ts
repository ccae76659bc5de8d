/**
 * Prints one line of figures from a reliability test (faults injected, renames, lost, twice), so
 * the README's Reliability table can be checked against a run: `npx vitest run test/e2e`.
 *
 * Every figure is what the test measured (from the sandbox's members and request log, the job's
 * counters, the journal), never a literal, and the outcomes the README states (lost, twice) are
 * asserted by the test before it prints them: a printed 0 means a count came out 0.
 */
export function reportFigures(scenario: string, figures: Record<string, number | string>): void {
	console.log(
		`[reliability] ${scenario}: ${Object.entries(figures)
			.map(([key, value]) => `${key}=${value}`)
			.join(' ')}`,
	);
}
