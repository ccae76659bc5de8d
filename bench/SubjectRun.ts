import { DEFAULT_SETTINGS } from '../src/config/index.js';
import type { SubjectKind } from './Subject.js';

/**
 * One measurement in a scenario: which subject runs, with how many tokens and which discord.js
 * REST offset. A default scenario runs each of its subjects once, with the scenario's tokens and
 * discord.js's default offset scaled; an opt-in study runs the same subject several times,
 * varying one of them (the offset at Discord's real windows, the tokens one process holds).
 */
export interface SubjectRun {
	/** Names the run in the report, the results and its log: the subject's kind when a scenario runs each subject once. */
	label: string;
	kind: SubjectKind;
	/** Tokens making changes: massnick's workers, 1 for the single-token loop. */
	tokens: number;
	/** discord.js's `rest.offset` the run is started with, in ms. */
	restOffsetMs: number;
	/**
	 * The nickname template a renaming massnick run sets (default `mn {id}`): runs against one
	 * sandbox each set their own, so none finds members already done by another.
	 */
	nickname?: string;
	/** massnick settings that differ from the repository's `config/massnick.json` for this run, as in that file. */
	settings?: Readonly<Record<string, unknown>>;
	/** More options of a renaming massnick run's `/massnick`, as typed: its member filters. */
	filters?: Readonly<Record<string, unknown>>;
	/**
	 * The label of an earlier run of the scenario whose CPU per 1,000 changes this run's is held
	 * against ({@link Targets.maxCpuRatio}): the same job with no filter, beside this one with every filter.
	 */
	cpuComparedWith?: string;
}

/** discord.js's own default `rest.offset`, in ms. */
const DISCORD_JS_OFFSET_MS = 50;

/**
 * discord.js's default REST offset, 50 ms, scaled down with the sandbox's windows as they are,
 * for every subject of a default scenario alike (at least 1 ms: 2 at time scale 20). massnick's
 * own default is 0 (`rest.offsetMs`, chosen by the `realtime` study), so the default scenarios
 * measure it a little conservatively: 4 ms of each 500-ms window at 20x.
 */
export function scaledRestOffsetMs(timeScale: number): number {
	return Math.max(1, Math.floor(DISCORD_JS_OFFSET_MS / timeScale));
}

/** massnick's own `rest.offsetMs`, scaled down with the sandbox's windows: what it runs with as configured. */
export function productRestOffsetMs(timeScale: number): number {
	return Math.round(DEFAULT_SETTINGS.rest.offsetMs / timeScale);
}
