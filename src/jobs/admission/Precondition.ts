import type { MassAction } from '../MassAction.js';
import type { RequesterRank } from '../RequesterRank.js';

/**
 * What is asked of the engine: an action, or its undo, for someone with a rank. The same request
 * is admitted at the command, at Start and at a resume, against the guild as it is each time.
 */
export interface AdmissionRequest {
	readonly action: MassAction;
	/** A restore: the action's changes are taken back. */
	readonly undo: boolean;
	/** How far who asked reaches by hand (see {@link RequesterRank}). */
	readonly rank: RequesterRank;
	/**
	 * Whether who asked may do what needs `permission`: they hold it in the guild, or the operator's
	 * settings allow them (a role, a user id). Absent for the operator at the machine, who holds the
	 * bots' tokens and so already has the bots' reach.
	 */
	readonly allowed?: ((permission: bigint) => boolean) | undefined;
	/**
	 * A run that takes a place beside the sweep's, not the sweep's (a standing rule's catch-up
	 * after a restart, see `KeepOptions.catchUp`): one job at a time is not its limit.
	 */
	readonly beside?: boolean | undefined;
}

/**
 * The engine's preconditions' names, in the order they are checked: a refusal says which one
 * failed. An action's own preconditions name themselves.
 */
export type PreconditionName = 'workers-present' | 'one-job-at-a-time' | 'requester-permission' | 'requester-rank' | 'workers-permission' | (string & {});

/**
 * One thing that must hold before a job may start. A precondition reads the guild and the fleet
 * as they are now and throws a `JobError` that says what failed and what to do; its `context`
 * carries the precondition's name (`{ precondition: 'requester-rank' }`).
 */
export type Precondition =
	| {
			readonly name: PreconditionName;
			/** It reads only the guild and the fleet: it can be checked before the action is known (then without the request). */
			readonly needsAction: false;
			check(request?: AdmissionRequest): void;
	  }
	| { readonly name: PreconditionName; readonly needsAction: true; check(request: AdmissionRequest): void };
