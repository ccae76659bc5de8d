import type { SanitizeOutcome } from './SanitizeOutcome.js';

/** The lines the report gives one `/sanitize` run's end state. */
export function formatSanitized(scenario: string, label: string, outcome: SanitizeOutcome): string[] {
	const count = (value: number): string => value.toLocaleString('en');
	const end = outcome.ranToEnd
		? `ran to its end, ${((outcome.firstToLastChangeMs ?? 0) / 1000).toFixed(1)} s from its first change to its last (the whole job at ${((outcome.wholeJobShareOfCeiling ?? 0) * 100).toFixed(1)}% of the ceiling)`
		: 'stopped after the window';
	const ends = outcome.workers.map((worker) => worker.lastChangeMs).filter((at): at is number => at !== null);
	const counts = outcome.workers.map((worker) => worker.changes);
	const workers =
		outcome.ranToEnd && ends.length > 0
			? [
					`    workers: ${Math.min(...counts)} to ${Math.max(...counts)} changes each (each changes its own part of the guild, by id): the first done ${(Math.min(...ends) / 1000).toFixed(1)} s after the job's first change, the last ${(Math.max(...ends) / 1000).toFixed(1)} s; with these parts the whole job could reach ${((outcome.partitionBoundShare ?? 0) * 100).toFixed(1)}% of the ceiling at best`,
				]
			: [];
	const styles = Object.entries(outcome.byStyle).map(([style, { inReach, cleaned }]) => `${style} ${count(cleaned)}/${count(inReach)}`);
	return [
		`  ${scenario} ${label}: ${end}; changed ${count(outcome.changed)} members, ${outcome.changedOthers} of them not decorated members in reach, ${outcome.changedNotPlain} not showing their plain name, ${outcome.changedTwice} twice`,
		`    ${count(outcome.cleaned)} of ${count(outcome.decoratedInReach)} decorated members in reach clean (${count(outcome.decorated)} decorated in all); by style, clean/in reach: ${styles.join(', ')}`,
		...workers,
		...(outcome.notCleaned.length > 0 ? [`    not clean, e.g. ${outcome.notCleaned.join('; ')}`] : []),
	];
}
