import type { ErrorCode } from '../errors.js';

/**
 * One thing the doctor found. `fatal` would stop a job (the exit code is then non-zero);
 * a `warning` lets jobs run but changes what they do (members skipped). `context` carries the
 * values behind the words (which bot, which role, how many), for tests and for other callers
 * that want to say it their own way.
 */
export interface Finding {
	readonly code: ErrorCode;
	readonly severity: 'fatal' | 'warning';
	/** The bot it is about (`boss`, `worker 2`), if any. */
	readonly bot?: string;
	/** What is wrong, in one sentence. */
	readonly message: string;
	/** What to do about it, in one line. */
	readonly fix: string;
	readonly context: Readonly<Record<string, unknown>>;
}
