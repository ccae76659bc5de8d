import { ErrorCodes, type MassnickError } from '../errors.js';

/** What a member in the server can do next, by the engine's error code: the boss's own words. */
const NEXT: Partial<Record<MassnickError['code'], string>> = {
	[ErrorCodes.JobRunning]: 'Watch it with /status, or stop it with /cancel first.',
	[ErrorCodes.NoWorkers]: '/status and /stats still answer from here.',
};

/** An engine error as the boss tells a member: its message, then what to do in the server. */
export function wordError(error: MassnickError): string {
	const next = NEXT[error.code];
	// A message the boss wrote itself already says what to do in the server.
	return next === undefined || error.message.includes('/status') ? error.message : `${error.message} ${next}`;
}
