import { Writable } from 'node:stream';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config/Config.js';

export interface LoggerOptions {
	level: LogLevel;
	/** Strings that must never reach the output: the tokens. */
	secrets: readonly string[];
	/** A stream, or a file descriptor (1 stdout, 2 stderr); default stdout. */
	destination?: NodeJS.WritableStream | number;
}

export const REDACTED = '[redacted]';

/**
 * The one root logger. Tokens are scrubbed from every serialised line before it is written,
 * wherever they hide (a message, an error's text, a nested field): pino's own `redact` only
 * knows paths, and a token can arrive inside any string.
 */
export function createLogger(options: LoggerOptions): Logger {
	const secrets = options.secrets.filter((secret) => secret.length > 0);
	const target = options.destination ?? 1;
	const sink: { write(text: string): unknown } = typeof target === 'number' ? pino.destination({ dest: target, sync: true }) : target;
	const scrub = (line: string): string => {
		let text = line;
		for (const secret of secrets) if (text.includes(secret)) text = text.split(secret).join(REDACTED);
		return text;
	};
	const stream: DestinationStream = new Writable({
		write(chunk: Buffer, _encoding, callback) {
			sink.write(scrub(chunk.toString()));
			callback();
		},
	});
	return pino({ level: options.level, base: undefined }, stream);
}
