import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { RoleAction } from '../../../../src/actions/role/RoleAction.js';
import { ErrorCodes, JobError, type MassnickError } from '../../../../src/errors.js';
import { engineAdmission } from '../../../../src/jobs/admission/index.js';
import type { AdmissionRequest } from '../../../../src/jobs/admission/Precondition.js';
import type { RequesterRank } from '../../../../src/jobs/RequesterRank.js';
import { guildContext } from '../../../support/guildContext.js';

const EVENT = '200000000000000007';
const ctx = guildContext({ roles: [[EVENT, 3]], workerHighestPosition: 10 });
const action = new RoleAction({ id: EVENT, name: 'Event' }, 'add');
const moderator: RequesterRank = { kind: 'member', userId: '300000000000000001', position: 5, roleName: 'Mods', roleId: '200000000000000005' };

interface World {
	count: number;
	size: number;
	workers: Array<{ label: string; perms: bigint }>;
	busy: JobError | undefined;
}

function admissionOf(world: World, seen: string[] = []) {
	const active = () =>
		world.workers.map((worker) => ({ label: worker.label, hasPermission: (permission: bigint) => (worker.perms & permission) === permission }));
	return engineAdmission({
		fleet: {
			count: world.count,
			size: world.size,
			get active() {
				return active();
			},
		},
		whyBusy: () => world.busy,
		guildContext: () => ctx,
		observe: (name) => seen.push(name),
	});
}

const fine = (): World => ({
	count: 2,
	size: 2,
	workers: [
		{ label: 'worker 0', perms: PermissionFlagsBits.ManageRoles },
		{ label: 'worker 1', perms: PermissionFlagsBits.ManageRoles },
	],
	busy: undefined,
});
const request = (overrides: Partial<AdmissionRequest> = {}): AdmissionRequest => ({ action, undo: false, rank: moderator, allowed: () => true, ...overrides });

function refusal(world: World, req: AdmissionRequest): MassnickError {
	try {
		admissionOf(world).admit(req);
	} catch (error) {
		return error as MassnickError;
	}
	throw new Error('admitted');
}

describe('Admission: one ordered list of preconditions', () => {
	it('checks each precondition once, in order, and admits a request that meets them all', () => {
		const seen: string[] = [];
		admissionOf(fine(), seen).admit(request());
		expect(seen).toEqual(['workers-present', 'one-job-at-a-time', 'requester-permission', 'requester-rank', 'workers-permission']);
	});

	it.each([
		[
			'workers-present',
			ErrorCodes.NoWorkers,
			(world: World) => ({ ...world, size: 0, workers: [] }),
			request(),
			/holds none of the 2 workers \(WORKER_IDS=none\)/,
		],
		['workers-present', ErrorCodes.NoWorkers, (world: World) => ({ ...world, workers: [] }), request(), /No worker is connected/],
		[
			'one-job-at-a-time',
			ErrorCodes.JobRunning,
			(world: World) => ({ ...world, busy: new JobError(ErrorCodes.JobRunning, 'A job is starting right now.') }),
			request(),
			/starting right now/,
		],
		['requester-permission', ErrorCodes.NotAllowed, (world: World) => world, request({ allowed: () => false }), /needs the Manage Roles permission/],
		['requester-rank', ErrorCodes.AboveRequester, (world: World) => world, request({ rank: { ...moderator, position: 2 } }), /Event/],
		[
			'workers-permission',
			ErrorCodes.MissingPermission,
			(world: World) => ({ ...world, workers: [{ label: 'worker 1', perms: 0n }] }),
			request(),
			/worker 1 lacks the Manage Roles permission/,
		],
	])('refuses on %s with its code and words, naming the precondition', (name, code, worldOf, req, words) => {
		const error = refusal(worldOf(fine()), req);
		expect(error.code).toBe(code);
		expect(error.message).toMatch(words);
		if (name !== 'one-job-at-a-time' && name !== 'requester-rank') expect(error.context?.precondition).toBe(name);
	});

	it('the operator (no `allowed`) is bounded by the bots alone, and an undo needs the action’s permission too', () => {
		expect(() => admissionOf(fine()).admit(request({ allowed: undefined, rank: { kind: 'operator' } }))).not.toThrow();
		const asked: bigint[] = [];
		expect(() =>
			admissionOf(fine()).admit(
				request({
					undo: true,
					allowed: (permission) => {
						asked.push(permission);
						return false;
					},
				}),
			),
		).toThrow(/Manage Roles/);
		expect(asked).toEqual([PermissionFlagsBits.ManageRoles]);
	});

	it('an action needing two permissions is refused naming the one who asked lacks, or both, and the workers’ missing one', () => {
		const ban = Object.assign(Object.create(action) as typeof action, {
			permission: PermissionFlagsBits.BanMembers | PermissionFlagsBits.ManageGuild,
			words: { ...action.words, doing: 'Banning' },
		});
		const holding = (held: bigint) => (permission: bigint) => (held & permission) === permission;
		const both = PermissionFlagsBits.BanMembers | PermissionFlagsBits.ManageGuild;
		const world = (workers: bigint): World => ({ ...fine(), workers: fine().workers.map((worker) => ({ ...worker, perms: workers })) });
		const onlyBan = refusal(world(both), request({ action: ban, allowed: holding(PermissionFlagsBits.BanMembers) }));
		expect(onlyBan.message).toMatch(/needs the Manage Guild permission, which you lack/);
		expect(onlyBan.message).not.toMatch(/Ban Members/);
		const neither = refusal(world(both), request({ action: ban, allowed: holding(0n) }));
		expect(neither.message).toMatch(/needs the Ban Members and Manage Guild permissions/);
		expect(neither.context).toMatchObject({ precondition: 'requester-permission', permission: 'Ban Members, Manage Guild' });
		const workers = refusal(world(PermissionFlagsBits.ManageGuild), request({ action: ban, allowed: holding(both) }));
		expect(workers.message).toMatch(/worker 0, worker 1 lack the Ban Members permission this job needs/);
		expect(() => admissionOf(world(both)).admit(request({ action: ban, allowed: holding(both) }))).not.toThrow();
	});

	it('splits in two where the action is known only later: each precondition still runs once', () => {
		const seen: string[] = [];
		const admission = admissionOf(fine(), seen);
		admission.admitWithoutAction();
		expect(seen).toEqual(['workers-present', 'one-job-at-a-time']);
		admission.admitAction(request());
		expect(seen).toEqual(['workers-present', 'one-job-at-a-time', 'requester-permission', 'requester-rank', 'workers-permission']);
	});

	it('runs the action’s own preconditions after the engine’s', () => {
		const seen: string[] = [];
		const own = { ...action, preconditions: [{ name: 'manage-guild', check: () => seen.push('checked') }] } as unknown as typeof action;
		admissionOf(fine(), seen).admit(request({ action: own }));
		expect(seen.slice(-2)).toEqual(['manage-guild', 'checked']);
	});
});
