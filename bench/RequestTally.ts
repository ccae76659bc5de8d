import type { SandboxControl } from '@massnick/discord-sandbox';
import type { ChangeRoute } from './ChangeRoute.js';

/** List Guild Members: one page of up to 1000 members. */
const LIST_ROUTE = '/guilds/:id/members';
const PAGE = 20_000;
/** Pages read per {@link RequestTally.poll}; a scenario makes a few thousand requests a second at most. */
const MAX_PAGES_PER_POLL = 50;

/**
 * Reads the sandbox's request log from a sequence number on, keeping only what the benchmark
 * needs: when each successful change (the subject's own {@link ChangeRoute}: a rename, a role
 * given) and each member-list page was answered, and to which bot, and how many 429s and 403s
 * there were.
 *
 * Times are the sandbox's `at` (Unix ms when it answered), on the same machine clock as the
 * harness's `Date.now()`.
 */
export class RequestTally {
	readonly #control: SandboxControl;
	readonly #change: ChangeRoute;
	#after: number;
	/** Answer times of the subject's successful changes, in log order (which is answer order). */
	readonly changedAt: number[] = [];
	/** Whom those changes changed (the member ids), in log order: a member twice is a member changed twice. */
	readonly changedTargets: string[] = [];
	/** The same, by bot user id: one token's changes, to see whether it was ever left idle. */
	readonly changedAtByBot = new Map<string, number[]>();
	/** Answer times of List Guild Members 200s (pages), by bot user id. */
	readonly listedAtByBot = new Map<string, number[]>();
	rateLimited = 0;
	forbidden = 0;
	/** 429s and 403s by `METHOD route status [scope]`, to tell where they came from. */
	readonly refusals = new Map<string, number>();
	/** When the first 429s were answered (at most 50), to tell a start-up burst from a steady leak. */
	readonly rateLimitedAt: number[] = [];
	requests = 0;
	/** `at` of the newest entry read. */
	latestAt = 0;

	constructor(control: SandboxControl, afterSeq: number, change: ChangeRoute) {
		this.#control = control;
		this.#after = afterSeq;
		this.#change = change;
	}

	/** Starts after the newest entry of the log now, counting `change` as the subject's changes. */
	static async fromNow(control: SandboxControl, change: ChangeRoute): Promise<RequestTally> {
		const { lastSeq } = await control.requests(0, 1);
		return new RequestTally(control, lastSeq, change);
	}

	get firstChangeAt(): number | undefined {
		return this.changedAt[0];
	}

	/** Reads the entries added since the last poll. */
	async poll(): Promise<void> {
		const change = this.#change;
		for (let page = 0; page < MAX_PAGES_PER_POLL; page++) {
			const { requests, lastSeq } = await this.#control.requests(this.#after, PAGE);
			for (const request of requests) {
				this.requests++;
				if (request.status === 429 || request.status === 403) {
					if (request.status === 429) {
						this.rateLimited++;
						if (this.rateLimitedAt.length < 50) this.rateLimitedAt.push(Number(request.at));
					} else this.forbidden++;
					const key = `${request.method} ${request.route} ${request.status}${request.code === null ? '' : ` code ${request.code}`}${'scope' in request && request.scope ? ` ${String(request.scope)}` : ''}`;
					this.refusals.set(key, (this.refusals.get(key) ?? 0) + 1);
				} else if (request.status === change.status && request.method === change.method && request.route === change.route) {
					this.changedAt.push(Number(request.at));
					if (request.targetId !== null) this.changedTargets.push(request.targetId);
					append(this.changedAtByBot, request.botUserId, Number(request.at));
				} else if (request.status === 200 && request.method === 'GET' && request.route === LIST_ROUTE)
					append(this.listedAtByBot, request.botUserId, Number(request.at));
				this.latestAt = Number(request.at);
			}
			// Entries overwritten in the ring buffer are skipped, not waited for.
			this.#after = requests.length > 0 ? requests[requests.length - 1]!.seq : lastSeq;
			if (this.#after >= lastSeq) return;
		}
	}

	/** Changes answered in `[from, to)`. */
	changesBetween(from: number, to: number): number {
		let count = 0;
		for (const at of this.changedAt) if (at >= from && at < to) count++;
		return count;
	}
}

function append(byBot: Map<string, number[]>, botUserId: string | null, at: number): void {
	if (botUserId === null) return;
	const times = byBot.get(botUserId);
	if (times) times.push(at);
	else byBot.set(botUserId, [at]);
}
