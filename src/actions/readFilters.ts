import { ErrorCodes, JobError, MassnickError } from '../errors.js';
import {
	compileMemberFilter,
	compileNamePattern,
	decodeIdFile,
	isDuration,
	type MemberFilterSpec,
	type MemberFilters,
	type MemberKind,
	parseDateOrDuration,
	parseIdList,
	TIME_FILTERS,
	type TimeFilter,
} from '../jobs/index.js';
import type { ActionArgs, ActionModule } from './ActionModule.js';
import { EXCLUDE_ROLE_OPTION, FILTER_OPTIONS, ONLY_ROLE_OPTION } from './commonOptions.js';

export interface ReadFiltersOptions {
	/** Now, for durations (`7d`: seven days before now); resolved once, so a rerun aims the same. */
	readonly now: number;
	/** How the surface names an option in an error: `joined_before:` for a command, `--joined-before` on the command line. */
	readonly optionName: (option: string) => string;
	/**
	 * The file of user ids given as `ids_file`, read already: an attachment the boss downloaded, a
	 * path the command line read. Reading it is the caller's (it waits on the network or the disk).
	 */
	readonly idsFile?: IdsFile | undefined;
	/**
	 * For a standing rule: durations are kept as typed besides their reading as of `now`, so the rule
	 * reads them anew as it plans (`MemberFilterSpec.ago`). A job that is not a rule reads them once.
	 */
	readonly rule?: boolean | undefined;
}

/** A file of user ids as it was given: its name, for people, and its bytes. */
export interface IdsFile {
	readonly name: string;
	readonly bytes: Uint8Array;
}

/**
 * Who a job is about, from the engine's options it was asked with (see `commonOptions`), every
 * value checked before anything runs: a date or a duration, a name pattern that compiles.
 *
 * @throws {JobError} `INVALID_ARGUMENT`, naming the option and what it takes.
 */
export function readFilters(args: ActionArgs, module: ActionModule, { now, optionName, idsFile, rule }: ReadFiltersOptions): MemberFilters {
	const when = (option: string): number | undefined => {
		const text = args.string(option);
		return text === undefined ? undefined : named(option, () => parseDateOrDuration(text, now));
	};
	const named = <T>(option: string, read: () => T): T => {
		try {
			return read();
		} catch (error) {
			if (!(error instanceof MassnickError)) throw error;
			throw new JobError(ErrorCodes.InvalidArgument, `${optionName(option)} ${error.message}`, { cause: error, context: { option } });
		}
	};
	const nameMatches = args.string(FILTER_OPTIONS.nameMatches);
	if (nameMatches !== undefined) named(FILTER_OPTIONS.nameMatches, () => compileNamePattern(nameMatches));
	const members = args.string(FILTER_OPTIONS.members) as MemberKind | undefined;
	let filters: MemberFilters = {
		onlyRoleId: args.role(module.onlyRoleOption ?? ONLY_ROLE_OPTION),
		excludeRoleId: args.role(EXCLUDE_ROLE_OPTION),
		...(members !== undefined && members !== 'all' ? { members } : {}),
		...(args.boolean(FILTER_OPTIONS.noRoles) ? { noRoles: true } : {}),
		...defined('joinedBefore', when(FILTER_OPTIONS.joinedBefore)),
		...defined('joinedAfter', when(FILTER_OPTIONS.joinedAfter)),
		...defined('createdBefore', when(FILTER_OPTIONS.createdBefore)),
		...defined('createdAfter', when(FILTER_OPTIONS.createdAfter)),
		...defined('nameMatches', nameMatches),
		...(rule ? defined('ago', durationsOf(args)) : {}),
	};
	// A window whose start is not before its end holds nobody.
	for (const [after, before] of [
		['joinedAfter', 'joinedBefore'],
		['createdAfter', 'createdBefore'],
	] as const) {
		const start = filters[after];
		const end = filters[before];
		if (start !== undefined && end !== undefined && start >= end) {
			throw new JobError(
				ErrorCodes.InvalidArgument,
				`${optionName(FILTER_OPTIONS[after])} (${new Date(start).toISOString()}) is not before ${optionName(FILTER_OPTIONS[before])} (${new Date(end).toISOString()}), so no member could be in the job: give an earlier ${optionName(FILTER_OPTIONS[after])} or a later ${optionName(FILTER_OPTIONS[before])}, or leave one out.`,
				{ context: { option: FILTER_OPTIONS[after], other: FILTER_OPTIONS[before] } },
			);
		}
	}
	// The file last: the boss reads the other filters before it downloads the file.
	if (idsFile !== undefined) {
		const from = fileLabel(idsFile.name);
		filters = { ...filters, userIdsFrom: from, userIds: readIdsFile(idsFile, `${optionName(FILTER_OPTIONS.userIds)} ${from}`, now) };
	}
	// Every filter checked together as the planner will compile it.
	compileMemberFilter(filters, { guildId: '' });
	return filters;
}

/** The time filters given as a duration (`created_after:1d`), as typed; `undefined` for none. */
function durationsOf(args: ActionArgs): MemberFilterSpec['ago'] {
	const ago: Partial<Record<TimeFilter, string>> = {};
	for (const field of TIME_FILTERS) {
		const text = args.string(FILTER_OPTIONS[field]);
		if (text !== undefined && isDuration(text)) ago[field] = text.trim();
	}
	return Object.keys(ago).length > 0 ? ago : undefined;
}

/** The ids of a file, sorted; its mistakes named with the option and the file (`ids_file: raid.csv has …`). */
function readIdsFile(file: IdsFile, named: string, now: number): readonly string[] {
	try {
		return parseIdList(decodeIdFile(file.bytes), { now }).ids;
	} catch (error) {
		if (!(error instanceof MassnickError)) throw error;
		throw new JobError(ErrorCodes.InvalidArgument, `${named} ${error.message}`, {
			cause: error,
			context: { ...error.context, option: FILTER_OPTIONS.userIds },
		});
	}
}

/**
 * A file's name as massnick shows it (in a preview, a status, a journal's header): without its
 * folder, letters, digits and a few signs only, at most 80 characters, so no name can format a
 * message or hide what it says.
 */
export function fileLabel(name: string): string {
	const base = name.split(/[\\/]/).pop() ?? '';
	const safe = [...base.replace(/[^\p{L}\p{N} ._()+-]/gu, '_')].slice(0, 80).join('').trim();
	return safe === '' ? 'the file' : safe;
}

function defined<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
	return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
