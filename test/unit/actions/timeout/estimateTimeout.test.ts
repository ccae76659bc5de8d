import { describe, expect, it } from 'vitest';
import { estimateTimeout } from '../../../../src/actions/timeout/estimateTimeout.js';
import { estimateMemberEdit } from '../../../../src/jobs/estimateJob.js';
import { forRequester } from '../../../../src/jobs/GuildContext.js';
import { GUILD_ID, guildContext } from '../../../support/guildContext.js';

const ADMIN_LOW = '200000000000000002';
const MID = '200000000000000003';
const ADMIN_HIGH = '200000000000000009';
const roles: ReadonlyArray<readonly [string, number]> = [
	[ADMIN_LOW, 2],
	[MID, 3],
	[ADMIN_HIGH, 9],
];
const counts = { members: 1003, roleMembers: { [ADMIN_LOW]: 4, [MID]: 20, [ADMIN_HIGH]: 2 }, ourBots: [[], []] };

describe('estimateTimeout', () => {
	it('is a member edit’s estimate when no role grants Administrator', () => {
		const ctx = guildContext({ roles, workerHighestPosition: 5 });
		expect(estimateTimeout(counts, ctx, {})).toEqual(estimateMemberEdit(counts, ctx, {}));
	});

	it('counts apart, with their reason, the holders of Administrator the bots reach; those above them are can’t already', () => {
		const ctx = guildContext({ roles, workerHighestPosition: 5, administratorRoleIds: [ADMIN_LOW, ADMIN_HIGH] });
		const estimate = estimateTimeout(counts, ctx, {});
		expect(estimate.leftAlone).toEqual([{ who: 'with Administrator', why: 'Discord never times them out: left alone', count: { atLeast: 0, atMost: 4 } }]);
		expect(estimate.cant).toEqual(estimateMemberEdit(counts, ctx, {}).cant);
	});

	it('leaves out holders ranked at or above the requester: they are out of their reach instead', () => {
		const ctx = forRequester(guildContext({ roles, workerHighestPosition: 5, administratorRoleIds: [ADMIN_LOW] }), {
			kind: 'member',
			userId: '4',
			position: 2,
			roleName: 'Helper',
		});
		expect(estimateTimeout(counts, ctx, {}).leftAlone?.[0]?.count).toEqual({ atLeast: 0, atMost: 0 });
	});

	it('changes nobody when @everyone grants Administrator', () => {
		const ctx = guildContext({ roles, workerHighestPosition: 5, administratorRoleIds: [GUILD_ID] });
		const estimate = estimateTimeout(counts, ctx, {});
		expect(estimate.change).toEqual({ atLeast: 0, atMost: 0 });
		expect(estimate.leftAlone?.[0]?.count.atMost).toBeGreaterThan(0);
	});
});
