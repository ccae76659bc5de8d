import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxControl, startSandbox } from '@massnick/discord-sandbox';
import { afterEach, describe, expect, it } from 'vitest';
import { commandAnswer } from '../support/commandAnswer.js';
import { journalLines } from '../support/journalLines.js';
import { reportFigures } from '../support/reportFigures.js';
import { type BotProcess, spawnBot } from '../support/spawnBot.js';
import { startFromPreview } from '../support/startFromPreview.js';
import { type Sandbox, startMassnickOn } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const ROLE_ROUTE = '/guilds/:id/members/:id/roles/:id';

/**
 * A standing rule in the real process: SIGKILLed, started again with no command, it resumes by
 * itself as a rule, catches up the members who joined while it was down with its sweep, and goes
 * on following joins; ended with /cancel rule:, /restore takes the role from exactly the members
 * it gave it to, before and after the crash.
 */
describe('a standing rule after a crash of the real process', () => {
	let sandbox: Sandbox | undefined;
	let bot: BotProcess | undefined;
	let dataDir = '';

	afterEach(async () => {
		bot?.child.kill('SIGKILL');
		await sandbox?.close();
		if (dataDir) await rm(dataDir, { recursive: true, force: true });
		bot = undefined;
		sandbox = undefined;
	});

	it('SIGKILL, joiners while down, restart: the rule resumes, catches them up, follows again, and /restore undoes exactly it', async () => {
		sandbox = await startSandbox({ members: 300, workers: 4, seed: 43, timeScale: 100 });
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-rulecrash-'));
		const { guildId } = sandbox;
		const control = new SandboxControl(sandbox.controlUrl);
		const role = (await control.createRole(guildId, { name: 'Newcomer', position: 1 })).id;
		const holds = async (ids: readonly string[]): Promise<boolean> => {
			const members = await control.members(guildId);
			return ids.every((id) => members.find((member) => member.id === id)?.roles.includes(role));
		};

		bot = await spawnBot(sandbox, dataDir);
		const asked = await control.invoke(guildId, sandbox.ownerId, 'massrole add', { role, keep: true }, sandbox.channelId);
		const answer = await commandAnswer(control, asked, 60_000);
		// Started at once in a server below preview.skipBelowMembers; from its preview otherwise.
		if (answer.buttons.some((button) => button.endsWith(':start'))) await startFromPreview(control, sandbox, sandbox.ownerId, answer);
		else expect(answer.text).toMatch(/^Started the standing rule \*\*Adding @Newcomer\*\*/);
		const { ids: before } = await control.addMembers(guildId, 10);
		await waitUntil(() => holds(before), { what: 'the joiners before the crash to get the role', timeoutMs: 60_000 });
		bot.child.kill('SIGKILL');
		await bot.exited;
		bot = undefined;

		// Nobody is there to see these join.
		const { ids: whileDown } = await control.addMembers(guildId, 20);
		expect(await holds(whileDown.slice(0, 1))).toBe(false);

		bot = await spawnBot(sandbox, dataDir);
		await waitUntil(() => holds(whileDown), { what: 'the joiners while down to be caught up', timeoutMs: 60_000 });
		const { ids: after } = await control.addMembers(guildId, 10);
		await waitUntil(() => holds(after), { what: 'the joiners after the restart to get the role', timeoutMs: 60_000 });
		expect(bot.output()).toMatch(/job resumed after a restart/);

		const header = (await journalLines(dataDir, guildId)).find((line) => line.type === 'job')!;
		const ended = await commandAnswer(control, await control.invoke(guildId, sandbox.ownerId, 'cancel', { rule: header.jobId }, sandbox.channelId));
		expect(ended.text).toContain('Ending the standing rule');
		await waitUntil(async () => (await journalLines(dataDir, guildId)).some((line) => line.type === 'status' && line.state === 'cancelled'), {
			what: 'the rule to end',
		});
		bot.signal('SIGTERM');
		expect(await bot.exited).toBe(0);
		bot = undefined;

		const gave = new Set((await control.members(guildId)).filter((member) => member.roles.includes(role)).map((member) => member.id));
		for (const id of [...before, ...whileDown, ...after]) expect(gave.has(id), id).toBe(true);
		const again = await startMassnickOn(sandbox, dataDir, sandbox.workerTokens);
		try {
			const { lastSeq } = await control.requests();
			expect((await again.runJob('restore', {})).result?.state).toBe('finished');
			const taken = (await control.requests(lastSeq)).requests.filter((request) => request.method === 'DELETE' && request.route === ROLE_ROUTE);
			expect(new Set(taken.map((request) => request.targetId))).toEqual(gave);
			expect((await control.members(guildId)).some((member) => member.roles.includes(role))).toBe(false);
		} finally {
			await again.close();
		}
		reportFigures('standing rule SIGKILL and resume', {
			joinedBefore: before.length,
			joinedWhileDown: whileDown.length,
			joinedAfter: after.length,
			given: gave.size,
		});
	});
});
