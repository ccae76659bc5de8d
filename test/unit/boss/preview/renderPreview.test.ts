import { ComponentType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { CUSTOM_ID_MAX_LENGTH } from '../../../../src/boss/customIds.js';
import { formatRange, type PreviewFacts, type PreviewStatus, renderPreview } from '../../../../src/boss/preview/renderPreview.js';
import { confirmCancelButtons, statusButtons } from '../../../../src/boss/status/statusButtons.js';

const facts: PreviewFacts = {
	title: 'Renaming to “🎃 {display_name}”',
	scope: 'every member',
	guildMembers: 1_000_003,
	estimate: { inScope: { atLeast: 1_000_000, atMost: 1_000_000 }, change: { atLeast: 0, atMost: 999_970 }, cant: { atLeast: 30, atMost: 36 } },
	sample: {
		planned: 100,
		tally: { change: 93, done: 2, cant: 5, aboveRequester: 0, skip: 0 },
		changes: ['@alice: (no nickname) → “🎃 Alice”', '@bob: “Bobby” → “🎃 Bob”'],
	},
	reason: 'massnick nickname by owner (100000000000000001)',
	workers: 10,
	workerCount: 10,
	heldIds: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
	durationMs: 99_997_000,
	perSecond: 10,
};

const SNOWFLAKE = '1234567890123456789';
const open: PreviewStatus = { state: 'open', previewId: SNOWFLAKE, expiresAt: 1_700_000_060_000 };
const closed: PreviewStatus[] = [
	{ state: 'starting' },
	{ state: 'started', text: 'Started: **Renaming**' },
	{ state: 'failed', error: 'A job is already running.' },
	{ state: 'cancelled' },
	{ state: 'expired' },
	{ state: 'replaced' },
	{ state: 'stopped' },
];

/** Discord's limits on a message's embed and buttons, as the sandbox checks them. */
function expectWithinDiscordLimits(message: ReturnType<typeof renderPreview>): void {
	expect(message.embeds).toHaveLength(1);
	expect(message.embeds[0]!.title!.length).toBeLessThanOrEqual(256);
	expect(message.embeds[0]!.description!.length).toBeLessThanOrEqual(4096);
	expect(message.components.length).toBeLessThanOrEqual(5);
	for (const row of message.components) {
		expect(row.type).toBe(ComponentType.ActionRow);
		expect(row.components.length).toBeGreaterThanOrEqual(1);
		expect(row.components.length).toBeLessThanOrEqual(5);
		for (const button of row.components) {
			if ('custom_id' in button) expect(button.custom_id.length).toBeLessThanOrEqual(CUSTOM_ID_MAX_LENGTH);
			if ('label' in button) expect(button.label!.length).toBeLessThanOrEqual(80);
		}
	}
}

describe('renderPreview', () => {
	it('a job limited to a file of ids shows its listed ids looked up: members, not members, and their plans', () => {
		const sample = { planned: 488, tally: { change: 470, done: 10, cant: 8, aboveRequester: 0, skip: 0 }, changes: ['@alice: (no nickname) → “🎃 Alice”'] };
		const all = renderPreview({ ...facts, sample: { ...sample, listed: { looked: 500, total: 500 } } }, open).embeds[0]!.description!;
		expect(all).toContain(
			"The 500 listed user ids, looked up: 488 are members of the server, 12 are not (nothing is sent for them). Of the members: 470 to change, 10 already done, 8 can't, 0 left alone.",
		);
		expect(all).toContain('• @alice: (no nickname) → “🎃 Alice”');
		expect(all).not.toContain('The first 488 members listed');
		const some = renderPreview({ ...facts, sample: { ...sample, planned: 999, listed: { looked: 1_000, total: 12_000 } } }, open).embeds[0]!.description!;
		expect(some).toContain('The first 1,000 of the 12,000 listed user ids, looked up: 999 are members of the server, 1 is not (nothing is sent for it).');
		const none = renderPreview({ ...facts, sample: { ...sample, planned: 0, changes: [], listed: { looked: 3, total: 3 } } }, open).embeds[0]!.description!;
		expect(none).toContain('The 3 listed user ids, looked up: 0 are members of the server, 3 are not (nothing is sent for them).');
	});

	it('a ban limited to a file of ids counts the listed users who are not members apart, as banned too, with Discord’s limit on them', () => {
		const sample = { planned: 452, tally: { change: 450, done: 0, cant: 2, aboveRequester: 0, skip: 0 }, changes: [] };
		const nonMembers = { handling: { reached: true, memberOnly: [] }, changed: 'banned' };
		const all = renderPreview({ ...facts, sample: { ...sample, listed: { looked: 500, total: 500, nonMembers } } }, open).embeds[0]!.description!;
		expect(all).toContain(
			"The 500 listed user ids, looked up: 452 are members of the server. Of the members: 450 to change, 0 already done, 2 can't, 0 left alone.",
		);
		expect(all).toContain('\n**48 users who are not members will be banned** too (they left, or never joined;');
		expect(all).toContain('past it, the job stops on them and says so.');
		const some = renderPreview({ ...facts, sample: { ...sample, planned: 999, listed: { looked: 1_000, total: 12_000, nonMembers } } }, open);
		expect(some.embeds[0]!.description!).toContain('Among those looked up, **1 user who is not a member will be banned** too');
		const kept = { handling: { reached: false, memberOnly: ['the name pattern', 'the join date'] }, changed: 'banned' };
		const filtered = renderPreview({ ...facts, sample: { ...sample, listed: { looked: 500, total: 500, nonMembers: kept } } }, open).embeds[0]!.description!;
		expect(filtered).toContain('48 are not (nothing is sent for them: only a member can be judged by the name pattern and the join date).');
		expect(filtered).not.toContain('will be banned');
	});

	it('shows what runs, the counts, the sample, the reason, the workers and the time, with Start and Cancel', () => {
		const message = renderPreview(facts, open);
		const { title, description } = message.embeds[0]!;
		expect(title).toBe('Preview · Renaming to “🎃 {display_name}”');
		expect(description).toContain('for every member.');
		expect(description).toContain('Members: 1,000,003 in the server · 1,000,000 in scope');
		expect(description).toContain('Will change **up to 999,970**');
		expect(description).toContain("can't 30–36 (the owner, and members with a role at or above the workers' highest)");
		expect(description).toContain("The first 100 members listed: 93 to change, 2 already done, 5 can't, 0 left alone.");
		expect(description).toContain('• @alice: (no nickname) → “🎃 Alice”');
		expect(description).toContain('Audit-log reason: “massnick nickname by owner (100000000000000001)”');
		expect(description).toContain('10 workers at about 10 changes a second together: about **27h 46m**.');
		expect(description).toContain('expires <t:1700000060:R>');
		expect(message.components).toEqual([
			{
				type: ComponentType.ActionRow,
				components: [
					expect.objectContaining({ label: 'Start', custom_id: `preview:${SNOWFLAKE}:start` }),
					expect.objectContaining({ label: 'Cancel', custom_id: `preview:${SNOWFLAKE}:cancel` }),
				],
			},
		]);
		expectWithinDiscordLimits(message);
	});

	it.each(closed)('a closed preview ($state) says what became of it and has no buttons', (status) => {
		const message = renderPreview(facts, status);
		expect(message.components).toEqual([]);
		expect(message.embeds[0]!.title).toMatch(/^Preview \(closed\)/);
		expect(message.embeds[0]!.description).not.toContain('Nothing changes until you press');
		expectWithinDiscordLimits(message);
	});

	it('a process holding some of the workers names them, of how many, and that only their members change here, in their share of the time', () => {
		const description = renderPreview({ ...facts, workers: 5, heldIds: [0, 1, 2, 3, 4], perSecond: 5, durationMs: 99_997_000 }, open).embeds[0]!.description!;
		expect(description).toContain(
			"Workers 0–4 of 10 here, at about 5 changes a second together; the others run elsewhere. Here only these workers' members change, about 50% of those counted above: about **27h 46m**.",
		);
		expect(description).not.toContain('10 workers at');
	});

	it('says the count is made as it runs when only the run can tell', () => {
		const description = renderPreview({ ...facts, estimate: {}, durationMs: null }, open).embeds[0]!.description!;
		expect(description).toContain('Will change **as many as need it (counted as it runs)**');
		expect(description).toContain('the time is known once it runs');
		expect(description).not.toContain('in scope');
	});

	it('counts apart, each with its reason, the members an action leaves alone itself; an empty group says nothing', () => {
		const leftAlone = [
			{ who: 'with Administrator', why: 'Discord never times them out: left alone', count: { atLeast: 0, atMost: 4 } },
			{ who: 'with Zilch', why: 'never shown', count: { atLeast: 0, atMost: 0 } },
		];
		const description = renderPreview({ ...facts, estimate: { ...facts.estimate, leftAlone } }, open).embeds[0]!.description!;
		expect(description).toContain('with Administrator up to 4 (Discord never times them out: left alone)');
		expect(description).not.toContain('Zilch');
	});

	it('stays within 4096 characters and 256 for the title, however long the names, reason and sample', () => {
		const long = 'x'.repeat(5000);
		const message = renderPreview(
			{
				...facts,
				title: long,
				scope: `members with @${'r'.repeat(100)} except those with @${'e'.repeat(100)}`,
				undoes: long,
				reason: 'r'.repeat(512),
				sample: { ...facts.sample, changes: Array.from({ length: 200 }, () => `@${'u'.repeat(32)}: “${'*'.repeat(32)}” → “${'_'.repeat(32)}”`), note: long },
			},
			{ state: 'failed', error: long },
		);
		expectWithinDiscordLimits(message);
		const longAndOpen = renderPreview({ ...facts, title: long, undoes: long, reason: 'r'.repeat(512), countsNote: long }, open);
		expectWithinDiscordLimits(longAndOpen);
		expect(longAndOpen.embeds[0]!.description).toContain('Nothing changes until you press **Start**');
		const open2 = renderPreview(
			{ ...facts, sample: { ...facts.sample, changes: Array.from({ length: 500 }, (_, i) => `change ${i} ${'y'.repeat(150)}`) } },
			open,
		);
		expectWithinDiscordLimits(open2);
		// The sample gives way; the buttons' prompt stays.
		expect(open2.embeds[0]!.description).toContain('Nothing changes until you press **Start**');
	});

	it('escapes markdown in names, so a nickname cannot bold or hide the rest', () => {
		const description = renderPreview({ ...facts, title: 'Renaming to “**big** ||x||”' }, open).embeds[0]!.description!;
		expect(description).toContain('\\*\\*big\\*\\* \\|\\|x\\|\\|');
	});
});

describe('formatRange', () => {
	it.each([
		[{ atLeast: 5, atMost: 5 }, '5'],
		[{ atLeast: 0, atMost: 1234 }, 'up to 1,234'],
		[{ atLeast: 1200, atMost: 1234 }, '1,200–1,234'],
		[{ atLeast: 0, atMost: 0 }, '0'],
	])('%j reads %s', (range, text) => {
		expect(formatRange(range)).toBe(text);
	});
});

describe('the live status buttons', () => {
	const key = 'm3k2j1h0.1z141z3';
	it('are Cancel and Refresh in one row, within Discord’s limits; a count has Refresh only', () => {
		const row = statusButtons(key, true);
		expect(row.components.map((button) => ('label' in button ? button.label : ''))).toEqual(['Cancel', 'Refresh']);
		expect(statusButtons(key, false).components.map((button) => ('label' in button ? button.label : ''))).toEqual(['Refresh']);
		const confirm = confirmCancelButtons(key, '12345678901234567890');
		expect(confirm.components.map((button) => ('label' in button ? button.label : ''))).toEqual(['Yes, cancel the job']);
		for (const r of [row, confirm]) {
			expect(r.components.length).toBeLessThanOrEqual(5);
			for (const button of r.components) if ('custom_id' in button) expect(button.custom_id.length).toBeLessThanOrEqual(CUSTOM_ID_MAX_LENGTH);
		}
	});
});
