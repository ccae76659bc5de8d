import { describe, expect, it } from 'vitest';
import { KICK_IRREVERSIBLE, KickAction } from '../../../../src/actions/kick/KickAction.js';
import { kickModule } from '../../../../src/actions/kick/kickModule.js';
import { kickTarget, parseKickTarget } from '../../../../src/actions/kick/kickTarget.js';
import type { ActionArgs } from '../../../../src/actions/ActionModule.js';
import type { MemberRecord } from '../../../../src/discord/MemberRecord.js';
import { exactly } from '../../../../src/jobs/estimateJob.js';
import { ABOVE_REQUESTER, forRequester } from '../../../../src/jobs/GuildContext.js';
import type { JournalHeader } from '../../../../src/jobs/journal/Journal.js';
import { planMember } from '../../../../src/jobs/planner.js';
import { OPERATOR } from '../../../../src/jobs/RequesterRank.js';
import { guildContext, OWNER_ID as OWNER } from '../../../support/guildContext.js';

const MEMBER_ROLE = '200000000000000002';
const MOD = '200000000000000004';
const HIGH = '200000000000000009';
const BOT = '900000000000000009';
const ctx = guildContext({
	roles: [
		[MEMBER_ROLE, 1],
		[MOD, 4],
		[HIGH, 9],
	],
	botUserIds: [BOT],
	workerHighestPosition: 5,
});
const action = new KickAction({ askedAt: '2026-05-01T12:00:00.000Z', reason: 'raid' });
const member = (roles: string[] = [], id = '300000000000000001', username = 'raider1'): MemberRecord => ({
	id,
	username,
	globalName: null,
	nick: null,
	roles,
	bot: false,
});
const moderator = { kind: 'member', userId: '300000000000000077', position: 4, roleName: 'Moderator', roleId: MOD } as const;

describe('KickAction.plan', () => {
	it('kicks a member within reach, journaling their username before and nobody after', () => {
		expect(action.plan(member(), ctx)).toEqual({ action: 'change', from: 'raider1', to: null });
		expect(action.plan(member([MEMBER_ROLE]), forRequester(ctx, moderator))).toEqual({ action: 'change', from: 'raider1', to: null });
	});

	it('never kicks the owner or a member at or above the workers, whoever asks', () => {
		for (const rank of [moderator, OPERATOR, { kind: 'owner', userId: OWNER } as const]) {
			const bounded = forRequester(ctx, rank);
			expect(action.plan(member([], OWNER), bounded)).toEqual({ action: 'cant', reason: 'owner' });
			expect(action.plan(member([HIGH]), bounded)).toEqual({ action: 'cant', reason: 'hierarchy' });
		}
	});

	it('leaves members at the requester’s rank or above alone, the requester too: Discord would refuse them by hand', () => {
		const bounded = forRequester(ctx, moderator);
		expect(action.plan(member([MOD]), bounded)).toEqual({ action: 'cant', reason: ABOVE_REQUESTER });
		expect(action.plan(member([MOD], moderator.userId, 'the-mod'), bounded)).toEqual({ action: 'cant', reason: ABOVE_REQUESTER });
		const noRole = forRequester(ctx, { kind: 'member', userId: '300000000000000078', position: 0, roleName: 'everyone' });
		expect(action.plan(member(), noRole)).toEqual({ action: 'cant', reason: ABOVE_REQUESTER });
	});

	it('never plans our own bots, and keeps to the filters: members outside them are skipped', () => {
		expect(planMember(member([], BOT), action, {}, ctx)).toEqual({ action: 'skip', reason: 'own-bot' });
		expect(planMember(member([MEMBER_ROLE]), action, { excludeRoleId: MEMBER_ROLE }, ctx)).toMatchObject({ action: 'skip' });
		expect(planMember(member([MEMBER_ROLE]), action, { noRoles: true }, ctx)).toMatchObject({ action: 'skip' });
		expect(planMember(member(), action, { noRoles: true }, ctx)).toEqual({ action: 'change', from: 'raider1', to: null });
	});

	it('asks for Kick Members, says it cannot be undone, and adds the reason to the audit log', () => {
		expect(action.permission).toBe(1n << 1n);
		expect(action.irreversible).toBe(KICK_IRREVERSIBLE);
		expect(action.reason).toBe('raid');
	});
});

describe('the kick’s target', () => {
	it('keeps when it was asked and its reason, and reads both back for a resume', () => {
		expect(kickTarget({ askedAt: '2026-05-01T12:00:00.000Z', reason: 'raid of May 1st' })).toBe('2026-05-01T12:00:00.000Z raid of May 1st');
		expect(parseKickTarget('2026-05-01T12:00:00.000Z raid of May 1st')).toEqual({ askedAt: '2026-05-01T12:00:00.000Z', reason: 'raid of May 1st' });
		expect(parseKickTarget('2026-05-01T12:00:00.000Z')).toEqual({ askedAt: '2026-05-01T12:00:00.000Z' });
		const header = { action: 'kick', target: action.target } as JournalHeader;
		const rebuilt = kickModule.fromJournal(header, undefined as never);
		expect([rebuilt.target, rebuilt.reason]).toEqual([action.target, 'raid']);
	});
});

describe('kickModule', () => {
	const args = (reason?: string): ActionArgs => ({
		subcommand: undefined,
		string: (name) => (name === 'reason' ? reason : undefined),
		role: () => undefined,
		boolean: () => false,
	});

	it('every /masskick is a journal of its own: asked twice, two targets; a blank reason is none', async () => {
		const first = kickModule.request(args('  raid  '), undefined as never).action;
		await new Promise((resolve) => setTimeout(resolve, 2));
		const second = kickModule.request(args('raid'), undefined as never).action;
		expect(first.reason).toBe('raid');
		expect(first.target).not.toBe(second.target);
		expect(kickModule.request(args('   '), undefined as never).action.reason).toBeUndefined();
	});

	it('asks for the count to be typed whenever it would kick anyone', () => {
		expect(kickModule.confirmByTypedCount?.(exactly(1))).toBe(true);
		expect(kickModule.confirmByTypedCount?.({ atLeast: 0, atMost: 2000 })).toBe(true);
		expect(kickModule.confirmByTypedCount?.(exactly(0))).toBe(false);
	});
});
