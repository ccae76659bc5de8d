import { type APIApplicationCommandBasicOption, type APIApplicationCommandOption, ApplicationCommandOptionType } from 'discord.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ActionModule, actionModules } from '../../../src/actions/index.js';
import { commonOptions } from '../../../src/actions/commonOptions.js';
import { parseNicknameAction } from '../../../src/actions/nickname/parseNicknameAction.js';
import { readFilters } from '../../../src/actions/readFilters.js';
import { restoreCommand } from '../../../src/boss/commands/restore.js';
import { argsOfRequest, cliOptionName, type ParsedRunArgs, parseRunArgs } from '../../../src/cli/parseRunArgs.js';
import { ErrorCodes, JobError, MassnickError } from '../../../src/errors.js';
import { guildContext } from '../../support/guildContext.js';
import { dateText, namePattern } from '../../support/commandCases.js';
import { fuzzSettings } from '../../support/fuzzSettings.js';
import { codePoints, hostileText } from '../../support/hostileText.js';

/**
 * `massnick run`'s command line, tried in bulk. Every job and flag is drawn from the action
 * modules' own command definitions (and `restore`'s), so a new action or filter is covered as
 * soon as it exists: whatever the argv, parseRunArgs answers a request, the usage, or a problem
 * naming the argument at fault; a request is exactly what was typed; and what the run checks
 * before connecting (the template, the filters) either refuses with a typed error naming the flag
 * or only ever gives nicknames Discord takes.
 */

const { seed, numRuns } = fuzzSettings('massnick run flags', { seed: 20_240_917, numRuns: 300 });
// Pure and fast: a failure is shrunk to its smallest case (the end-to-end file stops at the first).
const params = { seed, numRuns } as const;

const HELP = new Set(['--help', '-h']);
const PROGRESS_EVERY = '--progress-every';

/** One job of `massnick run`, as its module defines it: the words that name it, its options. */
interface RunJob {
	words: string[];
	module: ActionModule | undefined;
	subcommand: string | undefined;
	options: readonly APIApplicationCommandBasicOption[];
}

const JOBS: readonly RunJob[] = [
	...actionModules.flatMap((module): RunJob[] => {
		const own: readonly APIApplicationCommandOption[] = module.command.options ?? [];
		const subcommands = own.filter((option) => option.type === ApplicationCommandOptionType.Subcommand);
		const common = commonOptions(module);
		if (subcommands.length === 0)
			return [{ words: [module.command.name], module, subcommand: undefined, options: [...(own as APIApplicationCommandBasicOption[]), ...common] }];
		return subcommands.map((sub) => ({ words: [module.command.name, sub.name], module, subcommand: sub.name, options: [...(sub.options ?? []), ...common] }));
	}),
	// `run restore` takes what /restore does.
	{ words: ['restore'], module: undefined, subcommand: undefined, options: (restoreCommand.data.options ?? []) as APIApplicationCommandBasicOption[] },
];
const JOB_NAMES = new Set([...JOBS.map((job) => job.words[0]!), 'lockdown']);
/** Every flag some job takes (an unknown one is none of these). */
const KNOWN_FLAGS = new Set([...JOBS.flatMap((job) => job.options.map((option) => cliOptionName(option.name))), PROGRESS_EVERY]);

/** One flag as typed: its option, its value, and whether it is written `--flag=value` or `--flag value`. */
interface Entry {
	option: APIApplicationCommandBasicOption;
	value: string | undefined;
	inline: boolean;
}

interface Line {
	job: RunJob;
	entries: Entry[];
}

const snowflake = fc.bigInt({ min: 10n ** 16n, max: 2n ** 64n - 1n }).map(String);
const seconds = fc.oneof(
	fc.integer({ min: 1, max: 3600 }).map(String),
	fc.double({ min: Number.MIN_VALUE, max: 3600, noNaN: true }).map(String),
	fc.constantFrom('3600', '0.001', ' 5 ', '1e3', '3.6e3', '0x10', '+2'),
);
/** Written as Discord ids are not: too short, too long, past 64 bits, signed, spaced, a mention. */
const notSnowflake = fc
	.oneof(
		fc.constantFrom(
			'',
			' ',
			'1234',
			'1234567890123456',
			'123456789012345678901',
			'18446744073709551616',
			'99999999999999999999',
			'-281552675818965825',
			' 281552675818965825',
			'<@&281552675818965825>',
			'2.8e17',
			'０２８１５５２６７５８１８９６５８２５',
		),
		hostileText(200),
	)
	.filter((value) => !/^[0-9]{17,20}$/.test(value) || BigInt(value) >= 2n ** 64n);
/** Refused by --progress-every: not a number of seconds in (0, 3600]. */
const badSeconds = fc
	.oneof(fc.constantFrom('', ' ', '0', '-0', '-1', '3600.5', '3601', 'NaN', 'Infinity', '1e400', 'ten', '5s', '1,5'), fc.double().map(String), hostileText(50))
	.filter((value) => {
		const number = Number(value);
		return value.trim() === '' || !Number.isFinite(number) || number <= 0 || number > 3600;
	});

/** A value parseRunArgs takes for the option (whether the run accepts it later is its own check). */
function goodValue(option: APIApplicationCommandBasicOption): fc.Arbitrary<string | undefined> {
	switch (option.type) {
		case ApplicationCommandOptionType.Boolean:
			return fc.constant(undefined);
		case ApplicationCommandOptionType.Role:
			return snowflake;
		case ApplicationCommandOptionType.String: {
			if (option.choices) return fc.constantFrom(...option.choices.map((choice) => String(choice.value)));
			const meant = option.name.endsWith('_before') || option.name.endsWith('_after') ? dateText : option.name === 'name_matches' ? namePattern : hostileText();
			const [min, max] = [option.min_length ?? 0, option.max_length ?? 6000];
			return meant.filter((text) => codePoints(text) >= min && codePoints(text) <= max);
		}
		default:
			throw new Error(`no generator for flags of option type ${option.type} (${option.name}); add one here`);
	}
}

/** A well-formed command line for `job`: some of its flags with good values, required ones always, in any order. */
function validLine(job: RunJob): fc.Arbitrary<Line> {
	const all = [...job.options, { type: ApplicationCommandOptionType.String, name: 'progress-every', description: '' } as APIApplicationCommandBasicOption];
	const required = all.filter((option) => option.required);
	return fc
		.subarray(all.filter((option) => !option.required))
		.chain((optional) => fc.shuffledSubarray([...required, ...optional], { minLength: required.length + optional.length }))
		.chain((chosen) =>
			fc.tuple(
				...chosen.map((option) =>
					fc.record({ option: fc.constant(option), value: option.name === 'progress-every' ? seconds : goodValue(option), inline: fc.boolean() }),
				),
			),
		)
		.map((entries) => ({ job, entries }));
}

const anyValidLine = fc.constantFrom(...JOBS).chain(validLine);

const flagOf = (entry: Entry): string => (entry.option.name === 'progress-every' ? PROGRESS_EVERY : cliOptionName(entry.option.name));
/** A value that must go inline (`--flag=value`), or it would be read as a flag or a call for help. */
const mustInline = (value: string): boolean => value.startsWith('--') || HELP.has(value);

function wordsOf(entry: Entry): string[] {
	const flag = flagOf(entry);
	if (entry.value === undefined) return [flag];
	return entry.inline || mustInline(entry.value) ? [`${flag}=${entry.value}`] : [flag, entry.value];
}

function render(line: Line, insert?: { at: number; words: string[] }): string[] {
	const flags = line.entries.map(wordsOf);
	if (insert) flags.splice(insert.at % (flags.length + 1), 0, insert.words);
	return [...line.job.words, ...flags.flat()];
}

/** What parseRunArgs must answer for a well-formed line. */
function expected({ job, entries }: Line): ParsedRunArgs {
	const progress = entries.find((entry) => entry.option.name === 'progress-every')?.value;
	const values: Record<string, string | true> = Object.fromEntries(
		entries.filter((entry) => entry.option.name !== 'progress-every').map((entry) => [entry.option.name, entry.value ?? true] as const),
	);
	const { dry_run: dryRun, ...options } = values;
	const common = { dryRun: dryRun === true, progressEveryMs: Number(progress ?? 10) * 1000 };
	if (job.module === undefined) return { kind: 'run', request: { ...common, kind: 'restore', job: 'restore', name: options.name as string | undefined } };
	return { kind: 'run', request: { ...common, kind: 'action', job: job.words[0]!, module: job.module, subcommand: job.subcommand, options } };
}

/** A command line with one mistake in it, and the text its problem must show to name it. */
interface Broken {
	args: string[];
	names: string;
}

const defined = (arbitrary: fc.Arbitrary<Broken | undefined>): fc.Arbitrary<Broken> => arbitrary.filter((broken): broken is Broken => broken !== undefined);
const withoutOption = (line: Line, name: string): Line => ({ ...line, entries: line.entries.filter((entry) => entry.option.name !== name) });
/** A stray word: not a flag, not a call for help. */
const strayWord = hostileText(80).filter((word) => !word.startsWith('--') && !HELP.has(word));
/** A word after `--` that no job takes. */
const unknownFlag = fc
	.oneof(fc.constantFrom('rol', 'names', 'dryrun', 'dry_run', 'exclude_role', 'Name', 'ROLE', 'progress', '', '-', 'role-id'), hostileText(40))
	.map((name) => `--${name}`)
	.filter((flag) => !flag.includes('=') && !KNOWN_FLAGS.has(flag) && !HELP.has(flag));

/** One mistake put into a well-formed command line, anywhere in it. */
const brokenLine: fc.Arbitrary<Broken> = fc.oneof(
	fc.constant<Broken>({ args: [], names: 'say which job to run' }),
	strayWord.filter((word) => !JOB_NAMES.has(word)).map((word) => ({ args: [word], names: `unknown job ${JSON.stringify(word)}` })),
	// A job with subcommands, without one: the next word, or nothing, is named.
	defined(
		fc.tuple(anyValidLine, fc.option(strayWord, { nil: undefined })).map(([line, given]) => {
			if (line.job.subcommand === undefined || (given !== undefined && JOBS.some((job) => job.words[1] === given))) return undefined;
			const args = [line.job.words[0]!, ...(given === undefined ? [] : [given]), ...render(line).slice(2)];
			return { args, names: `got ${args[1] === undefined ? 'nothing' : JSON.stringify(args[1])}` };
		}),
	),
	fc.tuple(anyValidLine, fc.nat(), unknownFlag, fc.option(hostileText(30), { nil: undefined })).map(([line, at, flag, value]) => ({
		args: render(line, { at, words: [value === undefined ? flag : `${flag}=${value}`] }),
		names: `unknown option ${flag}`,
	})),
	// A flag another job takes.
	defined(
		anyValidLine.chain((line) => {
			const own = new Set([...line.job.options.map((option) => cliOptionName(option.name)), PROGRESS_EVERY]);
			const foreign = JOBS.flatMap((job) => job.options).filter((option) => !own.has(cliOptionName(option.name)));
			if (foreign.length === 0) return fc.constant(undefined);
			return fc.constantFrom(...foreign).chain((option) =>
				goodValue(option).map((value) => ({
					args: render({ ...line, entries: [...line.entries, { option, value, inline: true }] }),
					names: `${cliOptionName(option.name)} is not an option of run ${line.job.words.join(' ')}`,
				})),
			);
		}),
	),
	defined(
		fc.tuple(anyValidLine, fc.nat(), fc.boolean()).chain(([line, at, inline]) => {
			if (line.entries.length === 0) return fc.constant(undefined);
			const twice = line.entries[at % line.entries.length]!;
			const value = twice.option.name === 'progress-every' ? seconds : goodValue(twice.option);
			return value.map((again) => ({
				args: render({ ...line, entries: [...line.entries, { ...twice, value: again, inline }] }),
				names: `${flagOf(twice)} is given twice`,
			}));
		}),
	),
	// A value forgotten: at the end, or before the next flag.
	defined(
		fc.tuple(anyValidLine, fc.boolean()).chain(([line, atEnd]) => {
			const valued = line.job.options.filter(
				(option) => option.type !== ApplicationCommandOptionType.Boolean && !line.entries.some((entry) => entry.option === option),
			);
			if (valued.length === 0 || (!atEnd && line.entries.length === 0)) return fc.constant(undefined);
			return fc.constantFrom(...valued).map((option) => ({
				args: render(line, { at: atEnd ? line.entries.length : 0, words: [cliOptionName(option.name)] }),
				names: `${cliOptionName(option.name)} needs a value`,
			}));
		}),
	),
	// A value the option can never take: a role that is no id, a text too long or too short, not a choice.
	defined(
		fc.tuple(anyValidLine, fc.boolean()).chain(([line, inline]) => {
			const checked = line.job.options.filter(
				(option) => option.type === ApplicationCommandOptionType.Role || option.type === ApplicationCommandOptionType.String,
			);
			if (checked.length === 0) return fc.constant(undefined);
			return fc.constantFrom(...checked).chain((option) => {
				const flag = cliOptionName(option.name);
				const put = (value: string): string[] =>
					render({ ...withoutOption(line, option.name), entries: [...withoutOption(line, option.name).entries, { option, value, inline }] });
				if (option.type === ApplicationCommandOptionType.Role)
					return notSnowflake.map((value) => ({
						args: put(value),
						names: `${flag} needs a role id (17 to 20 digits; Server Settings → Roles → right-click → Copy Role ID), got ${JSON.stringify(value.slice(0, 100))}`,
					}));
				if (option.type !== ApplicationCommandOptionType.String) return fc.constant(undefined);
				if (option.choices) {
					const choices = option.choices.map((choice) => String(choice.value));
					return hostileText(30)
						.filter((value) => !choices.includes(value))
						.map((value) => ({ args: put(value), names: `${flag} is one of ${choices.join(', ')}, got ${JSON.stringify(value.slice(0, 100))}` }));
				}
				const max = option.max_length ?? 6000;
				const tooLong = hostileText()
					.filter((value) => codePoints(value) > max)
					.map((value) => ({ args: put(value), names: `${flag} takes at most ${max} characters, got ${codePoints(value)}` }));
				const min = option.min_length ?? 0;
				return min === 0 ? tooLong : fc.oneof(tooLong, fc.constant({ args: put(''), names: `${flag} needs at least ${min} characters` }));
			});
		}),
	),
	fc.tuple(anyValidLine, badSeconds, fc.boolean()).map(([line, value, inline]) => {
		const option = { type: ApplicationCommandOptionType.String, name: 'progress-every', description: '' } as APIApplicationCommandBasicOption;
		return {
			args: render({ ...withoutOption(line, 'progress-every'), entries: [...withoutOption(line, 'progress-every').entries, { option, value, inline }] }),
			names: `--progress-every needs a number of seconds above 0 and at most 3600, got ${JSON.stringify(value)}`,
		};
	}),
	defined(
		fc.tuple(anyValidLine, fc.string({ maxLength: 10 })).chain(([line, value]) => {
			const booleans = line.job.options.filter((option) => option.type === ApplicationCommandOptionType.Boolean);
			if (booleans.length === 0) return fc.constant(undefined);
			return fc.constantFrom(...booleans).map((option) => ({
				args: [...render(withoutOption(line, option.name)), `${cliOptionName(option.name)}=${value}`],
				names: `${cliOptionName(option.name)} takes no value`,
			}));
		}),
	),
	fc
		.tuple(anyValidLine, fc.nat(), strayWord)
		.map(([line, at, word]) => ({ args: render(line, { at, words: [word] }), names: `unexpected argument ${JSON.stringify(word)}` })),
	// An option the job cannot do without, left out.
	defined(
		anyValidLine.map((line) => {
			const required = line.job.options.find((option) => option.required);
			if (!required) return undefined;
			return { args: render(withoutOption(line, required.name)), names: `run ${line.job.words.join(' ')} needs ${cliOptionName(required.name)} ` };
		}),
	),
);

/** Any argv at all: known words, hostile text, and raw UTF-16 with lone surrogates (a pure function may see them). */
const anyToken = fc.oneof(
	fc.constantFrom(...JOBS.flatMap((job) => job.words), '--', '-', '=', '--=', ...KNOWN_FLAGS),
	fc.constantFrom(...KNOWN_FLAGS).chain((flag) => hostileText(60).map((value) => `${flag}=${value}`)),
	hostileText(40).map((name) => `--${name}`),
	snowflake,
	hostileText(),
	fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)), maxLength: 30 }),
);

describe('massnick run flags, generated from the action modules', () => {
	it('any argv gets a request, the usage, or a problem; never an exception', () => {
		fc.assert(
			fc.property(fc.array(anyToken, { maxLength: 14 }), (args) => {
				const parsed = parseRunArgs(args);
				expect(['run', 'help', 'invalid']).toContain(parsed.kind);
				expect(parsed.kind === 'help').toBe(args.some((arg) => HELP.has(arg)));
				if (parsed.kind === 'invalid') expect(parsed.problem.trim()).not.toBe('');
			}),
			params,
		);
	});

	it('a well-formed command line, in any order and either flag form, is read as exactly what was typed', () => {
		fc.assert(
			fc.property(anyValidLine, (line) => {
				const args = render(line);
				const parsed = parseRunArgs(args);
				if (args.some((arg) => HELP.has(arg))) expect(parsed).toEqual({ kind: 'help' });
				else expect(parsed).toEqual(expected(line));
			}),
			params,
		);
	});

	it('one mistake anywhere is refused, naming the flag, the job or the value at fault', () => {
		fc.assert(
			fc.property(brokenLine, ({ args, names }) => {
				fc.pre(!args.some((arg) => HELP.has(arg)));
				const parsed = parseRunArgs(args);
				expect(parsed.kind, JSON.stringify(args)).toBe('invalid');
				expect(parsed.kind === 'invalid' && parsed.problem).toContain(names);
			}),
			params,
		);
	});

	it('what the run checks before connecting (the template, the filters) is accepted, or refused with a typed error naming the flag', () => {
		fc.assert(
			fc.property(anyValidLine, (line) => {
				const parsed = parseRunArgs(render(line));
				if (parsed.kind !== 'run' || parsed.request.kind !== 'action') return;
				const { request } = parsed;
				const args = argsOfRequest(request);
				try {
					request.module.check?.(args, { nicknameMaxLength: 32 });
				} catch (error) {
					expect(error).toBeInstanceOf(MassnickError);
					return;
				}
				try {
					readFilters(args, request.module, { now: Date.UTC(2026, 0, 1), optionName: cliOptionName });
				} catch (error) {
					expect(error).toBeInstanceOf(JobError);
					expect((error as JobError).code).toBe(ErrorCodes.InvalidArgument);
					// Named by its flag, as the user typed it.
					expect((error as Error).message).toMatch(/^--[a-z-]+ /);
					expect(render(line).join(' ')).toContain((error as Error).message.split(' ')[0]!);
				}
			}),
			params,
		);
	});

	// Found by the generated cases: the refusal named the engine's fields, not the flags.
	it('a date window that holds nobody is refused naming the flags as typed', () => {
		const parsed = parseRunArgs(['sanitize', '--created-after=2025-01-01', '--created-before=2024-01-01']);
		if (parsed.kind !== 'run' || parsed.request.kind !== 'action') throw new Error('not read');
		const { request } = parsed;
		expect(() => readFilters(argsOfRequest(request), request.module, { now: Date.UTC(2026, 0, 1), optionName: cliOptionName })).toThrow(
			/--created-after.*--created-before/,
		);
	});

	it('a huge command line is answered with the first problem, not a crash', () => {
		const args = ['massnick', `--name=${'🎃'.repeat(6000)}`, ...Array.from({ length: 5000 }, (_, i) => `--x${i}`)];
		expect(parseRunArgs(args)).toMatchObject({ kind: 'invalid', problem: expect.stringContaining('takes at most 100 characters, got 6000') });
		expect(parseRunArgs(['massnick', '--name=x', ...Array.from({ length: 5000 }, (_, i) => `--x${i}`)])).toMatchObject({
			kind: 'invalid',
			problem: expect.stringContaining('unknown option --x0'),
		});
	});
});

describe("--name's template, generated", () => {
	const TEMPLATE_CODES: readonly string[] = [ErrorCodes.TemplateInvalid, ErrorCodes.NameEmpty, ErrorCodes.NameTooLong];
	const GUILD = '281552675818965800';
	const ctx = guildContext({ guildId: GUILD, ownerId: '1', workerHighestPosition: 10 });
	const member = fc.record({
		id: snowflake,
		username: fc.oneof(
			fc.stringMatching(/^[a-z0-9_.]{2,32}$/),
			hostileText(32).filter((text) => text.trim() !== ''),
		),
		globalName: fc.option(hostileText(32), { nil: null }),
		nick: fc.option(
			hostileText(32).filter((text) => text.trim() !== ''),
			{ nil: null },
		),
		roles: fc.constant([] as string[]),
		bot: fc.constant(false),
	});

	it('is refused with a typed error that says what is wrong, or only ever sends a nickname Discord takes', () => {
		fc.assert(
			fc.property(hostileText(), fc.array(member, { minLength: 1, maxLength: 4 }), (template, members) => {
				let action: ReturnType<typeof parseNicknameAction>;
				try {
					action = parseNicknameAction(template, 32);
				} catch (error) {
					expect(error).toBeInstanceOf(JobError);
					expect(TEMPLATE_CODES).toContain((error as JobError).code);
					expect((error as Error).message).toMatch(/^The (name|text)/);
					return;
				}
				for (const one of members) {
					const plan = action.plan(one, ctx);
					if (plan.action !== 'change') continue;
					const nick = plan.to!;
					expect(nick, 'no lone surrogate').not.toMatch(/\p{Cs}/u);
					expect(nick.trim()).toBe(nick);
					expect(nick).not.toBe('');
					expect(codePoints(nick)).toBeLessThanOrEqual(32);
				}
			}),
			params,
		);
	});

	it('a rerun of an accepted template finds every member it renamed already done', () => {
		fc.assert(
			fc.property(fc.oneof(hostileText(32), hostileText(2)), member, (template, one) => {
				let action: ReturnType<typeof parseNicknameAction>;
				try {
					action = parseNicknameAction(template, 32);
				} catch {
					return;
				}
				const plan = action.plan(one, ctx);
				if (plan.action !== 'change') return;
				// Discord stores a nickname equal to the username as none.
				const stored = plan.to === one.username ? null : plan.to;
				expect(action.plan({ ...one, nick: stored }, ctx, one.nick).action).toBe('done');
			}),
			params,
		);
	});

	// Found by the property above: a second {nick} followed by a digit was read as backreference 11.
	it('planning {nick}{nick}1 for a member with a nickname gives a plan, not a SyntaxError', () => {
		const action = parseNicknameAction('{nick}{nick}1', 32);
		expect(() => action.plan({ id: '281552675818965825', username: 'bob', globalName: null, nick: 'x', roles: [], bot: false }, ctx)).not.toThrow();
	});
});
