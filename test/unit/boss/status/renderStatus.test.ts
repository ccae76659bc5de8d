import { describe, expect, it } from 'vitest';
import { type JobInfo, renderReport, renderStatus } from '../../../../src/boss/status/renderStatus.js';
import { expectWithinDiscordLimits, snapshot, worker } from '../../../support/statusFixtures.js';

const info: JobInfo = { title: 'Renaming to “🎃 {display_name}”', state: 'running', startedBy: 'alice', dryRun: false };

function descriptionOf(message: ReturnType<typeof renderStatus>): string {
	return message.embeds[0]!.description ?? '';
}

describe('renderStatus', () => {
	it('shows the bar, the share done, done of total, rate, elapsed and ETA', () => {
		const text = descriptionOf(renderStatus(snapshot([worker(0), worker(1)]), info));
		expect(text).toContain('`██████████░░░░░░░░░░` **51%** · 10,312 of 20,000');
		expect(text).toContain('**7.0**/s');
		expect(text).toContain('elapsed 1h 00m');
		expect(text).toContain('ETA 1h 02m');
	});

	it("the members of other processes' workers show apart, and only when there are some", () => {
		const here = descriptionOf(renderStatus(snapshot([worker(3), worker(4)], { elsewhere: 80_000 }), info));
		expect(here).toContain('10,312 of 20,000');
		expect(here).toContain('80,000 members belong to workers in other processes: theirs to change, in no count here.');
		expect(descriptionOf(renderStatus(snapshot([worker(0)]), info))).not.toContain('other processes');
	});

	it('a job limited to a file of ids says which, and how many of them are not members', () => {
		const listedIds = 'Only the 500 user ids in “ids.txt”: 12 of them are not members of the server, so nothing is sent for them.';
		expect(descriptionOf(renderStatus(snapshot([worker(0)]), { ...info, listedIds }))).toContain(listedIds);
		expect(descriptionOf(renderStatus(snapshot([worker(0)]), info))).not.toContain('user ids');
	});

	it('the bar reads 0% and 100% at the ends', () => {
		const empty = descriptionOf(renderStatus(snapshot([worker(0, { done: 0, changed: 0 })], { done: 0 }), info));
		expect(empty).toContain(`\`${'░'.repeat(20)}\` **0%**`);
		const full = descriptionOf(renderStatus(snapshot([worker(0, { done: 10_000 })], { done: 10_000 }), { ...info, state: 'finished' }));
		expect(full).toContain(`\`${'█'.repeat(20)}\` **100%**`);
	});

	it('a row per worker in a code block: worker, done/slice, failed, rate, ETA', () => {
		const text = descriptionOf(renderStatus(snapshot([worker(0), worker(1, { done: 10_000, etaMs: 0, rate: 0 })]), info));
		const table = text.slice(text.indexOf('```'));
		expect(table).toMatch(/^```\n.*worker.*done\/slice.*failed.*rate\/s.*ETA/);
		expect(table).toContain('5,156/10,000');
		expect(table).toContain('10,000/10,000');
		expect(table.trimEnd().endsWith('```')).toBe(true);
	});

	it('no NaN or Infinity when nothing has moved yet', () => {
		const idle = snapshot([worker(0, { done: 0, inSlice: 0, rate: 0, etaMs: null, changed: 0, failed: {}, failedTotal: 0 })], {
			total: 0,
			done: 0,
			remaining: 0,
			rate: 0,
			etaMs: null,
			elapsedMs: 0,
			listingDone: false,
		});
		const text = JSON.stringify(renderStatus(idle, { ...info, state: 'planned' }));
		expect(text).not.toMatch(/NaN|Infinity|undefined/);
	});

	it('fits Discord’s limits with 100 workers, and says how many rows are left out', () => {
		const workers = Array.from({ length: 100 }, (_, index) => worker(index, { failed: { timeout: index, 'missing-permissions': 2 } }));
		const message = renderStatus(snapshot(workers), info);
		expectWithinDiscordLimits(message);
		const text = descriptionOf(message);
		expect(text).toMatch(/… and \d+ more workers/);
		expect(text.trimEnd().endsWith('```')).toBe(true);
	});

	it('fits with 50 workers, long failure reasons and a long error', () => {
		const failed = Object.fromEntries(Array.from({ length: 200 }, (_, n) => [`discord-${50_000 + n}-a-long-reason`, n + 1]));
		const workers = Array.from({ length: 50 }, (_, index) => worker(index, { failed, failedTotal: 20_100 }));
		const message = renderStatus(snapshot(workers), { ...info, error: 'x'.repeat(3000), stoppedWorkers: Array.from({ length: 50 }, (_, n) => n) });
		expectWithinDiscordLimits(message);
		expect((descriptionOf(message).match(/```/g) ?? []).length).toBe(2);
		expect(descriptionOf(message)).toContain('```\nworker');
		expect(descriptionOf(message)).toMatch(/and \d+ more/);
	});

	it('when rows must be left out, the workers with the most left are the ones shown', () => {
		const workers = Array.from({ length: 100 }, (_, index) => worker(index, { done: index === 77 ? 0 : 9_000 }));
		const text = descriptionOf(renderStatus(snapshot(workers), info));
		expect(text).toMatch(/\n\s+77\s+0\/10,000/);
		expect(text).toMatch(/… and 60 more workers: 540,000\/600,000/);
	});

	it('a dry run and the state are in the title', () => {
		const message = renderStatus(snapshot([worker(0)]), { ...info, dryRun: true, state: 'cancelling' });
		expect(message.embeds[0]!.title).toMatch(/^Dry run/);
		expect(message.embeds[0]!.title).toContain('cancelling');
		expect(message.embeds[0]!.footer?.text).toContain('alice');
	});

	it('a partial total says the listing is still going', () => {
		expect(descriptionOf(renderStatus(snapshot([worker(0)], { listingDone: false }), info))).toContain('still listing');
	});
});

describe('renderReport', () => {
	it('has a row per worker with slice, changed, already done, can’t, left and failed', () => {
		const report = renderReport(snapshot([worker(0), worker(1, { changed: 7 })]));
		expect(report).toMatch(/worker\s+in slice\s+changed\s+already\s+can't\s+left\s+failed/);
		expect(report).toMatch(/\n\s+1\s+10,000\s+7\s+100\s+2\s+3\s+1\n/);
	});

	it('lists failures by reason', () => {
		const report = renderReport(snapshot([worker(0, { failed: { timeout: 3, 'missing-permissions': 1 }, failedTotal: 4 })]));
		expect(report).toContain('timeout 3');
		expect(report).toContain('missing-permissions 1');
	});

	it('stays within a message with 100 workers', () => {
		const report = renderReport(snapshot(Array.from({ length: 100 }, (_, index) => worker(index))));
		expect(report.length).toBeLessThanOrEqual(4096);
		expect(report).toMatch(/more workers/);
	});
});

describe('renderStatus once the job has ended', () => {
	it("shows the per-worker report (in slice, changed, already done, can't, left, failed) instead of rates", () => {
		const workers = [worker(0, { inSlice: 10, changed: 7, alreadyDone: 2, cant: 1 }), worker(1, { inSlice: 5, changed: 5 })];
		const running = descriptionOf(renderStatus(snapshot(workers), info));
		const finished = descriptionOf(renderStatus(snapshot(workers), { ...info, state: 'finished' }));
		expect(running).toContain('rate/s');
		expect(running).not.toContain('in slice');
		expect(finished).toContain('in slice');
		expect(finished).toMatch(/\n\s+0\s+10\s+7\s+2\s+1\s/);
		expectWithinDiscordLimits(renderStatus(snapshot(workers), { ...info, state: 'finished' }));
	});
});
