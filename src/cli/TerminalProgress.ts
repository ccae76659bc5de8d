import { renderFollowingLine, renderProgressLine } from '../present/index.js';
import type { Job } from '../jobs/index.js';
import type { ProgressView } from './ProgressView.js';

/** How often the bar is redrawn. */
const REDRAW_MS = 200;
/** Back to the start of the line, and clear it. */
const CLEAR_LINE = '\r\u001b[2K';

/**
 * A progress bar redrawn in place on a terminal (`renderProgressLine`); for a standing rule past
 * its sweep, the line of what it did for joiners (`renderFollowingLine`), written only when it
 * reads differently, so a rule left running for weeks in a terminal writes nothing while nobody
 * joins. Anything else written to the same terminal while it shows goes through
 * {@link writeAbove}, so a log line never lands in the middle of the bar.
 */
export class TerminalProgress implements ProgressView {
	#job: Job | undefined;
	#timer: NodeJS.Timeout | undefined;
	/** The line on the terminal now, `undefined` once something else was written over it. */
	#drawn: string | undefined;

	constructor(readonly terminal: NodeJS.WriteStream) {}

	start(job: Job): void {
		this.#job = job;
		this.#drawn = undefined;
		this.#draw();
		this.#timer = setInterval(() => this.#draw(), REDRAW_MS);
		this.#timer.unref();
	}

	stop(): void {
		if (this.#timer === undefined) return;
		clearInterval(this.#timer);
		this.#timer = undefined;
		this.#draw();
		this.terminal.write('\n');
		this.#job = undefined;
	}

	/** Writes `text` to `out` (the same terminal) above the bar, then draws the bar again. */
	writeAbove(out: NodeJS.WritableStream, text: string): void {
		if (this.#job) this.terminal.write(CLEAR_LINE);
		this.#drawn = undefined;
		out.write(text);
		if (this.#job) this.#draw();
	}

	#draw(): void {
		if (!this.#job) return;
		// One column short of the width: writing into the last column wraps on some terminals.
		const width = Math.max(40, (this.terminal.columns || 80) - 1);
		const job = this.#job;
		const line = job.following ? renderFollowingLine(job.progress.followed.snapshot(), Date.now(), width) : renderProgressLine(job.progress.snapshot(), width);
		if (line === this.#drawn) return;
		this.#drawn = line;
		this.terminal.write(`\r${line}`);
	}
}
