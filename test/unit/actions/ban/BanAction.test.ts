import { DiscordAPIError, PermissionFlagsBits, RESTJSONErrorCodes } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { BAN, BANNED, BanAction, BULK_BAN_SIZE } from '../../../../src/actions/ban/BanAction.js';
import { banModule } from '../../../../src/actions/ban/banModule.js';
import { banOptionsOf, banTarget } from '../../../../src/actions/ban/banTarget.js';
import { deleteMessageSeconds } from '../../../../src/actions/ban/deleteMessages.js';
import type { ActionArgs } from '../../../../src/actions/index.js';
import type { MemberRecord } from '../../../../src/discord/MemberRecord.js';
import { ErrorCodes } from '../../../../src/errors.js';
import { exactly } from '../../../../src/jobs/estimateJob.js';
import type { MassAction } from '../../../../src/jobs/MassAction.js';
import { planMember, planRestore } from '../../../../src/jobs/planner.js';
import { guildContext, OWNER_ID } from '../../../support/guildContext.js';

const STAFF = '200000000000000003';
const MODS = '200000000000000006';
const ctx = guildContext({
	roles: [
		[STAFF, 3],
		[MODS, 6],
	],
	workerHighestPosition: 8,
	botUserIds: ['900000000000000001'],
	requester: { kind: 'member', userId: '300000000000000001', position: 6, roleName: 'Mods', roleId: MODS },
});
const member = (id: string, roles: string[] = []): MemberRecord => ({ id, username: `user${id}`, globalName: null, nick: null, roles, bot: false });
const bannedUser = (id: string): MemberRecord => ({ ...member(id), banned: true });
const action = new BanAction({ deleteMessageSeconds: 0 });
const apiError = (code: number, status = 400): DiscordAPIError => new DiscordAPIError({ code, message: 'x' }, code, status, 'POST', 'x', { body: undefined });

function args(values: Record<string, string>): ActionArgs {
	return { subcommand: undefined, string: (name) => values[name], role: () => undefined, boolean: () => false };
}

describe('BanAction', () => {
	it('bans a member in reach: from nothing to banned', () => {
		expect(planMember(member('400000000000000001', [STAFF]), action, {}, ctx)).toEqual({ action: 'change', from: null, to: BANNED });
	});

	it('never bans the owner, our bots, the requester, or anyone ranked at or above them or the workers', () => {
		expect(planMember(member(OWNER_ID), action, {}, ctx)).toEqual({ action: 'cant', reason: 'owner' });
		expect(planMember(member('900000000000000001'), action, {}, ctx)).toEqual({ action: 'skip', reason: 'own-bot' });
		expect(planMember(member('300000000000000001', [MODS]), action, {}, ctx)).toEqual({ action: 'cant', reason: 'above-requester' });
		const high = guildContext({ roles: [[MODS, 6]], workerHighestPosition: 6 });
		expect(planMember(member('400000000000000002', [MODS]), action, {}, high)).toEqual({ action: 'cant', reason: 'hierarchy' });
	});

	it('a user of the ban list is banned (done), a member is not; the undo plans an unban for exactly the users the job banned', () => {
		expect(action.holds(bannedUser('1'), BANNED)).toBe(true);
		expect(action.holds(bannedUser('1'), null)).toBe(false);
		expect(action.holds(member('1'), null)).toBe(true);
		expect(planMember(bannedUser('1'), action, {}, ctx)).toEqual({ action: 'done' });
		const entry = { id: '400000000000000003', from: null, to: BANNED };
		expect(planRestore(bannedUser(entry.id), entry, action, ctx)).toEqual({ action: 'change', from: BANNED, to: null });
		expect(planRestore(bannedUser('400000000000000004'), undefined, action, ctx)).toEqual({ action: 'skip', reason: 'not-journaled' });
		// Unbanned since (and rejoined): nothing left to undo.
		expect(planRestore(member(entry.id), entry, action, ctx)).toEqual({ action: 'done' });
	});

	it('bans 200 a call, needs Ban Members and Manage Guild, and its undo walks the ban list', () => {
		expect(action.applyBatch.size).toBe(BULK_BAN_SIZE);
		expect(action.permission).toBe(PermissionFlagsBits.BanMembers | PermissionFlagsBits.ManageGuild);
		expect(action.restoreListing).toBe('bans');
		expect(action.type).toBe(BAN);
	});

	it('a 403 ends the job saying what to do; the non-member ban limit (30035) and a failed bulk ban (500000) do not', () => {
		expect(action.endsJob(apiError(RESTJSONErrorCodes.MissingPermissions, 403))).toMatchObject({
			code: ErrorCodes.MissingPermission,
			message: expect.stringMatching(/Ban Members and Manage Guild/),
		});
		expect(action.endsJob(apiError(RESTJSONErrorCodes.MaximumNumberOfNonGuildMemberBansHasBeenExceeded))).toBeUndefined();
		expect(action.endsJob(apiError(RESTJSONErrorCodes.FailedToBanUsers))).toBeUndefined();
	});

	it('reaches users who are not members, found done in the ban list; 30035 alone stops them, saying why and what to do', () => {
		expect(action.nonMembers.done).toBe('bans');
		expect(action.nonMembers.limitReached(apiError(RESTJSONErrorCodes.MaximumNumberOfNonGuildMemberBansHasBeenExceeded))).toMatchObject({
			code: ErrorCodes.NonMemberBanLimit,
			message: expect.stringMatching(/\(30035\).*banned the members all the same.*run the same command again later/),
		});
		for (const other of [apiError(RESTJSONErrorCodes.FailedToBanUsers), apiError(RESTJSONErrorCodes.MissingPermissions, 403), new Error('x')]) {
			expect(action.nonMembers.limitReached(other)).toBeUndefined();
		}
	});

	it('bans a user who is not a member whatever the requester’s rank, but never the owner, the requester or our bots', () => {
		const low = guildContext({
			workerHighestPosition: 8,
			botUserIds: ['900000000000000001'],
			requester: { kind: 'member', userId: '300000000000000002', position: 0, roleName: 'everyone' },
		});
		const stranger = (id: string): MemberRecord => ({ ...member(id), username: '', nonMember: true });
		expect(planMember(stranger('400000000000000010'), action, {}, low)).toEqual({ action: 'change', from: null, to: BANNED });
		expect(planMember({ ...stranger('400000000000000011'), banned: true }, action, {}, low)).toEqual({ action: 'done' });
		expect(planMember(stranger(OWNER_ID), action, {}, low)).toEqual({ action: 'cant', reason: 'owner' });
		expect(planMember(stranger('300000000000000002'), action, {}, low)).toEqual({ action: 'cant', reason: 'above-requester' });
		expect(planMember(stranger('900000000000000001'), action, {}, low)).toEqual({ action: 'skip', reason: 'own-bot' });
		// The same user as a member with no role is out of that requester's reach: the rank binds members only.
		expect(planMember(member('400000000000000010'), action, {}, low)).toEqual({ action: 'cant', reason: 'above-requester' });
	});
});

describe('the ban options', () => {
	it('are kept in the journal target and read back, so a resume bans as the job began', () => {
		for (const options of [{ deleteMessageSeconds: 0 }, { deleteMessageSeconds: 3600, reason: 'raid: “free nitro”' }]) {
			expect(banOptionsOf(banTarget(options))).toEqual(options);
		}
		expect(banOptionsOf('not json')).toEqual({ deleteMessageSeconds: 0 });
		expect(banOptionsOf('{"deleteMessageSeconds":604801}')).toEqual({ deleteMessageSeconds: 0 });
	});

	it('come from the command: delete_messages as Discord’s ban dialog offers it, the reason trimmed', () => {
		expect(deleteMessageSeconds(undefined)).toBe(0);
		expect(deleteMessageSeconds('7d')).toBe(604_800);
		const { action: asked } = banModule.request(args({ delete_messages: '1h', reason: '  raid  ' }), undefined as never);
		expect((asked as BanAction).options).toEqual({ deleteMessageSeconds: 3600, reason: 'raid' });
		expect(banModule.fromJournal({ target: asked.target } as never, undefined as never).target).toBe(asked.target);
	});

	it('describe a ban in a preview by username and shown name', () => {
		expect(banModule.describeChange({ ...member('1'), username: 'raider_1', globalName: 'free nitro 1' }, null, BANNED, () => '')).toBe(
			'@raider\\_1 (“free nitro 1”) is banned',
		);
	});
});

describe('the typed count of a ban', () => {
	it('is asked of a ban of more than 100 members, and of no smaller one', () => {
		expect(banModule.confirmByTypedCount?.(exactly(101))).toBe(true);
		expect(banModule.confirmByTypedCount?.({ atLeast: 0, atMost: 2000 })).toBe(true);
		expect(banModule.confirmByTypedCount?.(exactly(100))).toBe(false);
		expect(banModule.confirmByTypedCount?.({ atLeast: 20, atMost: 100 })).toBe(false);
		expect(banModule.confirmByTypedCount?.(exactly(0))).toBe(false);
	});

	it('says why without calling a ban irreversible: /restore unbans', () => {
		const action: MassAction = new BanAction({ deleteMessageSeconds: 0 });
		expect(action.irreversible).toBeUndefined();
		expect(banModule.typedCountWhy).toBe('A ban of more than 100 members is confirmed by its count (/restore unbans them)');
	});
});
