import { type APIApplicationCommandBasicOption, type APIApplicationCommandOption, ApplicationCommandOptionType } from 'discord.js';
import fc from 'fast-check';
import { FILTER_OPTIONS } from '../../src/actions/commonOptions.js';
import { commandDefinitions } from '../../src/boss/commands/bossCommands.js';
import { codePoints, hostileText } from './hostileText.js';

/**
 * Slash command invocations generated from the boss's own command definitions: every command and
 * subcommand the boss registers, each option drawn by its type (and, for the engine's filters, by
 * what it means), including values Discord would never deliver (too long, not a choice, a role
 * not in the guild), so a test sees both sides: what Discord refuses, and what the bot must.
 * The same cases, written as flags, are `massnick run` command lines (see {@link runArgsOf}).
 */

/**
 * A role as a member could name it: one of the sandbox's ladder, `@everyone`, the integration's
 * managed role, the workers' own, one above them, a role made for the case (between the preview
 * and Start, deleted again when `fresh-deleted`, moved above the workers when `fresh-raised`), and
 * ids Discord would not resolve: unknown, another kind of object of this guild (it has no other
 * guild), or no id at all.
 */
export type RoleChoice =
	| { readonly kind: 'ladder'; readonly name: 'Member' | 'Level 10' | 'Staff' | 'Bots' | 'Event' }
	| { readonly kind: 'everyone' | 'managed' | 'workers' | 'above' | 'fresh' | 'fresh-deleted' | 'fresh-raised' | 'not-a-role' }
	| { readonly kind: 'unknown'; readonly id: string }
	| { readonly kind: 'garbage'; readonly text: string };

export type OptionValue = string | boolean | number | RoleChoice;

/** What the member does with a preview, if one is shown. */
export type PreviewChoice = 'start' | 'cancel' | 'leave-then-start' | 'start-then-cancel';

export interface CommandCase {
	/** As typed, with its subcommand: `massrole add`. */
	readonly command: string;
	readonly options: Readonly<Record<string, OptionValue>>;
	/** The definitions of the options it was drawn from. */
	readonly definitions: readonly APIApplicationCommandBasicOption[];
	readonly answer: PreviewChoice;
	/** How many members leave, for `leave-then-start`. */
	readonly leaving: number;
	/** Picks which members leave. */
	readonly pick: number;
}

/** Not a role in any guild the sandbox knows; a name no sandbox role has. */
const ROLE_NAMES = new Set(['@everyone', 'Member', 'Level 10', 'Staff', 'Bots', 'MEE6', 'Event', 'Massnick', 'Moderator', 'Admin']);

export const roleChoice: fc.Arbitrary<RoleChoice> = fc.oneof(
	{ arbitrary: fc.constantFrom('Member', 'Level 10', 'Staff', 'Bots', 'Event').map((name): RoleChoice => ({ kind: 'ladder', name })), weight: 4 },
	{
		arbitrary: fc.constantFrom('everyone', 'managed', 'workers', 'above', 'fresh', 'fresh-deleted', 'fresh-raised').map((kind) => ({ kind }) as RoleChoice),
		weight: 7,
	},
	// Ids Discord resolves to no role: rarer, as each one ends its case before the bot sees it.
	{
		arbitrary: fc.oneof(
			fc.constant<RoleChoice>({ kind: 'not-a-role' }),
			fc.bigInt({ min: 10n ** 16n, max: 2n ** 63n }).map((id): RoleChoice => ({ kind: 'unknown', id: id.toString() })),
			hostileText(40)
				.filter((text) => !ROLE_NAMES.has(text) && !text.startsWith('Fuzz '))
				.map((text): RoleChoice => ({ kind: 'garbage', text })),
		),
		weight: 1,
	},
);

/** What a date filter may be given: dates, times with and without a zone, durations, and near misses. */
export const dateText: fc.Arbitrary<string> = fc.oneof(
	fc.tuple(fc.integer({ min: 0, max: 999_999_999 }), fc.constantFrom('m', 'h', 'd', 'w', 'y')).map(([count, unit]) => `${count}${unit}`),
	fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
	fc.date({ min: new Date('2015-01-01T00:00:00Z'), max: new Date('2030-12-31T23:59:59Z'), noInvalidDate: true }).map((date) => date.toISOString()),
	fc.constantFrom(
		'2024-02-30',
		'2024-02-29',
		'2023-02-29',
		'2024-13-01',
		'2024-1-5',
		'2024-01-31T18:00',
		'2024-01-31T18:00+02:00',
		'2024-01-31T24:00Z',
		'2024-01-31T18:00:00.123456789Z',
		' 7d ',
		'7D',
		'0m',
		'-7d',
		'7 d',
		'1e3d',
		'yesterday',
		'now',
		'9999999999d',
	),
	hostileText(40),
);

/** What a name filter may be given: substrings, regular expressions RE2 runs, and ones it must refuse. */
export const namePattern: fc.Arbitrary<string> = fc.oneof(
	fc.constantFrom(
		'/(a+)+$/',
		'/(a|aa)+$/',
		'/^(([a-z])+.)+[A-Z]([a-z])+$/',
		'/(?=a)b/',
		'/(?<!a)b/',
		'/(a)\\1/',
		'/\\k<x>/',
		'/(?<x>a)\\k<x>/',
		'/[/',
		'/(/',
		'/x{2,1}/',
		'/a{1000}{1000}/',
		'/(x{1000}){1000}/',
		'/.{1000}/',
		'/x/g',
		'/x/y',
		'/x/iu',
		'//',
		'/',
		'/\\/r\\/discord/i',
		'/\\p{L}+/u',
		'/\\p{Nope}/u',
		'/\\u{1F600}/u',
		'/\\cA/',
		'/[\\d-z]/',
		'/(?i)x/',
		'/\\Q.\\E/',
		'/[[:alpha:]]/',
		'bot',
		'/^bot/i',
	),
	fc
		.tuple(
			fc.array(
				fc.constantFrom(
					'a',
					'.',
					'*',
					'+',
					'?',
					'(',
					')',
					'[',
					']',
					'{',
					'}',
					'{2,}',
					'|',
					'^',
					'$',
					'\\',
					'/',
					'1',
					',',
					'-',
					'\\d',
					'\\w',
					'\\b',
					'(?:',
					'(?=',
					'(?<=',
					'(?<n>',
					'\\p{L}',
					'\\u{41}',
					'[^',
					'é',
					'🎃',
				),
				{
					maxLength: 30,
				},
			),
			fc.constantFrom('', 'i', 's', 'm', 'u', 'gi', 'v', 'imsu'),
		)
		.map(([tokens, flags]) => `/${tokens.join('')}/${flags}`),
	hostileText(500),
);

/** Values by what an option means, where its type alone says too little. */
const BY_NAME: Readonly<Record<string, fc.Arbitrary<string>>> = {
	[FILTER_OPTIONS.joinedBefore]: dateText,
	[FILTER_OPTIONS.joinedAfter]: dateText,
	[FILTER_OPTIONS.createdBefore]: dateText,
	[FILTER_OPTIONS.createdAfter]: dateText,
	[FILTER_OPTIONS.nameMatches]: namePattern,
};

function optionValueOf(definition: APIApplicationCommandBasicOption): fc.Arbitrary<OptionValue> {
	switch (definition.type) {
		case ApplicationCommandOptionType.String: {
			const meant = BY_NAME[definition.name];
			if (definition.choices) {
				return fc.oneof(
					{ arbitrary: fc.constantFrom(...definition.choices.map((choice) => choice.value)), weight: 8 },
					{ arbitrary: hostileText(20), weight: 1 },
				);
			}
			// Mostly within the option's limits, so the bot sees them; sometimes any length up to Discord's 6,000.
			const within = meant ?? hostileText(definition.max_length ?? 6000);
			return fc.oneof({ arbitrary: within, weight: 8 }, { arbitrary: hostileText(), weight: 1 });
		}
		case ApplicationCommandOptionType.Role:
			return roleChoice;
		case ApplicationCommandOptionType.Boolean:
			return fc.oneof({ arbitrary: fc.boolean(), weight: 15 }, { arbitrary: fc.constantFrom<OptionValue>('true', 'yes', 1), weight: 1 });
		case ApplicationCommandOptionType.Integer: {
			// Mostly within the option's bounds; sometimes just outside, or not a whole number, which Discord's client refuses.
			const min = definition.min_value ?? -1_000_000;
			const max = definition.max_value ?? 1_000_000;
			return fc.oneof({ arbitrary: fc.integer({ min, max }), weight: 8 }, { arbitrary: fc.constantFrom<OptionValue>(min - 1, max + 1, 1.5, 'six'), weight: 1 });
		}
		default:
			throw new Error(`no generator for option type ${definition.type} (${definition.name}); add one in test/support/commandCases.ts`);
	}
}

function optionsOf(definitions: readonly APIApplicationCommandBasicOption[]): fc.Arbitrary<Record<string, OptionValue>> {
	const fields = definitions.map((definition) => {
		// A required option is almost always given (Discord's client insists); an optional one a time in four, as most stay unset.
		const [given, unset] = definition.required ? [19, 1] : [1, 3];
		return fc
			.oneof({ arbitrary: optionValueOf(definition), weight: given }, { arbitrary: fc.constant(undefined), weight: unset })
			.map((value) => [definition.name, value] as const);
	});
	const bogus = fc.oneof({ arbitrary: fc.constant(false), weight: 60 }, { arbitrary: fc.constant(true), weight: 1 });
	return fc.tuple(fc.tuple(...fields), bogus).map(([entries, extra]) => {
		const options: Record<string, OptionValue> = {};
		for (const [name, value] of entries) if (value !== undefined) options[name] = value;
		if (extra) options.bogus = 'an option the command does not have';
		return options;
	});
}

interface Leaf {
	command: string;
	definitions: readonly APIApplicationCommandBasicOption[];
}

/** Each command and subcommand as it is typed, with the options of its leaf. */
function leaves(): Leaf[] {
	const found: Leaf[] = [];
	for (const definition of commandDefinitions) {
		const options: readonly APIApplicationCommandOption[] = definition.options ?? [];
		const subcommands = options.filter((option) => option.type === ApplicationCommandOptionType.Subcommand);
		if (subcommands.length === 0) found.push({ command: definition.name, definitions: options as APIApplicationCommandBasicOption[] });
		for (const sub of subcommands) found.push({ command: `${definition.name} ${sub.name}`, definitions: sub.options ?? [] });
	}
	return found;
}

/** The option definitions of a command as typed (`massrole add`). */
export function definitionsOf(command: string): readonly APIApplicationCommandBasicOption[] {
	const leaf = leaves().find((candidate) => candidate.command === command);
	if (!leaf) throw new Error(`no command /${command}`);
	return leaf.definitions;
}

/** The commands that only read: every other one changes members (an action's, and /restore), or the guild. */
const READING = new Set(['status', 'stats', 'shards', 'cancel']);

/** The commands that change the guild, not its members: no job, so `massnick run` has no case of them. */
const GUILD_WIDE = new Set(['lockdown on', 'lockdown off']);

function caseOf({ command, definitions }: Leaf): fc.Arbitrary<CommandCase> {
	return fc.record({
		command: fc.constant(command),
		options: optionsOf(definitions),
		definitions: fc.constant(definitions),
		answer: fc.constantFrom<PreviewChoice>('start', 'cancel', 'leave-then-start', 'start-then-cancel'),
		leaving: fc.integer({ min: 1, max: 4 }),
		pick: fc.nat(),
	});
}

/** Any command of the boss; the changing ones drawn more often than the ones that only read. */
export const commandCase: fc.Arbitrary<CommandCase> = fc.oneof(
	...leaves().map((leaf) => ({ weight: READING.has(leaf.command) || GUILD_WIDE.has(leaf.command) ? 1 : 4, arbitrary: caseOf(leaf) })),
);

/** The changing commands only, which `massnick run` runs as jobs. */
export const changingCase: fc.Arbitrary<CommandCase> = fc.oneof(
	...leaves()
		.filter((leaf) => !READING.has(leaf.command) && !GUILD_WIDE.has(leaf.command))
		.map(caseOf),
);

/**
 * Why Discord would refuse to deliver the command at all (the sandbox's control API answers 400),
 * or `undefined` when it reaches the bot: a required option missing, an option the command lacks,
 * a string outside its `min_length`..`max_length` (in code points) or not one of its choices, a
 * role not in the guild, a boolean that isn't one.
 */
export function discordRefuses(testCase: CommandCase): string | undefined {
	for (const name of Object.keys(testCase.options)) {
		if (!testCase.definitions.some((definition) => definition.name === name)) return `no option ${name}`;
	}
	for (const definition of testCase.definitions) {
		const value = testCase.options[definition.name];
		if (value === undefined) {
			if (definition.required) return `${definition.name} is required`;
			continue;
		}
		if (definition.type === ApplicationCommandOptionType.String) {
			const length = codePoints(value as string);
			if (length < (definition.min_length ?? 0) || length > (definition.max_length ?? 6000)) return `${definition.name} is ${length} characters`;
			if (definition.choices && !definition.choices.some((choice) => choice.value === value)) return `${definition.name} is not one of its choices`;
		}
		if (definition.type === ApplicationCommandOptionType.Role) {
			const { kind } = value as RoleChoice;
			if (kind === 'unknown' || kind === 'not-a-role' || kind === 'garbage') return `${definition.name} is not a role of the guild`;
		}
		if (definition.type === ApplicationCommandOptionType.Boolean && typeof value !== 'boolean' && value !== 'true' && value !== 'false')
			return `${definition.name} is not a boolean`;
		if (definition.type === ApplicationCommandOptionType.Integer) {
			const number = typeof value === 'string' ? Number(value) : value;
			if (typeof number !== 'number' || !Number.isInteger(number)) return `${definition.name} is not a whole number`;
			if (number < (definition.min_value ?? -Infinity) || number > (definition.max_value ?? Infinity)) return `${definition.name} is out of its bounds`;
		}
	}
	return undefined;
}

/**
 * The case as `massnick run` flags: `massrole add --role=<id> --dry-run`. Each option becomes its
 * flag (`exclude_role` is `--exclude-role`), a true boolean a bare flag, a false one nothing.
 * `role` turns a role choice into the id to write.
 */
export function runArgsOf(testCase: CommandCase, role: (choice: RoleChoice) => string): string[] {
	const args = testCase.command.split(' ');
	for (const [name, value] of Object.entries(testCase.options)) {
		const flag = `--${name.replaceAll('_', '-')}`;
		if (value === true) args.push(flag);
		else if (value === false) continue;
		else args.push(`${flag}=${typeof value === 'object' ? role(value) : String(value)}`);
	}
	return args;
}
