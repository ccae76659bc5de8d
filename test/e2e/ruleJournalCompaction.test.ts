import { readFileSync } from 'node:fs';
import type { SandboxRequest } from '@massnick/discord-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../src/jobs/Job.js';
import type { CompactionResult } from '../../src/jobs/journal/compactJournal.js';
import type { JobRun } from '../../src/jobs/run/JobRun.js';
import { commandAnswer } from '../support/commandAnswer.js';
import { startRule } from '../support/startRule.js';
import { type Stack, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const MEMBERS = 60;
const WAVE = 40;
const LEAVERS = 25;
const TEMPLATE = 'Rule {username}';
const PATCH_MEMBER = (request: SandboxRequest): boolean => request.method === 'PATCH' && request.route === '/guilds/:id/members/:id';

/**
 * A standing nickname rule's journal over many joiners, some of whom leave: with
 * `journal.compactAboveKB` at 1 the journal is compacted while the rule follows joins, the file
 * comes out smaller, with one line per member still there (the first original of each, in id
 * order) and none of a member who left; the index the rule plans with shrinks with it. /restore
 * afterwards gives every member still there exactly what they had before the rule.
 */
describe('a standing rule’s journal is compacted while it follows joins', () => {
	let stack: Stack;
	let guildId: string;
	let rule: Job;
	let run: JobRun;
	/** Every member's nickname before the rule, joiners' as they joined. */
	const before = new Map<string, string | null>();
	const leavers = new Set<string>();
	let compaction: CompactionResult | undefined;

	const ruleNick = async (ids: readonly string[]): Promise<boolean> => {
		const members = new Map((await stack.control.members(guildId)).map((member) => [member.id, member]));
		return ids.every((id) => members.get(id)?.nick?.startsWith('Rule ') === true);
	};

	/** Joiners while the rule follows, each renamed by it; their nickname before was none. */
	async function joinWave(count: number): Promise<string[]> {
		const { ids } = await stack.control.addMembers(guildId, count);
		for (const id of ids) before.set(id, null);
		await waitUntil(() => ruleNick(ids), { what: `${count} joiners renamed by the rule`, timeoutMs: 60_000 });
		return ids;
	}

	beforeAll(async () => {
		stack = await startStack({
			members: MEMBERS,
			workers: 4,
			settings: (config) => ({
				...config,
				preview: { timeoutSeconds: 60, skipBelowMembers: 0 },
				journal: { ...config.journal, compactAboveKB: 1 },
			}),
		});
		guildId = stack.sandbox.guildId;
		for (const member of await stack.control.members(guildId)) before.set(member.id, member.nick);
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('compacts the journal once it has grown, dropping the members who left, and the file comes out smaller', async () => {
		rule = await startRule(stack, 'massnick', { name: TEMPLATE });
		run = stack.massnick.jobs.runOf(rule)!;
		expect(run.rule).toBeDefined();
		const first = await joinWave(WAVE);
		for (const id of first.slice(0, LEAVERS)) {
			await stack.control.removeMember(guildId, id);
			leavers.add(id);
		}
		// Their leave reaches the rule as GUILD_MEMBER_REMOVE: its journal forgets them at once.
		await waitUntil(() => first.slice(0, LEAVERS).every((id) => run.journal!.originalOf(id) === undefined), { what: 'the leavers forgotten' });
		// Two members rename themselves: the rule renames them back, and their first original stays the one kept.
		const renamers = [...before.keys()].filter((id) => !leavers.has(id) && run.journal!.originalOf(id) !== undefined).slice(0, 2);
		for (const id of renamers) await stack.control.setOwnNick(guildId, id, 'My Own Name');
		await waitUntil(() => ruleNick(renamers), { what: 'the renamers renamed back' });

		// More joiners grow the journal until a compaction after the leaves has run.
		for (let wave = 0; wave < 8 && compaction === undefined; wave++) {
			await joinWave(WAVE);
			compaction = run.rule!.compactions.find((result) => result.dropped >= LEAVERS);
		}
		expect(compaction, 'a compaction that dropped the leavers').toBeDefined();
		expect(compaction!.bytesAfter).toBeLessThan(compaction!.bytesBefore);
		expect(stack.logs()).toContain("compacted a standing rule's journal");
	});

	it('the compacted journal holds one line per member still there, in id order, and the rule’s index no more than them', async () => {
		const path = run.journalPaths[0]!;
		const lines = readFileSync(path, 'utf8')
			.trimEnd()
			.split('\n')
			.map((line) => JSON.parse(line) as { type: string; id?: string; from?: string | null; entries?: number });
		expect(lines[0]).toMatchObject({ type: 'job', version: 3 });
		const marker = lines.findIndex((line) => line.type === 'compacted');
		expect(marker).toBe(1);
		const run0 = lines.slice(2, 2 + lines[1]!.entries!);
		expect(run0.every((line) => line.type === 'original')).toBe(true);
		const ids = run0.map((line) => BigInt(line.id!));
		expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
		const originals = lines.filter((line) => line.type === 'original');
		expect(new Set(originals.map((line) => line.id)).size).toBe(originals.length);
		for (const line of originals) expect(leavers.has(line.id!), line.id).toBe(false);
		for (const line of originals) expect(line.from, line.id).toBe(before.get(line.id!));

		const present = new Set((await stack.control.members(guildId)).map((member) => member.id));
		const journaled = originals.filter((line) => present.has(line.id!)).length;
		expect(journaled).toBe(originals.length - lines.filter((line) => line.type === 'left').length);
		expect(run.journal!.size).toBe(journaled);
	});

	it('/restore after the rule ends gives every member still there exactly what they had before it', async () => {
		const cancel = commandAnswer(
			stack.control,
			await stack.control.invoke(guildId, stack.sandbox.ownerId, 'cancel', { rule: rule.id }, stack.sandbox.channelId),
		);
		expect((await cancel).text).toContain(rule.id);
		expect((await rule.ended()).state).toBe('cancelled');
		const { lastSeq } = await stack.control.requests();
		const restore = await stack.runJob('restore');
		expect(restore.result?.state).toBe('finished');
		const members = await stack.control.members(guildId);
		for (const member of members) if (before.has(member.id)) expect(member.nick, member.id).toBe(before.get(member.id));
		const patched = (await stack.control.requests(lastSeq)).requests
			.filter((request) => PATCH_MEMBER(request) && request.status < 300)
			.map((request) => request.targetId!);
		for (const id of patched) expect(leavers.has(id), id).toBe(false);
		expect(new Set(patched).size).toBe(patched.length);
		expect(members.filter((member) => member.nick?.startsWith('Rule '))).toEqual([]);
	});
});
