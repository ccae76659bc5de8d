import { createHash } from 'node:crypto';
import { finerFiltersOf } from '../filters/hasFinerFilters.js';
import type { Job } from '../Job.js';
import type { MassAction } from '../MassAction.js';
import { type MemberFilters, planMember } from '../planner.js';
import type { Requester } from '../Requester.js';
import { forRequester, type GuildContext } from '../GuildContext.js';
import type { RequesterRank } from '../RequesterRank.js';
import type { RunDeps } from './RunDeps.js';

/**
 * The counting passes running beside the jobs (/stats, /status after a crash): dry runs over the
 * whole guild that send nothing. A count of the same action, target and filters still running is
 * reused rather than listing the guild twice.
 */
export class CountPool {
	readonly #running = new Map<string, Job>();
	readonly #deps: RunDeps;
	readonly #guildContext: () => GuildContext;
	#last: Job | undefined;

	constructor(deps: RunDeps, guildContext: () => GuildContext) {
		this.#deps = deps;
		this.#guildContext = guildContext;
	}

	/** The most recent count. */
	get last(): Job | undefined {
		return this.#last;
	}

	get running(): Job[] {
		return [...this.#running.values()];
	}

	/**
	 * The count of `action` for `filters` running now, else a new one (a dry run over the whole
	 * guild), run until it ends. With `rank`, members out of the requester's reach count apart, as
	 * the job itself would leave them (a preview's exact count); without, the bots' reach bounds it.
	 */
	count(action: MassAction, startedBy: Requester, filters: MemberFilters, rank?: RequesterRank): Job {
		const key = countKey(action, filters, rank);
		const running = this.#running.get(key);
		if (running) return running;
		const context = rank ? forRequester(this.#guildContext(), rank) : this.#guildContext();
		const plan = (member: Parameters<typeof planMember>[0]) => planMember(member, action, filters, context);
		const id = this.#deps.newJobId('count');
		const job = this.#deps.buildJob({ id, action, mode: 'apply', dryRun: true, wholeGuild: true, startedBy, filters, plan });
		this.#running.set(key, job);
		this.#last = job;
		void job.run().finally(() => this.#running.delete(key));
		return job;
	}
}

/**
 * A count's identity: the same key counts the same members the same way. A file's ids (up to
 * 100,000) are keyed by a digest of their list, not spelled out: the key is built on every /status and /stats.
 */
function countKey(action: MassAction, filters: MemberFilters, rank: RequesterRank | undefined): string {
	const finer = finerFiltersOf(filters);
	const aim = finer?.userIds ? { ...finer, userIds: idListKey(finer.userIds) } : finer;
	return JSON.stringify([action.type, action.target, filters.onlyRoleId ?? null, filters.excludeRoleId ?? null, aim ?? null, rank ?? null]);
}

/** A digest of a list of ids, computed once per array: a key never holds 2 MB of ids. */
const idListKeys = new WeakMap<readonly string[], string>();
function idListKey(ids: readonly string[]): string {
	let key = idListKeys.get(ids);
	if (key === undefined) idListKeys.set(ids, (key = `${ids.length}:${createHash('sha256').update(ids.join(',')).digest('base64url')}`));
	return key;
}
