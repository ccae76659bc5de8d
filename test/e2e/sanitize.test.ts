import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlMember, ControlMessage, SandboxRequest } from '@massnick/discord-sandbox';
import { workerIndexOf } from '../../src/workers/partition.js';
import { type Stack, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const WORKERS = 4;
const PATCH_MEMBER = (request: SandboxRequest): boolean => request.method === 'PATCH' && request.route === '/guilds/:id/members/:id';

/** Names as members decorate them, and what /sanitize makes of each. */
const DECORATED: ReadonlyArray<[decorated: string, cleaned: string]> = [
	['!!! Bob', 'Bob'],
	['.zed', 'zed'],
	['𝐁𝐨𝐥𝐝 𝐍𝐚𝐦𝐞', 'Bold Name'],
	['𝓈𝒸𝓇𝒾𝓅𝓉', 'script'],
	['Ｆｕｌｌ', 'Full'],
	['ⓒⓘⓡⓒⓛⓔ', 'circle'],
	['ʀᴇᴀᴅ ᴍᴇ', 'read me'],
	['h̴̡̛e̵͎͝l̷l̶o̸', 'hello'],
	['ǃ!Admin', 'Admin'],
];

/** /sanitize end to end: only decorated names change, each by its owner worker, and /restore brings every original back. */
describe('/sanitize', () => {
	let stack: Stack;
	let workerOf: Map<string, number>;
	/** Member id → [the decorated nickname given, what it should become]. */
	const decorated = new Map<string, [string, string]>();

	const members = (): Promise<ControlMember[]> => stack.control.members(stack.sandbox.guildId);

	beforeAll(async () => {
		stack = await startStack({ members: 300, workers: WORKERS, settings: (config) => ({ ...config, preview: { timeoutSeconds: 60, skipBelowMembers: 0 } }) });
		workerOf = new Map(stack.massnick.fleet.workers.map((worker) => [worker.client.user!.id, worker.index]));
		const ours = new Set([...workerOf.keys(), stack.massnick.boss.client.user!.id]);
		// Members the bots reach (no role, not the owner), the first listed ones so the preview's sample shows them.
		const plain = (await members()).filter((member) => !ours.has(member.id) && !member.bot && member.roles.length === 0 && member.id !== stack.sandbox.ownerId);
		for (const [index, [name, cleaned]] of DECORATED.entries()) {
			const target = plain[index]!;
			await stack.control.setOwnNick(stack.sandbox.guildId, target.id, name);
			decorated.set(target.id, [name, cleaned]);
		}
	});

	afterAll(async () => {
		await stack?.close();
	});

	/** Runs a changing command through its preview's Start; returns every request it caused. */
	async function previewAndStart(command: string): Promise<{ preview: Awaited<ReturnType<Stack['preview']>>; requests: SandboxRequest[] }> {
		const preview = await stack.preview(command, {});
		const { lastSeq } = await stack.control.requests();
		const previous = stack.massnick.jobs.last;
		await stack.press(preview.message.id, preview.start);
		await waitUntil(() => stack.massnick.jobs.last !== previous && stack.massnick.jobs.current === undefined, {
			what: `/${command} to end`,
			timeoutMs: 60_000,
		});
		return { preview, requests: (await stack.control.requests(lastSeq)).requests };
	}

	/** The members whose shown name is decorated: a nickname given above, or a decorated name the sandbox made. */
	async function toClean(): Promise<Set<string>> {
		return new Set([...decorated].filter(([, [name, cleaned]]) => name !== cleaned).map(([id]) => id));
	}

	it('a dry run counts the decorated names and sends nothing', async () => {
		const { lastSeq } = await stack.control.requests();
		const job = await stack.runJob('sanitize', { dry_run: true });
		expect(job.progress.snapshot().changed).toBe((await toClean()).size);
		expect((await stack.control.requests(lastSeq)).requests.filter(PATCH_MEMBER)).toEqual([]);
	});

	it('its preview shows real before → after pairs; Start cleans exactly the decorated names, each by its owner worker', async () => {
		const { preview, requests } = await previewAndStart('sanitize');
		const description = ((preview.message as ControlMessage).embeds[0] as { description?: string }).description ?? '';
		expect(description).toMatch(/Cleaning names/);
		expect(description).toMatch(/• @\S+: “!!! Bob” → “Bob”/);
		const patches = requests.filter(PATCH_MEMBER);
		expect(new Set(patches.map((request) => request.targetId!))).toEqual(await toClean());
		for (const patch of patches) expect(workerOf.get(patch.botUserId!)).toBe(workerIndexOf(patch.targetId!, WORKERS));
		expect(requests.filter((request) => request.status === 403 || request.status === 429)).toEqual([]);
		const after = new Map((await members()).map((member) => [member.id, member.nick]));
		for (const [id, [, cleaned]] of decorated) expect(after.get(id), id).toBe(cleaned);
	});

	it('a rerun sends nothing: the clean names are the done marker', async () => {
		const { requests } = await previewAndStart('sanitize');
		expect(stack.massnick.jobs.last!.progress.snapshot().changed).toBe(0);
		expect(requests.filter(PATCH_MEMBER)).toEqual([]);
	});

	it('/restore brings back every original', async () => {
		const restored = (await previewAndStart('restore')).requests.filter(PATCH_MEMBER);
		expect(new Set(restored.map((request) => request.targetId!))).toEqual(await toClean());
		const after = new Map((await members()).map((member) => [member.id, member.nick]));
		for (const [id, [name]] of decorated) expect(after.get(id), id).toBe(name);
	});
});
