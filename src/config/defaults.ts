import type { EnvSettings, Settings } from './Config.js';
import { deepFreeze } from './deepFreeze.js';

/**
 * Every default, in one place. `config/massnick.json` repeats the settings so they are easy to
 * find and edit; a key left out of it takes its value from here.
 */
export const DEFAULT_SETTINGS: Settings = deepFreeze<Settings>({
	auditLogReason: 'massnick {jobKind} by {user} ({userId})',
	statusRefreshSeconds: 5,
	// A rule follows joins for months: an edit a minute at most, and none while nobody joins.
	ruleStatusRefreshSeconds: 60,
	permissions: {
		requireManageNicknames: true,
		allowedRoleIds: [],
		allowedUserIds: [],
	},
	nickname: {
		maxLength: 32,
		truncate: 'end',
	},
	workers: {
		maxInFlight: 10,
		retry: { attempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 },
		// Discord asks a client to slow down when told to; a refused request is a wasted round trip.
		paceSharedLimit: true,
	},
	rest: {
		timeoutMs: 15_000,
		// discord.js adds the offset to every reset twice, and reckons the reset from when the
		// answer arrived, so a request is already a round trip late without one. On real windows
		// 50 (its default) cost 1.2% of each token's rate, 0 costs 0.2%; neither earned a 429
		// (README: rest.offsetMs, Performance).
		offsetMs: 0,
	},
	safety: {
		invalidRequestBudget: 5_000,
	},
	journal: {
		deleteRestoredAfterDays: 30,
		// 8 MiB, about 80,000 members' lines: a standing rule's journal that small costs little disk
		// and reads in well under a second, so rewriting it is not worth the work.
		compactAboveKB: 8192,
	},
	preview: {
		timeoutSeconds: 60,
		// A test server of a handful of people runs at once; any real server is asked first.
		skipBelowMembers: 100,
	},
	jobs: {
		// A restart at 3 a.m. (a kernel update, an out-of-memory kill) goes on by itself.
		resumeOnStart: true,
	},
	invite: {
		// Manage Nicknames only, as every job needs; each command that needs more is chosen.
		actions: [],
	},
});

/** Defaults of the optional environment keys. */
export const DEFAULT_ENV: Pick<EnvSettings, 'apiUrl' | 'logLevel' | 'logFormat' | 'dataDir'> = Object.freeze({
	apiUrl: undefined,
	logLevel: 'info',
	logFormat: 'auto',
	dataDir: 'data',
});

/**
 * Where the health and metrics server listens unless `MASSNICK_METRICS_HOST` says otherwise:
 * loopback, so nothing off the machine reaches it until the operator opens it on purpose.
 */
export const DEFAULT_METRICS_HOST = '127.0.0.1';
