import type * as z from 'zod/mini';
import { specDeviations, type SpecIssue } from './specDeviations.js';

/** What a body lacks or gets wrong by the spec, one readable line each, and the deviations it needed. */
export interface SpecCheck {
	problems: string[];
	/** Names of the `specDeviations` that excused an issue. */
	excused: Set<string>;
}

interface Problem {
	issue: SpecIssue;
	path: PropertyKey[];
	/** For a union no member matched: the problems of the member that came closest. */
	closest?: Problem[];
}

/**
 * Parses `body` with a schema generated from Discord's spec. Issues that one of the
 * `specDeviations` excuses don't count, inside union members too: a union passes when one
 * member's issues are all excused. The same problem at many array indices is listed once, with
 * `*` for the index and a count.
 */
export function checkAgainstSpec(schema: z.ZodMiniType, body: unknown): SpecCheck {
	const excused = new Set<string>();
	const result = schema.safeParse(body, { reportInput: true });
	if (result.success) return { problems: [], excused };
	const problems = remaining(result.error.issues as unknown as SpecIssue[], [], body, excused);
	return { problems: collapse(problems.flatMap((problem) => describe(problem, ''))), excused };
}

function remaining(issues: readonly SpecIssue[], base: readonly PropertyKey[], body: unknown, excused: Set<string>): Problem[] {
	const problems: Problem[] = [];
	for (const issue of issues) {
		const path = [...base, ...issue.path];
		if (issue.code === 'invalid_union' && issue.errors?.length) {
			const members = issue.errors.map((memberIssues) => {
				const memberExcused = new Set<string>();
				return { problems: remaining(memberIssues, path, body, memberExcused), excused: memberExcused };
			});
			const passing = members.find((member) => member.problems.length === 0);
			if (passing) passing.excused.forEach((name) => excused.add(name));
			else
				problems.push({
					issue,
					path,
					closest: closestMember(
						members.map((member) => member.problems),
						path.length,
					),
				});
			continue;
		}
		const deviation = specDeviations.find((candidate) => candidate.excuses(issue, path, body));
		if (deviation) excused.add(deviation.name);
		else problems.push({ issue, path });
	}
	return problems;
}

/**
 * The union member the body was most likely meant to be: the fewest mismatched literals at its
 * top level (`type: 4` against `type: 12` rules a member out), then the fewest problems.
 */
function closestMember(members: Problem[][], depth: number): Problem[] {
	const score = (problems: Problem[]): number =>
		problems.filter(({ issue, path }) => issue.code === 'invalid_value' && path.length === depth + 1).length * 1000 + problems.length;
	return members.reduce((best, member) => (score(member) < score(best) ? member : best));
}

function describe({ issue, path, closest }: Problem, indent: string): string[] {
	const at = path.length === 0 ? '(body)' : path.map(String).join('.');
	if (closest)
		return [`${indent}${at}: matches no member of the union; the closest fails on`, ...closest.flatMap((problem) => describe(problem, `${indent}  `))];
	const got = issue.input === undefined ? 'nothing' : JSON.stringify(issue.input)?.slice(0, 80);
	const wanted =
		issue.code === 'invalid_type'
			? `expected ${issue.expected}`
			: issue.code === 'invalid_value'
				? `expected one of ${JSON.stringify(issue.values)}`
				: issue.message;
	return [`${indent}${at}: ${wanted}, got ${got} (${issue.code}${issue.format ? ` ${issue.format}` : ''})`];
}

/** `0.user.flags`, `1.user.flags`, ... become one `*.user.flags ... (×2)`. */
function collapse(lines: string[]): string[] {
	const counts = new Map<string, number>();
	const general = (line: string): string => line.replace(/(^|\.|\s)\d+(?=\.|:)/g, '$1*');
	for (const line of lines) counts.set(general(line), (counts.get(general(line)) ?? 0) + 1);
	const seen = new Set<string>();
	return lines.flatMap((line) => {
		const key = general(line);
		const count = counts.get(key)!;
		if (count === 1) return [line];
		if (seen.has(key)) return [];
		seen.add(key);
		return [`${key} (×${count})`];
	});
}
