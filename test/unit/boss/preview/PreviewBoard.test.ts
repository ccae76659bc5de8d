import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { PendingJob } from '../../../../src/boss/preview/PendingJob.js';
import { Preview } from '../../../../src/boss/preview/Preview.js';
import { PreviewBoard, type Scheduler } from '../../../../src/boss/preview/PreviewBoard.js';
import type { PreviewFacts, PreviewMessage } from '../../../../src/boss/preview/renderPreview.js';
import { flushPromises } from '../../../support/flushPromises.js';

const OWNER = '100000000000000001';
const OTHER = '100000000000000002';

const facts: PreviewFacts = {
	title: 'Adding @Event',
	scope: 'every member',
	guildMembers: 10,
	estimate: {},
	sample: { planned: 0, tally: { change: 0, done: 0, cant: 0, aboveRequester: 0, skip: 0 }, changes: [] },
	reason: 'massnick role-add by owner',
	workers: 2,
	workerCount: 2,
	heldIds: [0, 1],
	durationMs: null,
	perSecond: 2,
};

/** Timers the test fires by hand. */
function manualTimers(): { schedule: Scheduler; fire: () => void; pending: () => number } {
	const timers = new Set<() => void>();
	return {
		schedule(run) {
			timers.add(run);
			return () => timers.delete(run);
		},
		fire() {
			const due = [...timers];
			timers.clear();
			for (const run of due) run();
		},
		pending: () => timers.size,
	};
}

/** A preview whose message is a list of the edits it got. */
function preview(id: string, userId = OWNER): { preview: Preview; edits: PreviewMessage[] } {
	const edits: PreviewMessage[] = [];
	return {
		edits,
		preview: new Preview({
			id,
			userId,
			permission: 0n,
			pending: {} as PendingJob,
			facts,
			edit: async (message) => edits.push(message),
			logger: pino({ level: 'silent' }),
		}),
	};
}

const said = (edits: PreviewMessage[]): string => edits.at(-1)?.embeds[0]?.description ?? '';

describe('PreviewBoard', () => {
	it('lets only the member who ran the command answer the open preview', () => {
		const board = new PreviewBoard({ timeoutMs: 60_000, schedule: manualTimers().schedule });
		const { preview: open } = preview('1');
		board.open(open);
		expect(board.check('1', OWNER)).toEqual({ ok: true, preview: open });
		expect(board.check('1', OTHER)).toEqual({ ok: false, reason: 'not-yours', ownerId: OWNER });
		// Refusing another member takes nothing off the board.
		expect(board.take('1', OTHER, 'started')).toMatchObject({ ok: false, reason: 'not-yours' });
		expect(board.current).toBe(open);
	});

	it('a preview is answered once: Start takes it, and every press after is refused as started', () => {
		const timers = manualTimers();
		const board = new PreviewBoard({ timeoutMs: 60_000, schedule: timers.schedule });
		board.open(preview('1').preview);
		expect(board.take('1', OWNER, 'started').ok).toBe(true);
		expect(board.take('1', OWNER, 'started')).toEqual({ ok: false, reason: 'started' });
		expect(board.check('1', OWNER)).toEqual({ ok: false, reason: 'started' });
		expect(board.current).toBeUndefined();
		// Its expiry was called off.
		expect(timers.pending()).toBe(0);
	});

	it('a newer preview replaces the open one, whose message says so, and whose presses are refused', async () => {
		const board = new PreviewBoard({ timeoutMs: 60_000, schedule: manualTimers().schedule });
		const first = preview('1');
		const second = preview('2', OTHER);
		board.open(first.preview);
		board.open(second.preview);
		await flushPromises();
		expect(said(first.edits)).toMatch(/Replaced by a newer command/);
		expect(first.edits.at(-1)!.components).toEqual([]);
		expect(board.check('1', OWNER)).toEqual({ ok: false, reason: 'replaced' });
		expect(board.check('2', OTHER).ok).toBe(true);
	});

	it('a preview nobody answers expires: its message says so, and Start is refused as expired', async () => {
		const timers = manualTimers();
		const now = 1_700_000_000_000;
		const board = new PreviewBoard({ timeoutMs: 60_000, schedule: timers.schedule, now: () => now });
		const { preview: open, edits } = preview('1');
		expect(board.open(open)).toBe(now + 60_000);
		await flushPromises();
		expect(edits).toEqual([]);
		timers.fire();
		await flushPromises();
		expect(edits.map((edit) => edit.embeds[0]!.description!.split('\n')[0])).toEqual([
			'⌛ Expired: nobody pressed Start in time, so nothing ran. Run the command again for a fresh preview.',
		]);
		expect(edits[0]!.components).toEqual([]);
		expect(board.take('1', OWNER, 'started')).toEqual({ ok: false, reason: 'expired' });
	});

	it('a timer of a preview already answered does nothing', () => {
		const timers = manualTimers();
		let cancelled = 0;
		const board = new PreviewBoard({
			timeoutMs: 60_000,
			// A scheduler whose cancel is ignored: the timer fires anyway, as a late timer might.
			schedule: (run, ms) => {
				timers.schedule(run, ms);
				return () => cancelled++;
			},
		});
		const { preview: open, edits } = preview('1');
		board.open(open);
		board.take('1', OWNER, 'cancelled');
		timers.fire();
		expect(cancelled).toBe(1);
		expect(edits).toEqual([]);
		expect(board.check('1', OWNER)).toEqual({ ok: false, reason: 'cancelled' });
	});

	it('stop closes the open preview, saying massnick stopped; an id it never saw is unknown', async () => {
		const board = new PreviewBoard({ timeoutMs: 60_000, schedule: manualTimers().schedule });
		const { preview: open, edits } = preview('1');
		board.open(open);
		await board.stop();
		expect(said(edits)).toMatch(/massnick stopped before Start was pressed: nothing ran/);
		expect(board.check('1', OWNER)).toEqual({ ok: false, reason: 'stopped' });
		expect(board.check('42', OWNER)).toEqual({ ok: false, reason: 'unknown' });
	});
});

describe('Preview', () => {
	it('edits its message in the order asked, whatever each edit takes, and a failed edit only logs', async () => {
		const edits: string[] = [];
		let first = true;
		const slow = new Preview({
			id: '1',
			userId: OWNER,
			permission: 0n,
			pending: {} as PendingJob,
			facts,
			edit: async (message) => {
				if (first) {
					first = false;
					await new Promise((resolve) => setImmediate(resolve));
				}
				const line = message.embeds[0]!.description!.split('\n')[0]!;
				if (line.startsWith('⏹️')) throw new Error('token expired');
				edits.push(line);
			},
			logger: pino({ level: 'silent' }),
		});
		const opened = slow.show({ state: 'open', previewId: '1', expiresAt: 0 });
		const replaced = slow.show({ state: 'replaced' });
		const stopped = slow.show({ state: 'stopped' });
		expect(await Promise.all([opened, replaced, stopped])).toEqual([true, true, false]);
		expect(edits).toEqual(['**Adding @Event** for every member.', '↪️ Replaced by a newer command: nothing ran from this preview.']);
	});
});
