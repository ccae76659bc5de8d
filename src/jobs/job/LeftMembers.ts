/** The leavers a job remembers; a standing rule runs for months, so the oldest are let go. */
export const MAX_LEFT_KEPT = 100_000;

/**
 * The members who left while a job runs, so nothing more is sent for one still queued. Bounded:
 * past {@link MAX_LEFT_KEPT} the oldest is dropped, since only the latest leavers can still be
 * waiting in a queue.
 */
export class LeftMembers extends Set<string> {
	override add(memberId: string): this {
		super.add(memberId);
		if (this.size > MAX_LEFT_KEPT) this.delete(this.values().next().value!);
		return this;
	}
}
