import type { SandboxControl, SandboxRequest } from '@massnick/discord-sandbox';
import { isRename } from './invariants.js';

/** The sandbox's request log, read as it grows (the sandbox keeps the last 500,000 entries only). */
export class RequestLogReader {
	/** Every entry read so far, in order. */
	readonly requests: SandboxRequest[] = [];
	readonly #control: SandboxControl;
	#cursor: number;

	private constructor(control: SandboxControl, cursor: number) {
		this.#control = control;
		this.#cursor = cursor;
	}

	/** A reader of what the sandbox logs from now on. */
	static async from(control: SandboxControl): Promise<RequestLogReader> {
		return new RequestLogReader(control, await RequestLogReader.lastSeq(control));
	}

	/** The sequence number of the log's latest entry. */
	static async lastSeq(control: SandboxControl): Promise<number> {
		return (await control.requests(0, 1)).lastSeq;
	}

	/** The sequence number of the last entry read. */
	get cursor(): number {
		return this.#cursor;
	}

	/** Reads what was logged since the last read. */
	async read(): Promise<void> {
		for (;;) {
			const page = await this.#control.requests(this.#cursor, 50_000);
			if (page.requests.length === 0) return;
			this.requests.push(...page.requests);
			this.#cursor = page.requests.at(-1)!.seq;
		}
	}

	/** How many changes (`isChange`: renames unless told) went through after `seq`, read now. */
	async changesSince(seq: number, isChange: (request: SandboxRequest) => boolean = isRename): Promise<number> {
		await this.read();
		return this.requests.filter((request) => request.seq > seq && isChange(request)).length;
	}
}
