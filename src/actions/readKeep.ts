import { ErrorCodes, JobError, MassnickError } from '../errors.js';
import { isDuration, type KeepOptions, parseDateOrDuration } from '../jobs/index.js';
import type { ActionArgs } from './ActionModule.js';
import { KEEP_OPTION, UNTIL_OPTION } from './commonOptions.js';

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
	if (until === undefined) return {};
	let at: number;
	try {
		const time = parseDateOrDuration(until, now);
		at = isDuration(until) ? now + (now - time) : time;
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
