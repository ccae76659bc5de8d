import type { ConfigProblem } from '../errors.js';
import { isSnowflake } from '../discord/snowflake.js';
import { auditLogReasonProblem } from './auditLogReason.js';
import type { Settings } from './Config.js';
import { DEFAULT_SETTINGS } from './defaults.js';

type Rule =
	| { readonly type: 'int'; readonly min: number; readonly max: number; readonly why?: string }
	| { readonly type: 'boolean' }
	| { readonly type: 'ids' }
	| { readonly type: 'oneOf'; readonly values: readonly string[] }
	| { readonly type: 'reason' }
	| { readonly type: 'commands' };

/** A slash command's name as Discord allows it (lowercase, 1–32 characters). */
const COMMAND_NAME = /^[-_\p{Ll}\p{N}]{1,32}$/u;

/** The rule for every leaf of {@link Settings}, by dotted path. */
const RULES: Readonly<Record<string, Rule>> = {
	auditLogReason: { type: 'reason' },
	statusRefreshSeconds: { type: 'int', min: 2, max: 60, why: 'Discord rate-limits message edits' },
	ruleStatusRefreshSeconds: { type: 'int', min: 10, max: 3600, why: 'each edit counts against the rate limits, for as long as the rule runs' },
	'permissions.requireManageNicknames': { type: 'boolean' },
	'permissions.allowedRoleIds': { type: 'ids' },
	'permissions.allowedUserIds': { type: 'ids' },
	'nickname.maxLength': { type: 'int', min: 1, max: 32, why: 'Discord allows at most 32' },
	'nickname.truncate': { type: 'oneOf', values: ['end'] },
	'workers.maxInFlight': { type: 'int', min: 1, max: 1000 },
	'workers.retry.attempts': { type: 'int', min: 1, max: 20, why: 'the first try counts' },
	'workers.retry.baseDelayMs': { type: 'int', min: 0, max: 60_000 },
	'workers.retry.maxDelayMs': { type: 'int', min: 0, max: 600_000 },
	'workers.paceSharedLimit': { type: 'boolean' },
	'rest.timeoutMs': { type: 'int', min: 1000, max: 300_000 },
	'rest.offsetMs': { type: 'int', min: 0, max: 5000 },
	'safety.invalidRequestBudget': {
		type: 'int',
		min: 1,
		max: 9999,
		why: 'Discord bans the IP for an hour at 10,000 invalid requests in 10 minutes',
	},
	'journal.deleteRestoredAfterDays': { type: 'int', min: 0, max: 3650 },
	'journal.compactAboveKB': { type: 'int', min: 1, max: 4_194_304, why: 'KiB: 1 KiB to 4 GiB' },
	'preview.timeoutSeconds': {
		type: 'int',
		min: 10,
		max: 840,
		why: "the preview is edited through the command's interaction token, which Discord keeps for 15 minutes",
	},
	'preview.skipBelowMembers': { type: 'int', min: 0, max: 100_000_000, why: '0 previews every job' },
	'jobs.resumeOnStart': { type: 'boolean' },
	'invite.actions': { type: 'commands' },
};

/**
 * Validates the parsed `config/massnick.json` against {@link DEFAULT_SETTINGS}: a key left out
 * takes its default, an unknown key or a bad value is a problem. `file` names the file in keys.
 */
export function readSettings(raw: unknown, file: string): { settings: Settings; problems: ConfigProblem[] } {
	const problems: ConfigProblem[] = [];
	const problem = (path: string, message: string) => problems.push({ key: `${file}: ${path}`, message });
	const settings = merge(DEFAULT_SETTINGS, raw, '', problem) as Settings;
	const retry = settings.workers.retry;
	if (problems.length === 0 && retry.maxDelayMs < retry.baseDelayMs) {
		problem('workers.retry.maxDelayMs', `is ${retry.maxDelayMs}, below baseDelayMs (${retry.baseDelayMs}); make it at least that`);
	}
	return { settings, problems };
}

function merge(defaults: unknown, raw: unknown, path: string, problem: (path: string, message: string) => void): unknown {
	if (raw === undefined) return defaults;
	if (isPlainObject(defaults)) {
		if (!isPlainObject(raw)) {
			problem(path || '(top level)', `must be an object like ${JSON.stringify(defaults)}`);
			return defaults;
		}
		const known = Object.keys(defaults);
		for (const key of Object.keys(raw)) {
			if (!known.includes(key)) {
				const where = path === '' ? 'at the top level' : `in ${path}`;
				problem(join(path, key), `is not a setting; the keys ${where} are ${known.join(', ')}`);
			}
		}
		return Object.fromEntries(known.map((key) => [key, merge(defaults[key], raw[key], join(path, key), problem)]));
	}
	const rule = RULES[path];
	if (rule === undefined) throw new Error(`no validation rule for setting ${path}`);
	const message = checkLeaf(rule, raw);
	if (message === undefined) return raw;
	problem(path, message);
	return defaults;
}

function checkLeaf(rule: Rule, value: unknown): string | undefined {
	switch (rule.type) {
		case 'int':
			if (typeof value !== 'number' || !Number.isInteger(value) || value < rule.min || value > rule.max) {
				const why = rule.why === undefined ? '' : ` (${rule.why})`;
				return `must be a whole number from ${rule.min} to ${rule.max}${why}, got ${JSON.stringify(value)}`;
			}
			return undefined;
		case 'boolean':
			return typeof value === 'boolean' ? undefined : `must be true or false, got ${JSON.stringify(value)}`;
		case 'oneOf':
			return rule.values.includes(value as string)
				? undefined
				: `must be ${rule.values.map((choice) => JSON.stringify(choice)).join(' or ')}, got ${JSON.stringify(value)}`;
		case 'ids': {
			if (!Array.isArray(value)) return `must be a list of ids, like ["175928847299117063"], got ${JSON.stringify(value)}`;
			const bad = value.findIndex((id) => !isSnowflake(id));
			if (bad !== -1) return `item ${bad} (${JSON.stringify(value[bad])}) is not an id; ids are strings of 17 to 20 digits, in quotes`;
			return undefined;
		}
		case 'reason':
			if (typeof value !== 'string') return `must be a string, got ${JSON.stringify(value)}`;
			return auditLogReasonProblem(value);
		case 'commands': {
			// Which commands there are is the actions' to say: the doctor names one that is none.
			if (!Array.isArray(value)) return `must be a list of command names, like ["masstimeout"], got ${JSON.stringify(value)}`;
			const bad = value.findIndex((name) => typeof name !== 'string' || !COMMAND_NAME.test(name));
			if (bad !== -1) return `item ${bad} (${JSON.stringify(value[bad])}) is not a command name; write it as you type it without the slash, like "masstimeout"`;
			return undefined;
		}
	}
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, key: string): string {
	return path === '' ? key : `${path}.${key}`;
}
