import { type APIApplicationCommandBasicOption, type APIApplicationCommandOption, ApplicationCommandOptionType } from 'discord.js';
import { type ActionArgs, type ActionModule, actionModules, commonOptions, DRY_RUN_OPTION } from '../actions/index.js';
import { isSnowflake } from '../discord/snowflake.js';
import { LOCKDOWN_USAGE, type LockdownRunRequest, parseLockdownArgs } from './parseLockdownArgs.js';

/** What every job takes besides its own options. */
interface RunCommon {
	readonly dryRun: boolean;
	/** Milliseconds between progress lines in the log. */
	readonly progressEveryMs: number;
}

/** An action module's job, as the command line asked for it: its options by their slash names. */
export interface ActionRunRequest extends RunCommon {
	readonly kind: 'action';
	/** The module's command name: `massnick`, `massrole`. */
	readonly job: string;
	readonly module: ActionModule;
	readonly subcommand: string | undefined;
	/** `--exclude-role 123` is `{ exclude_role: '123' }`; a flag without a value is `true`. */
	readonly options: Readonly<Record<string, string | true>>;
	/**
	 * `--confirm-count <n>`, for a module whose jobs are confirmed by their count (a kick, see
	 * `ActionModule.confirmByTypedCount`): the members the operator expects it to change.
	 */
	readonly confirmCount: number | undefined;
}

/** `massnick run restore`'s own request. */
export interface RestoreRunRequest extends RunCommon {
	readonly kind: 'restore';
	readonly job: 'restore';
	readonly name: string | undefined;
	/** `--skip-irreversible`: undo the newest job that can be undone, past newer ones Discord cannot undo. */
	readonly pastIrreversible: boolean;
}

/** One job, as the command line asked for it. */
export type RunRequest = ActionRunRequest | RestoreRunRequest;

export type ParsedRunArgs =
	| { readonly kind: 'run'; readonly request: RunRequest }
	/** Not a job: one request that pauses or opens the server's invites (see `runLockdown`). */
	| { readonly kind: 'lockdown'; readonly request: LockdownRunRequest }
	| { readonly kind: 'help' }
	/** `problem` names the argument at fault and what it needs. */
	| { readonly kind: 'invalid'; readonly problem: string };

/** The flag a job confirmed by its count is run with (see `ActionModule.confirmByTypedCount`). */
export const CONFIRM_COUNT_OPTION = 'confirm_count';
const SKIP_IRREVERSIBLE_OPTION = 'skip_irreversible';

const DEFAULT_PROGRESS_EVERY_S = 10;
const MAX_PROGRESS_EVERY_S = 3600;
const PROGRESS_EVERY = 'progress-every';

/** `massnick run --help`, and what a bad command line is answered with: every action module's job. */
export function runUsage(modules: readonly ActionModule[] = actionModules): string {
	const jobs = modules.map((module) => `  ${module.usage}`).join('\n');
	return `usage: massnick run <job> [options]            (from a checkout: npm run job -- <job> [options])

Runs one job on the guild in .env without slash commands, waits for it to end and exits: the same
engine, journal and safety checks as the slash commands.

${jobs}
  restore [--skip-irreversible] [--name <template>]
      undo the last job not undone yet; a job Discord cannot undo (a kick) is refused with what it
      did and where its journal is, and --skip-irreversible undoes the job before it instead; with
      --name and no journal left, clear that nickname wherever it is still set instead (the
      originals cannot be recovered that way)
  ${LOCKDOWN_USAGE}

Filters, for every job but restore and lockdown (the same as the slash commands' options):
${flagLines(commonOptions({ ...modules[0]!, onlyRoleOption: undefined }).filter((option) => option.name !== DRY_RUN_OPTION))}
      (run massnick calls --only-role --role, as /massnick does)
  --dry-run                count what would change; send nothing, journal nothing
  --progress-every <s>     seconds between progress lines in the log (default 10)

A role id is 17 to 20 digits: Server Settings → Roles → right-click the role → Copy Role ID.

Output: on a terminal, a progress bar on stderr; otherwise a JSON progress line on stdout every
10 s and one at the end with the counts. What happened is summed up on stderr. A standing rule
(--keep) past its sweep logs "rule following" when it begins to follow joins, then a summary at
most once a minute and only when its counts changed (one an hour while nobody joins).
With MASSNICK_METRICS_PORT set, it serves /healthz, /readyz and /metrics as massnick start does.

Exit code:
  0  done: every member the job applies to is done (a dry run: counted)
  1  not done: members failed or were left undone; run the same command again to finish them
  2  bad arguments
  3  cancelled by SIGINT or SIGTERM (what was done stays journaled; a second signal exits at once)
  4  refused before anything ran (configuration, a token, the guild, a role, a journal): nothing
     changed, and the same command is refused again until that is fixed
  5  not started, for a reason that passes: another run holds the lock (a killed run's lock is
     stale 60 s after its last touch) or Discord could not be reached; nothing changed, run it later`;
}

/** The usage of every module as it ships. */
export const RUN_USAGE = runUsage();

class Invalid extends Error {}

/**
 * Reads `massnick run`'s arguments (everything after `run`). Pure: nothing is loaded or checked
 * against Discord here, only the shape, so every mistake is caught before the bots connect. An
 * action's flags are its slash command's options (`exclude_role` is `--exclude-role`), checked as
 * Discord checks them: a role is an id, a text within the option's length. An attachment's flag
 * takes a path (`--ids-file raid.csv`), read once the arguments are checked (`readRunFilters`).
 */
export function parseRunArgs(args: readonly string[], modules: readonly ActionModule[] = actionModules): ParsedRunArgs {
	if (args.some((arg) => arg === '--help' || arg === '-h')) return { kind: 'help' };
	if (args[0] === 'lockdown') {
		const lockdown = parseLockdownArgs(args.slice(1));
		return 'problem' in lockdown ? { kind: 'invalid', problem: lockdown.problem } : { kind: 'lockdown', request: lockdown.request };
	}
	try {
		return { kind: 'run', request: parse(args, modules) };
	} catch (error) {
		if (error instanceof Invalid) return { kind: 'invalid', problem: error.message };
		throw error;
	}
}

/** An action module's job's options as the module reads them. */
export function argsOfRequest(request: ActionRunRequest): ActionArgs {
	const value = (name: string): string | undefined => {
		const given = request.options[name];
		return typeof given === 'string' ? given : undefined;
	};
	return { subcommand: request.subcommand, string: value, role: value, boolean: (name) => request.options[name] === true };
}

function parse(args: readonly string[], modules: readonly ActionModule[]): RunRequest {
	const names = [...modules.map((module) => module.command.name), 'restore', 'lockdown'];
	const list = `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
	const [job, ...rest] = args;
	if (job === undefined) throw new Invalid(`say which job to run: ${list}`);
	if (job === 'restore') {
		const values = readFlags(rest, job, [
			{ type: ApplicationCommandOptionType.String, name: 'name', description: '', max_length: 100 },
			{ type: ApplicationCommandOptionType.Boolean, name: SKIP_IRREVERSIBLE_OPTION, description: '' },
		]);
		return { ...common(values), kind: 'restore', job, name: values.name as string | undefined, pastIrreversible: values[SKIP_IRREVERSIBLE_OPTION] === true };
	}
	const module = modules.find((candidate) => candidate.command.name === job);
	if (!module) throw new Invalid(`unknown job ${JSON.stringify(job)}: run ${list}`);
	const own: readonly APIApplicationCommandOption[] = module.command.options ?? [];
	const subcommands = own.filter((option) => option.type === ApplicationCommandOptionType.Subcommand);
	let subcommand: string | undefined;
	let options = own as readonly APIApplicationCommandBasicOption[];
	let flags = rest;
	if (subcommands.length > 0) {
		const given = rest[0];
		const chosen = subcommands.find((option) => option.name === given);
		if (!chosen) {
			throw new Invalid(
				`run ${job} needs ${subcommands.map((option) => option.name).join(' or ')} before its options, got ${given === undefined ? 'nothing' : JSON.stringify(given)}`,
			);
		}
		subcommand = chosen.name;
		options = chosen.options ?? [];
		flags = rest.slice(1);
	}
	const what = subcommand === undefined ? job : `${job} ${subcommand}`;
	const confirm: APIApplicationCommandBasicOption[] = module.confirmByTypedCount
		? [{ type: ApplicationCommandOptionType.String, name: CONFIRM_COUNT_OPTION, description: '', max_length: 20 }]
		: [];
	const values = readFlags(flags, what, [...options, ...commonOptions(module), ...confirm]);
	for (const option of options) {
		if (option.required && values[option.name] === undefined) {
			throw new Invalid(
				`run ${what} needs ${flagOf(option)} ${placeholder(option)}: ${option.description.charAt(0).toLowerCase()}${option.description.slice(1)}`,
			);
		}
	}
	const { [DRY_RUN_OPTION]: _dryRun, [PROGRESS_EVERY]: _every, [CONFIRM_COUNT_OPTION]: count, ...own_values } = values;
	return { ...common(values), kind: 'action', job, module, subcommand, options: own_values, confirmCount: confirmCount(count) };
}

function common(values: Readonly<Record<string, string | true>>): RunCommon {
	return { dryRun: values[DRY_RUN_OPTION] === true, progressEveryMs: progressEvery(values[PROGRESS_EVERY]) * 1000 };
}

/** The flags, by option name; `--flag value` and `--flag=value` both work. */
function readFlags(args: readonly string[], what: string, options: readonly APIApplicationCommandBasicOption[]): Record<string, string | true> {
	const all = [...options, { type: ApplicationCommandOptionType.String, name: PROGRESS_EVERY, description: '' } as APIApplicationCommandBasicOption];
	if (!options.some((option) => option.name === DRY_RUN_OPTION))
		all.push({ type: ApplicationCommandOptionType.Boolean, name: DRY_RUN_OPTION, description: '' });
	const byFlag = new Map(all.map((option) => [flagOf(option), option]));
	const values: Record<string, string | true> = {};
	for (let i = 0; i < args.length; i++) {
		const arg = args[i]!;
		if (!arg.startsWith('--')) throw new Invalid(`unexpected argument ${JSON.stringify(arg)}: values follow their flag, like --name "🎃 {display_name}"`);
		const equals = arg.indexOf('=');
		const flag = equals === -1 ? arg : arg.slice(0, equals);
		const option = byFlag.get(flag);
		if (!option) {
			const known = actionModules.some((module) => flagsOf(module).includes(flag)) || flag === '--name' || flag === cliOptionName(SKIP_IRREVERSIBLE_OPTION);
			throw new Invalid(`${known ? `${flag} is not an option of run ${what}` : `unknown option ${flag}`}; run ${what} takes ${[...byFlag.keys()].join(', ')}`);
		}
		if (values[option.name] !== undefined) throw new Invalid(`${flag} is given twice`);
		if (option.type === ApplicationCommandOptionType.Boolean) {
			if (equals !== -1) throw new Invalid(`${flag} takes no value`);
			values[option.name] = true;
			continue;
		}
		let value = equals === -1 ? args[i + 1] : arg.slice(equals + 1);
		// `--name --dry-run` is a forgotten value far more often than a name that starts with "--".
		if (equals === -1 && (value === undefined || value.startsWith('--'))) {
			throw new Invalid(`${flag} needs a value${value === undefined ? '' : ` (write ${flag}=${value} if that is the value)`}`);
		}
		if (equals === -1) i++;
		value = value!;
		checkValue(flag, option, value);
		values[option.name] = value;
	}
	return values;
}

/** A value as Discord would take it for the option: a role is an id, a text within its length. */
function checkValue(flag: string, option: APIApplicationCommandBasicOption, value: string): void {
	const shown = JSON.stringify(value.slice(0, 100));
	if (option.type === ApplicationCommandOptionType.Role && !isSnowflake(value)) {
		throw new Invalid(`${flag} needs a role id (17 to 20 digits; Server Settings → Roles → right-click → Copy Role ID), got ${shown}`);
	}
	if (option.type === ApplicationCommandOptionType.Attachment && value.trim() === '') {
		throw new Invalid(`${flag} needs the path of a file`);
	}
	if (option.type === ApplicationCommandOptionType.String) {
		const length = [...value].length;
		if (option.min_length !== undefined && length < option.min_length) throw new Invalid(`${flag} needs at least ${option.min_length} characters`);
		if (option.max_length !== undefined && length > option.max_length)
			throw new Invalid(`${flag} takes at most ${option.max_length} characters, got ${length}`);
		if (option.choices && !option.choices.some((choice) => choice.value === value)) {
			throw new Invalid(`${flag} is one of ${option.choices.map((choice) => choice.value).join(', ')}, got ${shown}`);
		}
	}
}

function flagOf(option: { readonly name: string }): string {
	return cliOptionName(option.name);
}

/** An option's flag: `exclude_role` is `--exclude-role`. */
export function cliOptionName(option: string): string {
	return `--${option.replaceAll('_', '-')}`;
}

function placeholder(option: APIApplicationCommandBasicOption): string {
	// An attachment on a command is a file on disk here.
	if (option.type === ApplicationCommandOptionType.Attachment) return '<path>';
	return option.type === ApplicationCommandOptionType.Role ? '<id>' : '<text>';
}

/** Every flag a module's job takes, its subcommands' included. */
function flagsOf(module: ActionModule): string[] {
	const own: readonly APIApplicationCommandOption[] = module.command.options ?? [];
	const options = own.flatMap((option) =>
		option.type === ApplicationCommandOptionType.Subcommand ? (option.options ?? []) : [option as APIApplicationCommandBasicOption],
	);
	const confirm = module.confirmByTypedCount ? [{ name: CONFIRM_COUNT_OPTION }] : [];
	return [...options, ...commonOptions(module), ...confirm].map(flagOf);
}

/** The usage lines of the engine's options, one per option. */
function flagLines(options: readonly APIApplicationCommandBasicOption[]): string {
	return options
		.map(
			(option) =>
				`  ${`${flagOf(option)}${option.type === ApplicationCommandOptionType.Boolean ? '' : ` ${placeholder(option)}`}`.padEnd(24)} ${option.description.charAt(0).toLowerCase()}${option.description.slice(1)}`,
		)
		.join('\n');
}

function confirmCount(value: string | true | undefined): number | undefined {
	if (value === undefined) return undefined;
	if (value === true || !/^\d{1,15}$/.test(value)) {
		throw new Invalid(
			`${cliOptionName(CONFIRM_COUNT_OPTION)} needs the number of members the job changes, as digits (run it with --dry-run to count them), got ${JSON.stringify(value)}`,
		);
	}
	return Number(value);
}

function progressEvery(value: string | true | undefined): number {
	if (value === undefined) return DEFAULT_PROGRESS_EVERY_S;
	const seconds = Number(value);
	if (value === true || value.trim() === '' || !Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_PROGRESS_EVERY_S) {
		throw new Invalid(`--progress-every needs a number of seconds above 0 and at most ${MAX_PROGRESS_EVERY_S}, got ${JSON.stringify(value)}`);
	}
	return seconds;
}
