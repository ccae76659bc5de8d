import type { LevelWithSilent } from 'pino';

/** A pino level name, as `LOG_LEVEL` takes it. */
export type LogLevel = LevelWithSilent;

/** Who may run massnick's commands. A member passes if any rule lets them in. */
export interface PermissionSettings {
	/** Members with the command's permission (Manage Nicknames; Manage Roles for /massrole) may run it. */
	readonly requireManageNicknames: boolean;
	/** Members holding any of these roles may run commands as if they had Manage Nicknames and Manage Roles (`ALLOW_LIST_GRANTS`). */
	readonly allowedRoleIds: readonly string[];
	/** These users may, as `allowedRoleIds`. */
	readonly allowedUserIds: readonly string[];
}

/** `auto`: readable lines when stdout is a terminal, pino's JSON lines otherwise (journald, files, log shippers). */
export type LogFormat = 'auto' | 'json' | 'pretty';

/** How nicknames are fitted to Discord's rules. */
export interface NicknameSettings {
	/** At most this many Unicode code points; Discord's limit is 32. */
	readonly maxLength: number;
	/** Where a too-long expanded name is cut. Only `'end'` exists today. */
	readonly truncate: 'end';
}

/** Retrying a rename that failed for a reason that may pass (5xx, time-out, dropped connection). */
export interface RetrySettings {
	/** Tries in all, the first included. */
	readonly attempts: number;
	/** Backoff before the first retry; doubles each time, with full jitter. */
	readonly baseDelayMs: number;
	/** The backoff never exceeds this. */
	readonly maxDelayMs: number;
}

export interface WorkerSettings {
	/** Renames a worker holds planned ahead of Discord's answers (its backpressure window). */
	readonly maxInFlight: number;
	readonly retry: RetrySettings;
	/**
	 * Once Discord caps the guild's writes for every bot (a 429 with scope `shared`), the workers
	 * share the rate it takes instead of each asking at its own pace (docs/performance.md).
	 */
	readonly paceSharedLimit: boolean;
}

/** Passed to discord.js's REST client. */
export interface RestSettings {
	/** Abort a request that takes longer than this (discord.js `rest.timeout`). */
	readonly timeoutMs: number;
	/** Extra wait added to each rate-limit reset, for clock skew (discord.js `rest.offset`). */
	readonly offsetMs: number;
}

/** What is kept on disk, and for how long. */
export interface JournalSettings {
	/**
	 * A journal whose job has been fully restored is deleted this many days after the restore
	 * (checked at start and daily). It holds member ids and their old nicknames: personal data,
	 * kept no longer than it is useful. 0 deletes it at the next check.
	 */
	readonly deleteRestoredAfterDays: number;
	/**
	 * A standing rule's journal file is compacted (one line per member a restore can still use)
	 * once it is larger than this many KiB and than twice its size after its last compaction.
	 */
	readonly compactAboveKB: number;
}

export interface SafetySettings {
	/**
	 * Stop sending when this many 401/403/429 answers arrive within 10 minutes. Discord bans the
	 * IP for an hour at 10,000.
	 *
	 * @see https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans
	 */
	readonly invalidRequestBudget: number;
}

/**
 * The preview every changing command (`/massnick`, `/massrole`, `/restore`) shows its member
 * before anything runs: what will happen, to how many, and Start and Cancel buttons.
 */
export interface PreviewSettings {
	/**
	 * A preview nobody answers expires after this many seconds, and nothing runs. At most 840: the
	 * preview is edited (to say it expired) through the command's interaction token, which Discord
	 * keeps for 15 minutes.
	 *
	 * @see https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object
	 */
	readonly timeoutSeconds: number;
	/**
	 * A guild with fewer members than this runs a job at once, without a preview (the guild's member
	 * count decides). 0 shows a preview for every job.
	 */
	readonly skipBelowMembers: number;
}

/** What happens to jobs beyond running them. */
export interface JobSettings {
	/**
	 * `massnick start` resumes the job a restart interrupted (the process died, or was stopped
	 * under it) once the boss is ready, for the member who started it if they may still run it.
	 * `false`: it waits until someone runs the same command again.
	 */
	readonly resumeOnStart: boolean;
}

/** What the doctor's invite links ask for, beyond what every job needs. */
export interface InviteSettings {
	/**
	 * The commands whose permission the workers' invite links ask for besides Manage Nicknames
	 * (`["massrole", "masstimeout"]`: Manage Roles, Moderate Members). The workers need a
	 * command's permission only to run it, so each is the operator's choice; `npm run doctor` says
	 * which command needs which.
	 */
	readonly actions: readonly string[];
}

/** The non-secret settings, from `config/massnick.json`. */
export interface Settings {
	/** Template of the audit log reason; placeholders `{jobKind}`, `{user}`, `{userId}`, `{jobId}`. */
	readonly auditLogReason: string;
	/** How often the boss edits its status message while a job runs. */
	readonly statusRefreshSeconds: number;
	/**
	 * The least time between two edits of a standing rule's status message while it follows
	 * joins, and then only when its counts changed: a rule runs for months.
	 */
	readonly ruleStatusRefreshSeconds: number;
	readonly permissions: PermissionSettings;
	readonly nickname: NicknameSettings;
	readonly workers: WorkerSettings;
	readonly rest: RestSettings;
	readonly safety: SafetySettings;
	readonly journal: JournalSettings;
	readonly preview: PreviewSettings;
	readonly jobs: JobSettings;
	readonly invite: InviteSettings;
}

/**
 * The HTTP server `massnick start` answers health checks and Prometheus scrapes on: `/healthz`,
 * `/readyz` and `/metrics` (`MASSNICK_METRICS_PORT`, `MASSNICK_METRICS_HOST`).
 */
export interface MetricsSettings {
	/** The address it listens on: loopback (`127.0.0.1`) unless `MASSNICK_METRICS_HOST` says otherwise. */
	readonly host: string;
	readonly port: number;
}

/** One worker this process holds: its id among `workerCount`, and its bot's token (secret). */
export interface HeldWorker {
	readonly id: number;
	readonly token: string;
}

/** What comes from the environment (`.env` or the real environment). */
export interface EnvSettings {
	/** The boss bot's token (secret); `''` in a fleet process that runs no boss (see `heldWorkers`). */
	readonly bossToken: string;
	/**
	 * The worker tokens as `WORKER_TOKENS` lists them (secret): one per worker, in order, or only
	 * those of the workers this process holds. {@link heldWorkers} says which token each worker uses.
	 */
	readonly workerTokens: readonly string[];
	/**
	 * N, the number of workers the guild is split between: worker `i` owns the members with
	 * `(id >> 22) % N === i` (`WORKER_COUNT`; default: the number of `WORKER_TOKENS`).
	 */
	readonly workerCount: number;
	/**
	 * The workers this process holds, lowest id first, each with its token: `WORKER_IDS`, or
	 * `[JOB_COMPLETION_INDEX]` in a pod of a Kubernetes Indexed Job; by default every id below
	 * {@link workerCount}. Other processes hold the others.
	 */
	readonly heldWorkers: readonly HeldWorker[];
	/**
	 * A bot token used only to list members, over REST with no gateway connection (`LISTER_TOKEN`,
	 * typically the boss's, in fleet processes without a boss); `''` when unset (secret).
	 */
	readonly listerToken: string;
	/** The one guild massnick works on. */
	readonly guildId: string;
	/** discord.js's `rest.api`, e.g. `http://127.0.0.1:3000/api` for the sandbox; unset for Discord. */
	readonly apiUrl: string | undefined;
	readonly logLevel: LogLevel;
	readonly logFormat: LogFormat;
	/**
	 * Where journals live: `<dataDir>/<guildId>/<jobId>.jsonl`, or `<jobId>.w<id>.jsonl` per
	 * worker in a process that holds only some of the workers.
	 */
	readonly dataDir: string;
	/**
	 * Where a fleet's processes keep their data folders, read here and never written
	 * (`FLEET_JOURNALS_DIR`): `<dir>/<any folder>/<guildId>/<jobId>.w<id>.jsonl`, as the Kubernetes
	 * Job's journal volume lays them out. A boss whose workers run elsewhere finds the fleet's
	 * job there for /status and /stats; `undefined` when unset.
	 */
	readonly fleetJournalsDir: string | undefined;
	/** Where to serve health checks and metrics; `undefined` (no server) unless `MASSNICK_METRICS_PORT` is set. */
	readonly metrics: MetricsSettings | undefined;
}

/** Everything massnick is configured with: read once at start, validated, deeply frozen. */
export interface Config extends EnvSettings, Settings {}
