import type { ControlMessage } from '@massnick/discord-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../src/jobs/Job.js';
import { startRule } from '../support/startRule.js';
import { type Stack, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

/** A sweeping job's status is edited every quarter second; a following rule's at most every 5 s. 800 members: the sweep outlasts the posting of its status. */
const REFRESH_S = 0.25;
const RULE_REFRESH_S = 5;
const BURSTS = 4;
const PER_BURST = 10;
const JOINERS = BURSTS * PER_BURST;

type Embed = { title?: string; description?: string };
const embedOf = (message: ControlMessage): Embed => (message.embeds[0] ?? {}) as Embed;
const buttonsOf = (message: ControlMessage): string[] => message.components.flatMap((row) => row.components ?? []).map((button) => button.custom_id ?? '');

/**
 * A standing rule's live status while it follows joins for months: edited when it begins to
 * follow, then only when its counts changed and at most once every `ruleStatusRefreshSeconds`,
 * never while nobody joins, at once when it ends, and never a new message. Edits are counted on
 * the sandbox's side.
 */
describe('a standing rule’s live status', () => {
	let stack: Stack;
	let guildId: string;
	let rule: Job;
	let statusId: string;

	/** The rule's status message as the channel holds it now. */
	const status = (): Promise<ControlMessage> => stack.control.message(stack.sandbox.channelId, statusId);
	const bossMessages = async (): Promise<ControlMessage[]> =>
		(await stack.control.messages(stack.sandbox.channelId)).filter((message) => !message.ephemeral && message.interactionId === null);

	beforeAll(async () => {
		stack = await startStack({
			members: 800,
			workers: 4,
			timeScale: 20,
			settings: (config) => ({
				...config,
				statusRefreshSeconds: REFRESH_S,
				ruleStatusRefreshSeconds: RULE_REFRESH_S,
				preview: { timeoutSeconds: 60, skipBelowMembers: 0 },
			}),
		});
		guildId = stack.sandbox.guildId;
	}, 60_000);

	afterAll(async () => {
		await stack?.close();
	});

	it('says at once that the rule follows joins, then stays one message edited at most once per ruleStatusRefreshSeconds while joiners come, showing their counts', async () => {
		const role = (await stack.control.createRole(guildId, { name: 'Newcomer', position: 1 })).id;
		const before = new Set((await bossMessages()).map((message) => message.id));
		rule = await startRule(stack, 'massrole add', { role });
		await waitUntil(async () => (await bossMessages()).some((message) => !before.has(message.id) && embedOf(message).title?.startsWith(rule.title)), {
			what: 'the rule’s status message',
		});
		statusId = (await bossMessages()).find((message) => !before.has(message.id))!.id;
		// Sooner than the pace would let a change of counts through: the sweep's end is edited at once.
		await waitUntil(async () => embedOf(await status()).title === `${rule.title} · following joins`, {
			what: 'the status to say it follows joins',
			timeoutMs: (RULE_REFRESH_S - 1) * 1000,
		});
		const following = await status();
		// Posted while the rule still swept the server, and edited since.
		expect(following.edits).toBeGreaterThanOrEqual(1);
		expect(embedOf(following).description).toContain('📌 **Standing rule**: following joins since <t:');
		expect(embedOf(following).description).toContain(`until \`/cancel rule:${rule.id}\` ends it`);
		expect(buttonsOf(following)).toHaveLength(2);

		const editsBefore = following.edits;
		const from = Date.now();
		for (let burst = 1; burst <= BURSTS; burst++) {
			await stack.control.addMembers(guildId, PER_BURST);
			await waitUntil(() => rule.progress.followed.snapshot().changed >= burst * PER_BURST, { what: `burst ${burst} to get the role`, timeoutMs: 60_000 });
		}
		await waitUntil(async () => (embedOf(await status()).description ?? '').includes(`**Joiners and members who changed**: applied **${JOINERS}**`), {
			what: 'the status to show every joiner applied',
			timeoutMs: 30_000,
		});
		const elapsed = Date.now() - from;
		const shown = await status();
		const edits = shown.edits - editsBefore;
		// One edit per pace window at most (a sweeping job's message would have been edited every quarter second).
		expect(edits).toBeGreaterThanOrEqual(1);
		expect(edits).toBeLessThanOrEqual(Math.floor(elapsed / (RULE_REFRESH_S * 1000)) + 2);
		expect(edits).toBeLessThan(JOINERS);
		expect(embedOf(shown).description).toMatch(/last change <t:\d+:R>/);
		expect(embedOf(shown).description).toContain(`In all, with its sweep: changed **${rule.progress.snapshot().changed.toLocaleString('en-US')}**`);
		// Never a new message per change: the rule's one message and nothing else from the boss.
		expect((await bossMessages()).filter((message) => !before.has(message.id)).map((message) => message.id)).toEqual([statusId]);
	}, 120_000);

	it('an idle rule edits nothing while another job’s status ticks beside it, and goes on once someone joins', async () => {
		const idle = await status();
		const before = new Set((await bossMessages()).map((message) => message.id));
		// Renames change nobody's roles: the role rule has nothing to do while the job runs.
		const other = await stack.runJob('massnick', { name: 'Idle {username}' });
		expect(other.result?.state).toBe('finished');
		const otherStatus = (await bossMessages()).find((message) => !before.has(message.id) && embedOf(message).title?.startsWith(other.title));
		// Its status was edited on several ticks (its last edit, to the finished job, after it ended)...
		await waitUntil(async () => /finished/.test(embedOf(await stack.control.message(stack.sandbox.channelId, otherStatus!.id)).title ?? ''), {
			what: 'the other job’s status to show it finished',
		});
		expect((await stack.control.message(stack.sandbox.channelId, otherStatus!.id)).edits).toBeGreaterThanOrEqual(4);
		// ...and the rule's, ticking at the same pace, on none.
		expect((await status()).edits).toBe(idle.edits);

		await stack.control.addMembers(guildId, 1);
		await waitUntil(async () => (embedOf(await status()).description ?? '').includes(`applied **${JOINERS + 1}**`), {
			what: 'the rule’s status to show the next joiner',
			timeoutMs: 30_000,
		});
		expect(embedOf(await status()).title).toBe(`${rule.title} · following joins`);
	}, 120_000);

	it('its Cancel ends the rule, and the status shows the end at once though no count changed, without buttons', async () => {
		const shown = await status();
		const [cancel] = buttonsOf(shown);
		const ask = await stack.press(statusId, cancel!);
		const confirmation = await stack.control.message(stack.sandbox.channelId, ask.originalMessageId!);
		const [yes] = buttonsOf(confirmation);
		await stack.press(confirmation.id, yes!);
		expect((await rule.ended()).state).toBe('cancelled');
		expect(stack.massnick.jobs.rules.all).toEqual([]);
		await waitUntil(async () => embedOf(await status()).title === `${rule.title} · cancelled`, { what: 'the status to show the rule cancelled' });
		const ended = await status();
		expect(ended.components).toEqual([]);
		expect(embedOf(ended).description).toMatch(/followed joins from <t:\d+:f> to <t:\d+:f>, ended by `\/cancel`/);
		expect(embedOf(ended).description).toContain(`applied **${JOINERS + 1}**`);
	}, 60_000);
});
