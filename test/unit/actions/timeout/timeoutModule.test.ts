import { describe, expect, it } from 'vitest';
import type { ActionArgs } from '../../../../src/actions/ActionModule.js';
import { describeTimeoutChange } from '../../../../src/actions/timeout/describeTimeoutChange.js';
import { TimeoutAction } from '../../../../src/actions/timeout/TimeoutAction.js';
import { timeoutModule } from '../../../../src/actions/timeout/timeoutModule.js';
import type { JournalHeader } from '../../../../src/jobs/journal/Journal.js';

const args = (options: Record<string, string>): ActionArgs => ({
	subcommand: undefined,
	string: (name) => options[name],
	role: () => undefined,
	boolean: () => false,
});
const header = (target: string): JournalHeader =>
	({
		type: 'job',
		version: 2,
		jobId: 'j',
		guildId: '1',
		action: 'timeout',
		target,
		title: '',
		onlyRoleId: null,
		excludeRoleId: null,
		startedBy: { id: '1', tag: 'mod' },
		startedAt: '',
		workers: 1,
	}) as unknown as JournalHeader;
const member = { id: '300000000000000001', username: 'alice_*', globalName: null, nick: null, roles: [], bot: false };

describe('timeoutModule', () => {
	it('fixes the end when asked, and a journal gives back the same end and reason for a rerun or a restore', () => {
		const before = Date.now();
		const { action } = timeoutModule.request(args({ duration: '6h', reason: '  raid  ' }), undefined as never);
		const until = (action as TimeoutAction).until;
		expect(until).toBeGreaterThan(before + 6 * 3_600_000 - 1000);
		expect(until % 1000).toBe(0);
		const rebuilt = timeoutModule.fromJournal(header(action.target), undefined as never) as TimeoutAction;
		expect([rebuilt.until, rebuilt.reason, rebuilt.target]).toEqual([until, 'raid', action.target]);
		expect((timeoutModule.request(args({ duration: '6h', reason: '   ' }), undefined as never).action as TimeoutAction).reason).toBeUndefined();
	});

	it('checks the duration before connecting, naming the option', () => {
		expect(() => timeoutModule.check!(args({ duration: '30d' }), { nicknameMaxLength: 32 })).toThrow(/^duration: "30d" is longer/);
	});

	it('refuses to resume a job whose end has passed: nothing is left to do', () => {
		expect(() => timeoutModule.resume!(header('2020-01-01T00:00:00Z'), undefined as never)).toThrow(
			/ended at 2020-01-01T00:00:00Z, so there is nothing left to do/,
		);
		expect(timeoutModule.resume!(header(new TimeoutAction({ until: Date.now() + 60_000 }).target), undefined as never)).toBeInstanceOf(TimeoutAction);
	});

	it('shows a change with the end as a Discord timestamp, the name escaped, and an undo as lifted', () => {
		expect(describeTimeoutChange(member, null, '2026-05-01T18:00:00.000Z')).toBe('@alice\\_\\*: timed out until <t:1777658400:f>');
		expect(describeTimeoutChange(member, '2026-05-01T13:00:00.000Z', '2026-05-01T18:00:00.000Z')).toBe(
			'@alice\\_\\*: timed out until <t:1777658400:f> (was until <t:1777640400:f>)',
		);
		expect(describeTimeoutChange(member, '2026-05-01T18:00:00.000Z', null)).toBe('@alice\\_\\*: timeout lifted');
	});
});
