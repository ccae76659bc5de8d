import { ErrorCodes, JobError } from '../errors.js';
import { exactly, type MassAction, type MemberFilters, OPERATOR, type Requester } from '../jobs/index.js';
import { formatCount } from '../present/index.js';
import type { ActionRunRequest } from './parseRunArgs.js';
import type { RunningMassnick } from './RunningMassnick.js';

export interface CheckConfirmCountOptions {
	readonly massnick: RunningMassnick;
	readonly request: ActionRunRequest;
	readonly action: MassAction;
	readonly filters: MemberFilters;
	readonly startedBy: Requester;
}

/**
 * The command line's typed confirmation, for a module whose jobs are confirmed by their count (a
 * kick, a ban of more than 100, see `ActionModule.confirmByTypedCount`): the job's members are
 * counted exactly first (a dry run over the whole guild, as `--dry-run` counts them), and the job
 * runs only when `--confirm-count` names that number. What a slash command's modal asks, a script states in its
 * command line: it cannot kick (or ban) members nobody counted.
 *
 * @throws {JobError} `NOT_CONFIRMED` without `--confirm-count`, or with another number than the
 * count now (members joined or left since); nothing is sent.
 */
export async function checkConfirmCount({ massnick, request, action, filters, startedBy }: CheckConfirmCountOptions): Promise<void> {
	const ask = request.module.confirmByTypedCount;
	if (!ask) return;
	const count = massnick.jobs.count(action, startedBy, filters, OPERATOR);
	await count.ended();
	if (count.result?.error) throw count.result.error;
	const members = count.progress.snapshot().changed;
	if (!ask(exactly(members)) || request.confirmCount === members) return;
	const why = request.module.typedCountWhy ?? `${action.words.doing} is confirmed by its count${action.irreversible ? ` (${action.irreversible})` : ''}`;
	const would = `it would change ${formatCount(members)} ${members === 1 ? 'member' : 'members'} now (${action.words.changed})`;
	const again = `run the same command with --confirm-count ${members}`;
	const message =
		request.confirmCount === undefined
			? `${why}: ${would}. Nothing ran. Check whom with --dry-run, then ${again}.`
			: `--confirm-count ${request.confirmCount} does not match: ${would}, so nothing ran (members joined or left since they were counted, or the filters select others). If that is right, ${again}.`;
	throw new JobError(ErrorCodes.NotConfirmed, message, { context: { expected: members, confirmed: request.confirmCount } });
}
