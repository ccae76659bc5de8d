import { describe, expect, it } from 'vitest';
import { DiscordAPIError, RESTJSONErrorCodes } from 'discord.js';
import { checkAssignable } from '../../../../src/actions/role/checkAssignable.js';
import { RoleAction } from '../../../../src/actions/role/RoleAction.js';
import type { MemberRecord } from '../../../../src/discord/MemberRecord.js';
import { ErrorCodes, JobError } from '../../../../src/errors.js';
import { planMember, planRestore } from '../../../../src/jobs/planner.js';
import { GUILD_ID as GUILD, guildContext, OWNER_ID as OWNER } from '../../../support/guildContext.js';

const WORKER = '100000000000000003';
const EVENT = '200000000000000002'; // position 2
const STAFF = '200000000000000009'; // position 9, above the workers

const ctx = guildContext({
	roles: [
		[EVENT, 2],
		[STAFF, 9],
	],
	botUserIds: [WORKER],
	workerHighestPosition: 5,
});

const event = { id: EVENT, name: 'Event' };
const add = new RoleAction(event, 'add');
const remove = new RoleAction(event, 'remove');

function member(overrides: Partial<MemberRecord> = {}): MemberRecord {
	return { id: '300000000000000001', username: 'alice', globalName: 'Alice', nick: null, roles: [], bot: false, ...overrides };
}

/** What Discord stores after the change lands. */
function applied(target: MemberRecord, to: string | null): MemberRecord {
	const roles = target.roles.filter((role) => role !== EVENT);
	return { ...target, roles: to === null ? roles : [...roles, to] };
}

describe('RoleAction', () => {
	it('add gives the role to a member who lacks it, and a member who has it is done', () => {
		expect(planMember(member(), add, {}, ctx)).toEqual({ action: 'change', from: null, to: EVENT });
		expect(planMember(member({ roles: [EVENT] }), add, {}, ctx)).toEqual({ action: 'done' });
	});

	it('remove takes it from a member who has it, and a member who lacks it is done', () => {
		expect(planMember(member({ roles: [EVENT] }), remove, {}, ctx)).toEqual({ action: 'change', from: EVENT, to: null });
		expect(planMember(member(), remove, {}, ctx)).toEqual({ action: 'done' });
	});

	it('reaches the owner and members ranked above the workers: Discord checks the role, not the member', () => {
		expect(planMember(member({ id: OWNER }), add, {}, ctx).action).toBe('change');
		expect(planMember(member({ roles: [STAFF] }), add, {}, ctx).action).toBe('change');
	});

	it('our own bots and the role filters come first, as for every action', () => {
		expect(planMember(member({ id: WORKER }), add, {}, ctx)).toEqual({ action: 'skip', reason: 'own-bot' });
		expect(planMember(member(), add, { onlyRoleId: STAFF }, ctx)).toEqual({ action: 'skip', reason: 'not-in-role' });
		expect(planMember(member({ roles: [STAFF] }), add, { excludeRoleId: STAFF }, ctx)).toEqual({ action: 'skip', reason: 'excluded-role' });
	});

	it('every change, once landed, is done on a rerun (the roles are the done marker)', () => {
		for (const action of [add, remove])
			for (const roles of [[], [EVENT], [STAFF], [STAFF, EVENT]]) {
				const start = member({ roles });
				const plan = planMember(start, action, {}, ctx);
				if (plan.action !== 'change') continue;
				expect(planMember(applied(start, plan.to), action, {}, ctx), `${action.type} ${roles.join()}`).toEqual({ action: 'done' });
			}
	});

	it('a restore of add takes the role only from members who got it from the job and still have it', () => {
		const got = { id: '300000000000000001', from: null, to: EVENT };
		expect(planRestore(member({ roles: [EVENT] }), got, add, ctx)).toEqual({ action: 'change', from: EVENT, to: null });
		// A moderator took it away since: nothing to undo.
		expect(planRestore(member(), got, add, ctx)).toEqual({ action: 'done' });
		// Had it before the job: the job never changed them, so the journal has no line.
		expect(planRestore(member({ roles: [EVENT] }), undefined, add, ctx)).toEqual({ action: 'skip', reason: 'not-journaled' });
	});

	it('a restore of remove gives the role back only to members who lost it to the job and still lack it', () => {
		const lost = { id: '300000000000000001', from: EVENT, to: null };
		expect(planRestore(member(), lost, remove, ctx)).toEqual({ action: 'change', from: null, to: EVENT });
		expect(planRestore(member({ roles: [EVENT] }), lost, remove, ctx)).toEqual({ action: 'done' });
	});

	it('names itself for the journal and says what it does', () => {
		expect([add.type, add.target, add.words.doing]).toEqual(['role-add', EVENT, 'Adding @Event']);
		expect([remove.type, remove.words.doing]).toEqual(['role-remove', 'Removing @Event']);
	});
});

describe('checkAssignable', () => {
	const codeOf = (role: Parameters<typeof checkAssignable>[0]): string | undefined => {
		try {
			checkAssignable(role, ctx);
			return undefined;
		} catch (error) {
			expect(error).toBeInstanceOf(JobError);
			return `${(error as JobError).code}: ${(error as JobError).message}`;
		}
	};

	it('accepts a role below the workers that no integration manages', () => {
		expect(codeOf({ id: EVENT, name: 'Event', position: 2, managed: false })).toBeUndefined();
	});

	it('refuses @everyone, a managed role and a role at or above the workers, saying what to change', () => {
		expect(codeOf({ id: GUILD, name: '@everyone', position: 0, managed: false })).toMatch(new RegExp(`^${ErrorCodes.RoleNotAssignable}: @everyone`));
		expect(codeOf({ id: '200000000000000004', name: 'Server Booster', position: 3, managed: true })).toMatch(/managed/);
		expect(codeOf({ id: '200000000000000005', name: 'Bots', position: 5, managed: false })).toMatch(/Move the workers' role above @Bots/);
		expect(codeOf({ id: STAFF, name: 'Staff', position: 9, managed: false })).toMatch(/at or above the workers' highest role/);
	});
});

describe('RoleAction: what ends its job', () => {
	const apiError = (code: number, status: number): DiscordAPIError =>
		new DiscordAPIError({ code, message: 'x' }, code, status, 'PUT', 'http://127.0.0.1/api/v10/guilds/1/members/2/roles/3', { body: undefined });

	it('Unknown Role and Missing Permissions end it, each with its own code; a member who left or a 5xx does not', () => {
		expect(add.endsJob(apiError(RESTJSONErrorCodes.UnknownRole, 404))).toMatchObject({ code: ErrorCodes.RoleDeleted });
		expect(add.endsJob(apiError(RESTJSONErrorCodes.MissingPermissions, 403))).toMatchObject({ code: ErrorCodes.RoleNotAssignable });
		expect(add.endsJob(apiError(RESTJSONErrorCodes.UnknownMember, 404))).toBeUndefined();
		expect(add.endsJob(new Error('ECONNRESET'))).toBeUndefined();
	});

	it('its own role deleted, or moved to or above the workers’ highest, ends it; another role, or one still below, does not', () => {
		expect(add.roleChanged({ id: event.id, deleted: true, position: 0 }, 10)).toMatchObject({ code: ErrorCodes.RoleDeleted });
		expect(remove.roleChanged({ id: event.id, deleted: false, position: 10 }, 10)).toMatchObject({ code: ErrorCodes.RoleNotAssignable });
		expect(add.roleChanged({ id: event.id, deleted: false, position: 9 }, 10)).toBeUndefined();
		expect(add.roleChanged({ id: '999', deleted: true, position: 0 }, 10)).toBeUndefined();
		expect(add.roleChanged({ id: event.id, deleted: true, position: 0 }, 10)!.message).toBe(
			`The role @${event.name} was deleted while the job ran, so it stopped: no member can be given or lose a role that is gone. Nothing else needs doing.`,
		);
	});
});
