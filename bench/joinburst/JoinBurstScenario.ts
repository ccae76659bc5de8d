/** One side of the comparison: massnick with this many worker tokens following the rule. */
export interface JoinBurstSubject {
	/** How the report names it. */
	readonly label: string;
	readonly workers: number;
}

/**
 * Issue #26's join burst, side by side: a standing `/masstimeout` for accounts made in the last
 * day, followed by massnick with many workers and with one token, each on a fresh guild that a
 * burst of young accounts joins.
 */
export interface JoinBurstScenario {
	/** `join-burst`, or `join-burst@<members>` when the guild or the burst was resized. */
	readonly name: string;
	/** The members there before the burst, every account years old (and the bots on top). */
	readonly members: number;
	/** Accounts made in the day before, joining over {@link burstSeconds}. */
	readonly joiners: number;
	/** How long the joins are spread over, on Discord's clock (the sandbox's × the time scale). */
	readonly burstSeconds: number;
	/**
	 * How long before the burst each joiner's account was made, at most, in hours: an hour under
	 * the rule's day. The rule reads `created_after:1d` anew as it plans (at most a minute stale),
	 * and one token plans its last joiner minutes after the burst: every joiner must still be
	 * under a day old then, or the rule would rightly skip them.
	 */
	readonly accountAgeHours: number;
	/** The sandbox divides every rate-limit window by this, for every subject alike. */
	readonly timeScale: number;
	/** The subjects, in the order they run and the report shows them; the first is massnick's many workers. */
	readonly subjects: readonly JoinBurstSubject[];
	/** Discord seconds between two samples of the joiners not yet handled. */
	readonly backlogStepSeconds: number;
	/** How long, in real seconds, a subject may take to time out every joiner before its run fails: measured to its end, never projected. */
	readonly subjectTimeoutSeconds: number;
}

/** Where `--scenario join-burst` alone writes its results, in bench/. */
export const JOIN_BURST_RESULTS_FILE = 'results-join-burst.json';

/**
 * 5,000 joiners in a minute among 100,000 members, as the issue asks, at time scale 20: one
 * token's Modify Guild Member bucket (10 per 10 s) then times out 20 joiners a real second, so
 * the one-token subject's queue of about 5,000 Discord seconds drains in about four real
 * minutes, measured to its last joiner; the burst itself lasts 3 real seconds.
 */
export const JOIN_BURST_SCENARIO: JoinBurstScenario = {
	name: 'join-burst',
	members: 100_000,
	joiners: 5_000,
	burstSeconds: 60,
	accountAgeHours: 23,
	timeScale: 20,
	subjects: [
		{ label: 'massnick, 10 workers', workers: 10 },
		{ label: 'massnick, one token', workers: 1 },
	],
	backlogStepSeconds: 5,
	subjectTimeoutSeconds: 540,
};

/** What `--scenario join-burst` promises to finish in (about 6 minutes on a quiet machine). */
export const JOIN_BURST_BUDGET_SECONDS = 720;
