import type { MassnickError } from '../../errors.js';
import type { Outcome, SliceReporter } from '../runSlice.js';

/** The reason a user who is not a member counts failed once Discord takes no more of them (see `NonMemberReach`). */
export const NON_MEMBER_LIMIT = 'non-member-limit';

/** What became of the users who are not members a job handed to its action, in this process. */
export interface NonMemberCounts {
	/** Handed to this process's workers (those of workers elsewhere are theirs to count). */
	readonly handed: number;
	readonly changed: number;
	readonly alreadyDone: number;
	/** Left alone: our own bots, the owner, the requester, one who joined meanwhile. */
	readonly leftAlone: number;
	readonly failed: number;
	/** Of `failed`: not done because Discord took no more of them (see {@link NON_MEMBER_LIMIT}). */
	readonly limited: number;
	/** Why the job stopped sending them, when it did: the action's words, with what to do. */
	readonly stop?: MassnickError | undefined;
}

/**
 * The counts of a job's users who are not members, beside the job's own (which count them too):
 * each worker's reporter for them is wrapped ({@link reporter}), so the status can say how many of
 * them were changed and how many were not, and why.
 */
export class NonMemberTally {
	#handed = 0;
	readonly #counts = { changed: 0, alreadyDone: 0, leftAlone: 0, failed: 0, limited: 0 };
	#stop: MassnickError | undefined;

	/** One more was handed to a worker of this process. */
	handed(): void {
		this.#handed++;
	}

	/** Discord takes no more of them: the first reason given is kept. */
	stop(error: MassnickError): void {
		this.#stop ??= error;
	}

	get stopped(): boolean {
		return this.#stop !== undefined;
	}

	/** `inner`, a worker's reporter, counting into this tally as well. */
	reporter(inner: SliceReporter): SliceReporter {
		const counts = this.#counts;
		return {
			outcome(outcome: Outcome, memberId?: string) {
				inner.outcome(outcome, memberId);
				if (outcome === 'changed' || outcome === 'alreadyDone') counts[outcome]++;
				else counts.leftAlone++;
			},
			failed(reason: string, memberId?: string) {
				inner.failed(reason, memberId);
				counts.failed++;
				if (reason === NON_MEMBER_LIMIT) counts.limited++;
			},
			inFlight: (delta: number) => inner.inFlight(delta),
		};
	}

	snapshot(): NonMemberCounts {
		return { handed: this.#handed, ...this.#counts, ...(this.#stop ? { stop: this.#stop } : {}) };
	}
}
