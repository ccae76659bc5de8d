/**
 * Who ran a command, as the audit log and the journal name them: a member's id and tag, or the
 * operator's for `massnick run`. How far they reach is their `RequesterRank`, beside it.
 */
export interface Requester {
	id: string;
	tag: string;
}
