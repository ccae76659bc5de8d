/**
 * Stable codes for every error massnick raises on purpose.
 *
 * A handler branches on `error.code`, never on message text, so the text can say whatever helps
 * the user most and change freely. Codes are part of the contract: add new ones, never rename.
 */
export const ErrorCodes = {
	// Configuration
	ConfigInvalid: 'CONFIG_INVALID',
	// Inputs that are programmer errors rather than user errors
	InvalidSnowflake: 'INVALID_SNOWFLAKE',
	InvalidArgument: 'INVALID_ARGUMENT',
	// Jobs: starting, planning and running
	JobRunning: 'JOB_RUNNING',
	NoJob: 'NO_JOB',
	NameTooLong: 'NAME_TOO_LONG',
	NameEmpty: 'NAME_EMPTY',
	TemplateInvalid: 'TEMPLATE_INVALID',
	NoJournal: 'NO_JOURNAL',
	/** The job /restore would undo is one Discord cannot undo (a kick). */
	NotUndoable: 'NOT_UNDOABLE',
	/** A job that cannot be undone was not confirmed with the count of members it changes. */
	NotConfirmed: 'NOT_CONFIRMED',
	NotAllowed: 'NOT_ALLOWED',
	NotInGuild: 'NOT_IN_GUILD',
	MissingPermission: 'MISSING_PERMISSION',
	MembersIntentDisabled: 'MEMBERS_INTENT_DISABLED',
	TokenRejected: 'TOKEN_REJECTED',
	ConnectFailed: 'CONNECT_FAILED',
	ListingFailed: 'LISTING_FAILED',
	NoWorkers: 'NO_WORKERS',
	RoleNotAssignable: 'ROLE_NOT_ASSIGNABLE',
	/** The role a running job hands out or takes was deleted. */
	RoleDeleted: 'ROLE_DELETED',
	/** What a job hands out is at or above the requester's own highest role. */
	AboveRequester: 'ABOVE_REQUESTER',
	/** Discord refuses more bans of users who are not members for now (30035). */
	NonMemberBanLimit: 'NON_MEMBER_BAN_LIMIT',
	/** A standing rule would set what another sets (two nickname rules), or the guild holds as many as it may. */
	RuleConflict: 'RULE_CONFLICT',
	/** No standing rule goes by the name or id given. */
	NoRule: 'NO_RULE',
	/** A standing rule stopped: who made it left, or lost the permission or the rank it needs. */
	RuleRequesterLost: 'RULE_REQUESTER_LOST',
	// The doctor's findings (besides the codes above, which it reuses)
	CommandsNotAllowed: 'COMMANDS_NOT_ALLOWED',
	StatusChannelNotWritable: 'STATUS_CHANNEL_NOT_WRITABLE',
	MembersAboveWorkers: 'MEMBERS_ABOVE_WORKERS',
	NobodyRenamable: 'NOBODY_RENAMABLE',
	/** Fewer bots fit in the server (50 integrations) than the configured ones not in it yet. */
	ServerFull: 'SERVER_FULL',
	/** Room for only a few more bots, by integrations or by roles. */
	ServerNearLimit: 'SERVER_NEAR_LIMIT',
	CheckFailed: 'CHECK_FAILED',
	// The journal of originals
	JournalExists: 'JOURNAL_EXISTS',
	JournalNotFound: 'JOURNAL_NOT_FOUND',
	JournalCorrupt: 'JOURNAL_CORRUPT',
	JournalClosed: 'JOURNAL_CLOSED',
	JournalWriteFailed: 'JOURNAL_WRITE_FAILED',
	/** A journal kept by workers split otherwise (another WORKER_COUNT), or a worker's file is missing. */
	JournalOtherSplit: 'JOURNAL_OTHER_SPLIT',
	FleetJournalsUnreadable: 'FLEET_JOURNALS_UNREADABLE',
} as const;

/** Any value of {@link ErrorCodes}. */
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

export interface MassnickErrorOptions extends ErrorOptions {
	readonly context?: Readonly<Record<string, unknown>> | undefined;
}

/** The base of every error massnick raises on purpose; `code` is stable, `message` is for people. */
export class MassnickError extends Error {
	readonly code: ErrorCode;
	/** The values that explain it (which role, which rank), for a handler to word its own way. */
	readonly context: Readonly<Record<string, unknown>>;

	constructor(code: ErrorCode, message: string, options?: MassnickErrorOptions) {
		super(message, options);
		this.code = code;
		this.context = Object.freeze({ ...options?.context });
		// Like discord.js's `DiscordAPIError[50013]`: the code shows in every stack trace and log line.
		this.name = `${new.target.name}[${code}]`;
	}
}

/** One thing wrong with the configuration: the key it is about, and what to do. */
export interface ConfigProblem {
	/** The env key (`WORKER_TOKENS`) or the settings path (`config/massnick.json: workers.maxInFlight`). */
	readonly key: string;
	/** What is wrong and what to do about it; never contains a secret. */
	readonly message: string;
}

/**
 * The configuration cannot be used. Carries every problem found, so one start shows them all,
 * and its message lists them one per line.
 */
export class ConfigError extends MassnickError {
	readonly problems: readonly ConfigProblem[];

	constructor(problems: readonly ConfigProblem[]) {
		const noun = problems.length === 1 ? 'problem' : 'problems';
		const lines = problems.map((problem) => `- ${problem.key}: ${problem.message}`);
		super(ErrorCodes.ConfigInvalid, [`The configuration has ${problems.length} ${noun}:`, ...lines].join('\n'));
		this.problems = Object.freeze([...problems]);
	}
}

/** A job cannot start or continue; the message is fit to show the user who ran the command. */
export class JobError extends MassnickError {}

/** A lockdown (paused invites and DMs) cannot be set or lifted; the message is fit to show who asked. */
export class LockdownError extends MassnickError {}

/** The journal of originals could not be created, read or written. */
export class JournalError extends MassnickError {}
