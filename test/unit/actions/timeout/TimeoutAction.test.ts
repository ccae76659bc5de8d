import { DiscordAPIError, PermissionFlagsBits, RESTJSONErrorCodes, type REST } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { ADMINISTRATOR, ENDED, TimeoutAction } from '../../../../src/actions/timeout/TimeoutAction.js';
import type { MemberRecord } from '../../../../src/discord/MemberRecord.js';
import { ErrorCodes } from '../../../../src/errors.js';
import { ABOVE_REQUESTER, forRequester } from '../../../../src/jobs/GuildContext.js';
import { planRestore } from '../../../../src/jobs/planner.js';
import { GUILD_ID, guildContext, OWNER_ID as OWNER } from '../../../support/guildContext.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const NOW = Date.UTC(2026, 4, 1, 12);
const UNTIL = NOW + 6 * HOUR;
const iso = (ms: number): string => new Date(ms).toISOString();

const MID = '200000000000000005';
const HIGH = '200000000000000009';
const ADMIN = '200000000000000003';
const ctx = guildContext({
	roles: [
		[ADMIN, 2],
		[MID, 3],
		[HIGH, 9],
	],
	botUserIds: ['9'],
	workerHighestPosition: 5,
	administratorRoleIds: [ADMIN],
});

let clock = NOW;
const action = new TimeoutAction({ until: UNTIL, reason: 'raid of 1 May' }, () => clock);
const member = (until: number | null, roles: string[] = [], id = '300000000000000001'): MemberRecord => ({
	id,
	username: 'bob',
	globalName: 'Bob',
	nick: null,
	roles,
	bot: false,
	communicationDisabledUntil: until,
});

describe('TimeoutAction.plan', () => {
	it('times out a member with no timeout, journaling none as what they had', () => {
		expect(action.plan(member(null), ctx)).toEqual({ action: 'change', from: null, to: iso(UNTIL) });
	});

	it('extends a shorter timeout in force, journaling it so a restore gives it back', () => {
		expect(action.plan(member(NOW + HOUR), ctx)).toEqual({ action: 'change', from: iso(NOW + HOUR), to: iso(UNTIL) });
	});

	it('leaves a member timed out until the end or later alone: they are done, and keep theirs', () => {
		expect(action.plan(member(UNTIL), ctx)).toEqual({ action: 'done' });
		expect(action.plan(member(UNTIL + 500), ctx)).toEqual({ action: 'done' });
		expect(action.plan(member(NOW + 7 * 24 * HOUR), ctx)).toEqual({ action: 'done' });
	});

	it('reads an ended timeout (Discord keeps its time in the past) as none', () => {
		expect(action.plan(member(NOW - HOUR), ctx)).toEqual({ action: 'change', from: null, to: iso(UNTIL) });
		expect(action.plan(member(NOW), ctx)).toEqual({ action: 'change', from: null, to: iso(UNTIL) });
	});

	it('leaves holders of Administrator alone with their own reason, and @everyone granting it leaves everyone', () => {
		expect(action.plan(member(null, [ADMIN]), ctx)).toEqual({ action: 'cant', reason: ADMINISTRATOR });
		const everyoneAdmin = guildContext({ administratorRoleIds: [GUILD_ID] });
		expect(action.plan(member(null), everyoneAdmin)).toEqual({ action: 'cant', reason: ADMINISTRATOR });
	});

	it('never times out the owner, a member at or above the workers, or one at or above the requester', () => {
		expect(action.plan(member(null, [], OWNER), ctx)).toEqual({ action: 'cant', reason: 'owner' });
		expect(action.plan(member(null, [HIGH]), ctx)).toEqual({ action: 'cant', reason: 'hierarchy' });
		const helper = forRequester(ctx, { kind: 'member', userId: '4', position: 3, roleName: 'Helper' });
		expect(action.plan(member(null, [MID]), helper)).toEqual({ action: 'cant', reason: ABOVE_REQUESTER });
		expect(action.plan(member(null), helper)).toEqual({ action: 'change', from: null, to: iso(UNTIL) });
	});

	it('plans nobody once its end has passed, not even as done: every timeout it would set is over', () => {
		clock = UNTIL;
		try {
			expect(action.plan(member(null), ctx)).toEqual({ action: 'skip', reason: ENDED });
			expect(action.plan(member(UNTIL), ctx)).toEqual({ action: 'skip', reason: ENDED });
		} finally {
			clock = NOW;
		}
	});
});

describe('TimeoutAction.holds and its restore', () => {
	it('holds the job’s end to the second, and none for a member whose timeout is over or lifted', () => {
		expect(action.holds(member(UNTIL + 999), iso(UNTIL))).toBe(true);
		expect(action.holds(member(UNTIL + HOUR), iso(UNTIL))).toBe(false);
		expect(action.holds(member(null), null)).toBe(true);
		expect(action.holds(member(NOW - 1), null)).toBe(true);
		expect(action.holds(member(UNTIL), null)).toBe(false);
		// An earlier timeout that is over by now is the same as none.
		expect(action.holds(member(null), iso(NOW - HOUR))).toBe(true);
	});

	it('lifts the job’s timeout, gives back an earlier one, and leaves a timeout changed since or lifted alone', () => {
		const set = { id: '300000000000000001', from: null, to: iso(UNTIL) };
		expect(planRestore(member(UNTIL), set, action, ctx)).toEqual({ action: 'change', from: iso(UNTIL), to: null });
		const earlier = { ...set, from: iso(NOW + HOUR) };
		expect(planRestore(member(UNTIL), earlier, action, ctx)).toEqual({ action: 'change', from: iso(UNTIL), to: iso(NOW + HOUR) });
		expect(planRestore(member(UNTIL + 2 * HOUR), set, action, ctx)).toEqual({ action: 'skip', reason: 'changed-since' });
		expect(planRestore(member(null), set, action, ctx)).toEqual({ action: 'done' });
		expect(planRestore(member(UNTIL, [ADMIN]), set, action, ctx)).toEqual({ action: 'cant', reason: ADMINISTRATOR });
	});
});

describe('TimeoutAction', () => {
	it('needs Moderate Members, names the end in its words, and keeps the end and the reason in its target', () => {
		expect(action.permission).toBe(PermissionFlagsBits.ModerateMembers);
		expect(action.target).toBe('2026-05-01T18:00:00Z raid of 1 May');
		expect(action.words.doing).toBe('Timing out until 2026-05-01T18:00:00Z, reason “raid of 1 May”');
		expect(new TimeoutAction({ until: UNTIL }).target).toBe('2026-05-01T18:00:00Z');
	});

	it('sends the end with massnick’s reason and the requester’s; an end already past is sent as none', async () => {
		const sent: Array<{ route: string; body: unknown; reason: string | undefined }> = [];
		const rest = {
			patch: async (route: string, options: { body: unknown; reason?: string }) => {
				sent.push({ route, body: options.body, reason: options.reason });
			},
		} as unknown as REST;
		const request = { reason: 'massnick timeout by mod (1)', signal: new AbortController().signal };
		await action.apply({ rest, guildId: GUILD_ID }, '300000000000000001', iso(UNTIL), request);
		await action.apply({ rest, guildId: GUILD_ID }, '300000000000000001', iso(NOW - HOUR), request);
		expect(sent).toEqual([
			{
				route: `/guilds/${GUILD_ID}/members/300000000000000001`,
				body: { communication_disabled_until: iso(UNTIL) },
				reason: 'massnick timeout by mod (1): raid of 1 May',
			},
			{
				route: `/guilds/${GUILD_ID}/members/300000000000000001`,
				body: { communication_disabled_until: null },
				reason: 'massnick timeout by mod (1): raid of 1 May',
			},
		]);
	});

	it('ends the job when Discord refuses the end itself, and not for a refusal of one member', () => {
		const refused = new DiscordAPIError(
			{
				code: RESTJSONErrorCodes.InvalidFormBodyOrContentType,
				message: 'Invalid Form Body',
				errors: {
					communication_disabled_until: {
						_errors: [{ code: 'INVALID_COMMUNICATION_DISABLED_TIMESTAMP', message: 'Invalid communication disabled timestamp' }],
					},
				},
			},
			RESTJSONErrorCodes.InvalidFormBodyOrContentType,
			400,
			'PATCH',
			'/guilds/1/members/2',
			{},
		);
		const ended = action.endsJob(refused);
		expect(ended?.code).toBe(ErrorCodes.InvalidArgument);
		expect(ended?.message).toMatch(/28 days ahead.*shorter duration/);
		const forbidden = new DiscordAPIError({ code: 50013, message: 'Missing Permissions' }, 50013, 403, 'PATCH', '/guilds/1/members/2', {});
		expect(action.endsJob(forbidden)).toBeUndefined();
	});
});
