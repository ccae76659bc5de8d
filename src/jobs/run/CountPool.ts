import { finerFiltersOf } from '../filters/hasFinerFilters.js';
import type { Job } from '../Job.js';
import type { MassAction } from '../MassAction.js';
import { type MemberFilters, planMember } from '../planner.js';
import type { Requester } from '../Requester.js';
import type { GuildContext } from '../GuildContext.js';
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

	/** The count of `action` for `filters` running now, else a new one (a dry run over the whole guild), run until it ends. */
	count(action: MassAction, startedBy: Requester, filters: MemberFilters): Job {
		const key = countKey(action, filters);
		const running = this.#running.get(key);
		if (running) return running;
		const context = this.#guildContext();
		const plan = (member: Parameters<typeof planMember>[0]) => planMember(member, action, filters, context);
		const id = this.#deps.newJobId('count');
		const job = this.#deps.buildJob({ id, action, mode: 'apply', dryRun: true, wholeGuild: true, startedBy, filters, plan });
		this.#running.set(key, job);
		this.#last = job;
		void job.run().finally(() => this.#running.delete(key));
		return job;
	}
}

/** A count's identity: the same key counts the same members the same way. */
function countKey(action: MassAction, filters: MemberFilters): string {
	return JSON.stringify([action.type, action.target, filters.onlyRoleId ?? null, filters.excludeRoleId ?? null, finerFiltersOf(filters) ?? null]);
}
