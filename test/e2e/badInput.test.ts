import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl, type SandboxRequest, startSandbox } from '@massnick/discord-sandbox';
import { type ActionArgs, actionModules, namedModule } from '../../src/actions/index.js';
import { readFilters } from '../../src/actions/readFilters.js';
import { cliRequester } from '../../src/cli/cliRequester.js';
import { argsOfRequest, cliOptionName, parseRunArgs } from '../../src/cli/parseRunArgs.js';
import { startRequestedJob } from '../../src/cli/startRequestedJob.js';
import { MassnickError } from '../../src/errors.js';
import type { Job } from '../../src/jobs/Job.js';
import type { MassAction } from '../../src/jobs/MassAction.js';
import type { MemberFilters } from '../../src/jobs/planner.js';
import { type Answer, commandAnswer, pressAnswer } from '../support/commandAnswer.js';
import {
	type CommandCase,
	changingCase,
	commandCase,
	definitionsOf,
	discordRefuses,
	type OptionValue,
	type RoleChoice,
	runArgsOf,
} from '../support/commandCases.js';
import { type CrashWatch, watchCrashes } from '../support/crashWatch.js';
import { fuzzSettings } from '../support/fuzzSettings.js';
import { hostileText, ROLE_MENTION, USER_MENTION } from '../support/hostileText.js';
import { describeRequests, isMemberChange } from '../support/memberChanges.js';
import { spawnRun } from '../support/spawnRun.js';
import { type Sandbox, type Stack, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

/**
 * Bad input, tried in bulk: generated slash commands (every command's options, drawn from their
 * definitions) and `massnick run` command lines, on one sandbox and one massnick. Every case must
 * end in a clear refusal that sent no member request, or in a correct job whose every request
 * Discord accepted; never a crash, an unhandled rejection or an error in the bot's log.
 *
 * The seed and the number of runs are fixed for `npm test`; MASSNICK_FUZZ_SEED and
 * MASSNICK_FUZZ_RUNS ask for another or a longer run (test/support/fuzzSettings.ts). The first
 * failure ends the run (no shrinking: each case is a real job) with its seed and path in the
 * message; the same seed and runs replay the whole sequence, as a case may depend on the jobs
 * before it (a /restore undoes the last one).
 */

const { seed, numRuns } = fuzzSettings('bad input (slash commands, massnick run)', { seed: 20_240_917, numRuns: 40 });
/** The command-line cases run half as often. */
const cliRuns = Math.max(5, Math.round(numRuns / 2));
const params = { seed, numRuns, endOnFailure: true } as const;

/** What the boss answers when a handler throws something that is not a MassnickError: never acceptable. */
const GENERIC = /something went wrong/i;
const STACK_TRACE = /\n\s+at .+(:\d+:\d+|\(native\))/;
/** Stands for a time in an expected refusal, which the boss resolves against its own clock. */
const TIME = '\u0000time\u0000';

/** Previews on for every job, whatever the guild's size; long enough never to expire during a case. */
const previewsOn = (config: Stack['config']): Stack['config'] => ({ ...config, preview: { timeoutSeconds: 300, skipBelowMembers: 0 } });

/** Roles of a case to change once its preview is shown, before Start (or before a CLI run). */
interface RoleChanges {
	deleted: string[];
	raised: string[];
}

describe('bad input, tried in bulk, on one sandbox', () => {
	let stack: Stack;
	let watch: CrashWatch;
	let roleIds: Map<string, string>;
	let freshRoles = 0;
	/** How the cases ended, printed at the end: a run that only ever met refusals would prove little. */
	const outcomes = new Map<string, number>();
	const tally = (outcome: string): void => {
		outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
	};

	const guildId = (): string => stack.sandbox.guildId;
	const lastSeq = async (): Promise<number> => (await stack.control.requests(0, 1)).lastSeq;
	const requestsSince = async (seq: number): Promise<SandboxRequest[]> => (await stack.control.requests(seq)).requests;

	/** A new role below the workers, held by a few members, so a filter on it selects someone. */
	async function freshRole(): Promise<string> {
		const role = await stack.control.createRole(guildId(), { name: `Fuzz ${++freshRoles}` });
		const members = (await stack.control.members(guildId())).filter((member) => !member.bot && member.id !== stack.sandbox.ownerId);
		for (const member of members.slice(freshRoles % 7, (freshRoles % 7) + 3)) await stack.control.addMemberRole(guildId(), member.id, role.id);
		return role.id;
	}

	/** The value to send for a role choice; a role to change later goes into `changes`. */
	async function resolveRole(choice: RoleChoice, changes: RoleChanges): Promise<string> {
		switch (choice.kind) {
			case 'ladder':
				return roleIds.get(choice.name)!;
			case 'everyone':
				return guildId();
			case 'managed':
				return roleIds.get('MEE6')!;
			case 'workers':
				return roleIds.get('Massnick')!;
			case 'above':
				return roleIds.get('Moderator')!;
			case 'fresh':
				return freshRole();
			case 'fresh-deleted':
			case 'fresh-raised': {
				const id = await freshRole();
				(choice.kind === 'fresh-deleted' ? changes.deleted : changes.raised).push(id);
				return id;
			}
			case 'not-a-role':
				return stack.sandbox.channelId;
			case 'unknown':
				return choice.id;
			case 'garbage':
				return choice.text;
		}
	}

	/** Deletes the case's roles, and moves others to the top, as the owner would; waits for the boss to see it. */
	async function changeRoles({ deleted, raised }: RoleChanges): Promise<boolean> {
		for (const roleId of deleted) await stack.control.deleteRole(guildId(), roleId);
		for (const roleId of raised) {
			const top = Math.max(...(await stack.control.state()).roles.map((role) => role.position));
			await stack.control.editRole(guildId(), roleId, { position: top });
		}
		const roles = stack.massnick.boss.guild.roles.cache;
		const workers = (): number => roles.get(roleIds.get('Massnick')!)!.position;
		await waitUntil(() => deleted.every((roleId) => !roles.has(roleId)) && raised.every((roleId) => (roles.get(roleId)?.position ?? 0) > workers()), {
			what: 'the boss to see the roles changed',
		});
		return deleted.length + raised.length > 0;
	}

	/** The case with the mentions in its texts made real: a mentionable role's, the owner's. */
	function withRealMentions(testCase: CommandCase): CommandCase {
		const real = (text: string): string =>
			text.replaceAll(ROLE_MENTION, `<@&${roleIds.get('Staff')!}>`).replaceAll(USER_MENTION, `<@${stack.sandbox.ownerId}>`);
		const options = Object.fromEntries(Object.entries(testCase.options).map(([name, value]) => [name, typeof value === 'string' ? real(value) : value]));
		return { ...testCase, options };
	}

	/** Members who leave the guild: people, never the owner or a bot. */
	async function leave(count: number, pick: number): Promise<string[]> {
		const people = (await stack.control.members(guildId())).filter((member) => !member.bot && member.id !== stack.sandbox.ownerId);
		const leaving = [...new Set(Array.from({ length: Math.min(count, people.length) }, (_, i) => people[(pick + i * 37) % people.length]!.id))];
		for (const id of leaving) await stack.control.removeMember(guildId(), id);
		return leaving;
	}

	/** The job a case started, once it has ended and the manager's slot is free. */
	async function jobEnded(previous: Job | undefined): Promise<Job | undefined> {
		const { jobs } = stack.massnick;
		await waitUntil(() => jobs.current === undefined && (jobs.last === previous || jobs.last?.result !== undefined), {
			what: 'the job to end',
			timeoutMs: 60_000,
		});
		return jobs.last === previous ? undefined : jobs.last;
	}

	/**
	 * What the bot must answer, where the input alone decides: the error of what the action
	 * module checks without Discord (a template), a role nobody can hand out, a filter that can
	 * never hold (a date, a name pattern), each in the order the boss checks them.
	 */
	function expectedRefusal(testCase: CommandCase, options: Readonly<Record<string, unknown>>): RegExp | undefined {
		const settings = { nicknameMaxLength: stack.config.nickname.maxLength };
		const refusal = (check: () => unknown): RegExp | undefined => {
			try {
				check();
				return undefined;
			} catch (error) {
				if (!(error instanceof MassnickError)) throw error;
				// A duration resolves against the boss's clock, a moment later than this one.
				const times = error.message.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, TIME);
				return new RegExp(escapeRegExp(times).replaceAll(TIME, '[^)]+'));
			}
		};
		const [name, subcommand] = testCase.command.split(' ') as [string, string | undefined];
		const text = (option: string): string | undefined => (typeof options[option] === 'string' ? (options[option] as string) : undefined);
		if (name === 'restore' || name === 'stats') {
			const named = text('name');
			return named === undefined ? undefined : refusal(() => namedModule().byName[name === 'stats' ? 'count' : 'clear'](named, settings));
		}
		const module = actionModules.find((candidate) => candidate.command.name === name);
		if (!module) return undefined;
		const args: ActionArgs = { subcommand, string: text, role: text, boolean: (option) => options[option] === true };
		const role = testCase.options.role as RoleChoice | undefined;
		const roleRefusal =
			name !== 'massrole' || role === undefined
				? undefined
				: role.kind === 'everyone'
					? /@everyone belongs to every member/
					: role.kind === 'managed'
						? /is managed by Discord or an integration/
						: role.kind === 'workers' || role.kind === 'above'
							? /at or above the workers' highest role/
							: undefined;
		return (
			refusal(() => module.check?.(args, settings)) ??
			roleRefusal ??
			refusal(() => readFilters(args, module, { now: Date.now(), optionName: (option) => `${option}:` }))
		);
	}

	/** Runs one case to its end, as its member would, and checks what it did. */
	async function runCase(generated: CommandCase): Promise<void> {
		const { sandbox, control } = stack;
		const mark = watch.mark();
		const testCase = withRealMentions(generated);
		const changes: RoleChanges = { deleted: [], raised: [] };
		const options: Record<string, unknown> = {};
		for (const [name, value] of Object.entries(testCase.options)) options[name] = isRoleChoice(value) ? await resolveRole(value, changes) : value;
		const seq = await lastSeq();
		const previous = stack.massnick.jobs.last;
		const refusedBy = discordRefuses(testCase);

		let id: string | undefined;
		try {
			id = await control.invoke(guildId(), sandbox.ownerId, testCase.command, options, sandbox.channelId);
		} catch (error) {
			if (refusedBy === undefined) throw new Error(`Discord (the sandbox) refused a command it delivers: ${(error as Error).message}`);
			tally(`refused by Discord: ${refusedBy}`);
		}
		if (id !== undefined && refusedBy !== undefined) throw new Error(`the sandbox delivered a command Discord refuses (${refusedBy})`);

		let after: PreviewEnd = { removed: [], rolesChanged: false };
		if (id !== undefined) {
			const answer = await commandAnswer(control, id);
			expectClear(answer, `/${testCase.command}`);
			const expected = expectedRefusal(testCase, options);
			if (answer.buttons.some((button) => button.endsWith(':start'))) {
				if (expected !== undefined) throw new Error(`/${testCase.command} showed a preview where it must refuse (${expected.source})`);
				after = await answerPreview(testCase, answer, changes);
			} else {
				if (expected !== undefined) expect(answer.text, 'the refusal says what is wrong').toMatch(expected);
				if (stack.massnick.jobs.last === previous) tally(`/${testCase.command.split(' ')[0]} answered without a job`);
			}
		}

		const job = await jobEnded(previous);
		if (job)
			tally(
				`${job.dryRun ? 'dry run' : `job ${job.result?.state}`}${after.removed.length > 0 ? ', members left before Start' : ''}${after.rolesChanged ? ', a role changed before Start' : ''}`,
			);
		const requests = await requestsSince(seq);
		const memberChanges = requests.filter(isMemberChange);
		const failing = requests.filter((request) => request.status >= 400);
		expect(watch.since(mark), 'no crash, no unhandled rejection, no error logged').toEqual([]);
		expect(failing, `every request Discord accepted:\n${describeRequests(failing)}`).toEqual([]);
		if (job === undefined) {
			expect(memberChanges, `a refused or cancelled command sends no member request:\n${describeRequests(memberChanges)}`).toEqual([]);
		} else {
			expect(job.result?.error, 'the job did not fail').toBeUndefined();
			expect(['finished', 'cancelled']).toContain(job.result?.state);
			if (job.dryRun) expect(memberChanges).toEqual([]);
			else if (job.result?.state === 'finished') expect(memberChanges.length, 'one request per member changed').toBe(job.progress.snapshot().changed);
			for (const request of memberChanges) expect(after.removed, 'no request for a member who left before Start').not.toContain(request.targetId);
		}
		await expectNoPing();
		await expectAnswering();
	}

	/** Whatever the templates held (`@everyone`, `<@&id>`, `<@id>`), no bot message ever pinged anyone. */
	async function expectNoPing(): Promise<void> {
		for (const message of await stack.control.messages(stack.sandbox.channelId)) {
			expect(message.everMentioned, `message ${message.id} pinged nobody: ${message.content.slice(0, 200)}`).toEqual({ users: [], roles: [], everyone: false });
		}
	}

	interface PreviewEnd {
		removed: string[];
		rolesChanged: boolean;
	}

	/** Answers the preview as `testCase.answer` says: Cancel, or Start after members left and roles changed. */
	async function answerPreview(testCase: CommandCase, preview: Answer, changes: RoleChanges): Promise<PreviewEnd> {
		const { control, sandbox } = stack;
		const press = (suffix: string): Promise<string> =>
			control.pressButton(guildId(), sandbox.ownerId, sandbox.channelId, preview.messageId!, preview.buttons.find((button) => button.endsWith(suffix))!);
		if (testCase.answer === 'cancel') {
			expect((await pressAnswer(control, await press(':cancel'), 'first')).text).toMatch(/Cancelled: nothing ran/);
			tally('preview cancelled');
			return { removed: [], rolesChanged: false };
		}
		const removed = testCase.answer === 'leave-then-start' ? await leave(testCase.leaving, testCase.pick) : [];
		const rolesChanged = await changeRoles(changes);
		const previous = stack.massnick.jobs.last;
		const answer = await pressAnswer(control, await press(':start'), 'edit');
		expectClear(answer, `Start of /${testCase.command}`);
		const started = stack.massnick.jobs.last !== previous;
		if (!started) tally('refused at Start');
		if (testCase.answer === 'start-then-cancel' && started) {
			const cancelled = await commandAnswer(control, await control.invoke(guildId(), sandbox.ownerId, 'cancel', {}, sandbox.channelId));
			expect(cancelled.text).toMatch(/^(Cancelling|No job is running)/);
		}
		return { removed, rolesChanged };
	}

	/** An answer that says something, and not the catch-all for an unexpected error (the log says which). */
	function expectClear(answer: Answer, what: string): void {
		expect(answer.text.trim(), `${what} answered with text`).not.toBe('');
		if (GENERIC.test(answer.text))
			throw new Error(`${what} answered "${answer.text}"; the bot logged:\n${watch.since({ crashes: 0, logLength: 0 }).join('\n')}`);
	}

	async function expectAnswering(): Promise<void> {
		const { control, sandbox } = stack;
		const answer = await commandAnswer(control, await control.invoke(guildId(), sandbox.ownerId, 'shards', {}, sandbox.channelId));
		expect(answer.text).toContain('ready');
	}

	beforeAll(async () => {
		stack = await startStack({ members: 200, workers: 3, timeScale: 100, settings: previewsOn });
		watch = watchCrashes(stack.logs);
		roleIds = new Map((await stack.control.state()).roles.map((role) => [role.name, role.id]));
	});

	afterAll(async () => {
		console.log(`bad input outcomes: ${[...outcomes].map(([outcome, count]) => `${outcome} ×${count}`).join(', ')}`);
		watch?.stop();
		await stack?.close();
	});

	it('every generated slash command gets a clear refusal or a correct job', async () => {
		await fc.assert(
			fc.asyncProperty(commandCase, async (testCase) => runCase(testCase)),
			params,
		);
	});

	// Found by the generated cases: Start ran the previewed role job without checking its role again.
	for (const kind of ['fresh-deleted', 'fresh-raised'] as const) {
		it(`/massrole add on a role ${kind === 'fresh-deleted' ? 'deleted' : 'moved above the workers'} between the preview and Start sends no member request`, async () => {
			await runCase({ command: 'massrole add', options: { role: { kind } }, definitions: definitionsOf('massrole add'), answer: 'start', leaving: 0, pick: 0 });
		});
	}

	it('every generated massnick run command line is refused before anything is sent, or runs a correct job', async () => {
		// The same cases as flags, through the CLI's own path after its argv: parseRunArgs, what is
		// checked before connecting (template, filters), then startRequestedJob's checks and the job.
		await fc.assert(
			fc.asyncProperty(changingCase, async (testCase) => {
				const mark = watch.mark();
				const changes: RoleChanges = { deleted: [], raised: [] };
				const ids = new Map<RoleChoice, string>();
				for (const value of Object.values(testCase.options)) if (isRoleChoice(value)) ids.set(value, await resolveRole(value, changes));
				const args = runArgsOf(withRealMentions(testCase), (choice) => ids.get(choice)!);
				// An id copied before the role was deleted or moved.
				await changeRoles(changes);
				const seq = await lastSeq();
				const outcome = await runInProcess(args);
				tally(`massnick run ${testCase.command}: ${outcome.kind}`);
				const job = outcome.kind === 'job' ? outcome.job : undefined;
				if (job) await job.ended();
				await waitUntil(() => stack.massnick.jobs.current === undefined, { what: 'the slot to free' });
				const requests = await requestsSince(seq);
				const memberChanges = requests.filter(isMemberChange);
				const failing = requests.filter((sent) => sent.status >= 400);
				expect(watch.since(mark), 'no crash, no unhandled rejection, no error logged').toEqual([]);
				expect(failing, `every request Discord accepted:\n${describeRequests(failing)}`).toEqual([]);
				if (!job || job.dryRun) {
					expect(memberChanges, 'a refused run or a dry run sends no member request').toEqual([]);
				} else {
					expect(job.result?.error).toBeUndefined();
					expect(job.result?.state).toBe('finished');
					expect(memberChanges.length).toBe(job.progress.snapshot().changed);
				}
			}),
			{ ...params, numRuns: cliRuns },
		);
	});

	/** `massnick run <args>` on this massnick, as runJobCommand does after its argv; only a MassnickError may refuse. */
	async function runInProcess(args: readonly string[]): Promise<{ kind: 'bad arguments' | 'refused'; message: string } | { kind: 'job'; job: Job }> {
		const parsed = parseRunArgs(args);
		if (parsed.kind === 'help') throw new Error(`${JSON.stringify(args)} asked for the usage`);
		if (parsed.kind === 'invalid') return { kind: 'bad arguments', message: parsed.problem };
		if (parsed.kind === 'lockdown') throw new Error(`${JSON.stringify(args)} is a lockdown, which no generated case is`);
		const { request } = parsed;
		const settings = { nicknameMaxLength: stack.config.nickname.maxLength };
		let fallback: MassAction | undefined;
		let filters: MemberFilters | undefined;
		try {
			if (request.kind === 'restore') {
				if (request.name !== undefined) fallback = namedModule().byName.clear(request.name, settings);
			} else {
				request.module.check?.(argsOfRequest(request), settings);
				filters = readFilters(argsOfRequest(request), request.module, { now: Date.now(), optionName: cliOptionName });
			}
		} catch (error) {
			if (!(error instanceof MassnickError)) throw error;
			return { kind: 'bad arguments', message: error.message };
		}
		try {
			const { job } = await startRequestedJob({ massnick: stack.massnick, request, fallback, filters, startedBy: cliRequester() });
			return { kind: 'job', job };
		} catch (error) {
			if (!(error instanceof MassnickError)) throw error;
			expect(error.message, 'the refusal says what is wrong').not.toMatch(GENERIC);
			return { kind: 'refused', message: error.message };
		}
	}
});

describe('massnick run from a shell, with generated bad arguments', () => {
	let sandbox: Sandbox;
	let dataDir: string;

	beforeAll(async () => {
		sandbox = await startSandbox({ members: 60, workers: 2, seed: 5, timeScale: 100 });
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-badinput-'));
	});

	afterAll(async () => {
		await sandbox?.close();
		if (dataDir) await rm(dataDir, { recursive: true, force: true });
	});

	it('exits with the documented code and a message, never a stack trace, and sends no member request', async () => {
		const [words] = fc.sample(fc.array(hostileText(200), { minLength: 1, maxLength: 4 }), { seed, numRuns: 1 });
		const [text] = fc.sample(hostileText(), { seed, numRuns: 1 });
		const lines: Array<{ args: string[]; exit: number }> = [
			// Spawning is slow: a few lines, each of a kind the in-process cases cannot reach.
			{ args: ['massnick', '--name', 'ok', ...words!.map((word) => `--${word}`)], exit: 2 },
			{ args: ['massnick', `--name=${text!}{bogus}`], exit: 2 },
			{ args: ['massrole', 'add', '--role', sandbox.guildId], exit: 4 },
		];
		const control = new SandboxControl(sandbox.controlUrl);
		const { lastSeq } = await control.requests(0, 1);
		// One at a time: the CPU is shared, and a second run would wait for the first one's lock.
		for (const { args, exit } of lines) {
			const run = await spawnRun(sandbox, dataDir, args);
			const context = `massnick run ${JSON.stringify(args)}:\n${run.stderr}`;
			expect(run.code, context).toBe(exit);
			expect(run.stderr, context).not.toMatch(STACK_TRACE);
			expect(run.stderr, context).toMatch(/^massnick run: |refused|cannot|there is no|@everyone/m);
		}
		expect((await control.requests(lastSeq)).requests.filter(isMemberChange)).toEqual([]);
	});
});

function isRoleChoice(value: OptionValue): value is RoleChoice {
	return typeof value === 'object' && value !== null && 'kind' in value;
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
