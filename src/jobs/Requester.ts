/**
 * Who ran a command, as the audit log and the journal name them: a member's id and tag, or the
 * operator's for `massnick run`. How far they reach is their `RequesterRank`, beside it.
 */
export interface Requester {
	id: string;
	tag: string;
}

/**
 * The requester id of the operator at the machine (`massnick run`, see `cli/cliRequester.ts`): no
 * Discord user has it (snowflakes start far above 0), so a journal that names it was started by the
 * command line, which a scheduler reruns, and no restart resumes it for anyone.
 */
export const OPERATOR_ID = '0';
