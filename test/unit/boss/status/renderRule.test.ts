import { describe, expect, it } from 'vitest';
import { type RuleInfo, renderRuleStatus } from '../../../../src/boss/status/renderRule.js';
import type { FollowedCounts } from '../../../../src/jobs/index.js';
import { expectWithinDiscordLimits, snapshot, worker } from '../../../support/statusFixtures.js';

const STARTED = Date.UTC(2026, 0, 1, 12);
const SINCE = STARTED + 3_600_000;
const info: RuleInfo = { id: 'role-add-1', title: 'Adding @Newcomer', state: 'running', startedBy: 'alice', startedAt: STARTED, until: undefined };
const followed: FollowedCounts = { since: SINCE, changed: 12, alreadyDone: 3, cant: 1, skipped: 2, left: 0, failed: 0, lastChangeAt: SINCE + 7_200_000 };
const swept = snapshot([worker(0), worker(1)], { elapsedMs: 86_400_000 });
const t = (ms: number, style: string) => `<t:${ms / 1000}:${style}>`;

function shown(message: ReturnType<typeof renderRuleStatus>): { title: string; text: string } {
	return { title: message.embeds[0]!.title ?? '', text: message.embeds[0]!.description ?? '' };
}

describe('renderRuleStatus', () => {
	it('a rule following joins says so, since when, until /cancel ends it, what it did for joiners and when it last changed one', () => {
		const { title, text } = shown(renderRuleStatus(swept, followed, info));
		expect(title).toBe('Adding @Newcomer · following joins');
		expect(text).toContain(
			`following joins since ${t(SINCE, 'R')} (its sweep of the server ended ${t(SINCE, 'f')}), until \`/cancel rule:role-add-1\` ends it.`,
		);
		expect(text).toContain(
			`**Joiners and members who changed**: applied **12** · already done 3 · can't 1 · left alone 2 · left the server 0 · failed 0 · last change ${t(followed.lastChangeAt!, 'R')}`,
		);
		expect(text).toContain('In all, with its sweep: changed **10,000** · already done 200');
		// A rule has no end to count down to.
		expect(text).not.toMatch(/ETA|\/s ·/);
	});

	it('a rule with until says until when; one that changed no joiner yet says so', () => {
		const until = SINCE + 30 * 86_400_000;
		const { text } = shown(renderRuleStatus(swept, { ...followed, changed: 0, lastChangeAt: null }, { ...info, until }));
		expect(text).toContain(`until ${t(until, 'f')} (${t(until, 'R')}).`);
		expect(text).toContain('none changed yet');
	});

	it('an ended rule says from when to when it followed joins and how it ended: cancelled, its until, or stopped', () => {
		const endedAt = STARTED + swept.elapsedMs;
		const cancelled = shown(renderRuleStatus(swept, followed, { ...info, state: 'cancelled' }));
		expect(cancelled.title).toBe('Adding @Newcomer · cancelled');
		expect(cancelled.text).toContain(`followed joins from ${t(SINCE, 'f')} to ${t(endedAt, 'f')}, ended by \`/cancel\``);
		const reached = shown(renderRuleStatus(swept, followed, { ...info, state: 'finished', until: endedAt }));
		expect(reached.title).toBe('Adding @Newcomer · ended: until reached');
		expect(reached.text).toContain('when its until came');
		const failed = shown(renderRuleStatus(swept, followed, { ...info, state: 'failed', error: 'The role @Newcomer was deleted.' }));
		expect(failed.title).toBe('Adding @Newcomer · failed');
		expect(failed.text).toContain('stopped: it could not go on (below)');
		expect(failed.text).toContain('⚠️ The role @Newcomer was deleted.');
		expect(shown(renderRuleStatus(swept, followed, { ...info, state: 'cancelling' })).title).toBe('Adding @Newcomer · ending');
	});

	it('fits Discord’s embed limits with a thousand workers and a long error', () => {
		const workers = Array.from({ length: 1_000 }, (_, index) => worker(index));
		const message = renderRuleStatus(snapshot(workers), followed, {
			...info,
			state: 'failed',
			error: 'x'.repeat(5_000),
			stoppedWorkers: workers.map((w) => w.index),
		});
		expectWithinDiscordLimits(message);
	});
});
