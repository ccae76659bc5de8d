import { ErrorCodes, type MassnickError } from '../errors.js';

/** What the operator at the machine can do next, by the engine's error code: the command line's own words. */
const NEXT: Partial<Record<MassnickError['code'], string>> = {
	[ErrorCodes.JobRunning]:
		'Wait for it to end, or cancel it where it runs (Ctrl-C or SIGTERM to its massnick run, or the Cancel of its status in the server); then run this again.',
};

/** An engine error as `massnick run` prints it: its message, then what to do here. */
export function wordError(error: MassnickError): string {
	const next = NEXT[error.code];
	return next === undefined ? error.message : `${error.message} ${next}`;
}
