import { ApplicationCommandOptionType, ApplicationCommandType, InteractionContextType, PermissionFlagsBits } from 'discord.js';
import { ErrorCodes, JobError } from '../../errors.js';
import type { JournalHeader } from '../../jobs/index.js';
import type { ActionArgs, ActionModule } from '../ActionModule.js';
import { describeTimeoutChange } from './describeTimeoutChange.js';
import { estimateTimeout } from './estimateTimeout.js';
import { TIMEOUT, TimeoutAction } from './TimeoutAction.js';
import { stamp, timeoutEnd } from './timeoutEnd.js';

/** The longest reason taken: massnick's own (at most ~110 characters) and this fit Discord's 512. */
const REASON_MAX_LENGTH = 400;

/** The action the options ask for, its end reckoned from `now`: the job's end is fixed when it starts. */
function timeoutAction(args: ActionArgs, now: number): TimeoutAction {
	const until = timeoutEnd(args.string('duration') ?? '', now);
	const reason = args.string('reason')?.trim();
	return new TimeoutAction({ until, reason: reason === '' ? undefined : reason });
}

/** The action a journal's header names: its target is the end, then the reason after a space. */
function fromTarget(header: JournalHeader): TimeoutAction {
	const space = header.target.indexOf(' ');
	const end = space === -1 ? header.target : header.target.slice(0, space);
	const until = Date.parse(end);
	if (!Number.isFinite(until)) {
		throw new JobError(ErrorCodes.JournalCorrupt, `its journal names no end of the timeouts (“${header.target.slice(0, 40)}”), so it cannot be run or undone`, {
			context: { jobId: header.jobId },
		});
	}
	return new TimeoutAction({ until, reason: space === -1 ? undefined : header.target.slice(space + 1) });
}

/**
 * `/masstimeout duration [reason]` and `massnick run masstimeout --duration … [--reason …]`: every
 * member the filters select timed out until one end, fixed when the job starts. Only members with
 * Moderate Members see it, and the workers need it too; each member is bounded by the
 * requester's rank, and holders of Administrator are left alone (Discord never times them out).
 */
export const timeoutModule: ActionModule = {
	command: {
		type: ApplicationCommandType.ChatInput,
		name: 'masstimeout',
		description: 'Time out every member the filters select (at most 28 days); /restore lifts the timeouts',
		default_member_permissions: String(PermissionFlagsBits.ModerateMembers),
		contexts: [InteractionContextType.Guild],
		options: [
			{
				type: ApplicationCommandOptionType.String,
				name: 'duration',
				description: 'How long: 10m, 6h, 7d, 4w (at most 28 days), or when it ends: 2026-05-01T18:00Z',
				required: true,
				min_length: 2,
				max_length: 40,
			},
			{
				type: ApplicationCommandOptionType.String,
				name: 'reason',
				description: 'Why, for the audit log (after who ran it)',
				required: false,
				min_length: 1,
				max_length: REASON_MAX_LENGTH,
			},
		],
	},
	journalTypes: [TIMEOUT],
	usage: `masstimeout --duration <10m|6h|7d|4w|end time> [--reason <text>] [filters]
      time out every member the filters select until one end (at most 28 days ahead; an end
      time like 2026-05-01T18:00Z runs the same job again); restore lifts the timeouts`,
	request(args) {
		return { action: timeoutAction(args, Date.now()), estimate: estimateTimeout };
	},
	check(args) {
		timeoutAction(args, Date.now());
	},
	fromJournal: fromTarget,
	resume(header) {
		const action = fromTarget(header);
		if (action.until <= Date.now()) {
			throw new JobError(ErrorCodes.InvalidArgument, `its timeouts ended at ${stamp(action.until)}, so there is nothing left to do`, {
				context: { until: stamp(action.until) },
			});
		}
		return action;
	},
	describeChange: describeTimeoutChange,
};
