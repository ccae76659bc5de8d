/** Which rate limit a 429 came from, as in `X-RateLimit-Scope`. */
export type RateLimitScope = 'user' | 'global' | 'shared';

/** One request as the control API reports it. */
export interface RequestLogEntry {
	seq: number;
	/** Unix ms when the answer was sent. */
	at: number;
	botUserId: string | null;
	method: string;
	/** The route with ids generalised: `/guilds/:id/members/:id`. */
	route: string;
	path: string;
	/** The member a member route was about. */
	targetId: string | null;
	status: number;
	/** The JSON error code, or null for successes and bodies without one. */
	code: number | null;
	scope?: RateLimitScope;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'OTHER'];
const SCOPES: (RateLimitScope | undefined)[] = [undefined, 'user', 'global', 'shared'];

/**
 * Every REST request, in a ring buffer of `capacity` entries stored in columns (a renaming run
 * makes millions of requests; objects per request would cost gigabytes).
 */
export class RequestLog {
	#seq = 0;
	readonly #at: Float64Array;
	readonly #bot: Int32Array;
	readonly #method: Uint8Array;
	readonly #route: Uint16Array;
	readonly #path: (string | undefined)[];
	readonly #target: BigUint64Array;
	readonly #status: Uint16Array;
	readonly #code: Int32Array;
	readonly #scope: Uint8Array;
	readonly #routes: string[] = [];
	readonly #routeIndex = new Map<string, number>();
	readonly #bots: string[] = [];
	readonly #botIndex = new Map<string, number>();

	public constructor(private readonly capacity: number) {
		this.#at = new Float64Array(capacity);
		this.#bot = new Int32Array(capacity);
		this.#method = new Uint8Array(capacity);
		this.#route = new Uint16Array(capacity);
		this.#path = new Array<string | undefined>(capacity);
		this.#target = new BigUint64Array(capacity);
		this.#status = new Uint16Array(capacity);
		this.#code = new Int32Array(capacity);
		this.#scope = new Uint8Array(capacity);
	}

	/** The sequence number of the latest entry (0 before any). */
	public get lastSeq(): number {
		return this.#seq;
	}

	public add(entry: Omit<RequestLogEntry, 'seq'>): number {
		const seq = ++this.#seq;
		const slot = seq % this.capacity;
		this.#at[slot] = entry.at;
		this.#bot[slot] = entry.botUserId === null ? -1 : intern(this.#bots, this.#botIndex, entry.botUserId);
		const method = METHODS.indexOf(entry.method);
		this.#method[slot] = method === -1 ? METHODS.length - 1 : method;
		this.#route[slot] = intern(this.#routes, this.#routeIndex, entry.route);
		this.#path[slot] = entry.path;
		this.#target[slot] = entry.targetId === null ? 0n : BigInt(entry.targetId);
		this.#status[slot] = entry.status;
		this.#code[slot] = entry.code ?? -1;
		this.#scope[slot] = Math.max(0, SCOPES.indexOf(entry.scope));
		return seq;
	}

	/** Entries with `seq > after`, oldest first, at most `limit` (older ones may have been overwritten). */
	public list(after: number, limit: number): RequestLogEntry[] {
		const first = Math.max(after + 1, this.#seq - this.capacity + 1, 1);
		const result: RequestLogEntry[] = [];
		for (let seq = first; seq <= this.#seq && result.length < limit; seq++) {
			const slot = seq % this.capacity;
			const bot = this.#bot[slot]!;
			const target = this.#target[slot]!;
			const code = this.#code[slot]!;
			const scope = SCOPES[this.#scope[slot]!];
			result.push({
				seq,
				at: this.#at[slot]!,
				botUserId: bot === -1 ? null : this.#bots[bot]!,
				method: METHODS[this.#method[slot]!]!,
				route: this.#routes[this.#route[slot]!]!,
				path: this.#path[slot]!,
				targetId: target === 0n ? null : target.toString(),
				status: this.#status[slot]!,
				code: code === -1 ? null : code,
				...(scope ? { scope } : {}),
			});
		}
		return result;
	}
}

function intern(table: string[], index: Map<string, number>, value: string): number {
	let found = index.get(value);
	if (found === undefined) {
		found = table.push(value) - 1;
		index.set(value, found);
	}
	return found;
}
