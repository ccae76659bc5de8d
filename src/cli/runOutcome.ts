import { formatCount, formatDuration } from '../present/index.js';
import { ErrorCodes, MassnickError } from '../errors.js';
import type { JobMode, JobResult, ProgressSnapshot } from '../jobs/index.js';
import { FleetStartError } from '../workers/Fleet.js';

/** `massnick run`'s exit codes: a scheduler branches on them. */
export const RunExitCodes = {
	/** Every member the job applies to is done (a dry run: counted). */
	Done: 0,
	/** Members failed or were left undone; the same command again finishes them. */
	NotDone: 1,
	BadArguments: 2,
	/** Cancelled by SIGINT or SIGTERM (or /cancel in Discord); what was done stays journaled. */
	Cancelled: 3,
	/**
	 * Refused before anything ran (configuration, a token, the guild, a role, a journal): nothing
	 * changed, and the same command is refused the same way until that is fixed.
	 */
	Refused: 4,
	/**
	 * Not started, for a reason that passes by itself: another run holds the lock (a killed run's
	 * lock is stale 60 s after its last touch), or Discord could not be reached. Nothing changed;
	 * the same command later runs.
	 */
	RetryLater: 5,
} as const;

export type RunExitCode = (typeof RunExitCodes)[keyof typeof RunExitCodes];

export interface RunOutcomeInput {
	/** The job for people: `Renaming to “🎃 {display_name}”`. */
	title: string;
	mode: JobMode;
	dryRun: boolean;
	result: JobResult;
	snapshot: ProgressSnapshot;
	/** The signal that cancelled it, if one did. */
	signal?: string | undefined;
	/** For a job limited to a file of user ids: which of them are members (`describeListedIds`). */
	listedIds?: string | undefined;
}

export interface RunOutcome {
	exitCode: RunExitCode;
	/** Members the job applies to that are not done: failed, or never reached. */
	undone: number;
	/** What happened, for people: the counts, then the verdict and what to do. */
	lines: string[];
}

/** How a finished `massnick run` went, and the exit code that says so. Pure. */
export function runOutcome({ title, mode, dryRun, result, snapshot, signal, listedIds }: RunOutcomeInput): RunOutcome {
	const undone = snapshot.failed + snapshot.remaining;
	const counts = [
		`${dryRun ? 'would change' : 'changed'} ${formatCount(snapshot.changed)}`,
		`already done ${formatCount(snapshot.alreadyDone)}`,
		`can't ${formatCount(snapshot.cant)}`,
		`left alone ${formatCount(snapshot.skipped)}`,
		`left the server ${formatCount(snapshot.left)}`,
		`failed ${formatCount(snapshot.failed)}`,
	].join(' · ');
	const head = `${dryRun ? 'Dry run · ' : ''}${title} · ${result.state} after ${formatDuration(snapshot.elapsedMs)} · ${formatCount(snapshot.total)} members`;
	const lines = [head, `  ${counts}`];
	if (listedIds) lines.push(`  ${listedIds}`);
	// A process holding only some of the workers lists the whole guild and leaves the rest alone.
	if (snapshot.elsewhere > 0) {
		lines.push(
			`  ${formatCount(snapshot.elsewhere)} ${snapshot.elsewhere === 1 ? 'member belongs' : 'members belong'} to workers in other processes: theirs to change, in no count here.`,
		);
	}
	if (snapshot.failed > 0) lines.push(`  failed by reason: ${failedByReason(snapshot.failedByReason)}`);
	if (result.stoppedWorkers.length > 0) {
		lines.push(`  stopped: ${result.stoppedWorkers.map((index) => `worker ${index}`).join(', ')} (token rejected by Discord): remove it from WORKER_TOKENS.`);
	}
	const again = mode === 'restore' ? 'Run the same command again to finish the restore' : 'Run the same command again to finish it';

	if (result.state === 'cancelled') {
		const left = snapshot.listingDone ? formatCount(undone) : `${formatCount(undone)} listed and the members not listed yet`;
		lines.push(
			dryRun
				? `Cancelled${signal ? ` by ${signal}` : ''}: nothing was sent.`
				: `Cancelled${signal ? ` by ${signal}` : ''}: ${left} not done. What was done stays journaled: ${again.toLowerCase()}, or run massnick run restore to undo it.`,
		);
		return { exitCode: RunExitCodes.Cancelled, undone, lines };
	}
	if (result.state === 'failed') {
		lines.push(
			`Failed: ${result.error?.message ?? 'the job stopped'}. ${dryRun ? 'Nothing was sent; run it again to count.' : `What was done stays journaled. ${again}.`}`,
		);
		return { exitCode: RunExitCodes.NotDone, undone, lines };
	}
	if (undone > 0 || result.stoppedWorkers.length > 0) {
		lines.push(`Not done: ${formatCount(undone)} ${undone === 1 ? 'member' : 'members'} left to do. ${again}: members already done are skipped.`);
		return { exitCode: RunExitCodes.NotDone, undone, lines };
	}
	if (dryRun) {
		lines.push(
			`Dry run: nothing was sent. Run it without --dry-run to make ${formatCount(snapshot.changed)} ${snapshot.changed === 1 ? 'change' : 'changes'}.`,
		);
	} else {
		const cant =
			snapshot.cant > 0
				? ` ${formatCount(snapshot.cant)} could not be changed (the owner, or members ranked at or above the workers' role: move the workers' role higher to reach them).`
				: '';
		const scope = snapshot.elsewhere > 0 ? "every member of this process's workers it applies to" : 'every member it applies to';
		lines.push(`Done: ${scope} is done.${cant}`);
	}
	return { exitCode: RunExitCodes.Done, undone, lines };
}

/**
 * The exit code of a run whose bots could not start: {@link RunExitCodes.RetryLater} when every
 * cause may pass by itself (a bot could not reach Discord: `CONNECT_FAILED`), else
 * {@link RunExitCodes.Refused} (a rejected token, an intent, a bot outside the guild, the
 * configuration: the next try fails the same way).
 */
export function startFailureExitCode(error: unknown): RunExitCode {
	const causes = causesOf(error);
	const passing = causes.every((cause) => cause instanceof MassnickError && cause.code === ErrorCodes.ConnectFailed);
	return causes.length > 0 && passing ? RunExitCodes.RetryLater : RunExitCodes.Refused;
}

/** The single failures behind a start failure: each worker's, each bot's. */
function causesOf(error: unknown): unknown[] {
	if (error instanceof FleetStartError) return error.failures.flatMap((failure) => causesOf(failure.error));
	if (error instanceof AggregateError) return (error.errors as unknown[]).flatMap(causesOf);
	return [error];
}

/** `timeout 12, http-502 3`: the commonest first. */
function failedByReason(byReason: Readonly<Record<string, number>>): string {
	return Object.entries(byReason)
		.sort((a, b) => b[1] - a[1])
		.map(([reason, count]) => `${reason} ${formatCount(count)}`)
		.join(', ');
}
