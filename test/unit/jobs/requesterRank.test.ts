import { describe, expect, it } from 'vitest';
import { checkRoleWithinRank } from '../../../src/actions/role/checkRoleWithinRank.js';
import { NicknameAction } from '../../../src/actions/nickname/NicknameAction.js';
import { parseTemplate } from '../../../src/actions/shared/nicknameEdits/index.js';
import { RoleAction } from '../../../src/actions/role/RoleAction.js';
import type { MemberRecord } from '../../../src/discord/MemberRecord.js';
import { ErrorCodes, JobError } from '../../../src/errors.js';
import { ABOVE_REQUESTER, forRequester, outOfReach } from '../../../src/jobs/GuildContext.js';
import { planMember, planRestore } from '../../../src/jobs/planner.js';
import { OPERATOR, type RequesterRank } from '../../../src/jobs/RequesterRank.js';
import { guildContext, OWNER_ID as OWNER } from '../../support/guildContext.js';

const HELPER = '200000000000000001';
const MEMBER = '200000000000000002';
const MOD = '200000000000000003';
const WORKERS = '200000000000000004';
const ADMIN = '200000000000000005';

/** @everyone 0 < Helper 1 < Member 2 < Mod 3 < the workers' role 4 < Admin 5. */
const ctx = guildContext({
	roles: [
		[HELPER, 1],
		[MEMBER, 2],
		[MOD, 3],
		[WORKERS, 4],
		[ADMIN, 5],
	],
	botUserIds: ['9'],
	workerHighestPosition: 4,
});

const helper: RequesterRank = { kind: 'member', userId: '300000000000000001', position: 1, roleName: 'Helper' };
const mod: RequesterRank = { kind: 'member', userId: '300000000000000002', position: 3, roleName: 'Mod' };
const owner: RequesterRank = { kind: 'owner', userId: OWNER };

function member(id: string, roles: string[], nick: string | null = null): MemberRecord {
	return { id, username: `user${id.slice(-3)}`, globalName: null, nick, roles, bot: false };
}

const plain = member('400000000000000001', []);
const withMember = member('400000000000000002', [MEMBER]);
const withMod = member('400000000000000003', [MEMBER, MOD]);
const admin = member('400000000000000004', [ADMIN]);
const theOwner = member(OWNER, []);

describe('outOfReach with a requester', () => {
	it("leaves members ranked at or above the requester out of their reach, apart from those out of the bots'", () => {
		const bounded = forRequester(ctx, helper);
		expect(outOfReach(plain, bounded)).toBeUndefined();
		expect(outOfReach(withMember, bounded)).toBe(ABOVE_REQUESTER);
		expect(outOfReach(withMod, bounded)).toBe(ABOVE_REQUESTER);
		expect(outOfReach(admin, bounded)).toBe('hierarchy');
		expect(outOfReach(theOwner, bounded)).toBe('owner');
	});

	it('counts a member at exactly the requester’s rank as out of reach: Discord wants strictly below', () => {
		expect(outOfReach(member('400000000000000005', [HELPER]), forRequester(ctx, helper))).toBe(ABOVE_REQUESTER);
		expect(outOfReach(withMod, forRequester(ctx, mod))).toBe(ABOVE_REQUESTER);
		expect(outOfReach(withMember, forRequester(ctx, mod))).toBeUndefined();
	});

	it('bounds the owner and the operator by the bots alone', () => {
		for (const rank of [owner, OPERATOR]) {
			expect(outOfReach(withMod, forRequester(ctx, rank))).toBeUndefined();
			expect(outOfReach(admin, forRequester(ctx, rank))).toBe('hierarchy');
			expect(outOfReach(theOwner, forRequester(ctx, rank))).toBe('owner');
		}
	});

	it("plans a rename and its restore within the requester's reach, sending nothing for those above", () => {
		const action = new NicknameAction(parseTemplate('🎃 {username}'));
		const bounded = forRequester(ctx, helper);
		expect(planMember(plain, action, {}, bounded)).toMatchObject({ action: 'change' });
		expect(planMember(withMember, action, {}, bounded)).toEqual({ action: 'cant', reason: ABOVE_REQUESTER });
		// A member already named so is done, whoever asks: nothing would be sent either way.
		expect(planMember(member('400000000000000006', [MEMBER], '🎃 user006'), action, {}, bounded)).toEqual({ action: 'done' });
		const renamed = member('400000000000000007', [MEMBER], '🎃 user007');
		expect(planRestore(renamed, { id: renamed.id, from: null, to: '🎃 user007' }, action, bounded)).toEqual({ action: 'cant', reason: ABOVE_REQUESTER });
		expect(planRestore(renamed, { id: renamed.id, from: null, to: '🎃 user007' }, action, forRequester(ctx, owner))).toMatchObject({ action: 'change' });
	});
});

describe('checkRoleWithinRank', () => {
	const role = (id: string, name: string) => ({ id, name });

	it('refuses a role at or above the requester, naming the role and their highest role, with who can run it instead', () => {
		const error = (() => {
			try {
				checkRoleWithinRank(role(MOD, 'Mod'), forRequester(ctx, helper), false);
			} catch (caught) {
				return caught;
			}
			return undefined;
		})() as JobError;
		expect(error).toBeInstanceOf(JobError);
		expect(error.code).toBe(ErrorCodes.AboveRequester);
		expect(error.message).toContain('@Mod');
		expect(error.message).toContain('your highest role is @Helper');
		expect(error.message).toContain('massnick run massrole');
		expect(error.context).toMatchObject({ roleId: MOD, rolePosition: 3, requesterPosition: 1, undo: false });
		// Its own rank too: Discord wants strictly below.
		expect(() => checkRoleWithinRank(role(MOD, 'Mod'), forRequester(ctx, mod), false)).toThrow(JobError);
	});

	it('words an undo as one, pointing at massnick run restore', () => {
		expect(() => checkRoleWithinRank(role(MEMBER, 'Member'), forRequester(ctx, helper), true)).toThrow(
			/Undoing that job gives or takes @Member.*massnick run restore/,
		);
	});

	it('lets through a role below the requester, any role for the owner and the operator, and a deleted role (held by nobody)', () => {
		expect(() => checkRoleWithinRank(role(MEMBER, 'Member'), forRequester(ctx, mod), false)).not.toThrow();
		expect(() => checkRoleWithinRank(role(MOD, 'Mod'), forRequester(ctx, owner), false)).not.toThrow();
		expect(() => checkRoleWithinRank(role(MOD, 'Mod'), forRequester(ctx, OPERATOR), true)).not.toThrow();
		expect(() => checkRoleWithinRank(role('200000000000000099', 'deleted-role'), forRequester(ctx, helper), true)).not.toThrow();
	});

	it('says so plainly to a requester who holds no role', () => {
		const nobody: RequesterRank = { kind: 'member', userId: '300000000000000003', position: 0, roleName: 'everyone' };
		expect(() => new RoleAction(role(HELPER, 'Helper'), 'add').checkRequester(forRequester(ctx, nobody), false)).toThrow(/you hold no role/);
	});
});
