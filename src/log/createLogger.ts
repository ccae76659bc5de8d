import { isatty } from 'node:tty';
import pino, { type DestinationStream, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';
import { type LogFormat, type LogLevel, createRedactor, REDACTED } from '../config/index.js';

export { REDACTED };

export interface LoggerOptions {
	level: LogLevel;
	/** Strings that must never reach the output: the tokens (see `secretsOf(config)`). */
	secrets: readonly string[];
	/** A stream, or a file descriptor (1 stdout, 2 stderr); default stdout. */
	destination?: NodeJS.WritableStream | number;
	/**
	 * `json`: pino's JSON lines. `pretty`: one readable line per entry (pino-pretty). `auto`, the
	 * default: pretty when the destination is a terminal, JSON otherwise (systemd's journal, a
	 * file, a log shipper).
	 */
	format?: LogFormat;
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
	const terminal = typeof target === 'number' ? isatty(target) : (target as { isTTY?: boolean }).isTTY === true;
	const format = options.format ?? 'auto';
	const pretty =
		format === 'pretty' || (format === 'auto' && terminal)
			? prettyFactory({ colorize: terminal, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' })
			: undefined;
	// A plain object, not a Writable: each line goes straight through, synchronously, so nothing
	// sits in a buffer when the process exits. Redaction runs on the JSON line, before formatting.
	const stream: DestinationStream = {
		write(line: string) {
			const safe = redact(line);
			sink.write(pretty ? pretty(safe) : safe);
		},
	};
	return pino({ level: options.level, base: undefined }, stream);
}
