import type { RefuseIt } from '../../jobs/index.js';
import { whoCanContinue } from './whoCanContinue.js';

/**
 * Why a job (or its restore) did not go on after a restart, as a clause for its channel and
 * /status: `alice, who started it, is no longer a member of the server`.
 *
 * @param permission the command's permission, by name (`Manage Nicknames`).
 */
export function wordRefusal({ why, what }: Pick<RefuseIt, 'why' | 'what'>, permission: string): string {
	const did = what === 'restore' ? 'ran' : 'started';
	const who = (tag: string) => `${tag}, who ${did} it,`;
	switch (why.code) {
		case 'resumed-too-often':
			return `it was resumed ${why.limit} times in ${why.windowMs / 60_000} minutes and each time it stopped short of its end (the process died, or the job failed), so it is not resumed again`;
		case 'action-refused':
			return `${why.message.charAt(0).toLowerCase()}${why.message.slice(1)}`;
		case 'requester-unreadable':
			return `${who(why.tag)} could not be read from the server (${why.error})`;
		case 'requester-left':
			return `${who(why.tag)} is no longer a member of the server`;
		case 'permission-lost':
			return `${who(why.tag)} no longer has the ${permission} permission (nor a role or user the settings allow)`;
		case 'no-longer-owner':
			return `${who(why.tag)} no longer owns the server`;
		case 'demoted': {
			const holds = why.is.kind === 'member' && why.is.roleId !== undefined ? `now it is @${why.is.roleName}` : 'now they have none';
			return `${who(why.tag)} was demoted since (their highest role was @${why.was.roleName}; ${holds})`;
		}
		case 'out-of-reach':
			return `it is out of ${why.tag}'s reach now: ${why.message}`;
	}
}

/** What to do about a job (or restore) that did not go on, as a sentence: run it again, and who can. */
export function wordNextStep({ what, asked, whatToDo }: Pick<RefuseIt, 'what' | 'asked' | 'whatToDo'>, permission: string): string {
	if (what === 'restore') {
		return whatToDo === 'fix-first'
			? 'Fix the cause in the log, then run /restore again to finish it.'
			: `Run /restore again to finish it; ${whoCanContinue(asked.rank, permission)}.`;
	}
	return whatToDo === 'fix-first'
		? 'Fix the cause in the log, then run the same command to continue, or /cancel.'
		: `Run the same command again to continue, or /restore to undo it; ${whoCanContinue(asked.rank, permission)}.`;
}
