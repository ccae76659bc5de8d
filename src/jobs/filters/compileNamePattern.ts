import { RE2JS, RE2JSException } from 're2js';
import { ErrorCodes, JobError } from '../../errors.js';

/** Whether one name (a username, a display name or a nickname) matches. */
export type NameMatcher = (name: string) => boolean;

/**
 * Longer patterns are refused before they are compiled: RE2 compiles in time and memory linear in
 * the pattern, but a 100,000-character one still costs a worker 200 ms and a large program, and
 * no name on Discord is over 32 characters.
 */
export const MAX_NAME_PATTERN_LENGTH = 500;

const REGEX_SYNTAX = /^\/(.*)\/([a-z]*)$/s;

/** What only a backtracking engine runs: lookahead, lookbehind, backreferences. */
const BACKTRACKING_ONLY = /\(\?<?[=!]|\\[1-9]|\\k</;

/** JavaScript's flags that mean something for one name; `u` is accepted and changes nothing (RE2 reads Unicode always). */
const FLAGS: Readonly<Record<string, number>> = { i: RE2JS.CASE_INSENSITIVE, s: RE2JS.DOTALL, m: RE2JS.MULTILINE, u: 0 };

/**
 * Compiles a name pattern as the user typed it: `/pattern/flags` is a regular expression,
 * anything else a case-insensitive substring (`bot` matches `RoboTed`).
 *
 * Regular expressions run on RE2 (re2js, a pure-JavaScript port of Google's RE2), whose matching
 * time is linear in the name whatever the pattern: `(a+)+$` on `aaa…ab`, which keeps Node's
 * backtracking `RegExp` busy 5 s at 26 characters and doubles with each one more, takes 15 µs.
 * A worker plans millions of members with one pattern a moderator typed, so the engine must
 * not be able to stall. Why re2js:
 * - it installs everywhere (no node-gyp like `re2`, no WebAssembly), MIT, maintained, with types;
 * - its `test` runs without captures: 130 to 630 ns a name, against 25 to 70 ns for `RegExp`
 *   and 1.6 µs for `re2-wasm`, which copies every name into WebAssembly memory (Node 20);
 * - what RE2 cannot do in linear time (lookaround, backreferences) it refuses when compiling, so
 *   the user learns at once, in the command's reply.
 *
 * A substring runs on Node's `RegExp` built from the escaped text, with `iu` for Unicode case
 * folding: a pattern of plain characters cannot backtrack past its own length, and it is faster
 * than `toLowerCase().includes()`, which makes a string per name.
 *
 * @throws JobError (`INVALID_ARGUMENT`) naming what is wrong with the pattern
 */
export function compileNamePattern(text: string): NameMatcher {
	if (text.length === 0) throw invalid('The name pattern is empty: give a text to look for, or a regular expression like /^bot/i.');
	if (text.length > MAX_NAME_PATTERN_LENGTH) {
		throw invalid(`The name pattern is ${text.length} characters long; at most ${MAX_NAME_PATTERN_LENGTH} are accepted.`);
	}
	const regex = REGEX_SYNTAX.exec(text);
	if (!regex) {
		const substring = new RegExp(escapeRegExp(text), 'iu');
		return (name) => substring.test(name);
	}
	const [, source = '', flags = ''] = regex;
	const re2 = compileRe2(text, source, flags);
	return (name) => re2.test(name);
}

function compileRe2(text: string, source: string, flags: string): RE2JS {
	if (source.length === 0) throw invalid(`${text} is an empty regular expression: it would match every name. Leave the name filter out instead.`);
	let re2Flags = 0;
	for (const flag of flags) {
		const value = FLAGS[flag];
		if (value === undefined) {
			throw invalid(
				`${text} has the flag "${flag}", which a name filter cannot use: the flags are i (ignore case), s, m and u. ` +
					'To look for the text itself, escape its slashes: /\\/r\\/discord/i.',
			);
		}
		re2Flags |= value;
	}
	try {
		// The user writes JavaScript's syntax (`\/`, `(?<name>…)`, `\u{1F600}`); RE2 spells some of it otherwise.
		return RE2JS.compile(RE2JS.translateRegExp(source), re2Flags);
	} catch (error) {
		if (!(error instanceof RE2JSException)) throw error;
		const reason = error.message.replace(/^error parsing regexp: /, '');
		const why = BACKTRACKING_ONLY.test(source) ? ' (lookaround and backreferences can take time exponential in the name)' : '';
		throw invalid(`${text} is not a regular expression massnick can run: ${reason}${why}.`, error);
	}
}

/** `RegExp.escape` arrives in Node 24. Only syntax characters: with `u`, escaping any other is an error. */
function escapeRegExp(text: string): string {
	return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

function invalid(message: string, cause?: unknown): JobError {
	return new JobError(ErrorCodes.InvalidArgument, message, cause === undefined ? undefined : { cause });
}
