import { renderProgressLine } from '../present/index.js';
import type { Job } from '../jobs/index.js';
import type { ProgressView } from './ProgressView.js';

/** How often the bar is redrawn. */
const REDRAW_MS = 200;
/** Back to the start of the line, and clear it. */
const CLEAR_LINE = '\r\u001b[2K';

/**
 * A progress bar redrawn in place on a terminal (`renderProgressLine`). Anything else written
 * to the same terminal while it shows goes through {@link writeAbove}, so a log line never lands
 * in the middle of the bar.
 */
export class TerminalProgress implements ProgressView {
	#job: Job | undefined;
	#timer: NodeJS.Timeout | undefined;

	constructor(readonly terminal: NodeJS.WriteStream) {}

	start(job: Job): void {
		this.#job = job;
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
		out.write(text);
		if (this.#job) this.#draw();
	}

	#draw(): void {
		if (!this.#job) return;
		// One column short of the width: writing into the last column wraps on some terminals.
		const width = Math.max(40, (this.terminal.columns || 80) - 1);
		this.terminal.write(`\r${renderProgressLine(this.#job.progress.snapshot(), width)}`);
	}
}
