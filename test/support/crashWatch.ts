/**
 * What went wrong inside this test process without a test seeing it: unhandled rejections and
 * uncaught exceptions (the bot of `startStack` runs in-process), and the bot's error-level log
 * lines. `mark()` starts a case; `since(mark)` lists what happened after it.
 */
export interface CrashWatch {
	mark(): CrashMark;
	since(mark: CrashMark): string[];
	stop(): void;
}

export interface CrashMark {
	readonly crashes: number;
	readonly logLength: number;
}

/** pino's numeric levels: 50 is error, 60 fatal. */
const ERROR_LEVEL = 50;

export function watchCrashes(logs: () => string): CrashWatch {
	const crashes: string[] = [];
	const onRejection = (reason: unknown): void => {
		crashes.push(`unhandled rejection: ${describe(reason)}`);
	};
	const onException = (error: unknown): void => {
		crashes.push(`uncaught exception: ${describe(error)}`);
	};
	process.on('unhandledRejection', onRejection);
	// The monitor sees the exception without changing what happens to it.
	process.on('uncaughtExceptionMonitor', onException);
	return {
		mark: () => ({ crashes: crashes.length, logLength: logs().length }),
		since(mark) {
			return [...crashes.slice(mark.crashes), ...errorLines(logs().slice(mark.logLength))];
		},
		stop() {
			process.off('unhandledRejection', onRejection);
			process.off('uncaughtExceptionMonitor', onException);
		},
	};
}

/** The bot's log lines at error level or above, each as its message and error. */
export function errorLines(text: string): string[] {
	const found: string[] = [];
	for (const line of text.split('\n')) {
		if (!line.includes('"level":')) continue;
		let record: { level?: number; msg?: string; err?: { type?: string; message?: string; stack?: string } };
		try {
			record = JSON.parse(line) as typeof record;
		} catch {
			continue;
		}
		if ((record.level ?? 0) >= ERROR_LEVEL)
			found.push(`bot logged an error: ${record.msg ?? ''}${record.err ? `: ${record.err.stack ?? record.err.message ?? ''}` : ''}`);
	}
	return found;
}

function describe(value: unknown): string {
	return value instanceof Error ? (value.stack ?? value.message) : String(value);
}
