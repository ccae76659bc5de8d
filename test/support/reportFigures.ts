/**
 * Prints one line of figures from a reliability test (faults injected, renames, lost, twice), so
 * the README's Reliability table can be checked against a run: `npx vitest run test/e2e`.
 */
export function reportFigures(scenario: string, figures: Record<string, number | string>): void {
	console.log(`[reliability] ${scenario}: ${Object.entries(figures).map(([key, value]) => `${key}=${value}`).join(' ')}`);
}
