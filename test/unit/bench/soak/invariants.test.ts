import { describe, expect, it } from 'vitest';
import type { ControlMember, SandboxRequest } from '@massnick/discord-sandbox';
import {
	afterLeaving,
	answered,
	between,
	byWrongWorker,
	MEMBER_PATCH,
	MEMBER_ROLE,
	memberNotFoundNotOfLeavers,
	memberPatches,
	notRenamed,
	notRestored,
	onTheWireBound,
	rateLimitedOutsideShared,
	renamedTwice,
	renamesPerMember,
	stoppedForFullDisk,
	stoppedOnRole,
	unjournaled,
} from '../../../../bench/soak/invariants.js';
import { workerIndexOf } from '../../../../src/workers/partition.js';

// (175928847299117063 >> 22) % 2 = 0, so among 2 workers worker 0 owns A and worker 1 owns B.
const A = '175928847299117063';
const B = '175928847303311367';

let seq = 0;
/** A request log entry: a rename of `targetId` answered 200 unless told. */
function request(fields: Partial<SandboxRequest> = {}): SandboxRequest {
	seq++;
	return { seq, at: seq, botUserId: 'w0', method: 'PATCH', route: MEMBER_PATCH, path: '/x', targetId: A, status: 200, code: null, ...fields };
}

function member(id: string, nick: string | null): ControlMember {
	return { id, username: `user${id.slice(-3)}`, globalName: null, nick, roles: [], bot: false, joinedAt: '2026-01-01T00:00:00.000Z' };
}

describe('the soak’s invariants, each on a log that keeps it and one that breaks it', () => {
	it('the ids used below are owned as the comment says', () => {
		expect([workerIndexOf(A, 2), workerIndexOf(B, 2)]).toEqual([0, 1]);
	});

	it('memberPatches keeps Modify Guild Member requests whatever their answer, and nothing else', () => {
		const patch = request({ status: 503 });
		const role = request({ method: 'PUT', route: MEMBER_ROLE, status: 204 });
		expect(memberPatches([patch, role])).toEqual([patch]);
	});

	it('renamed twice: a member renamed by two answered PATCHes is found; a failed try and an exempt member are not', () => {
		const log = [request(), request({ status: 500 }), request({ targetId: B }), request({ targetId: B })];
		expect(renamesPerMember(log)).toEqual(
			new Map([
				[A, 1],
				[B, 2],
			]),
		);
		expect(renamedTwice(log)).toEqual([B]);
		expect(renamedTwice(log, new Set([B]))).toEqual([]);
		expect(renamedTwice([request(), request({ targetId: B })])).toEqual([]);
	});

	it('the bound on what may go out twice is every worker’s maxInFlight at each stop', () => {
		expect(onTheWireBound(3, 4, 10)).toBe(120);
		expect(onTheWireBound(0, 4, 10)).toBe(0);
	});

	it('by the wrong worker: a change sent by the worker that does not own the member is found', () => {
		const workerOf = (entry: SandboxRequest) =>
			entry.botUserId === 'w0' ? { index: 0, count: 2 } : entry.botUserId === 'w1' ? { index: 1, count: 2 } : undefined;
		const right = [request({ targetId: A, botUserId: 'w0' }), request({ targetId: B, botUserId: 'w1' }), request({ targetId: A, botUserId: 'boss' })];
		expect(byWrongWorker(right, workerOf)).toEqual([]);
		const wrong = request({ targetId: B, botUserId: 'w0' });
		expect(byWrongWorker([...right, wrong], workerOf)).toEqual([wrong]);
	});

	it('after leaving: a request about a member sent after they had gone is found, one before is not', () => {
		const beforeLeaving = request({ targetId: B });
		const leftAt = new Map([[B, beforeLeaving.seq]]);
		const after = request({ targetId: B, status: 404 });
		expect(afterLeaving([beforeLeaving, request({ targetId: A })], leftAt)).toEqual([]);
		expect(afterLeaving([beforeLeaving, after], leftAt)).toEqual([after]);
	});

	it('429s: one outside the shared scope is found, a shared one is not', () => {
		const shared = request({ status: 429, scope: 'shared' });
		const user = request({ status: 429, scope: 'user' });
		expect(rateLimitedOutsideShared([request(), shared])).toEqual([]);
		expect(rateLimitedOutsideShared([shared, user])).toEqual([user]);
	});

	it('404s: Unknown Member on a change about someone still there is found; about a leaver, or on another route, it is not', () => {
		const leaver = request({ targetId: B, status: 404 });
		const otherRoute = request({ route: '/interactions/:id/:token/callback', targetId: null, status: 404 });
		const leftAt = new Map([[B, 0]]);
		expect(memberNotFoundNotOfLeavers([leaver, otherRoute, request()], leftAt)).toEqual([]);
		const roleOfStayer = request({ method: 'PUT', route: MEMBER_ROLE, targetId: A, status: 404 });
		expect(memberNotFoundNotOfLeavers([leaver, roleOfStayer], leftAt)).toEqual([roleOfStayer]);
	});

	it('a stretch of the log and its answers: after `from`, up to `to` included', () => {
		const [one, two, three] = [request(), request({ status: 403 }), request({ status: 403 })];
		expect(between([one, two, three], one.seq, two.seq)).toEqual([two]);
		expect(between([one, two, three], one.seq)).toEqual([two, three]);
		expect(answered([one, two, three], 403)).toEqual([two, three]);
	});

	it('unjournaled: a rename of a member with no original in the journal is found', () => {
		const renames = [request({ targetId: A }), request({ targetId: B })];
		expect(unjournaled(renames, new Set([A, B]))).toEqual([]);
		expect(unjournaled(renames, new Set([A]))).toEqual([renames[1]]);
	});

	it('not renamed: an expected member without the name is found, and so is one no longer in the guild', () => {
		const nameOf = (entry: ControlMember) => `Soak ${entry.id}`;
		const members = [member(A, `Soak ${A}`), member(B, 'Bob')];
		expect(notRenamed([A], members, nameOf)).toEqual([]);
		expect(notRenamed([A, B], members, nameOf)).toEqual([B]);
		expect(notRenamed([A, '1'], members, nameOf)).toEqual(['1']);
	});

	it('not restored: a member not back to their original is found, one with none to go back to (null) too; an exempt one is not', () => {
		const originals = new Map<string, string | null>([
			[A, 'Alice'],
			[B, null],
		]);
		expect(notRestored([member(A, 'Alice'), member(B, null), member('1', 'Other')], originals)).toEqual([]);
		expect(notRestored([member(A, `Soak ${A}`), member(B, 'Soak')], originals)).toEqual([A, B]);
		expect(notRestored([member(A, 'Own name')], originals, new Set([A]))).toEqual([]);
	});

	it('the full disk: only a failed job that says EFBIG, where, and to run the command again once there is room', () => {
		const dir = '/data/123';
		const message = `Writing the journal ${dir}/job.jsonl failed (EFBIG), so the job stopped: no member is changed without their original on disk. To go on, raise it, then run the same command again.`;
		expect(stoppedForFullDisk({ state: 'failed', message }, dir)).toBe(true);
		expect(stoppedForFullDisk({ state: 'finished', message: '' }, dir)).toBe(false);
		expect(stoppedForFullDisk({ state: 'failed', message }, '/data/other')).toBe(false);
		expect(stoppedForFullDisk({ state: 'failed', message: message.replace('EFBIG', 'ENOSPC') }, dir)).toBe(false);
		expect(stoppedForFullDisk(undefined, dir)).toBe(false);
	});

	it('a job stopped on its role: failed or cancelled, naming @role in the words given', () => {
		const words = 'was deleted while the job ran, so it stopped';
		expect(stoppedOnRole({ state: 'cancelled', message: `@Soak role ${words}` }, 'Soak role', words)).toBe(true);
		expect(stoppedOnRole({ state: 'failed', message: `@Soak role ${words}` }, 'Soak role', words)).toBe(true);
		expect(stoppedOnRole({ state: 'finished', message: `@Soak role ${words}` }, 'Soak role', words)).toBe(false);
		expect(stoppedOnRole({ state: 'failed', message: `@Other ${words}` }, 'Soak role', words)).toBe(false);
		expect(stoppedOnRole({ state: 'failed', message: '@Soak role is gone' }, 'Soak role', words)).toBe(false);
		expect(stoppedOnRole(undefined, 'Soak role', words)).toBe(false);
	});
});
