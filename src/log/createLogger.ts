import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config/Config.js';
import { createRedactor, REDACTED } from '../config/redactTokens.js';

export { REDACTED };

export interface LoggerOptions {
	level: LogLevel;
	/** Strings that must never reach the output: the tokens (see `secretsOf(config)`). */
	secrets: readonly string[];
	/** A stream, or a file descriptor (1 stdout, 2 stderr); default stdout. */
	destination?: NodeJS.WritableStream | number;
}

/**
 * The one root logger; components take a child (`logger.child({ worker: 3 })`).
 *
 * Tokens are scrubbed from every serialised line before it is written, wherever they hide (a
 * message, an error's message or stack, a nested field, a key): pino's own `redact` only knows
 * paths, and a token can arrive inside any string. Tokens never need JSON escaping (they are
 * base64url and dots), so the serialised line holds them verbatim. pino writes one whole line
 * per `write`, so a token is never split across two calls.
 */
export function createLogger(options: LoggerOptions): Logger {
	const redact = createRedactor(options.secrets);
	const target = options.destination ?? 1;
	const sink: { write(text: string): unknown } = typeof target === 'number' ? pino.destination({ dest: target, sync: true }) : target;
	// A plain object, not a Writable: each line goes straight through, synchronously, so nothing
	// sits in a buffer when the process exits.
	const stream: DestinationStream = {
		write(line: string) {
			sink.write(redact(line));
		},
	};
	return pino({ level: options.level, base: undefined }, stream);
}
