import type { ControlMember, SandboxRequest } from '@massnick/discord-sandbox';
import { workerIndexOf } from '../../src/workers/partition.js';

/**
 * What must hold however the faults fall, as pure checks over the sandbox's request log and its
 * members: `npm run soak` and the end-to-end tests (soak, reliability and the others) measure
 * with these, so a check means the same wherever its figure is printed.
 */

/** The route of Modify Guild Member, as the sandbox's request log names it. */
export const MEMBER_PATCH = '/guilds/:id/members/:id';
/** The route of Add and Remove Guild Member Role. */
export const MEMBER_ROLE = '/guilds/:id/members/:id/roles/:id';

/** The Modify Guild Member requests in a stretch of the request log, whatever their answer. */
export function memberPatches(requests: readonly SandboxRequest[]): SandboxRequest[] {
	return requests.filter((request) => request.method === 'PATCH' && request.route === MEMBER_PATCH);
}

/** A rename that went through: Modify Guild Member answered 200. */
export const isRename = (request: SandboxRequest): boolean => request.method === 'PATCH' && request.route === MEMBER_PATCH && request.status === 200;

/** A role given: Add Guild Member Role answered 204. */
export const isRoleGiven = (request: SandboxRequest): boolean => request.method === 'PUT' && request.route === MEMBER_ROLE && request.status === 204;

/** The requests after `from` up to `to` (sequence numbers; `to` included). */
export function between(requests: readonly SandboxRequest[], from: number, to = Number.POSITIVE_INFINITY): SandboxRequest[] {
	return requests.filter((request) => request.seq > from && request.seq <= to);
}

/** The requests answered `status`. */
export function answered(requests: readonly SandboxRequest[], status: number): SandboxRequest[] {
	return requests.filter((request) => request.status === status);
}

/** Member id → how many renames (Modify Guild Member answered 200) were about them in `requests`. */
export function renamesPerMember(requests: readonly SandboxRequest[]): Map<string, number> {
	const counts = new Map<string, number>();
	for (const request of requests) {
		if (isRename(request) && request.targetId) counts.set(request.targetId, (counts.get(request.targetId) ?? 0) + 1);
	}
	return counts;
}

/**
 * Members renamed more than once in `requests` (give it one job's stretch of the log), but those
 * in `exempt`: a member who renamed themselves after the job renamed them is renamed again by a
 * rerun, as the done marker says, and that is not a duplicate.
 */
export function renamedTwice(requests: readonly SandboxRequest[], exempt: ReadonlySet<string> = new Set()): string[] {
	return [...renamesPerMember(requests)].filter(([id, count]) => count > 1 && !exempt.has(id)).map(([id]) => id);
}

/**
 * What may go out twice, or be refused, across `stops` moments where the job stopped short (a
 * kill, a time-out Discord may have applied, a revoked token, a full disk): what every worker
 * can have on the wire at each, `workers.maxInFlight` apiece.
 */
export function onTheWireBound(stops: number, workers: number, maxInFlight: number): number {
	return stops * workers * maxInFlight;
}

/** Which worker sent a request (its index among `count`), or `undefined` when no worker did. */
export type WorkerOfRequest = (request: SandboxRequest) => { index: number; count: number } | undefined;

/** The changes sent by a worker that does not own the member, as `workerIndexOf` splits them. */
export function byWrongWorker(changes: readonly SandboxRequest[], workerOf: WorkerOfRequest): SandboxRequest[] {
	return changes.filter((request) => {
		const worker = workerOf(request);
		return worker !== undefined && request.targetId !== null && worker.index !== workerIndexOf(request.targetId, worker.count);
	});
}

/** The requests about a member sent after they left (`leftAt`: member id → the log's last sequence number when they had gone). */
export function afterLeaving(requests: readonly SandboxRequest[], leftAt: ReadonlyMap<string, number>): SandboxRequest[] {
	return requests.filter((request) => request.targetId !== null && leftAt.has(request.targetId) && request.seq > leftAt.get(request.targetId)!);
}

/** 429s outside the `shared` scope: a limit massnick should have waited out (a shared one is Discord's, per resource). */
export function rateLimitedOutsideShared(requests: readonly SandboxRequest[]): SandboxRequest[] {
	return requests.filter((request) => request.status === 429 && request.scope !== 'shared');
}

/**
 * 404s on a member's change (a rename or a role) about someone who had not left: Unknown Member
 * is expected only for a request on the wire as its member goes.
 */
export function memberNotFoundNotOfLeavers(requests: readonly SandboxRequest[], leftAt: ReadonlyMap<string, number>): SandboxRequest[] {
	return answered(requests, 404).filter(
		(request) => (request.route === MEMBER_PATCH || request.route === MEMBER_ROLE) && !(request.targetId && leftAt.has(request.targetId)),
	);
}

/** The renames of a member with no `original` line in the journal: a change sent before its original was on disk. */
export function unjournaled(renames: readonly SandboxRequest[], journaled: ReadonlySet<string>): SandboxRequest[] {
	return renames.filter((request) => request.targetId !== null && !journaled.has(request.targetId));
}

/**
 * The members of `expected` who do not carry the name a job gave (`nameOf`) in `members`, the
 * guild as it is now; one no longer in the guild counts too.
 */
export function notRenamed(expected: Iterable<string>, members: readonly ControlMember[], nameOf: (member: ControlMember) => string): string[] {
	const byId = new Map(members.map((member) => [member.id, member]));
	return [...expected].filter((id) => {
		const member = byId.get(id);
		return member === undefined || member.nick !== nameOf(member);
	});
}

/**
 * The members of `originals` (member id → their nickname before the job; `null` for none) whose
 * nickname in `members` is not that, but those in `exempt` (who renamed themselves since).
 */
export function notRestored(
	members: readonly ControlMember[],
	originals: ReadonlyMap<string, string | null>,
	exempt: ReadonlySet<string> = new Set(),
): string[] {
	return members.filter((member) => originals.has(member.id) && !exempt.has(member.id) && member.nick !== originals.get(member.id)).map((member) => member.id);
}

/** How a job ended, as the bot's log says: its state and, when it failed, why. */
export interface JobEnd {
	state: string;
	message: string;
}

/** Whether the job the full disk met stopped, saying what failed, where, and to run the command again once there is room. */
export function stoppedForFullDisk(end: JobEnd | undefined, guildDir: string): boolean {
	return (
		end !== undefined &&
		end.state === 'failed' &&
		/Writing the journal .+\.jsonl failed \(EFBIG\), so the job stopped: no member is changed without their original on disk\./.test(end.message) &&
		end.message.includes(guildDir) &&
		end.message.includes('then run the same command again')
	);
}

/** Whether the job stopped (failed or cancelled) on its role `@roleName`, in `words`. */
export function stoppedOnRole(end: JobEnd | undefined, roleName: string, words: string): boolean {
	return end !== undefined && (end.state === 'failed' || end.state === 'cancelled') && end.message.includes(`@${roleName}`) && end.message.includes(words);
}
