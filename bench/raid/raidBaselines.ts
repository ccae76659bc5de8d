import { setMaxListeners } from 'node:events';
import { REST, Routes } from 'discord.js';

/** What a raid cleanup does to one account. */
export type RaidOperation = 'ban' | 'unban' | 'timeout';

/** How a baseline sends its requests: one after another, or all at once into discord.js's queue. */
export type BaselineStyle = 'zeppelin' | 'yuudachi';

export interface BaselineRun {
	readonly apiUrl: string;
	readonly guildId: string;
	/** The one token the baseline has: a moderation bot is one bot. */
	readonly token: string;
	readonly ids: readonly string[];
	readonly operation: RaidOperation;
	/** discord.js's `rest.offset`, scaled with the sandbox's windows as for massnick. */
	readonly offsetMs: number;
	/** For `timeout`: when the timeouts end (ISO 8601). */
	readonly timeoutUntil?: string;
	/** No request starts after this (`performance.now()` time): a baseline on one token can take hours. */
	readonly deadline: number;
}

export interface BaselineOutcome {
	/** Requests answered 2xx. */
	readonly done: number;
	/** Requests that failed (any error but a cancel at the deadline). */
	readonly failed: number;
	/** Accounts it never got to before the deadline. */
	readonly notSent: number;
	/** From the first request to the last 2xx answer, in ms. */
	readonly ms: number;
}

/**
 * The open-source moderation bots' way of cleaning up a raid, on one token, with discord.js's REST
 * client and its default queue:
 *
 * - **zeppelin**: Zeppelin's `!massban`: one `PUT /guilds/{guild}/bans/{user}` awaited after
 *   another (ZeppelinBot/Zeppelin#143, "Massban is also somewhat slow"); the same loop for unbans
 *   and timeouts.
 * - **yuudachi**: Yuudachi's anti-raid-nuke: every single ban issued at once and left to
 *   discord.js's per-route queue, which sends them as fast as the rate limit lets one token.
 *
 * Neither uses bulk ban: that is the point of the comparison.
 */
export async function runBaseline(style: BaselineStyle, run: BaselineRun): Promise<BaselineOutcome> {
	const rest = new REST({ api: run.apiUrl, offset: run.offsetMs, timeout: 60_000 }).setToken(run.token);
	const started = performance.now();
	// At the deadline, what discord.js still holds in its queue is dropped unsent. The timer takes
	// whole milliseconds; every queued request listens to the one signal.
	const stop = AbortSignal.timeout(Math.max(0, Math.ceil(run.deadline - started)));
	setMaxListeners(0, stop);
	let done = 0;
	let failed = 0;
	let notSent = 0;
	let lastAnswer = started;
	const one = async (id: string): Promise<void> => {
		if (stop.aborted) {
			notSent++;
			return;
		}
		try {
			await send(rest, run, id, stop);
			done++;
			lastAnswer = performance.now();
		} catch {
			if (stop.aborted) notSent++;
			else failed++;
		}
	};
	if (style === 'zeppelin') {
		for (const id of run.ids) await one(id);
	} else {
		await Promise.all(run.ids.map(one));
	}
	return { done, failed, notSent, ms: Math.round(lastAnswer - started) };
}

function send(rest: REST, run: BaselineRun, id: string, signal: AbortSignal): Promise<unknown> {
	const reason = 'raid cleanup (baseline)';
	switch (run.operation) {
		case 'ban':
			return rest.put(Routes.guildBan(run.guildId, id), { body: { delete_message_seconds: 0 }, reason, signal });
		case 'unban':
			return rest.delete(Routes.guildBan(run.guildId, id), { reason, signal });
		case 'timeout':
			return rest.patch(Routes.guildMember(run.guildId, id), { body: { communication_disabled_until: run.timeoutUntil }, reason, signal });
	}
}
