import { ErrorCodes, JobError, MassnickError } from '../errors.js';
import { type KeepOptions, parseDateOrDuration } from '../jobs/index.js';
import type { ActionArgs } from './ActionModule.js';
import { FILTER_OPTIONS, KEEP_OPTION, UNTIL_OPTION } from './commonOptions.js';

/** A duration, which `until` reads forward from now (`30d`: in thirty days), not back as a filter does. */
const DURATION = /^\s*\d{1,9}[mhdwy]\s*$/;

/**
 * Whether the job is a standing rule, and until when, from `keep` and `until`: a date or a time
 * with its zone, or a duration ahead (`12h`, `30d`, `1y`). `until` without `keep`, or in the
 * past, is refused, naming the option.
 *
 * @throws {JobError} `INVALID_ARGUMENT`
 */
export function readKeep(args: ActionArgs, { now, optionName }: { now: number; optionName: (option: string) => string }): KeepOptions | undefined {
	const keep = args.boolean(KEEP_OPTION) === true;
	const until = args.string(UNTIL_OPTION);
	if (!keep) {
		if (until === undefined) return undefined;
		throw invalid(`${optionName(UNTIL_OPTION)} ends a standing rule: give ${optionName(KEEP_OPTION)} with it, or leave it out.`);
	}
	// A duration is read once, at the start: in a rule it would drift (`created_after:1d` a month on
	// selects every account made since). Until rules read it anew as they plan, a date is asked for.
	for (const option of [FILTER_OPTIONS.joinedBefore, FILTER_OPTIONS.joinedAfter, FILTER_OPTIONS.createdBefore, FILTER_OPTIONS.createdAfter]) {
		const given = args.string(option);
		if (given !== undefined && DURATION.test(given)) {
			throw new JobError(
				ErrorCodes.InvalidArgument,
				`${optionName(option)} "${given}" is a time back from now, which a standing rule would read once, when it starts, and keep for as long as it runs: give a date (2024-01-31, or 2024-01-31T18:00Z) with ${optionName(KEEP_OPTION)}, or run the job without it.`,
				{ context: { option } },
			);
		}
	}
	if (until === undefined) return {};
	let at: number;
	try {
		const time = parseDateOrDuration(until, now);
		at = DURATION.test(until) ? now + (now - time) : time;
	} catch (error) {
		if (!(error instanceof MassnickError)) throw error;
		throw invalid(`${optionName(UNTIL_OPTION)} ${error.message.replace('a duration back from now', 'a duration from now')}`);
	}
	if (at <= now)
		throw invalid(`${optionName(UNTIL_OPTION)} "${until}" (${new Date(at).toISOString()}) has passed: give a later date, or a duration from now (12h, 30d).`);
	return { until: at };
}

function invalid(message: string): JobError {
	return new JobError(ErrorCodes.InvalidArgument, message, { context: { option: UNTIL_OPTION } });
}
