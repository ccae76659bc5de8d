import type { RoleMode } from '../actions/role/RoleAction.js';
import { isSnowflake } from '../discord/snowflake.js';
import type { MemberFilters } from '../jobs/planner.js';

/** `massnick run --help`, and what a bad command line is answered with. */
export const RUN_USAGE = `usage: massnick run <job> [options]            (from a checkout: npm run job -- <job> [options])

Runs one job on the guild in .env without slash commands, waits for it to end and exits: the same
engine, journal and safety checks as /massnick, /massrole and /restore.

  massnick --name <template> [--role <id>] [--exclude-role <id>]
      rename every member to <template>: text with {username}, {display_name}, {nick}, {id}
  massrole add|remove --role <id> [--only-role <id>] [--exclude-role <id>]
      give the role to every member who lacks it, or take it from every member who has it
  restore [--name <template>]
      undo the last job not undone yet; with --name and no journal left, clear that nickname
      wherever it is still set instead (the originals cannot be recovered that way)

  --role <id>              massnick: only members with this role; massrole: the role to give or take
  --only-role <id>         massrole: only members with this role
  --exclude-role <id>      leave members with this role alone
  --dry-run                count what would change; send nothing, journal nothing
  --progress-every <s>     seconds between progress lines in the log (default 10)

A role id is 17 to 20 digits: Server Settings → Roles → right-click the role → Copy Role ID.

Output: on a terminal, a progress bar on stderr; otherwise a JSON progress line on stdout every
10 s and one at the end with the counts. What happened is summed up on stderr.

Exit code:
  0  done: every member the job applies to is done (a dry run: counted)
  1  not done: members failed or were left undone; run the same command again to finish them
  2  bad arguments
  3  cancelled by SIGINT or SIGTERM (what was done stays journaled; a second signal exits at once)
  4  refused before anything ran (configuration, a token, the guild, a role, a journal): nothing
     changed, and the same command is refused again until that is fixed
  5  not started, for a reason that passes: another run holds the lock (a killed run's lock is
     stale 60 s after its last touch) or Discord could not be reached; nothing changed, run it later`;

/** What every job takes besides its own options. */
interface RunCommon {
	readonly dryRun: boolean;
	/** Milliseconds between progress lines in the log. */
	readonly progressEveryMs: number;
}

/** One job, as the command line asked for it. */
export type RunRequest = RunCommon &
	(
		| { readonly job: 'massnick'; readonly name: string; readonly filters: MemberFilters }
		| { readonly job: 'massrole'; readonly mode: RoleMode; readonly roleId: string; readonly filters: MemberFilters }
		| { readonly job: 'restore'; readonly name: string | undefined }
	);

export type ParsedRunArgs =
	| { readonly kind: 'run'; readonly request: RunRequest }
	| { readonly kind: 'help' }
	/** `problem` names the argument at fault and what it needs. */
	| { readonly kind: 'invalid'; readonly problem: string };

type Flag = 'name' | 'role' | 'only-role' | 'exclude-role' | 'dry-run' | 'progress-every';

/** The flags each job takes. */
const FLAGS: Readonly<Record<RunRequest['job'], readonly Flag[]>> = {
	massnick: ['name', 'role', 'exclude-role', 'dry-run', 'progress-every'],
	massrole: ['role', 'only-role', 'exclude-role', 'dry-run', 'progress-every'],
	restore: ['name', 'dry-run', 'progress-every'],
};

const ROLE_FLAGS: readonly Flag[] = ['role', 'only-role', 'exclude-role'];
const DEFAULT_PROGRESS_EVERY_S = 10;
const MAX_PROGRESS_EVERY_S = 3600;

class Invalid extends Error {}

/**
 * Reads `massnick run`'s arguments (everything after `run`). Pure: nothing is loaded or checked
 * against Discord here, only the shape, so every mistake is caught before the bots connect.
 */
export function parseRunArgs(args: readonly string[]): ParsedRunArgs {
	if (args.some((arg) => arg === '--help' || arg === '-h')) return { kind: 'help' };
	try {
		return { kind: 'run', request: parse(args) };
	} catch (error) {
		if (error instanceof Invalid) return { kind: 'invalid', problem: error.message };
		throw error;
	}
}

function parse(args: readonly string[]): RunRequest {
	const [job, ...rest] = args;
	if (job === undefined) throw new Invalid('say which job to run: massnick, massrole or restore');
	if (job !== 'massnick' && job !== 'massrole' && job !== 'restore') {
		throw new Invalid(`unknown job ${JSON.stringify(job)}: run massnick, massrole or restore`);
	}
	let mode: RoleMode | undefined;
	if (job === 'massrole') {
		const given = rest[0];
		if (given !== 'add' && given !== 'remove') {
			throw new Invalid(`run massrole needs add or remove before its options, got ${given === undefined ? 'nothing' : JSON.stringify(given)}`);
		}
		mode = given;
	}
	const values = readFlags(mode === undefined ? rest : rest.slice(1), job);
	const common: RunCommon = {
		dryRun: values.has('dry-run'),
		progressEveryMs: progressEvery(values.get('progress-every')) * 1000,
	};
	switch (job) {
		case 'massnick': {
			const name = values.get('name');
			if (name === undefined) throw new Invalid('run massnick needs --name <template>, the nickname to give (for example --name "🎃 {display_name}")');
			return { ...common, job, name, filters: { onlyRoleId: values.get('role'), excludeRoleId: values.get('exclude-role') } };
		}
		case 'massrole': {
			const roleId = values.get('role');
			if (roleId === undefined) throw new Invalid(`run massrole ${mode} needs --role <id>, the role to ${mode === 'add' ? 'give' : 'take'}`);
			return { ...common, job, mode: mode!, roleId, filters: { onlyRoleId: values.get('only-role'), excludeRoleId: values.get('exclude-role') } };
		}
		case 'restore':
			return { ...common, job, name: values.get('name') };
	}
}

/** The flags, by name (`--dry-run` maps to ''); `--flag value` and `--flag=value` both work. */
function readFlags(args: readonly string[], job: RunRequest['job']): Map<Flag, string> {
	const values = new Map<Flag, string>();
	const allowed = FLAGS[job];
	for (let i = 0; i < args.length; i++) {
		const arg = args[i]!;
		if (!arg.startsWith('--')) throw new Invalid(`unexpected argument ${JSON.stringify(arg)}: values follow their flag, like --name "🎃 {display_name}"`);
		const equals = arg.indexOf('=');
		const name = (equals === -1 ? arg.slice(2) : arg.slice(2, equals)) as Flag;
		if (!allowed.includes(name)) {
			const known = (Object.values(FLAGS).flat() as string[]).includes(name);
			throw new Invalid(`${known ? `--${name} is not an option of run ${job}` : `unknown option --${name}`}; run ${job} takes ${allowed.map((flag) => `--${flag}`).join(', ')}`);
		}
		if (values.has(name)) throw new Invalid(`--${name} is given twice`);
		if (name === 'dry-run') {
			if (equals !== -1) throw new Invalid('--dry-run takes no value');
			values.set(name, '');
			continue;
		}
		let value = equals === -1 ? args[i + 1] : arg.slice(equals + 1);
		// `--name --dry-run` is a forgotten value far more often than a name that starts with "--".
		if (equals === -1 && (value === undefined || value.startsWith('--'))) {
			throw new Invalid(`--${name} needs a value${value === undefined ? '' : ` (write --${name}=${value} if that is the value)`}`);
		}
		if (equals === -1) i++;
		value = value!;
		if (ROLE_FLAGS.includes(name) && !isSnowflake(value)) {
			throw new Invalid(`--${name} needs a role id (17 to 20 digits; Server Settings → Roles → right-click → Copy Role ID), got ${JSON.stringify(value)}`);
		}
		values.set(name, value);
	}
	return values;
}

function progressEvery(value: string | undefined): number {
	if (value === undefined) return DEFAULT_PROGRESS_EVERY_S;
	const seconds = Number(value);
	if (value.trim() === '' || !Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_PROGRESS_EVERY_S) {
		throw new Invalid(`--progress-every needs a number of seconds above 0 and at most ${MAX_PROGRESS_EVERY_S}, got ${JSON.stringify(value)}`);
	}
	return seconds;
}
