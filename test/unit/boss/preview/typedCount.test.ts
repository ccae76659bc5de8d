import { ButtonStyle, ComponentType } from 'discord.js';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { PendingJob } from '../../../../src/boss/preview/PendingJob.js';
import { Preview } from '../../../../src/boss/preview/Preview.js';
import { type PreviewFacts, renderPreview } from '../../../../src/boss/preview/renderPreview.js';
import { readTypedCount, TYPED_COUNT_INPUT, typedCountModal } from '../../../../src/boss/preview/typedCountModal.js';

const facts: PreviewFacts = {
	title: 'Kicking members',
	scope: 'members who joined at or after 2026-05-01 whose name matches /free nitro/i',
	guildMembers: 20_010,
	estimate: { inScope: { atLeast: 2_003, atMost: 2_003 }, change: { atLeast: 2_000, atMost: 2_000 }, cant: { atLeast: 3, atMost: 3 } },
	countsNote: 'Counted exactly: every member of the server was listed and planned as the job will plan them.',
	irreversible: 'A kick cannot be undone: kicked members must be invited back',
	typedCount: 2_000,
	sample: { planned: 100, tally: { change: 10, done: 0, cant: 0, aboveRequester: 0, skip: 90 }, changes: ['@raider1 (300000000000000001) is kicked'] },
	reason: 'massnick kick by mod (1): raid',
	workers: 10,
	workerCount: 10,
	heldIds: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
	durationMs: 40_000,
	perSecond: 10,
};
const open = { state: 'open', previewId: '1234567890123456789', expiresAt: 1_700_000_060_000 } as const;

describe('a preview of a job that cannot be undone', () => {
	it('says so in words, asks for the exact count to be typed, and its Start is red', () => {
		const message = renderPreview(facts, open);
		const description = message.embeds[0]!.description!;
		expect(description).toContain('⚠️ **A kick cannot be undone: kicked members must be invited back.** /restore will not bring anyone back.');
		expect(description).toContain('Will change **2,000**');
		expect(description).toContain('press **Start** and type the number of members it will change, **2,000**, in the box it opens.');
		expect(description).toContain('Counted exactly');
		expect(description).not.toContain('hence the ranges');
		const [start] = message.components[0]!.components;
		expect(start).toMatchObject({ style: ButtonStyle.Danger, label: 'Start' });
		expect(renderPreview({ ...facts, irreversible: undefined, typedCount: undefined }, open).components[0]!.components[0]).toMatchObject({
			style: ButtonStyle.Success,
		});
	});
});

describe('a preview of a ban of more than 100 members', () => {
	const ban: PreviewFacts = {
		...facts,
		title: 'Banning members',
		irreversible: undefined,
		typedCountWhy: 'A ban of more than 100 members is confirmed by its count (/restore unbans them)',
	};

	it('says why the count is asked, never that the ban cannot be undone, and asks for the exact count', () => {
		const description = renderPreview(ban, open).embeds[0]!.description!;
		expect(description).toContain(
			'A ban of more than 100 members is confirmed by its count (/restore unbans them). Nothing changes until you press **Start** and type the number of members it will change, **2,000**, in the box it opens.',
		);
		expect(description).not.toMatch(/cannot be undone|will not bring anyone back/);
	});

	it('opens a modal that says the same and nothing of an undo it lacks', () => {
		const preview = new Preview({
			id: '1234567890123456789',
			userId: '1',
			permission: 6n,
			pending: {} as PendingJob,
			facts: ban,
			edit: async () => undefined,
			logger: pino({ level: 'silent' }),
		});
		const modal = typedCountModal(preview, 2_000);
		expect(modal.title).toBe('Confirm: Banning members');
		const text = (modal.components[0] as { content: string }).content;
		expect(text).toContain('A ban of more than 100 members is confirmed by its count (/restore unbans them).');
		expect(text).toContain('Type **2000** below to start it.');
		expect(text).not.toContain('cannot be undone');
	});
});

describe('typedCountModal', () => {
	const preview = new Preview({
		id: '1234567890123456789',
		userId: '1',
		permission: 2n,
		pending: {} as PendingJob,
		facts,
		edit: async () => undefined,
		logger: pino({ level: 'silent' }),
	});

	it('names the preview, says what runs and why it cannot be undone, and asks for the number in a Label, within Discord’s limits', () => {
		const modal = typedCountModal(preview, 2_000);
		expect(modal.custom_id).toBe('confirm:1234567890123456789');
		expect(modal.title).toBe('Confirm: Kicking members');
		const [text, label] = modal.components as [
			{ type: number; content: string },
			{ type: number; label: string; description: string; component: Record<string, unknown> },
		];
		expect(text.type).toBe(ComponentType.TextDisplay);
		expect(text.content).toContain('**2,000** members');
		expect(text.content).toContain('A kick cannot be undone');
		expect(text.content).toContain('Type **2000** below to start it.');
		expect(label).toMatchObject({ type: ComponentType.Label, component: { type: ComponentType.TextInput, custom_id: TYPED_COUNT_INPUT, required: true } });
		expect(label.label.length).toBeLessThanOrEqual(45);
		expect(typedCountModal(preview, 1).title.length).toBeLessThanOrEqual(45);
		const long = new Preview({ ...preview.options, facts: { ...facts, title: `Giving @${'x'.repeat(100)}` } });
		expect([...typedCountModal(long, 1).title].length).toBeLessThanOrEqual(45);
	});
});

describe('readTypedCount', () => {
	it.each([
		['2000', 2000],
		[' 2000 ', 2000],
		['2,000', 2000],
		['2 000', 2000],
		['2.000', 2000],
		["1'234'567", 1234567],
		['0', 0],
	])('reads %j as %d', (text, count) => {
		expect(readTypedCount(text)).toBe(count);
	});

	it.each(['', 'two thousand', '2.5', '2,00', '20,00,000', '2,000.000', '-2000', '2e3', '1,234 567'])('reads %j as no number', (text) => {
		expect(readTypedCount(text)).toBeUndefined();
	});
});
