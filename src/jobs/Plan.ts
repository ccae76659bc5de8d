/**
 * The value of what a mass action changes on one member, as one string or none: a text the member
 * has in the guild (`null`: none), or a role's id when the member has it (`null`: they lack it). The journal keeps
 * it before and after, so one restore serves every action.
 */
export type SlotValue = string | null;

/**
 * What to do with one member: change it from `from` to `to`, nothing because it is done, nothing
 * because the workers can't, or nothing because the job is not about them. Reasons are short
 * kebab-case words the status and the logs show as they are.
 */
export type Plan =
	| { readonly action: 'change'; readonly from: SlotValue; readonly to: SlotValue }
	| { readonly action: 'done' }
	| { readonly action: 'cant'; readonly reason: string }
	| { readonly action: 'skip'; readonly reason: string };

/** One line of the journal: a member's value before the job, and the one the job set. */
export interface RestoreEntry {
	readonly id: string;
	readonly from: SlotValue;
	readonly to: SlotValue;
}

export const DONE: Plan = Object.freeze({ action: 'done' });
